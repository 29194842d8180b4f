//! A handler that asks ([`Call::confirm`](crate::Call::confirm), [`ToolResponse::asking`]),
//! served over MCP (feature `request-state`):
//!
//! - **Stateless (protocol revision 2026-07-28).** The call is answered with an input-required
//!   result (SEP-2322): the asks as `inputRequests`, and a `requestState` sealed with the
//!   server's keyring ([`FusionServer::state_keys`](super::FusionServer::state_keys)) that
//!   binds the answers to this tool and these arguments. The client calls again with
//!   `inputResponses` and the state; any replica holding the keyring opens it. A tampered,
//!   foreign (another tool, other arguments, a key not in the ring) or expired state is refused
//!   with -32602. Without a keyring the server does not ask.
//! - **Sessions (older revisions, stdio or HTTP sessions).** The server sends each ask to the
//!   client over the session (`elicitation/create`, `sampling/createMessage`) and calls the
//!   handler again with the answers, in the same `tools/call`.
//!
//! A client that declared neither `elicitation` nor `sampling` (or, stateless, an older client
//! with no channel back) is never asked: [`Call::confirm`](crate::Call::confirm) goes on.

use std::time::Duration;

use ::rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, InputRequiredResult, InputResponses,
    ProtocolVersion, RequestStateCodec, SealOptions, ServerRequest,
};
use ::rmcp::service::RequestContext;
use ::rmcp::{ErrorData, RoleServer};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};

use crate::response::ToolResponse;
use crate::tool::call::Asking;
use crate::tool::tool_set::ToolSet;

/// How long a sealed state opens: a person has this long to answer.
pub const STATE_TTL: Duration = Duration::from_mins(15);
/// How many times, in a session, one call asks before it gives up.
const SESSION_ROUNDS: usize = 4;

/// What a sealed state holds: the call the answers belong to.
#[derive(Debug, Serialize, Deserialize)]
struct State {
    /// The tool.
    t: String,
    /// Its arguments, as the first call sent them.
    a: Option<Map<String, Value>>,
}

/// Answers `tools/call` of the fusion tool `name` (known to `tools`), letting its handler ask.
pub(super) async fn call(
    tools: &ToolSet,
    keys: Option<&RequestStateCodec>,
    request: CallToolRequestParams,
    context: &RequestContext<RoleServer>,
    to_view: bool,
) -> Result<CallToolResponse, ErrorData> {
    // wire format §4.6: the UI blocks go to the view when the client renders the tool's app.
    let finish = |response: ToolResponse| -> CallToolResponse {
        let response = if to_view {
            response.ui_to_meta()
        } else {
            response
        };
        CallToolResult::from(response).into()
    };
    let capabilities = context.client_capabilities().unwrap_or_default();
    let stateless = context
        .meta
        .protocol_version()
        .is_some_and(|version| version.as_str() >= ProtocolVersion::V_2026_07_28.as_str());
    // A session is a channel back: rmcp knows the peer from its `initialize`.
    let channel = stateless && keys.is_some() || !stateless && context.peer.peer_info().is_some();
    let mut asking = Asking {
        elicitation: channel && capabilities.elicitation.is_some(),
        sampling: channel && capabilities.sampling.is_some(),
        answers: InputResponses::new(),
    };
    let name = request.name.to_string();
    let arguments = request.arguments;
    if stateless {
        if let (Some(keys), Some(sealed)) = (keys, request.request_state.as_deref()) {
            let state: State = keys.open_json(sealed).map_err(|error| refused(&error))?;
            if state.t != name || state.a != arguments {
                return Err(refused(&"it was sealed for another call"));
            }
            asking.answers = checked(request.input_responses)?;
        }
        // The arguments are kept only when the handler may ask (they go into the state).
        let may_ask = keys.is_some() && (asking.elicitation || asking.sampling);
        let kept = if may_ask { arguments.clone() } else { None };
        let response = tools
            .call_async_asking(&name, arguments.map(Value::Object), asking)
            .await;
        let arguments = kept;
        return match (response.asks(), keys) {
            (Some(asks), Some(keys)) => {
                let requests: Map<String, Value> = asks
                    .iter()
                    .map(|(key, ask)| (key.clone(), ask.to_request()))
                    .collect();
                let state = keys
                    .seal_json_with(
                        &State {
                            t: name,
                            a: arguments,
                        },
                        &SealOptions::new().ttl(STATE_TTL),
                    )
                    .map_err(|e| ErrorData::internal_error(e.to_string(), None))?;
                let result: InputRequiredResult = serde_json::from_value(json!({
                    "resultType": "input_required", "inputRequests": requests,
                    "requestState": state}))
                .map_err(|e| ErrorData::internal_error(e.to_string(), None))?;
                Ok(result.into())
            }
            _ => Ok(finish(response)),
        };
    }
    if !asking.elicitation && !asking.sampling {
        // Nothing can be asked: one call, the arguments moved into it.
        let response = tools
            .call_async_asking(&name, arguments.map(Value::Object), asking)
            .await;
        return Ok(finish(response));
    }
    for _ in 0..SESSION_ROUNDS {
        let response = tools
            .call_async_asking(&name, arguments.clone().map(Value::Object), asking.clone())
            .await;
        let Some(asks) = response.asks() else {
            return Ok(finish(response));
        };
        for (key, ask) in asks {
            let request: ServerRequest = serde_json::from_value(ask.to_request())
                .map_err(|e| ErrorData::internal_error(e.to_string(), None))?;
            let answer = context.peer.send_request(request).await.map_err(|error| {
                ErrorData::internal_error(format!("asking the client failed: {error}"), None)
            })?;
            asking.answers.insert(
                key.clone(),
                serde_json::to_value(answer).unwrap_or_default(),
            );
        }
    }
    Ok(
        CallToolResult::from(ToolResponse::from(crate::response::ToolError::new(
            "TOO_MANY_QUESTIONS",
            format!("{name} kept asking after {SESSION_ROUNDS} answers; nothing was done."),
        )))
        .into(),
    )
}

/// The answers, each an object (the client's result): anything else is -32602.
fn checked(responses: Option<InputResponses>) -> Result<InputResponses, ErrorData> {
    let responses = responses.unwrap_or_default();
    if let Some((key, _)) = responses.iter().find(|(_, answer)| !answer.is_object()) {
        return Err(ErrorData::invalid_params(
            format!("inputResponses.{key} must be an object: the client's result for that request"),
            None,
        ));
    }
    Ok(responses)
}

fn refused(why: &dyn std::fmt::Display) -> ErrorData {
    ErrorData::invalid_params(
        format!(
            "requestState refused: {why}; call the tool again without requestState and inputResponses"
        ),
        None,
    )
}
