//! The input guard of every transport: what fusion does with each message a client sends,
//! before rmcp sees it. The stdio guard ([`classify`], one line) and the HTTP service
//! ([`classify_body`], one POST body) use the same checks and give the same JSON-RPC answers;
//! only the transport's framing differs (HTTP adds a status: 400 for a body that is not a
//! JSON-RPC request, 200 for -32602, 202 for what is never answered).
//!
//! rmcp 3.11 mishandles several kinds of input: on stdio it drops lines that are not JSON
//! without an answer, answers malformed notifications, answers invalid requests without the
//! `id` member JSON-RPC requires, answers bad `params` of a known method with -32601, ends
//! the process on a notification or a response before `initialize`, and answers only one of
//! several in-flight requests sharing an id; over HTTP it answers a body that does not parse
//! with 415 and plain text. Rather than patch each case, every message passes through the
//! checks here, the way JSON-RPC 2.0 and MCP define them, and only messages rmcp parses as what
//! they are reach it (rmcp's own message type decides). On stdio the request id is replaced by
//! a unique internal one (see [`super::ids`]).
//!
//! The answers carry the caller's `id` whenever it can be read and is valid (a string or an
//! integer), `"id": null` otherwise. Valid JSON beyond the parser's limits (nested deeper than
//! 128 levels, a number beyond `f64`) is still read for its id ([`super::scan`]):
//!
//! | message | answer |
//! |---|---|
//! | not JSON: malformed, invalid UTF-8, an empty HTTP body | -32700 Parse error, `"id": null` |
//! | valid JSON beyond the parser's limits: nested deeper than 128 levels, a number beyond `f64`, a lone surrogate | -32700 Parse error, with the id |
//! | longer than the line limit, an array (batch), not an object, an `id` that is not a string or an integer, `jsonrpc` not `"2.0"`, `method` not a string, no `method`/`result`/`error` | -32600 Invalid Request |
//! | a known method whose `params` do not fit it (`tools/call` without `name`, `arguments` not an object) | -32602 Invalid params |
//! | a method the stateless revision removed (`initialize`, `logging/setLevel`, `resources/subscribe`, …) whose `_meta` names that revision, with `params` rmcp cannot read | -32601 Method not found |
//! | a notification, well-formed or not | none (forwarded once the session has begun, else dropped) |
//! | a response (the client answering the server) | none (forwarded once the session has begun, else dropped) |

use ::rmcp::model::{
    CallToolRequestParams, ClientJsonRpcMessage, ClientNotification, ClientRequest, GetMeta,
    JsonRpcRequest, NumberOrString, ProtocolVersion,
};
use serde::Deserialize;
use serde_json::{Map, Value, json};

use super::ids::InFlight;
use crate::encode::echo::cut;

/// JSON-RPC's code for a line that is not JSON.
pub(crate) const PARSE_ERROR: i64 = -32700;
/// JSON-RPC's code for JSON that is not a valid request.
pub(crate) const INVALID_REQUEST: i64 = -32600;
/// JSON-RPC's code for a method the server does not have.
pub(crate) const METHOD_NOT_FOUND: i64 = -32601;
/// JSON-RPC's code for params that do not fit the method.
pub(crate) const INVALID_PARAMS: i64 = -32602;

/// What to do with one line from the client.
#[derive(Debug)]
pub(super) enum Verdict {
    /// Hand these messages (the one read, its id made unique) to rmcp, typed: rmcp reads no
    /// text again.
    Forward(Vec<ClientJsonRpcMessage>),
    /// Send this JSON-RPC error answer to the client.
    Answer(String),
    /// Nothing: a notification or a response rmcp must not see, which JSON-RPC never answers.
    Ignore,
}

impl PartialEq for Verdict {
    /// The same verdict; forwarded messages compare as the JSON they are (rmcp's notification
    /// types have no equality of their own).
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (Verdict::Forward(a), Verdict::Forward(b)) => {
                a.len() == b.len()
                    && a.iter()
                        .zip(b)
                        .all(|(a, b)| serde_json::to_value(a).ok() == serde_json::to_value(b).ok())
            }
            (Verdict::Answer(a), Verdict::Answer(b)) => a == b,
            (Verdict::Ignore, Verdict::Ignore) => true,
            _ => false,
        }
    }
}

/// Whether rmcp's session has begun: before, rmcp accepts only requests and ends on anything
/// else, so notifications and responses are dropped.
#[derive(Debug)]
pub(super) struct Gate {
    begun: bool,
    supported: Vec<ProtocolVersion>,
}

impl Gate {
    /// A gate for a server that supports the protocol versions `supported`.
    pub(super) fn new(supported: Vec<ProtocolVersion>) -> Self {
        Gate {
            begun: false,
            supported,
        }
    }

    /// Notes a request forwarded to rmcp. rmcp reads its input in order, so whatever is
    /// forwarded after a request that begins its session reaches it inside the session.
    fn observe(&mut self, request: &ClientRequest) {
        if self.begun {
            return;
        }
        self.begun = match request {
            ClientRequest::InitializeRequest(_) => true,
            // Answered before the session, without beginning it.
            ClientRequest::PingRequest(_) | ClientRequest::DiscoverRequest(_) => false,
            // The stateless revision: a request with complete metadata begins the session, as
            // rmcp decides it before `initialize`.
            other => {
                let meta = other.get_meta();
                meta.missing_required_keys(&ProtocolVersion::V_2026_07_28)
                    .is_empty()
                    && meta
                        .protocol_version()
                        .is_some_and(|version| self.supported.contains(&version))
            }
        };
    }
}

/// The request methods MCP defines, which rmcp parses into typed requests: one of these that
/// rmcp could only parse as a custom request had `params` that do not fit.
const MCP_REQUESTS: [&str; 18] = [
    "initialize",
    "ping",
    "server/discover",
    "prompts/get",
    "prompts/list",
    "resources/list",
    "resources/read",
    "resources/subscribe",
    "resources/unsubscribe",
    "resources/templates/list",
    "subscriptions/listen",
    "tools/call",
    "tools/list",
    "completion/complete",
    "elicitation/create",
    "logging/setLevel",
    "roots/list",
    "sampling/createMessage",
];

/// The notification methods MCP defines: one of these that rmcp could only parse as a custom
/// notification is malformed, and dropped.
const MCP_NOTIFICATIONS: [&str; 4] = [
    "notifications/cancelled",
    "notifications/initialized",
    "notifications/progress",
    "notifications/roots/list_changed",
];

/// The longest part of a parser's message an answer repeats (it may quote the input).
const REASON_MAX_CHARS: usize = 200;

/// Sorts one line (without its line break) from the client.
pub(super) fn classify(line: &[u8], gate: &mut Gate, in_flight: &InFlight) -> Verdict {
    let message = match parse(line) {
        Ok(Some(message)) => message,
        Ok(None) => return Verdict::Ignore,
        Err(rejection) => return Verdict::Answer(rejection.to_json()),
    };
    match kind(&message) {
        Ok(Kind::Notification) => notification(message, gate, in_flight),
        Ok(Kind::Request) => match request(message) {
            Ok((message, request)) => forward_request(&message, request, gate, in_flight),
            Err(rejection) => Verdict::Answer(rejection.to_json()),
        },
        Ok(Kind::Response) => response(message, gate),
        Err(rejection) => Verdict::Answer(rejection.to_json()),
    }
}

/// What the HTTP transport does with one request body.
#[cfg(feature = "http")]
#[derive(Debug, PartialEq)]
pub(crate) enum BodyVerdict {
    /// Pass the body to rmcp: the original bytes (`None`) or these rewritten ones.
    Forward(Option<String>),
    /// Answer this JSON-RPC error.
    Answer(Rejection),
    /// A notification or a response rmcp must not see: accepted, never answered (202).
    Accept,
}

/// Sorts one HTTP request body the way [`classify`] sorts a stdio line: the same checks and
/// the same answers, without the stdio guard's id rewriting and session gate (rmcp's HTTP
/// service keeps each request apart and checks sessions itself).
#[cfg(feature = "http")]
pub(crate) fn classify_body(body: &[u8]) -> BodyVerdict {
    // The message a server sees most, a plain `tools/call`, read without building a `Value`
    // (`plain_call`: it forwards only what the long way forwards as it is).
    if super::plain_call::forwards_as_is(body) {
        return BodyVerdict::Forward(None);
    }
    sort_body(body)
}

/// [`classify_body`] the long way: the body parsed into a `Value`, then checked.
#[cfg(feature = "http")]
pub(super) fn sort_body(body: &[u8]) -> BodyVerdict {
    // rmcp reads no byte order mark: a body with one is passed on without it.
    let unmarked = body.strip_prefix(b"\xEF\xBB\xBF");
    let message = match parse(body) {
        Ok(Some(message)) => message,
        Ok(None) => {
            return BodyVerdict::Answer(Rejection::new(
                Value::Null,
                PARSE_ERROR,
                "Parse error: the body is empty; send one JSON-RPC message".to_owned(),
            ));
        }
        Err(rejection) => return BodyVerdict::Answer(rejection),
    };
    match kind(&message) {
        Ok(Kind::Notification) => {
            let well_formed = message.get("jsonrpc") == Some(&json!("2.0"))
                && forwardable_notification(Value::Object(message)).is_some();
            if well_formed {
                BodyVerdict::Forward(
                    unmarked.map(|rest| String::from_utf8_lossy(rest).into_owned()),
                )
            } else {
                BodyVerdict::Accept
            }
        }
        Ok(Kind::Request) => {
            let params_null = matches!(message.get("params"), Some(Value::Null));
            let mut message = message;
            match envelope(&mut message) {
                Ok((_, method)) if plain_tool_call(&method, &message) => {
                    return BodyVerdict::Forward(
                        unmarked.map(|_| Value::Object(message).to_string()),
                    );
                }
                Ok(_) => {}
                Err(rejection) => return BodyVerdict::Answer(rejection),
            }
            match request(message) {
                Ok((message, _)) if params_null || unmarked.is_some() => {
                    BodyVerdict::Forward(Some(Value::Object(message).to_string()))
                }
                Ok(_) => BodyVerdict::Forward(None),
                Err(rejection) => BodyVerdict::Answer(rejection),
            }
        }
        Ok(Kind::Response) => {
            let line = Value::Object(message).to_string();
            match typed_response(&line) {
                Some(_) => BodyVerdict::Forward(unmarked.map(|_| line)),
                None => BodyVerdict::Accept,
            }
        }
        Err(rejection) => BodyVerdict::Answer(rejection),
    }
}

/// A JSON-RPC error answer the guard gives itself.
#[derive(Debug, PartialEq)]
pub(crate) struct Rejection {
    /// The caller's id when it could be read and is valid, else `null`.
    pub(crate) id: Value,
    /// -32700, -32600 or -32602.
    pub(crate) code: i64,
    /// The error's `message`.
    pub(crate) message: String,
}

impl Rejection {
    fn new(id: Value, code: i64, message: String) -> Self {
        Rejection { id, code, message }
    }

    /// The answer, members in the order rmcp writes them.
    pub(crate) fn to_json(&self) -> String {
        let mut error = Map::new();
        error.insert("code".to_owned(), Value::from(self.code));
        error.insert("message".to_owned(), Value::from(self.message.as_str()));
        let mut answer = Map::new();
        answer.insert("jsonrpc".to_owned(), Value::from("2.0"));
        answer.insert("id".to_owned(), self.id.clone());
        answer.insert("error".to_owned(), Value::Object(error));
        Value::Object(answer).to_string()
    }
}

/// One message as JSON: `None` for a blank line; a parse error (with the id when the line is
/// valid JSON beyond the parser's limits) or an invalid request when it is not an object.
fn parse(line: &[u8]) -> Result<Option<Map<String, Value>>, Rejection> {
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    let line = line.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(line);
    if line.iter().all(u8::is_ascii_whitespace) {
        return Ok(None);
    }
    match serde_json::from_slice::<Value>(line) {
        Ok(Value::Object(message)) => Ok(Some(message)),
        Ok(Value::Array(_)) => Err(invalid_request(
            Value::Null,
            "batches are not supported: send one JSON-RPC message per line",
        )),
        Ok(_) => Err(invalid_request(
            Value::Null,
            "a JSON-RPC message is a JSON object",
        )),
        Err(error) => Err(Rejection::new(
            super::scan::readable_id(line).unwrap_or(Value::Null),
            PARSE_ERROR,
            format!("Parse error: {}", cut(&error.to_string(), REASON_MAX_CHARS)),
        )),
    }
}

/// The three kinds of JSON-RPC message.
enum Kind {
    Request,
    Notification,
    Response,
}

fn kind(message: &Map<String, Value>) -> Result<Kind, Rejection> {
    let has_id = message.contains_key("id");
    match message.get("method") {
        Some(Value::String(_)) if !has_id => Ok(Kind::Notification),
        Some(_) if !has_id => Err(invalid_request(Value::Null, "`method` must be a string")),
        Some(_) => Ok(Kind::Request),
        None if message.contains_key("result") || message.contains_key("error") => {
            Ok(Kind::Response)
        }
        None => Err(invalid_request(
            caller_id(message).unwrap_or(Value::Null),
            "a message has a `method` (a request or a notification) or a `result` or an `error` (a response)",
        )),
    }
}

/// The answer to a line longer than the guard reads (its id is unknown: it was not parsed).
pub(super) fn too_long(max_line_bytes: usize) -> Verdict {
    Verdict::Answer(
        invalid_request(
            Value::Null,
            &format!("the line is longer than {max_line_bytes} bytes"),
        )
        .to_json(),
    )
}

/// The message's `id` when it is a valid one: a string or an integer.
fn caller_id(message: &Map<String, Value>) -> Option<Value> {
    match message.get("id")? {
        id @ Value::String(_) => Some(id.clone()),
        Value::Number(n) if n.is_i64() => Some(Value::Number(n.clone())),
        _ => None,
    }
}

/// Checks a request the way JSON-RPC and MCP define it, and reads it with rmcp's own types:
/// the message (`"params": null` removed) and what rmcp reads it as.
fn request(
    mut message: Map<String, Value>,
) -> Result<(Map<String, Value>, JsonRpcRequest<ClientRequest>), Rejection> {
    let (caller, method) = envelope(&mut message)?;
    let value = Value::Object(message);
    let parsed = ClientJsonRpcMessage::deserialize(&value);
    let Value::Object(message) = value else {
        unreachable!("an object stays an object")
    };
    match parsed {
        Ok(ClientJsonRpcMessage::Request(parsed)) => {
            if let ClientRequest::CustomRequest(custom) = &parsed.request
                && MCP_REQUESTS.contains(&custom.method.as_str())
            {
                if removed_in_stateless(&method, message.get("params")) {
                    return Err(removed(caller, &method));
                }
                let reason = params_mismatch(&method, custom.params.as_ref());
                return Err(invalid_params(caller, &method, &reason));
            }
            Ok((message, parsed))
        }
        Ok(_) => Err(invalid_request(caller, "the message is not a request")),
        Err(_) if removed_in_stateless(&method, message.get("params")) => {
            Err(removed(caller, &method))
        }
        Err(error) if MCP_REQUESTS.contains(&method.as_str()) => {
            Err(invalid_params(caller, &method, &error.to_string()))
        }
        Err(error) => Err(invalid_request(caller, &error.to_string())),
    }
}

/// The JSON-RPC checks of a request (id, version, method, no result, params an object or
/// null, which is removed): the caller's id and the method.
fn envelope(message: &mut Map<String, Value>) -> Result<(Value, String), Rejection> {
    let Some(caller) = caller_id(message) else {
        return Err(invalid_request(
            Value::Null,
            "`id` must be a string or an integer",
        ));
    };
    if message.get("jsonrpc") != Some(&json!("2.0")) {
        return Err(invalid_request(caller, "`jsonrpc` must be \"2.0\""));
    }
    let Some(Value::String(method)) = message.get("method") else {
        return Err(invalid_request(caller, "`method` must be a string"));
    };
    let method = method.clone();
    if message.contains_key("result") || message.contains_key("error") {
        return Err(invalid_request(
            caller,
            "a request has no `result` and no `error`",
        ));
    }
    match message.get("params") {
        None | Some(Value::Object(_)) => {}
        // Some clients write `"params": null` for a method without params.
        Some(Value::Null) => {
            crate::tool::remove_in_order(message, "params");
        }
        Some(_) => {
            return Err(invalid_params(
                caller,
                &method,
                "`params` must be an object",
            ));
        }
    }
    Ok((caller, method))
}

/// Whether a `tools/call` plainly fits rmcp's type (a string `name`, `arguments` an object or
/// absent, no `_meta`, `inputResponses` or `requestState` to read): the HTTP path then skips
/// reading it with rmcp's types, which rmcp does itself. Anything else is read with them.
#[cfg(feature = "http")]
fn plain_tool_call(method: &str, message: &Map<String, Value>) -> bool {
    method == "tools/call"
        && message.get("params").is_some_and(|params| {
            params.get("name").is_some_and(Value::is_string)
                && params.get("arguments").is_none_or(Value::is_object)
                && ["_meta", "inputResponses", "requestState", "task"]
                    .iter()
                    .all(|key| params.get(key).is_none())
        })
}

/// A checked request to rmcp under a unique internal id (the stdio guard's way), typed.
fn forward_request(
    message: &Map<String, Value>,
    mut request: JsonRpcRequest<ClientRequest>,
    gate: &mut Gate,
    in_flight: &InFlight,
) -> Verdict {
    let caller = caller_id(message).unwrap_or(Value::Null);
    let internal = in_flight.reserve();
    request.id = NumberOrString::Number(internal);
    gate.observe(&request.request);
    in_flight.admit(internal, caller);
    Verdict::Forward(vec![ClientJsonRpcMessage::Request(request)])
}

/// The methods the stateless revision (2026-07-28) removed: a request of that revision for one
/// of them is rmcp's to answer (-32601 Method not found, HTTP 404), whatever its `params`.
const REMOVED_IN_STATELESS: [&str; 5] = [
    "initialize",
    "ping",
    "logging/setLevel",
    "resources/subscribe",
    "resources/unsubscribe",
];

/// Whether `method` is one the stateless revision removed and `params` declare that revision
/// (or a later one) in `_meta`.
fn removed_in_stateless(method: &str, params: Option<&Value>) -> bool {
    REMOVED_IN_STATELESS.contains(&method)
        && params
            .and_then(|params| params.get("_meta"))
            .and_then(|meta| meta.get("io.modelcontextprotocol/protocolVersion"))
            .and_then(Value::as_str)
            .is_some_and(|version| version >= ProtocolVersion::V_2026_07_28.as_str())
}

/// Why the `params` of the MCP request `method` do not fit it, as precisely as rmcp's types say.
fn params_mismatch(method: &str, params: Option<&Value>) -> String {
    let params = params.cloned().unwrap_or_else(|| Value::Object(Map::new()));
    let typed = match method {
        "tools/call" => serde_json::from_value::<CallToolRequestParams>(params).err(),
        _ => None,
    };
    typed.map_or_else(
        || "they do not fit the method".to_owned(),
        |error| error.to_string(),
    )
}

fn notification(message: Map<String, Value>, gate: &Gate, in_flight: &InFlight) -> Verdict {
    if !gate.begun || message.get("jsonrpc") != Some(&json!("2.0")) {
        return Verdict::Ignore;
    }
    if message.get("method") == Some(&json!("notifications/cancelled")) {
        return cancellation(&message, in_flight);
    }
    match forwardable_notification(Value::Object(message)) {
        Some(typed) => Verdict::Forward(vec![typed]),
        None => Verdict::Ignore,
    }
}

/// The notification as rmcp reads it, when it reads it as the one it names.
fn forwardable_notification(message: Value) -> Option<ClientJsonRpcMessage> {
    let typed = ClientJsonRpcMessage::deserialize(message).ok()?;
    match &typed {
        ClientJsonRpcMessage::Notification(parsed) => match &parsed.notification {
            ClientNotification::CustomNotification(custom)
                if MCP_NOTIFICATIONS.contains(&custom.method.as_str()) =>
            {
                None
            }
            _ => Some(typed),
        },
        _ => None,
    }
}

/// A cancellation names the caller's id: rmcp gets one per request in flight under that id.
fn cancellation(message: &Map<String, Value>, in_flight: &InFlight) -> Verdict {
    let Some(caller) = message
        .get("params")
        .and_then(|params| params.get("requestId"))
        .filter(|id| matches!(id, Value::String(_)) || id.is_i64())
    else {
        return Verdict::Ignore;
    };
    let messages: Vec<ClientJsonRpcMessage> = in_flight
        .cancel(caller)
        .into_iter()
        .filter_map(|internal| {
            let mut rewritten = message.clone();
            if let Some(Value::Object(params)) = rewritten.get_mut("params") {
                params.insert("requestId".to_owned(), Value::from(internal));
            }
            forwardable_notification(Value::Object(rewritten))
        })
        .collect();
    if messages.is_empty() {
        Verdict::Ignore
    } else {
        Verdict::Forward(messages)
    }
}

fn response(message: Map<String, Value>, gate: &Gate) -> Verdict {
    if !gate.begun {
        return Verdict::Ignore;
    }
    match ClientJsonRpcMessage::deserialize(Value::Object(message)) {
        Ok(typed @ (ClientJsonRpcMessage::Response(_) | ClientJsonRpcMessage::Error(_))) => {
            Verdict::Forward(vec![typed])
        }
        _ => Verdict::Ignore,
    }
}

/// The response as rmcp reads it, when it reads it as one.
#[cfg(feature = "http")]
fn typed_response(line: &str) -> Option<ClientJsonRpcMessage> {
    match serde_json::from_str::<ClientJsonRpcMessage>(line) {
        Ok(typed @ (ClientJsonRpcMessage::Response(_) | ClientJsonRpcMessage::Error(_))) => {
            Some(typed)
        }
        _ => None,
    }
}

/// The answer to a method the stateless revision removed, called in that revision.
fn removed(id: Value, method: &str) -> Rejection {
    Rejection::new(
        id,
        METHOD_NOT_FOUND,
        format!(
            "Method not found: {} is not part of protocol revision 2026-07-28",
            cut(method, REASON_MAX_CHARS)
        ),
    )
}

fn invalid_request(id: Value, reason: &str) -> Rejection {
    Rejection::new(
        id,
        INVALID_REQUEST,
        format!("Invalid Request: {}", cut(reason, REASON_MAX_CHARS)),
    )
}

fn invalid_params(id: Value, method: &str, reason: &str) -> Rejection {
    Rejection::new(
        id,
        INVALID_PARAMS,
        format!(
            "Invalid params for {}: {}",
            cut(method, REASON_MAX_CHARS),
            cut(reason, REASON_MAX_CHARS)
        ),
    )
}

#[cfg(test)]
#[path = "classify_tests.rs"]
mod tests;
