//! Routing and validating one call (wire format §13.3–§13.6, §13.8): from the arguments a client sent
//! to the arguments serde reads and the [`Call`] context, or to the error response that ends the
//! call.

use serde_json::{Map, Value};

use super::SELECT;
use super::call::Call;
use super::definition::ToolDefinition;
use super::problems::{Expected, JsonType, Problem, ProblemKind, describe_sent};
use super::validate::{MAX_PROBLEMS, Path, Walker};
use super::validation_error::ValidationError;
use crate::encode::echo::{ECHO_MAX_CHARS, cut};
use crate::model::Selection;
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
        let input = read_typed::<T>(arguments, &call.reference)?;
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
        let reference = self.reference(action);
        let Some(map) = arguments.as_object_mut() else {
            // Only flat tools get here: routing rejects a non-object for discriminated ones.
            let problem = Problem::new(
                "(root)",
                ProblemKind::WrongType {
                    sent: describe_sent(&arguments),
                    expected: Expected::Type(JsonType::Object),
                },
            );
            return Err(validation_failure(reference, vec![problem]));
        };
        let walker = Walker {
            shapes: &self.shapes,
        };
        let root = Path::default();
        let mut problems = Vec::new();
        walker.check_members(&action.root, map, &root, &mut problems);
        let selection = check_select(&action.select_names, map.get(SELECT), &mut problems);
        let mut also_valid: Vec<&str> = Vec::with_capacity(2);
        if let Some(discriminator) = &self.discriminator {
            also_valid.push(discriminator);
        }
        if !self.select_names.is_empty() {
            also_valid.push(SELECT);
        }
        walker.check_unknown(&action.root, map, &root, &also_valid, &mut problems);
        if !problems.is_empty() {
            return Err(validation_failure(reference, problems));
        }
        if !self.select_names.is_empty() {
            super::remove_in_order(map, SELECT);
        }
        let call = Call {
            tool: self.name.clone(),
            action: self.discriminator.is_some().then(|| action.key.clone()),
            reference,
            selection: selection.unwrap_or_default(),
            structured: action.structured,
            presents: action.presents.clone(),
            max_tokens: self.max_tokens,
            format: self.format,
            // A lean tool's data blocks are compact unless a format is chosen (wire format §6.12).
            default_format: self.lean.then_some(crate::response::Format::CompactJson),
            asking: std::sync::Arc::default(),
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

/// wire format §7.3: the selection checked against the names of the called action's models
/// (`names`), with its problems appended to `problems`. An action that presents no model ignores
/// `_select` (its names are empty): nothing would be selected.
fn check_select(
    names: &[String],
    sent: Option<&Value>,
    problems: &mut Vec<Problem>,
) -> Option<Selection> {
    if names.is_empty() {
        return None;
    }
    let items = match sent? {
        Value::Array(items) => items,
        other => {
            problems.push(Problem::new(
                SELECT,
                ProblemKind::WrongType {
                    sent: describe_sent(other),
                    expected: Expected::Type(JsonType::Array),
                },
            ));
            return None;
        }
    };
    let mut selected = Vec::with_capacity(items.len());
    for (index, item) in items.iter().enumerate() {
        if problems.len() > MAX_PROBLEMS {
            break;
        }
        let path = format!("{SELECT}.{index}");
        match item {
            Value::String(name) if names.contains(name) => selected.push(name.clone()),
            Value::String(_) => problems.push(Problem::new(
                path,
                ProblemKind::UnknownSelection {
                    sent: describe_sent(item),
                    names: names.to_vec(),
                },
            )),
            other => problems.push(Problem::new(
                path,
                ProblemKind::WrongType {
                    sent: describe_sent(other),
                    expected: Expected::Type(JsonType::String),
                },
            )),
        }
    }
    Some(Selection::new(selected))
}

fn validation_failure(reference: String, mut problems: Vec<Problem>) -> ToolResponse {
    if problems.len() > MAX_PROBLEMS {
        problems.truncate(MAX_PROBLEMS);
        problems.push(Problem::new(
            "(root)",
            ProblemKind::TooMany {
                listed: MAX_PROBLEMS,
            },
        ));
    }
    match ValidationError::new(reference, problems) {
        Some(error) => error.into_response(),
        // Callers only get here with at least one problem.
        None => ToolResponse::error_block(String::new(), true),
    }
}

/// Reads the typed input of the tool `T` from validated arguments and runs its checks
/// ([`Tool::check`](super::input::Tool::check)): every value they refuse is one problem of one
/// `<validation_error>`.
#[allow(
    clippy::result_large_err,
    reason = "the error is the response to send, moved once"
)]
pub(crate) fn read_tool<T: super::input::Tool>(
    arguments: Value,
    reference: &str,
) -> Result<T, ToolResponse> {
    if !T::CHECKS {
        return read_typed(arguments, reference);
    }
    let input = read_typed::<T>(arguments.clone(), reference)?;
    let mut checks = super::check::Checks::default();
    input.check(&mut checks);
    if checks.is_empty() {
        Ok(input)
    } else {
        Err(validation_failure(
            reference.to_owned(),
            checks.into_problems(&arguments),
        ))
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
        let input = read_tool::<T>(arguments, &call.reference)?;
        Ok((input, call))
    }
}

/// Reads the typed input from validated arguments; a value serde still refuses (a check of the
/// type's own, such as a `TryFrom` conversion) becomes a `<validation_error>` at `(root)`.
#[allow(
    clippy::result_large_err,
    reason = "the error is the response to send, moved once"
)]
pub(crate) fn read_typed<T: serde::de::DeserializeOwned>(
    arguments: Value,
    reference: &str,
) -> Result<T, ToolResponse> {
    let sent = describe_sent(&arguments);
    serde_json::from_value::<T>(arguments).map_err(|error| {
        // serde's message may quote the input (`invalid value: string "…"`): cut it like
        // echoed input, with room for serde's own words.
        let mut reason = cut(&error.to_string(), 2 * ECHO_MAX_CHARS).into_owned();
        if let Some(first) = reason.chars().next() {
            reason = first.to_uppercase().chain(reason.chars().skip(1)).collect();
        }
        if !reason.ends_with('.') {
            reason.push('.');
        }
        let problem = Problem::new("(root)", ProblemKind::Invalid { sent, reason });
        validation_failure(reference.to_owned(), vec![problem])
    })
}
