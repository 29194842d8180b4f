//! The server the official conformance suite (`@modelcontextprotocol/conformance`, server mode)
//! is run against: `scripts/conformance.sh`, results in `docs/conformance.md`.
//!
//! `conformance_server --http 127.0.0.1:PORT [--sessions]` (options as `billing_server`'s).
//!
//! The text tools are fusion tools in a [`ToolSet`] served by a [`FusionServer`]; the server
//! around it adds, in rmcp, what the scenarios ask of an "everything" server that fusion's text
//! responses do not carry: image, audio and embedded-resource content, log and progress
//! notifications, sampling, a tool with a hand-written JSON Schema 2020-12 input schema, and
//! the resources, prompts and completions of the scenarios. That is also the shape of a real
//! server that adopts fusion for some tools and keeps its own code for others.

#![allow(
    deprecated,
    reason = "logging and sampling are deprecated by SEP-2577 but still tested"
)]

mod input_required;

use std::collections::HashSet;
use std::process::ExitCode;
use std::sync::Mutex;
use std::time::Duration;

use fusion_examples::cli::{Transport, transport};
use fusion_runtime::http::serve_http_blocking;
use fusion_runtime::rmcp::{
    FusionServer, STATE_KEYS_VAR, state_keys as state_keys_from_str, state_keys_from_env,
};
use fusion_runtime::{ResponseBuilder, Tool, ToolError, ToolResponse, ToolSet};
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, CompleteRequestParams, CompleteResult,
    GetPromptRequestParams, GetPromptResponse, GetPromptResult, ListPromptsResult,
    ListResourceTemplatesResult, ListResourcesResult, ListToolsResult, PaginatedRequestParams,
    ReadResourceRequestParams, ReadResourceResponse, ReadResourceResult, ServerCapabilities,
    ServerConfig, SetLevelRequestParams, SubscribeRequestParams, SubscriptionFilter,
    UnsubscribeRequestParams,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler};
use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};

/// A 1×1 red PNG.
const PNG: &str = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==";
/// A WAV file of eight silent samples.
const WAV: &str =
    "UklGRjQAAABXQVZFZm10IBAAAAABAAEAQB8AAIA+AAACABAAZGF0YRAAAAAAAAAAAAAAAAAAAAAAAAAA";
/// The pause between notifications that the scenarios ask for.
const STEP: Duration = Duration::from_millis(50);

/// `test_simple_text`: a fusion tool without arguments.
#[derive(Debug, Deserialize, schemars::JsonSchema, Tool)]
#[serde(deny_unknown_fields)]
#[fusion(
    name = "test_simple_text",
    description = "Returns a simple text response",
    read_only
)]
struct SimpleText {}

/// `test_error_handling`: a fusion tool that always fails.
#[derive(Debug, Deserialize, schemars::JsonSchema, Tool)]
#[serde(deny_unknown_fields)]
#[fusion(
    name = "test_error_handling",
    description = "Always returns an error",
    read_only
)]
struct ErrorHandling {}

fn fusion_tools() -> Result<ToolSet, fusion_runtime::tool::DefinitionError> {
    ToolSet::new()
        .tool(|_: SimpleText, _: &fusion_runtime::Call| -> ToolResponse {
            ResponseBuilder::text("This is a simple text response for testing.").build()
        })?
        .tool(
            |_: ErrorHandling, _: &fusion_runtime::Call| -> Result<ToolResponse, ToolError> {
                Err(ToolError::new(
                    "TEST_ERROR",
                    "This tool intentionally returns an error for testing",
                ))
            },
        )
}

/// The tools written in rmcp here, as they are listed: these and the input-required ones.
fn native_tools() -> Value {
    let empty = json!({"type": "object", "properties": {}});
    let mut tools = other_tools();
    if let Some(list) = tools.as_array_mut() {
        list.extend(input_required::TOOLS.iter().map(|(name, description)| {
            json!({"name": name, "description": description, "inputSchema": &empty})
        }));
    }
    tools
}

/// The content, notification, sampling and schema tools.
fn other_tools() -> Value {
    let empty = json!({"type": "object", "properties": {}});
    let tool = |name: &str, description: &str, schema: &Value| json!({"name": name, "description": description, "inputSchema": schema});
    json!([
        tool("test_image_content", "Returns an image", &empty),
        tool("test_audio_content", "Returns audio", &empty),
        tool(
            "test_embedded_resource",
            "Returns an embedded resource",
            &empty
        ),
        tool(
            "test_multiple_content_types",
            "Returns text, an image and a resource",
            &empty
        ),
        tool("test_tool_with_logging", "Sends three log messages", &empty),
        tool(
            "test_tool_with_progress",
            "Reports progress three times",
            &empty
        ),
        tool("test_reconnection", "Answers after a pause", &empty),
        tool(
            "test_elicitation",
            "Asks the user (elicitation/create)",
            &json!({"type": "object", "properties": {"message": {"type": "string"}}, "required": ["message"]}),
        ),
        tool(
            "test_elicitation_sep1034_defaults",
            "Asks the user with default values",
            &empty
        ),
        tool(
            "test_elicitation_sep1330_enums",
            "Asks the user with every kind of enum",
            &empty
        ),
        tool(
            "test_sampling",
            "Asks the client's model",
            &json!({"type": "object", "properties": {"prompt": {"type": "string"}}, "required": ["prompt"]}),
        ),
        tool(
            "json_schema_2020_12_tool",
            "Tool with JSON Schema 2020-12 features",
            &json!({
                "$schema": "https://json-schema.org/draft/2020-12/schema",
                "type": "object",
                "$defs": {"address": {"$anchor": "addressDef", "type": "object", "properties": {
                    "street": {"type": "string"}, "city": {"type": "string"}}}},
                "properties": {"name": {"type": "string"}, "address": {"$ref": "#/$defs/address"},
                    "contactMethod": {"type": "string", "enum": ["phone", "email"]},
                    "phone": {"type": "string"}, "email": {"type": "string"}},
                "allOf": [{"anyOf": [{"required": ["phone"]}, {"required": ["email"]}]}],
                "if": {"properties": {"contactMethod": {"const": "phone"}}, "required": ["contactMethod"]},
                "then": {"required": ["phone"]},
                "else": {"required": ["email"]},
                "additionalProperties": false
            }),
        ),
    ])
}

/// The schema each elicitation tool asks with.
fn elicitation_schema(tool: &str) -> Value {
    let titled = |pairs: &[(&str, &str)]| -> Vec<Value> {
        pairs
            .iter()
            .map(|(value, title)| json!({"const": value, "title": title}))
            .collect()
    };
    match tool {
        "test_elicitation_sep1034_defaults" => json!({"type": "object", "properties": {
            "name": {"type": "string", "default": "John Doe"},
            "age": {"type": "integer", "default": 30},
            "score": {"type": "number", "default": 95.5},
            "status": {"type": "string", "enum": ["active", "inactive", "pending"], "default": "active"},
            "verified": {"type": "boolean", "default": true}}}),
        "test_elicitation_sep1330_enums" => json!({"type": "object", "properties": {
            "untitledSingle": {"type": "string", "enum": ["option1", "option2", "option3"]},
            "titledSingle": {"type": "string", "oneOf": titled(&[("value1", "First Option"),
                ("value2", "Second Option"), ("value3", "Third Option")])},
            "legacyEnum": {"type": "string", "enum": ["opt1", "opt2", "opt3"],
                "enumNames": ["Option One", "Option Two", "Option Three"]},
            "untitledMulti": {"type": "array", "items": {"type": "string",
                "enum": ["option1", "option2", "option3"]}},
            "titledMulti": {"type": "array", "items": {"anyOf": titled(&[("value1", "First Choice"),
                ("value2", "Second Choice"), ("value3", "Third Choice")])}}}}),
        _ => json!({"type": "object", "properties": {
            "username": {"type": "string", "description": "User's response"},
            "email": {"type": "string", "description": "User's email address"}},
            "required": ["username", "email"]}),
    }
}

/// Asks the session's client (`elicitation/create`, a request of the server's own) and
/// returns its answer. A client without the `elicitation` capability gets no request: the call
/// fails, saying so.
async fn elicit(
    context: &RequestContext<RoleServer>,
    message: &str,
    schema: Value,
) -> Result<Value, ErrorData> {
    let declared = context
        .client_capabilities()
        .is_some_and(|capabilities| capabilities.elicitation.is_some());
    if !declared {
        return Err(ErrorData::invalid_request(
            "this tool asks the user, and the client did not declare the elicitation capability",
            None,
        ));
    }
    let request: rmcp::model::ServerRequest = typed(json!({"method": "elicitation/create",
        "params": {"message": message, "requestedSchema": schema}}))?;
    let answer = context
        .peer
        .send_request(request)
        .await
        .map_err(|e| ErrorData::internal_error(format!("elicitation failed: {e}"), None))?;
    Ok(serde_json::to_value(answer).unwrap_or_default())
}

/// The conformance server: fusion's tools plus the rest of the scenarios' surface.
struct Conformance {
    fusion: FusionServer,
    native: ListToolsResult,
    subscriptions: Mutex<HashSet<String>>,
    input_required: input_required::InputRequired,
}

/// A typed rmcp value from the JSON the scenarios spell out.
fn typed<T: DeserializeOwned>(value: Value) -> Result<T, ErrorData> {
    serde_json::from_value(value).map_err(|e| ErrorData::internal_error(e.to_string(), None))
}

/// A typed rmcp result from JSON, marked complete: since 2026-07-28 every result carries
/// `resultType` (rmcp's constructors set it; JSON read into its types does not get it).
fn complete<T: DeserializeOwned>(mut value: Value) -> Result<T, ErrorData> {
    if let Some(object) = value.as_object_mut() {
        object.insert("resultType".to_owned(), json!("complete"));
    }
    typed(value)
}

fn not_found(what: &str, name: &str) -> ErrorData {
    ErrorData::invalid_params(format!("unknown {what} {name:?}"), None)
}

impl Conformance {
    #[allow(
        clippy::too_many_lines,
        reason = "one arm per tool of the scenarios, in the order the suite lists them"
    )]
    async fn native_call(
        &self,
        request: &CallToolRequestParams,
        context: &RequestContext<RoleServer>,
    ) -> Result<Option<CallToolResult>, ErrorData> {
        let text = |text: &str| json!({"type": "text", "text": text});
        let image = json!({"type": "image", "data": PNG, "mimeType": "image/png"});
        let blocks = match &*request.name {
            "test_image_content" => vec![image],
            "test_audio_content" => {
                vec![json!({"type": "audio", "data": WAV, "mimeType": "audio/wav"})]
            }
            "test_embedded_resource" => vec![json!({"type": "resource", "resource": {
                "uri": "test://embedded-resource", "mimeType": "text/plain",
                "text": "This is an embedded resource content."}})],
            "test_multiple_content_types" => vec![
                text("Multiple content types test:"),
                image,
                json!({"type": "resource", "resource": {"uri": "test://mixed-content-resource",
                    "mimeType": "application/json", "text": "{\"test\":\"data\",\"value\":123}"}}),
            ],
            "test_tool_with_logging" => {
                for (index, message) in [
                    "Tool execution started",
                    "Tool processing data",
                    "Tool execution completed",
                ]
                .into_iter()
                .enumerate()
                {
                    if index > 0 {
                        tokio::time::sleep(STEP).await;
                    }
                    let log =
                        typed(json!({"level": "info", "logger": "conformance", "data": message}))?;
                    // A client that went away is no reason to fail the call.
                    let _ = context.peer.notify_logging_message(log).await;
                }
                vec![text("Tool with logging executed successfully")]
            }
            "test_tool_with_progress" => {
                let token = context.meta.get_progress_token();
                for (index, progress) in [0, 50, 100].into_iter().enumerate() {
                    if index > 0 {
                        tokio::time::sleep(STEP).await;
                    }
                    if let Some(token) = &token {
                        let note = typed(
                            json!({"progressToken": token, "progress": progress, "total": 100}),
                        )?;
                        let _ = context.peer.notify_progress(note).await;
                    }
                }
                vec![text("Tool with progress executed successfully")]
            }
            "test_reconnection" => {
                tokio::time::sleep(STEP * 2).await;
                vec![text("Reconnection test completed successfully")]
            }
            "test_sampling" => {
                let prompt = request
                    .arguments
                    .as_ref()
                    .and_then(|a| a.get("prompt"))
                    .and_then(Value::as_str)
                    .unwrap_or_default();
                let params = typed(
                    json!({"messages": [{"role": "user", "content": {"type": "text", "text": prompt}}], "maxTokens": 100}),
                )?;
                let answer = context.peer.create_message(params).await.map_err(|e| {
                    ErrorData::internal_error(format!("sampling failed: {e}"), None)
                })?;
                let answer = serde_json::to_value(&answer.message.content).unwrap_or_default();
                let said = answer
                    .get("text")
                    .and_then(Value::as_str)
                    .map_or_else(|| answer.to_string(), str::to_owned);
                vec![text(&format!("LLM response: {said}"))]
            }
            "test_elicitation"
            | "test_elicitation_sep1034_defaults"
            | "test_elicitation_sep1330_enums" => {
                let message = request
                    .arguments
                    .as_ref()
                    .and_then(|a| a.get("message"))
                    .and_then(Value::as_str)
                    .unwrap_or("Please answer");
                let answer = elicit(context, message, elicitation_schema(&request.name)).await?;
                let action = answer
                    .get("action")
                    .and_then(Value::as_str)
                    .unwrap_or("cancel");
                let answered = answer.get("content").cloned().unwrap_or(Value::Null);
                let said = if request.name == "test_elicitation" {
                    format!("User response: action={action}, content={answered}")
                } else {
                    format!("Elicitation completed: action={action}, content={answered}")
                };
                vec![text(&said)]
            }
            "json_schema_2020_12_tool" => vec![text("json_schema_2020_12_tool called")],
            _ => return Ok(None),
        };
        complete(json!({"content": blocks})).map(Some)
    }
}

impl ServerHandler for Conformance {
    fn get_info(&self) -> ServerConfig {
        let capabilities: ServerCapabilities = typed(json!({
            "tools": {}, "resources": {"subscribe": true}, "prompts": {}, "logging": {}, "completions": {}
        }))
        .unwrap_or_default();
        let mut config = ServerConfig::new(capabilities);
        config.server_info = self.fusion.get_info().server_info;
        config
    }

    async fn list_tools(
        &self,
        request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        let mut listed = self.fusion.list_tools(request, context).await?;
        listed.tools.extend(self.native.tools.iter().cloned());
        Ok(listed)
    }

    fn get_tool(&self, name: &str) -> Option<rmcp::model::Tool> {
        self.fusion
            .get_tool(name)
            .or_else(|| self.native.tools.iter().find(|t| t.name == name).cloned())
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        if let Some(answer) = self.input_required.call(&request, &context) {
            return answer;
        }
        match self.native_call(&request, &context).await? {
            Some(result) => Ok(result.into()),
            None => self.fusion.call_tool(request, context).await,
        }
    }

    fn accepted_subscription_filter(
        &self,
        requested: &SubscriptionFilter,
    ) -> Option<SubscriptionFilter> {
        // Whatever was asked: rmcp keeps only what the capabilities advertise.
        Some(requested.clone())
    }

    async fn set_level(
        &self,
        _request: SetLevelRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        Ok(())
    }

    async fn complete(
        &self,
        _request: CompleteRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CompleteResult, ErrorData> {
        complete(
            json!({"completion": {"values": ["paris", "park", "party"], "total": 3, "hasMore": false}}),
        )
    }

    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        complete(json!({"resources": [
            {"uri": "test://static-text", "name": "static-text", "description": "A static text resource", "mimeType": "text/plain"},
            {"uri": "test://static-binary", "name": "static-binary", "description": "A static PNG", "mimeType": "image/png"},
            {"uri": "test://watched-resource", "name": "watched-resource", "description": "A resource to subscribe to", "mimeType": "text/plain"}
        ]}))
    }

    async fn list_resource_templates(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourceTemplatesResult, ErrorData> {
        complete(
            json!({"resourceTemplates": [{"uriTemplate": "test://template/{id}/data",
            "name": "template", "description": "Data for an id", "mimeType": "application/json"}]}),
        )
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        let uri = request.uri.as_str();
        let contents = match uri {
            "test://static-text" => json!({"uri": uri, "mimeType": "text/plain",
                "text": "This is the content of the static text resource."}),
            "test://static-binary" => json!({"uri": uri, "mimeType": "image/png", "blob": PNG}),
            "test://watched-resource" => {
                json!({"uri": uri, "mimeType": "text/plain", "text": "Watched."})
            }
            _ => {
                let id = uri
                    .strip_prefix("test://template/")
                    .and_then(|rest| rest.strip_suffix("/data"))
                    .ok_or_else(|| {
                        ErrorData::invalid_params(
                            format!("unknown resource {uri:?}"),
                            Some(json!({"uri": uri})),
                        )
                    })?;
                let text =
                    json!({"id": id, "templateTest": true, "data": format!("Data for ID: {id}")});
                json!({"uri": uri, "mimeType": "application/json", "text": text.to_string()})
            }
        };
        let result: ReadResourceResult = complete(json!({"contents": [contents]}))?;
        Ok(result.into())
    }

    async fn subscribe(
        &self,
        request: SubscribeRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        if let Ok(mut subscriptions) = self.subscriptions.lock() {
            subscriptions.insert(request.uri);
        }
        Ok(())
    }

    async fn unsubscribe(
        &self,
        request: UnsubscribeRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        if let Ok(mut subscriptions) = self.subscriptions.lock() {
            subscriptions.remove(&request.uri);
        }
        Ok(())
    }

    async fn list_prompts(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, ErrorData> {
        let argument = |name: &str| json!({"name": name, "description": format!("The {name}"), "required": true});
        complete(json!({"prompts": [
            {"name": "test_simple_prompt", "description": "A simple prompt"},
            {"name": "test_prompt_with_arguments", "description": "A prompt with arguments",
             "arguments": [argument("arg1"), argument("arg2")]},
            {"name": "test_prompt_with_embedded_resource", "description": "A prompt with a resource",
             "arguments": [argument("resourceUri")]},
            {"name": "test_prompt_with_image", "description": "A prompt with an image"},
            {"name": "test_input_required_result_prompt",
             "description": "A prompt that asks the user for its context first"}
        ]}))
    }

    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, ErrorData> {
        if let Some(answer) = input_required::InputRequired::prompt(&request) {
            return answer;
        }
        let argument = |name: &str| {
            request
                .arguments
                .as_ref()
                .and_then(|a| a.get(name))
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_owned()
        };
        let user = |content: Value| json!({"role": "user", "content": content});
        let text = |text: &str| user(json!({"type": "text", "text": text}));
        let messages = match request.name.as_str() {
            "test_simple_prompt" => vec![text("This is a simple prompt for testing.")],
            "test_prompt_with_arguments" => vec![text(&format!(
                "Prompt with arguments: arg1='{}', arg2='{}'",
                argument("arg1"),
                argument("arg2")
            ))],
            "test_prompt_with_embedded_resource" => vec![
                user(
                    json!({"type": "resource", "resource": {"uri": argument("resourceUri"),
                    "mimeType": "text/plain", "text": "Embedded resource content for testing."}}),
                ),
                text("Please process the embedded resource above."),
            ],
            "test_prompt_with_image" => vec![
                user(json!({"type": "image", "data": PNG, "mimeType": "image/png"})),
                text("Please analyze the image above."),
            ],
            other => return Err(not_found("prompt", other)),
        };
        let result: GetPromptResult = complete(json!({"messages": messages}))?;
        Ok(result.into())
    }
}

/// The keyring of `FUSION_STATE_KEYS` (shared by every replica), else one random key for
/// this process alone.
fn state_keys() -> Result<rmcp::model::RequestStateCodec, Box<dyn std::error::Error>> {
    if let Some(codec) = state_keys_from_env(STATE_KEYS_VAR)? {
        return Ok(codec);
    }
    let mut random = String::new();
    for _ in 0..4 {
        use std::fmt::Write as _;
        use std::hash::{BuildHasher, Hasher};
        let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
        hasher.write_u128(
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .unwrap_or_default()
                .as_nanos(),
        );
        let _ = write!(random, "{:016x}", hasher.finish());
    }
    Ok(state_keys_from_str(&format!("process={random}"))?)
}

fn main() -> ExitCode {
    fusion_examples::cli::quiet_on_closed_pipe();
    let run = || -> Result<(), Box<dyn std::error::Error>> {
        let transport = transport(std::env::args().skip(1))?;
        let server = Conformance {
            fusion: FusionServer::new("fusion-conformance", fusion_tools()?),
            native: typed(json!({"tools": native_tools()}))?,
            subscriptions: Mutex::new(HashSet::new()),
            input_required: input_required::InputRequired::new(state_keys()?),
        };
        match transport {
            Transport::Stdio => {
                Err("the conformance suite tests Streamable HTTP: add --http 127.0.0.1:PORT")?;
            }
            Transport::Http(config) => serve_http_blocking(server, *config)?,
        }
        Ok(())
    };
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("conformance_server: {error}");
            ExitCode::FAILURE
        }
    }
}
