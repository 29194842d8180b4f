//! The input-required scenarios of the 2026-07-28 revision (SEP-2322): tools and a prompt that
//! answer "I need this first" with an `InputRequiredResult`, and finish when the client calls
//! again with `inputResponses` (and the sealed `requestState`, opened with rmcp's
//! `RequestStateCodec`: a tampered, foreign or expired state is refused with -32602).

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, GetPromptRequestParams, GetPromptResponse,
    InputRequiredResult, InputResponses, RequestStateCodec, SealOptions,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use super::{complete, typed};

/// How long a sealed state opens.
const STATE_TTL: std::time::Duration = std::time::Duration::from_mins(10);

/// The tools of the scenarios, as they are listed.
pub const TOOLS: [(&str, &str); 11] = [
    (
        "test_input_required_result_elicitation",
        "Asks the user for their name, then greets them",
    ),
    (
        "test_input_required_result_sampling",
        "Asks the client's model a question",
    ),
    (
        "test_input_required_result_list_roots",
        "Asks the client for its roots",
    ),
    (
        "test_input_required_result_request_state",
        "Asks for a confirmation, with a sealed request state",
    ),
    (
        "test_input_required_result_multiple_inputs",
        "Asks for a name, a sampling and the roots at once",
    ),
    (
        "test_input_required_result_multi_round",
        "Asks twice, one question per round",
    ),
    (
        "test_input_required_result_tampered_state",
        "Asks for a confirmation; refuses a tampered request state",
    ),
    (
        "test_input_required_result_capabilities",
        "Asks only for what the client declared it can answer",
    ),
    (
        "test_missing_capability",
        "Needs the client's sampling capability",
    ),
    (
        "test_streaming_elicitation",
        "Asks the user mid-call: an input-required result, never a request on the stream",
    ),
    (
        "test_logging_tool",
        "Logs only when the request's _meta sets a logLevel",
    ),
];

/// What a sealed state holds: the tool it belongs to, the round, and what earlier rounds got.
#[derive(Debug, Serialize, Deserialize)]
struct State {
    tool: String,
    round: u32,
    #[serde(default)]
    name: Option<String>,
}

fn elicit(message: &str, property: &str, kind: &str) -> Value {
    json!({"method": "elicitation/create", "params": {"message": message, "requestedSchema": {
        "type": "object", "properties": {property: {"type": kind}}, "required": [property]}}})
}

fn sample(text: &str, max_tokens: u32) -> Value {
    json!({"method": "sampling/createMessage", "params": {"messages": [{"role": "user",
        "content": {"type": "text", "text": text}}], "maxTokens": max_tokens}})
}

fn roots() -> Value {
    json!({"method": "roots/list", "params": {}})
}

fn input_required(
    requests: &Value,
    state: Option<String>,
) -> Result<InputRequiredResult, ErrorData> {
    let mut result = json!({"resultType": "input_required", "inputRequests": requests});
    if let Some(state) = state {
        result["requestState"] = json!(state);
    }
    typed(result)
}

fn text_result(text: &str) -> Result<CallToolResponse, ErrorData> {
    let result: rmcp::model::CallToolResult =
        complete(json!({"content": [{"type": "text", "text": text}]}))?;
    Ok(result.into())
}

/// The answers a call brought, each checked to be an object (an elicitation, sampling or roots
/// result): anything else is -32602.
fn answers(responses: Option<&InputResponses>) -> Result<InputResponses, ErrorData> {
    let Some(responses) = responses else {
        return Ok(InputResponses::new());
    };
    for (key, response) in responses {
        if !response.is_object() {
            return Err(ErrorData::invalid_params(
                format!("inputResponses.{key} must be an object (the client's result)"),
                None,
            ));
        }
    }
    Ok(responses.clone())
}

/// The `content.<field>` of an accepted elicitation.
fn elicited(response: &Value, field: &str) -> Option<String> {
    (response.get("action").and_then(Value::as_str) == Some("accept"))
        .then(|| response.pointer(&format!("/content/{field}")))
        .flatten()
        .map(|value| {
            value
                .as_str()
                .map_or_else(|| value.to_string(), str::to_owned)
        })
}

fn sampled(response: &Value) -> String {
    response
        .pointer("/content/text")
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_owned()
}

/// The sealed states of this server.
pub struct InputRequired {
    codec: RequestStateCodec,
}

impl InputRequired {
    /// States sealed with `codec`.
    pub fn new(codec: RequestStateCodec) -> Self {
        InputRequired { codec }
    }

    fn seal(&self, state: &State) -> Result<String, ErrorData> {
        self.codec
            .seal_json_with(state, &SealOptions::new().ttl(STATE_TTL))
            .map_err(|e| ErrorData::internal_error(e.to_string(), None))
    }

    /// The state the client echoed, checked: sealed here, for this tool.
    fn open(&self, tool: &str, sealed: Option<&String>) -> Result<Option<State>, ErrorData> {
        let Some(sealed) = sealed else {
            return Ok(None);
        };
        let state: State = self.codec.open_json(sealed).map_err(|error| {
            ErrorData::invalid_params(
                format!("requestState refused: {error}; call the tool again without it"),
                None,
            )
        })?;
        if state.tool != tool {
            return Err(ErrorData::invalid_params(
                "requestState refused: it belongs to another request".to_owned(),
                None,
            ));
        }
        Ok(Some(state))
    }

    /// The answer to one of [`TOOLS`], or `None` for another tool.
    pub fn call(
        &self,
        request: &CallToolRequestParams,
        context: &RequestContext<RoleServer>,
    ) -> Option<Result<CallToolResponse, ErrorData>> {
        let tool = &*request.name;
        if !TOOLS.iter().any(|(name, _)| *name == tool) {
            return None;
        }
        Some(self.answer(tool, request, context))
    }

    #[allow(
        clippy::too_many_lines,
        reason = "one arm per tool of the scenarios, each as the suite describes it"
    )]
    fn answer(
        &self,
        tool: &str,
        request: &CallToolRequestParams,
        context: &RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let answers = answers(request.input_responses.as_ref())?;
        let state = self.open(tool, request.request_state.as_ref())?;
        let ask = |requests: Value, state: Option<String>| {
            input_required(&requests, state).map(CallToolResponse::from)
        };
        match tool {
            "test_input_required_result_elicitation" => match answers.get("user_name") {
                Some(answer) => match elicited(answer, "name") {
                    Some(name) => text_result(&format!("Hello, {name}!")),
                    None => text_result("Hello, stranger! (the name was declined)"),
                },
                None => ask(
                    json!({"user_name": elicit("What is your name?", "name", "string")}),
                    None,
                ),
            },
            "test_input_required_result_sampling" => match answers.get("capital_question") {
                Some(answer) => text_result(&format!("LLM response: {}", sampled(answer))),
                None => ask(
                    json!({"capital_question": sample("What is the capital of France?", 100)}),
                    None,
                ),
            },
            "test_input_required_result_list_roots" => match answers.get("client_roots") {
                Some(answer) => {
                    let uris: Vec<&str> = answer
                        .get("roots")
                        .and_then(Value::as_array)
                        .into_iter()
                        .flatten()
                        .filter_map(|root| root.get("uri").and_then(Value::as_str))
                        .collect();
                    text_result(&format!("Client roots: {}", uris.join(", ")))
                }
                None => ask(json!({"client_roots": roots()}), None),
            },
            "test_input_required_result_request_state"
            | "test_input_required_result_tampered_state" => {
                match (state, answers.get("confirm")) {
                    (Some(_), Some(answer)) => {
                        let ok = elicited(answer, "ok").unwrap_or_default();
                        text_result(&format!("state-ok: confirmed={ok}"))
                    }
                    _ => ask(
                        json!({"confirm": elicit("Please confirm", "ok", "boolean")}),
                        Some(self.seal(&State {
                            tool: tool.to_owned(),
                            round: 1,
                            name: None,
                        })?),
                    ),
                }
            }
            "test_input_required_result_multiple_inputs" => {
                let all = json!({
                    "user_name": elicit("What is your name?", "name", "string"),
                    "greeting": sample("Generate a greeting", 50),
                    "client_roots": roots(),
                });
                let missing: serde_json::Map<String, Value> = all
                    .as_object()
                    .into_iter()
                    .flatten()
                    .filter(|(key, _)| !answers.contains_key(*key))
                    .map(|(key, value)| (key.clone(), value.clone()))
                    .collect();
                if state.is_some() && missing.is_empty() {
                    let name = elicited(&answers["user_name"], "name").unwrap_or_default();
                    let greeting = sampled(&answers["greeting"]);
                    text_result(&format!("{greeting} {name}: all three inputs received"))
                } else {
                    let requests = if state.is_some() {
                        Value::Object(missing)
                    } else {
                        all
                    };
                    ask(
                        requests,
                        Some(self.seal(&State {
                            tool: tool.to_owned(),
                            round: 1,
                            name: None,
                        })?),
                    )
                }
            }
            "test_input_required_result_multi_round" => {
                let round = state.as_ref().map_or(0, |state| state.round);
                let step1 = answers.get("step1").and_then(|a| elicited(a, "name"));
                let step2 = answers.get("step2").and_then(|a| elicited(a, "color"));
                match (round, step1, step2) {
                    (1, Some(name), _) => ask(
                        json!({"step2": elicit("Step 2: What is your favorite color?", "color", "string")}),
                        Some(self.seal(&State {
                            tool: tool.to_owned(),
                            round: 2,
                            name: Some(name),
                        })?),
                    ),
                    (2, _, Some(color)) => {
                        let name = state.and_then(|state| state.name).unwrap_or_default();
                        text_result(&format!("{name} likes {color}"))
                    }
                    _ => ask(
                        json!({"step1": elicit("Step 1: What is your name?", "name", "string")}),
                        Some(self.seal(&State {
                            tool: tool.to_owned(),
                            round: 1,
                            name: None,
                        })?),
                    ),
                }
            }
            "test_input_required_result_capabilities" => {
                let capabilities = context.client_capabilities().unwrap_or_default();
                let mut requests = serde_json::Map::new();
                if capabilities.elicitation.is_some() {
                    requests.insert(
                        "user_name".to_owned(),
                        elicit("What is your name?", "name", "string"),
                    );
                }
                if capabilities.sampling.is_some() {
                    requests.insert("greeting".to_owned(), sample("Generate a greeting", 50));
                }
                if capabilities.roots.is_some() {
                    requests.insert("client_roots".to_owned(), roots());
                }
                if requests.is_empty() || !answers.is_empty() {
                    text_result("Asked only for what the client can answer")
                } else {
                    ask(Value::Object(requests), None)
                }
            }
            "test_streaming_elicitation" => match answers.get("user_name") {
                Some(answer) => text_result(&format!(
                    "Hello, {}!",
                    elicited(answer, "name").unwrap_or_default()
                )),
                None => ask(
                    json!({"user_name": elicit("What is your name?", "name", "string")}),
                    None,
                ),
            },
            // No `notifications/message` unless the request asked for a log level.
            "test_logging_tool" => text_result("Done; nothing was logged without a logLevel"),
            // test_missing_capability
            _ => {
                let capabilities = context.client_capabilities().unwrap_or_default();
                if capabilities.sampling.is_none() {
                    return Err(ErrorData::missing_required_client_capability(typed(
                        json!({"sampling": {}}),
                    )?));
                }
                text_result("The client declared sampling")
            }
        }
    }

    /// The answer to `prompts/get` for `test_input_required_result_prompt`, or `None`.
    pub fn prompt(
        request: &GetPromptRequestParams,
    ) -> Option<Result<GetPromptResponse, ErrorData>> {
        if request.name != "test_input_required_result_prompt" {
            return None;
        }
        Some((|| {
            let answers = answers(request.input_responses.as_ref())?;
            match answers.get("user_context").and_then(|a| elicited(a, "context")) {
                Some(context) => {
                    let result: rmcp::model::GetPromptResult = complete(json!({"messages": [
                        {"role": "user", "content": {"type": "text",
                         "text": format!("Answer with this context in mind: {context}")}}]}))?;
                    Ok(result.into())
                }
                None => input_required(
                    &json!({"user_context": elicit("What context should the prompt use?", "context", "string")}),
                    None,
                )
                .map(GetPromptResponse::from),
            }
        })())
    }
}
