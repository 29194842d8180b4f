//! [`FusionServer`]: a whole rmcp server for a [`ToolSet`] (`tools/list`, `tools/call`, and the
//! MCP Apps view where a tool renders with it).

#[cfg(feature = "request-state")]
use std::sync::Arc;

#[cfg(not(feature = "request-state"))]
use rmcp::model::CallToolResult;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, Implementation, ListResourcesResult, ListToolsResult,
    PaginatedRequestParams, ReadResourceRequestParams, ReadResourceResponse, ResourcesCapability,
    ServerCapabilities, ServerConfig,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler};

#[cfg(not(feature = "request-state"))]
use super::arguments_value;
#[cfg(feature = "request-state")]
use super::asking;
use super::{app, renders_apps};
use crate::tool::tool_set::ToolSet;
use crate::tool::{DefinitionError, ToolDefinition};

/// An rmcp server for a [`ToolSet`]: `tools/list` and `tools/call`, announcing `name`.
///
/// When a tool's responses can carry UI blocks ([`ToolDefinition::ui_app`]), the server also
/// serves the MCP Apps view of [`crate::mcp_app`] (`resources/list`, `resources/read`, the
/// resources capability) and names it in that tool's `_meta.ui.resourceUri`.
///
/// Calls are answered with [`ToolSet::call_async`], so asynchronous handlers are awaited on the
/// server's runtime.
pub struct FusionServer {
    tools: ToolSet,
    info: Implementation,
    instructions: Option<String>,
    listed: Vec<rmcp::model::Tool>,
    ui_app: bool,
    /// The keyring that seals input-required states (stateless revision).
    #[cfg(feature = "request-state")]
    state_keys: Option<Arc<rmcp::model::RequestStateCodec>>,
}

impl std::fmt::Debug for FusionServer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FusionServer")
            .field("name", &self.info.name)
            .field("tools", &self.tools)
            .finish_non_exhaustive()
    }
}

impl FusionServer {
    /// A server named `name` (the `serverInfo.name` clients show) serving `tools`, with or
    /// without shared state (each handler holds its own handle on it).
    pub fn new<S: Send + Sync + 'static>(name: impl Into<String>, tools: ToolSet<S>) -> Self {
        if let Err(error) = tools.check_suggestions() {
            eprintln!("fusion: {error}");
        }
        let tools = tools.into_stateless();
        let listed = tools.definitions().map(rmcp::model::Tool::from).collect();
        let ui_app = tools.definitions().any(ToolDefinition::ui_app);
        FusionServer {
            tools,
            info: Implementation::new(name, env!("CARGO_PKG_VERSION")),
            instructions: None,
            listed,
            ui_app,
            #[cfg(feature = "request-state")]
            state_keys: None,
        }
    }

    /// Seals the `requestState` of input-required results with `keys` (feature
    /// `request-state`): a handler that asks ([`Call::confirm`](crate::Call::confirm)) is then
    /// answered with an input-required result on the stateless revision, and its retry opens on
    /// any replica holding the same keys (read them with [`state_keys_from_env`](super::state_keys_from_env) or
    /// [`state_keys_from_file`](super::state_keys_from_file)). Without keys, a stateless call never asks; calls over a
    /// session ask over the session either way.
    #[cfg(feature = "request-state")]
    #[must_use]
    pub fn state_keys(mut self, keys: rmcp::model::RequestStateCodec) -> Self {
        self.state_keys = Some(Arc::new(keys));
        self
    }

    /// [`FusionServer::new`], refusing a tool set whose suggestion targets name a tool or an
    /// action it does not have ([`ToolSet::check_suggestions`]: a `DefinitionError` with a "did
    /// you mean"), where `new` only reports them on stderr.
    pub fn try_new<S: Send + Sync + 'static>(
        name: impl Into<String>,
        tools: ToolSet<S>,
    ) -> Result<Self, DefinitionError> {
        tools.check_suggestions()?;
        Ok(Self::new(name, tools))
    }

    /// Sets the version announced in `serverInfo` (default: fusion-runtime's version).
    #[must_use]
    pub fn version(mut self, version: impl Into<String>) -> Self {
        self.info.version = version.into();
        self
    }

    /// Sets the instructions sent to the client at initialization.
    #[must_use]
    pub fn instructions(mut self, instructions: impl Into<String>) -> Self {
        self.instructions = Some(instructions.into());
        self
    }

    /// The tools served.
    pub fn tools(&self) -> &ToolSet {
        &self.tools
    }
}

impl ServerHandler for FusionServer {
    fn get_info(&self) -> ServerConfig {
        let mut capabilities = ServerCapabilities::builder().enable_tools().build();
        if self.ui_app {
            capabilities.resources = Some(ResourcesCapability::default());
        }
        let mut config = ServerConfig::new(capabilities).with_server_info(self.info.clone());
        config.instructions.clone_from(&self.instructions);
        config
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        let cache = self.tools.cache();
        Ok(ListToolsResult::with_all_items(self.listed.clone())
            .with_ttl_ms(u64::try_from(cache.ttl.as_millis()).unwrap_or(u64::MAX))
            .with_cache_scope(if cache.shared {
                rmcp::model::CacheScope::Public
            } else {
                rmcp::model::CacheScope::Private
            }))
    }

    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        Ok(if self.ui_app {
            app::list()
        } else {
            ListResourcesResult::default()
        })
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        if !self.ui_app {
            return Err(ErrorData::resource_not_found(
                format!("no resource `{}`: this server has none", request.uri),
                None,
            ));
        }
        app::read(&request.uri).map(ReadResourceResponse::from)
    }

    fn get_tool(&self, name: &str) -> Option<rmcp::model::Tool> {
        self.listed.iter().find(|t| t.name == name).cloned()
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        // The answer's future is large (the handler's, the asking rounds' requests): boxed, it
        // is allocated once, where inline it made every future rmcp moves and spawns for the
        // request that much larger (about 70,000 instructions of copying per HTTP call).
        Box::pin(self.call(request, context)).await
    }
}

impl FusionServer {
    /// `tools/call`: the tool's answer, its UI blocks sent to the view when the client renders
    /// the tool's app.
    async fn call(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        // wire format §4.6: UI blocks go to the view when the client renders the tool's app.
        let to_view = self.ui_app
            && self
                .tools
                .get(&request.name)
                .is_some_and(ToolDefinition::ui_app)
            && renders_apps(&context);
        if !self.listed.iter().any(|tool| tool.name == request.name) {
            return Err(unknown_tool(&request.name, &self.listed));
        }
        self.answer_call(request, &context, to_view).await
    }

    /// A call of one of the server's tools; its handler may ask (module `asking`).
    #[cfg(feature = "request-state")]
    async fn answer_call(
        &self,
        request: CallToolRequestParams,
        context: &RequestContext<RoleServer>,
        to_view: bool,
    ) -> Result<CallToolResponse, ErrorData> {
        asking::call(
            &self.tools,
            self.state_keys.as_deref(),
            request,
            context,
            to_view,
        )
        .await
    }

    /// A call of one of the server's tools.
    #[cfg(not(feature = "request-state"))]
    async fn answer_call(
        &self,
        request: CallToolRequestParams,
        _context: &RequestContext<RoleServer>,
        to_view: bool,
    ) -> Result<CallToolResponse, ErrorData> {
        let name: std::borrow::Cow<'_, str> = request.name;
        let mut response = self
            .tools
            .call_async(&name, arguments_value(request.arguments))
            .await;
        if to_view {
            response = response.ui_to_meta();
        }
        Ok(CallToolResult::from(response).into())
    }
}

/// The protocol error for a `tools/call` of a tool the server does not have (wire format
/// §13.3: over MCP, -32602 as the specification lists it; the message carries the recovery
/// the `UNKNOWN_TOOL` envelope would, and `data` the tools there are).
fn unknown_tool(name: &str, listed: &[rmcp::model::Tool]) -> ErrorData {
    let shown = crate::encode::echo::cut(name, 200);
    ErrorData::invalid_params(
        format!(
            "Unknown tool \"{shown}\": check the available tools via tools/list and call a valid one."
        ),
        Some(serde_json::json!({
            "code": "UNKNOWN_TOOL",
            "tool": shown,
            "available": listed.iter().map(|tool| tool.name.as_ref()).collect::<Vec<_>>(),
        })),
    )
}
