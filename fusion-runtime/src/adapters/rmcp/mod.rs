//! The `rmcp` adapter (feature `rmcp`): fusion responses and tools in [`rmcp`] servers.
//!
//! Three ways in, from smallest to largest:
//!
//! - **Return fusion responses from rmcp `#[tool]` methods.** [`ToolResponse`], [`ToolError`]
//!   and [`ValidationError`] implement [`IntoCallToolResult`], so a method can return
//!   `ToolResponse` (or `Result<ToolResponse, ToolError>`) and the blocks, `structuredContent`
//!   and the three-state `isError` reach the client exactly as fusion built them. (rmcp marks
//!   every `Err(..)` of a `Result` as an error: return a warning as `Ok(error.into_response())`
//!   to keep its `isError: false`.)
//! - **Add one fusion tool to an existing `#[tool_router]` server** with [`route`] (or
//!   [`route_async`] for a handler that awaits): the other tools do not change.
//!
//!   ```ignore
//!   #[tool_router]
//!   impl Counter {
//!       #[tool(description = "Increment the counter")]
//!       fn increment(&self) -> String { /* unchanged */ }
//!   }
//!
//!   impl Counter {
//!       fn billing(&self, action: Billing, call: &Call) -> Result<ToolResponse, ToolError> { /* … */ }
//!
//!       fn router() -> ToolRouter<Self> {
//!           Self::tool_router().with_route(fusion_runtime::rmcp::route(Self::billing).unwrap())
//!       }
//!   }
//!   ```
//! - **Serve a whole [`ToolSet`](crate::ToolSet) over stdio** with [`serve_stdio`] (async) or
//!   [`serve_stdio_blocking`] (starts its own single-threaded runtime):
//!
//!   ```ignore
//!   fn main() -> Result<(), Box<dyn std::error::Error>> {
//!       let tools = ToolSet::new().tool(billing)?.tool(invoice_stats)?;
//!       fusion_runtime::rmcp::serve_stdio_blocking(FusionServer::new("billing", tools))
//!   }
//!   ```
//!
//! Handlers are synchronous or asynchronous. A synchronous one (`ToolSet::tool`, [`route`])
//! runs on the runtime's thread: keep it quick. An asynchronous one (`ToolSet::tool_async`,
//! [`route_async`]) may await I/O; its future runs on the runtime like any other task, and a
//! panic in it ends the call with `INTERNAL_ERROR`, as in a synchronous one.

mod app;

use std::future::Future;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;

use rmcp::handler::server::router::tool::{ToolRoute, ToolRouter};
use rmcp::handler::server::tool::{IntoCallToolResult, ToolCallContext};
use rmcp::model::{CallToolResponse, CallToolResult, ContentBlock, JsonObject, MetaObject};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer};
use serde_json::Value;

use crate::response::{IntoToolResponse, ToolError, ToolResponse};
use crate::tool::call::Call;
use crate::tool::input::Tool;
use crate::tool::tool_set::define;
use crate::tool::{DefinitionError, ToolDefinition, ValidationError, report_to_stderr};
use crate::tool::{Handler, ToolResult};

#[cfg(feature = "request-state")]
mod asking;
pub(crate) mod classify;
mod ids;
#[cfg(feature = "request-state")]
mod keyring;
#[cfg(feature = "http")]
mod plain_call;
mod scan;
mod server;
mod stdio;
#[cfg(feature = "request-state")]
pub use asking::STATE_TTL;
#[cfg(feature = "request-state")]
pub use keyring::{
    KeyringError, STATE_KEYS_VAR, state_keys, state_keys_from_env, state_keys_from_file,
};
pub use server::FusionServer;
pub use stdio::{MAX_LINE_BYTES, serve_io};

/// Adds fusion routes to an rmcp `ToolRouter` without replacing a tool it already has.
///
/// ```ignore
/// fn router() -> ToolRouter<Counter> {
///     Self::tool_router().fusion_route(route(Self::billing)?)? // refuses a second `billing`
/// }
/// ```
pub trait FusionRouter: Sized {
    /// The server type of the router.
    type Server;

    /// The router with `route` added, or a [`DefinitionError`] when a tool of that name is
    /// already routed (a leftover `#[tool]` method of the tool being converted, say).
    fn fusion_route(self, route: ToolRoute<Self::Server>) -> Result<Self, DefinitionError>;
}

impl<S: Send + Sync + 'static> FusionRouter for ToolRouter<S> {
    type Server = S;

    fn fusion_route(mut self, route: ToolRoute<S>) -> Result<Self, DefinitionError> {
        let name = route.name().to_owned();
        if self.has_route(&name) {
            return Err(DefinitionError::new(
                &name,
                "the router already has a tool of this name (a `#[tool]` method?); remove it, or give the fusion tool another name",
            ));
        }
        self.add_route(route);
        Ok(self)
    }
}

/// `route` with its `tools/list` entry naming the MCP Apps view (`_meta.ui.resourceUri`), for a
/// server that serves it with [`serve_ui_app!`](crate::serve_ui_app).
pub fn with_ui_app<S>(mut route: ToolRoute<S>) -> ToolRoute<S> {
    let mut meta = route.attr.meta.take().unwrap_or_default();
    meta.0.extend(app::tool_meta().0);
    route.attr.meta = Some(meta);
    route
}

/// What a handler answered, as rmcp's `CallToolResult`: for unit tests that call a handler (or
/// a `#[tool]` method) directly and compare with what rmcp sends.
///
/// ```
/// use fusion_runtime::rmcp::call_tool_result;
/// use fusion_runtime::ToolError;
///
/// let result = call_tool_result(Err::<String, _>(ToolError::not_found("No such invoice.")));
/// assert_eq!(result.is_error, Some(true));
/// let result = call_tool_result("done");
/// assert_eq!(result.content[0].as_text().unwrap().text, "done");
/// ```
pub fn call_tool_result(answer: impl IntoToolResponse) -> CallToolResult {
    let call = Call::new("tool", None, crate::Selection::default());
    CallToolResult::from(call.respond(&report_to_stderr, || answer))
}

/// The `resources/list` and `resources/read` methods of an rmcp `ServerHandler` that serve the
/// MCP Apps view of UI blocks ([`crate::mcp_app`]), for a `#[tool_router]` server whose fusion
/// tools name it ([`with_ui_app`]). One line inside the `impl ServerHandler`:
///
/// ```ignore
/// #[tool_handler(router = self.tool_router)]
/// impl ServerHandler for Counter {
///     fusion_runtime::serve_ui_app!();
/// }
/// ```
///
/// (A `get_info` of your own should also `.enable_resources()`; the one `#[tool_handler]` writes
/// announces tools only, and hosts read the view by its URI all the same.)
#[macro_export]
macro_rules! serve_ui_app {
    () => {
        fn list_resources(
            &self,
            _request: ::std::option::Option<$crate::rmcp::__private::PaginatedRequestParams>,
            _context: $crate::rmcp::__private::RequestContext<$crate::rmcp::__private::RoleServer>,
        ) -> impl ::std::future::Future<
            Output = ::std::result::Result<
                $crate::rmcp::__private::ListResourcesResult,
                $crate::rmcp::__private::ErrorData,
            >,
        > + ::std::marker::Send
        + '_ {
            ::std::future::ready(::std::result::Result::Ok($crate::rmcp::__private::list()))
        }

        fn read_resource(
            &self,
            request: $crate::rmcp::__private::ReadResourceRequestParams,
            _context: $crate::rmcp::__private::RequestContext<$crate::rmcp::__private::RoleServer>,
        ) -> impl ::std::future::Future<
            Output = ::std::result::Result<
                $crate::rmcp::__private::ReadResourceResponse,
                $crate::rmcp::__private::ErrorData,
            >,
        > + ::std::marker::Send
        + '_ {
            ::std::future::ready(
                $crate::rmcp::__private::read(&request.uri)
                    .map($crate::rmcp::__private::ReadResourceResponse::from),
            )
        }
    };
}

/// What [`serve_ui_app!`](crate::serve_ui_app) expands to names. Hidden, exempt from semver.
#[doc(hidden)]
pub mod __private {
    pub use super::app::{list, read};
    pub use rmcp::model::{
        ListResourcesResult, PaginatedRequestParams, ReadResourceRequestParams,
        ReadResourceResponse,
    };
    pub use rmcp::service::RequestContext;
    pub use rmcp::{ErrorData, RoleServer};
}

impl From<ToolResponse> for CallToolResult {
    /// The same result: text blocks in order, then the other content blocks, `structuredContent`,
    /// and `isError` absent, `true` or `false` as fusion set it.
    fn from(response: ToolResponse) -> Self {
        let ToolResponse {
            blocks,
            contents,
            structured_content,
            is_error,
            meta_ui,
            ..
        } = response;
        let mut content: Vec<ContentBlock> = blocks.into_iter().map(ContentBlock::text).collect();
        content.extend(contents.iter().filter_map(content_block));
        let mut result = CallToolResult::success(content);
        result.structured_content = structured_content;
        result.is_error = is_error;
        if !meta_ui.is_empty() {
            let mut meta = JsonObject::new();
            meta.insert(crate::mcp_app::UI_META_KEY.to_owned(), meta_ui.into());
            result.meta = Some(MetaObject(meta));
        }
        result
    }
}

/// rmcp's block for a fusion content block, read from the JSON fusion writes for it, so both
/// serialize the same. (rmcp reads every block fusion writes; one it could not would be left
/// out rather than fail the call.)
fn content_block(content: &crate::response::content::Content) -> Option<ContentBlock> {
    serde_json::to_value(content)
        .ok()
        .and_then(|value| serde_json::from_value(value).ok())
}

impl IntoCallToolResult for ToolResponse {
    fn into_call_tool_result(self) -> Result<CallToolResponse, ErrorData> {
        Ok(CallToolResult::from(self).into())
    }
}

impl IntoCallToolResult for ToolError {
    fn into_call_tool_result(self) -> Result<CallToolResponse, ErrorData> {
        self.into_response().into_call_tool_result()
    }
}

impl IntoCallToolResult for ValidationError {
    fn into_call_tool_result(self) -> Result<CallToolResponse, ErrorData> {
        self.into_response().into_call_tool_result()
    }
}

impl From<&ToolDefinition> for rmcp::model::Tool {
    /// The rmcp tool definition: name, title, description, `inputSchema`, `outputSchema`,
    /// annotations, and for a tool whose responses can carry UI blocks, the MCP Apps view in
    /// `_meta.ui` (what a [`FusionServer`] serves; [`route`] leaves it out).
    fn from(definition: &ToolDefinition) -> Self {
        rmcp_tool(definition, definition.ui_app())
    }
}

/// The rmcp tool definition, naming the MCP Apps view in `_meta.ui` when `ui_app`.
fn rmcp_tool(definition: &ToolDefinition, ui_app: bool) -> rmcp::model::Tool {
    {
        let mut tool = rmcp::model::Tool::new(
            definition.name().to_owned(),
            definition.description().to_owned(),
            Arc::new(definition.input_schema().clone()),
        );
        if let Some(output) = definition.output_schema() {
            tool = tool.with_raw_output_schema(Arc::new(output.clone()));
        }
        if let Some(annotations) = definition.annotations() {
            let flag = |name: &str| annotations.get(name).and_then(Value::as_bool);
            let title = annotations.get("title").and_then(Value::as_str);
            tool.title = title.map(str::to_owned);
            tool = tool.with_annotations(rmcp::model::ToolAnnotations::from_raw(
                title.map(str::to_owned),
                flag("readOnlyHint"),
                flag("destructiveHint"),
                flag("idempotentHint"),
                flag("openWorldHint"),
            ));
        }
        if ui_app {
            tool.meta = Some(app::tool_meta());
        }
        if let Some(size) = definition.result_size_meta() {
            // Beside the MCP Apps view's `ui`, if any (wire format §17.7).
            let mut meta = tool.meta.take().unwrap_or_default();
            meta.0.extend(size);
            tool.meta = Some(meta);
        }
        tool
    }
}

impl From<ToolDefinition> for rmcp::model::Tool {
    fn from(definition: ToolDefinition) -> Self {
        rmcp::model::Tool::from(&definition)
    }
}

/// Whether the client of this request renders MCP Apps (wire format §4.6): the capabilities in
/// the request's `_meta` (revision 2026-07-28), else those of its `initialize`.
fn renders_apps(context: &RequestContext<RoleServer>) -> bool {
    let declared = |capabilities: &rmcp::model::ClientCapabilities| {
        let extensions = capabilities.extensions.as_ref();
        crate::mcp_app::renders_apps(extensions.and_then(|e| e.get(crate::mcp_app::EXTENSION)))
    };
    match context.meta.client_capabilities() {
        Some(capabilities) => declared(&capabilities),
        None => context
            .peer
            .peer_info()
            .is_some_and(|info| declared(&info.capabilities)),
    }
}

fn arguments_value(arguments: Option<JsonObject>) -> Option<Value> {
    arguments.map(Value::Object)
}

/// An rmcp tool route for the fusion tool `T`, answered by `handler(&server, input, &call)`:
/// add it to an existing `ToolRouter` with `with_route` (or `+`), next to `#[tool]` methods.
///
/// The handler has the shapes of a [`ToolSet`](crate::ToolSet) handler whose shared state is the server
/// ([`Handler`](crate::tool::Handler)): a method `fn(&self, input: T, call: &Call)`, or a
/// stateless `Fn(T, &Call)`; one that returns [`Structured`](crate::Structured) gives the tool
/// its `outputSchema`. Routing, validation, presentation and `INTERNAL_ERROR` work as in a
/// [`ToolSet`](crate::ToolSet); handler failures are reported with [`report_to_stderr`].
///
/// The entry names no MCP Apps view (`_meta.ui`): a `#[tool_router]` server does not serve
/// `ui://fusion/blocks` unless it says so with [`serve_ui_app!`](crate::serve_ui_app), and then
/// [`with_ui_app`] names it. Add the route with [`FusionRouter::fusion_route`], which refuses
/// a name the router already has (rmcp's `with_route` replaces that tool without a word).
///
/// For a handler that awaits, see [`route_async`].
pub fn route<S, T, M, H>(handler: H) -> Result<ToolRoute<S>, DefinitionError>
where
    S: Send + Sync + 'static,
    T: Tool,
    H: Handler<T, S, M>,
    H::Output: ToolResult,
{
    let definition = Arc::new(define::<T>(H::Output::output_schema())?);
    let attr = rmcp_tool(&definition, false);
    let handler = Arc::new(handler);
    Ok(ToolRoute::new_dyn(
        attr,
        move |context: ToolCallContext<'_, S>| {
            let definition = definition.clone();
            let handler = handler.clone();
            let service = context.service;
            // wire format §4.6: UI blocks go to the view when the client renders the tool's app.
            let to_view = definition.ui_app() && renders_apps(&context.request_context);
            let arguments = arguments_value(context.arguments);
            #[cfg(feature = "tracing")]
            let span = crate::tool::trace::CallSpan::open(definition.name());
            #[cfg(feature = "tracing")]
            let entered = span.span().clone().entered();
            let mut response = match definition.parse_tool::<T>(arguments) {
                Err(response) => response,
                Ok((input, call)) => {
                    #[cfg(feature = "tracing")]
                    span.action(call.action());
                    call.respond(&report_to_stderr, || {
                        handler.handle(service, input, &call).into_answer()
                    })
                }
            };
            if to_view {
                response = response.ui_to_meta();
            }
            #[cfg(feature = "tracing")]
            {
                drop(entered);
                span.finish(&response);
            }
            Box::pin(async move { Ok(CallToolResult::from(response).into()) })
        },
    ))
}

/// An rmcp tool route for the fusion tool `T`, answered by the asynchronous
/// `handler(&server, input, call)`: the asynchronous [`route`].
///
/// The handler is called with the server borrowed and returns a `Send + 'static` future, so
/// take what the future needs from the server first (a clone of an `Arc`, or of the whole
/// server: `#[tool_router]` servers are usually `Clone`). An error, or a panic while the handler
/// runs or its future is polled, ends the call with `INTERNAL_ERROR`, reported with
/// [`report_to_stderr`].
///
/// ```ignore
/// impl Counter {
///     fn router() -> ToolRouter<Self> {
///         Self::tool_router().with_route(
///             fusion_runtime::rmcp::route_async(|server: &Self, action: Billing, call: Call| {
///                 let billing = server.billing.clone(); // an Arc
///                 async move { billing.answer(action, call).await }
///             })
///             .unwrap(),
///         )
///     }
/// }
/// ```
pub fn route_async<S, T, F, Fut>(handler: F) -> Result<ToolRoute<S>, DefinitionError>
where
    S: Send + Sync + 'static,
    T: Tool,
    F: Fn(&S, T, Call) -> Fut + Send + Sync + 'static,
    Fut: Future + Send + 'static,
    Fut::Output: IntoToolResponse,
{
    let definition = Arc::new(ToolDefinition::of::<T>()?);
    let attr = rmcp_tool(&definition, false);
    Ok(ToolRoute::new_dyn(
        attr,
        move |context: ToolCallContext<'_, S>| {
            let to_view = definition.ui_app() && renders_apps(&context.request_context);
            let (input, call) = match definition.parse_tool::<T>(arguments_value(context.arguments))
            {
                Ok(parts) => parts,
                Err(response) => {
                    return Box::pin(async move { Ok(CallToolResult::from(response).into()) });
                }
            };
            // The handler is called now (the input need not be `Send`); only its future, which
            // must be, travels in the returned one. A panic here is caught like one in the future.
            let handed = call.clone();
            let started =
                catch_unwind(AssertUnwindSafe(|| handler(context.service, input, handed)));
            Box::pin(async move {
                let mut response = call.drive(&report_to_stderr, started).await;
                if to_view {
                    response = response.ui_to_meta();
                }
                Ok(CallToolResult::from(response).into())
            })
        },
    ))
}

/// Why serving stopped with an error.
#[derive(Debug)]
pub struct ServeError(Box<dyn std::error::Error + Send + Sync>);

impl std::fmt::Display for ServeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "the MCP server stopped: {}", self.0)
    }
}

impl std::error::Error for ServeError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&*self.0)
    }
}

/// Serves `server` over stdio until the input ends (needs a Tokio runtime).
///
/// Input never stops the server: lines pass through fusion's stdio guard (see [`serve_io`]),
/// which answers what does not parse, invalid requests and invalid params with JSON-RPC
/// errors, drops notifications and responses rmcp must not see, and keeps requests that share
/// an id apart. At the end of the input, the requests in flight are answered first.
pub async fn serve_stdio(server: FusionServer) -> Result<(), ServeError> {
    let (stdin, stdout) = rmcp::transport::stdio();
    // Boxed: the guard and rmcp's service together are a large future.
    Box::pin(serve_io(server, stdin, stdout, MAX_LINE_BYTES)).await
}

/// Serves `server` over stdio on a single-threaded Tokio runtime of its own, until the client
/// disconnects: a `main` needs no async code and no Tokio dependency.
pub fn serve_stdio_blocking(server: FusionServer) -> Result<(), ServeError> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| ServeError(Box::new(e)))?;
    runtime.block_on(serve_stdio(server))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::response::ResponseBuilder;

    fn wire(result: &CallToolResult) -> String {
        let mut value = serde_json::to_value(result).unwrap_or_default();
        // rmcp adds the protocol's `resultType`, which fusion does not set.
        if let Some(map) = value.as_object_mut() {
            map.shift_remove("resultType");
        }
        value.to_string()
    }

    #[test]
    fn call_tool_results_keep_the_three_is_error_states() {
        let ok = CallToolResult::from(ResponseBuilder::text("hello world").build());
        assert_eq!(
            wire(&ok),
            r#"{"content":[{"type":"text","text":"hello world"}]}"#
        );
        let warning = ToolError::warning("ALREADY_PAID", "Invoice INV-0001 is already paid.");
        let warning = CallToolResult::from(warning.into_response());
        assert_eq!(
            wire(&warning),
            r#"{"content":[{"type":"text","text":"<tool_error code=\"ALREADY_PAID\" severity=\"warning\">\n<message>Invoice INV-0001 is already paid.</message>\n</tool_error>"}],"isError":false}"#
        );
        let error = CallToolResult::from(ToolError::unknown_tool("nope").into_response());
        assert_eq!(error.is_error, Some(true));
    }

    #[test]
    fn structured_content_and_every_block_in_order() {
        let response = ResponseBuilder::structured(&serde_json::json!({"count": 3}))
            .map_or_else(|_| ResponseBuilder::text(""), |b| b.rule("r"))
            .build();
        let result = CallToolResult::from(response);
        assert_eq!(
            wire(&result),
            r#"{"content":[{"type":"text","text":"{\n  \"count\": 3\n}"},{"type":"text","text":"<domain_rules>\n- r\n</domain_rules>"}],"structuredContent":{"count":3}}"#
        );
    }

    #[test]
    fn content_beyond_text_reaches_rmcp_as_fusion_writes_it() {
        use crate::response::content::{Content, EmbeddedResource, ResourceLink};
        let response = ResponseBuilder::text("see the chart")
            .build()
            .with_content(Content::image(b"\x89PNG", "image/png"))
            .with_content(Content::audio_base64("UklGRg==", "audio/wav"))
            .with_content(
                ResourceLink::new("file:///r.pdf", "r.pdf")
                    .title("Report")
                    .description("The report")
                    .mime_type("application/pdf")
                    .size(7),
            )
            .with_content(
                EmbeddedResource::text("billing://rules", "cents").mime_type("text/plain"),
            )
            .with_content(EmbeddedResource::blob("billing://logo", b"\x00\x01"));
        let fusion = response.to_json();
        let result = CallToolResult::from(response);
        assert_eq!(result.content.len(), 6);
        assert_eq!(wire(&result), fusion);
        assert_eq!(
            fusion,
            r#"{"content":[{"type":"text","text":"see the chart"},{"type":"image","data":"iVBORw==","mimeType":"image/png"},{"type":"audio","data":"UklGRg==","mimeType":"audio/wav"},{"type":"resource_link","uri":"file:///r.pdf","name":"r.pdf","title":"Report","description":"The report","mimeType":"application/pdf","size":7},{"type":"resource","resource":{"uri":"billing://rules","mimeType":"text/plain","text":"cents"}},{"type":"resource","resource":{"uri":"billing://logo","blob":"AAE="}}]}"#
        );
    }

    #[test]
    fn tool_errors_are_call_tool_results() {
        let Ok(CallToolResponse::Complete(result)) =
            ToolError::not_found("gone").into_call_tool_result()
        else {
            panic!("a tool error is a complete result");
        };
        assert_eq!(result.is_error, Some(true));
        assert_eq!(result.content.len(), 1);
    }

    #[test]
    fn a_route_whose_handler_returns_structured_has_its_output_schema() {
        #[derive(serde::Deserialize, schemars::JsonSchema)]
        struct Count {}

        impl Tool for Count {
            fn spec() -> crate::tool::ToolSpec {
                crate::tool::ToolSpec::new("count")
            }
        }

        #[derive(serde::Serialize, schemars::JsonSchema)]
        struct Counted {
            n: u32,
        }

        struct Server {
            n: u32,
        }

        impl Server {
            fn count(&self, _: Count, _: &Call) -> crate::Structured<Counted> {
                crate::Structured(Counted { n: self.n })
            }
        }

        let structured = route(Server::count).expect("defined");
        let schema = structured.attr.output_schema.expect("an output schema");
        assert_eq!(schema["properties"]["n"]["type"], "integer");
        let plain = route::<Server, _, _, _>(|_: Count, _: &Call| "ok").expect("defined");
        assert!(plain.attr.output_schema.is_none());
    }
}
