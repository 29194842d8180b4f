//! Routing and validating one call (wire format §13.3–§13.6, §13.8): from the arguments a client sent
//! to the arguments serde reads and the [`Call`] context, or to the error response that ends the
//! call.

use std::sync::Arc;

use serde_json::{Map, Value};

use super::SELECT;
use super::args::{self, ActionArguments, Expected, JsonType, Problem, ProblemKind, describe_sent};
use super::args::{read_tool, read_typed};
use super::call::Call;
use super::definition::ToolDefinition;
use crate::response::{ToolError, ToolResponse};

impl ToolDefinition {
    /// [`ToolDefinition::parse`], then the typed input read from the arguments: what a custom
    /// dispatch (an adapter) hands its handler. A value serde still refuses (a check of the
    /// type's own, such as a `TryFrom` conversion) becomes a `<validation_error>` at `(root)`.
    #[allow(
        clippy::result_large_err,
        reason = "the error is the response to send, moved once"
    )]
    pub fn parse_typed<T: serde::de::DeserializeOwned>(
        &self,
        arguments: Option<Value>,
    ) -> Result<(T, Call), ToolResponse> {
        let (arguments, call) = self.parse(arguments)?;
        let input = read_typed::<T>(&arguments, &call.reference)?;
        Ok((input, call))
    }

    /// Routes and validates a call's arguments (wire format §13.8 steps 2–3): the arguments serde will
    /// read (without `_select`; the discriminator kept, as serde's tagged enums need it) and the
    /// call context (the action, the checked `_select`); or the error response to send.
    ///
    /// Absent arguments count as an empty object.
    #[allow(
        clippy::result_large_err,
        reason = "the error is the response to send, moved once"
    )]
    pub fn parse(&self, arguments: Option<Value>) -> Result<(Value, Call), ToolResponse> {
        let mut arguments = arguments.unwrap_or_else(|| Value::Object(Map::new()));
        let index = self.route(&arguments)?;
        // `route` returns an index into `actions`, and a definition always has an action.
        let Some(action) = self.actions.get(index) else {
            return Err(ToolError::internal(&self.name).into_response());
        };
        let reference = || action.names.reference.to_string();
        let Some(map) = arguments.as_object_mut() else {
            // Only flat tools get here: routing rejects a non-object for discriminated ones.
            let problem = Problem::new(
                "(root)",
                ProblemKind::WrongType {
                    sent: describe_sent(&arguments),
                    expected: Expected::Type(JsonType::Object),
                },
            );
            return Err(args::failure(reference(), vec![problem]));
        };
        let mut also_valid: [&str; 2] = [""; 2];
        let mut handled = 0;
        if let Some(discriminator) = &self.discriminator {
            also_valid[handled] = discriminator;
            handled += 1;
        }
        if !self.select_names.is_empty() {
            also_valid[handled] = SELECT;
            handled += 1;
        }
        let checked = ActionArguments {
            shapes: &self.shapes,
            root: &action.root,
            select_names: &action.select_names,
            also_valid: &also_valid[..handled],
        }
        .check(map);
        let selection = match checked {
            Ok(selection) => selection,
            Err(problems) => return Err(args::failure(reference(), problems)),
        };
        if !self.select_names.is_empty() {
            super::remove_in_order(map, SELECT);
        }
        let call = Call {
            tool: Arc::clone(&action.names.tool),
            action: action.names.action.clone(),
            reference: Arc::clone(&action.names.reference),
            selection: selection.unwrap_or_default(),
            structured: action.structured,
            presents: action.presents.clone(),
            max_tokens: self.max_tokens,
            #[cfg(feature = "exact-tokens")]
            exact_tokens: false,
            format: self.format,
            // A lean tool's data blocks are compact unless a format is chosen (wire format §6.12).
            default_format: self.lean.then_some(crate::response::Format::CompactJson),
            asking: Arc::default(),
            said: self.lean.then(|| self.static_rules.clone()),
        };
        Ok((arguments, call))
    }

    /// wire format §13.3: the action a call names, or the routing error.
    #[allow(
        clippy::result_large_err,
        reason = "the error is the response to send, moved once"
    )]
    fn route(&self, arguments: &Value) -> Result<usize, ToolResponse> {
        let Some(discriminator) = &self.discriminator else {
            return Ok(0);
        };
        let sent = match arguments {
            Value::Object(map) => map.get(discriminator.as_str()),
            _ => None,
        };
        let key = match sent {
            None | Some(Value::Null) => None,
            Some(Value::String(key)) if key.is_empty() => None,
            Some(Value::String(key)) => Some(key),
            Some(other) => {
                let json_type = match other {
                    Value::Number(_) => "number",
                    Value::Bool(_) => "boolean",
                    Value::Array(_) => "array",
                    _ => "object",
                };
                return Err(ToolError::invalid_discriminator(
                    discriminator,
                    json_type,
                    self.keys(),
                )
                .into_response());
            }
        };
        let Some(key) = key else {
            return Err(
                ToolError::missing_discriminator(discriminator, self.keys()).into_response()
            );
        };
        self.actions
            .iter()
            .position(|a| &a.key == key)
            .ok_or_else(|| {
                ToolError::unknown_action(discriminator, key, self.keys()).into_response()
            })
    }
}

impl ToolDefinition {
    /// [`ToolDefinition::parse_typed`] for a [`Tool`](crate::Tool): its checks run too.
    #[allow(
        clippy::result_large_err,
        reason = "the error is the response to send, moved once"
    )]
    pub fn parse_tool<T: super::input::Tool>(
        &self,
        arguments: Option<Value>,
    ) -> Result<(T, Call), ToolResponse> {
        let (arguments, call) = self.parse(arguments)?;
        let input = read_tool::<T>(&arguments, &call.reference)?;
        Ok((input, call))
    }
}
