//! The typed input read from walked arguments (serde), then the tool's own checks
//! ([`Tool::check`](crate::Tool::check)).

use serde_json::Value;

use super::check::Checks;
use super::problems::{Problem, ProblemKind, describe_sent};
use crate::encode::echo::{ECHO_MAX_CHARS, cut};
use crate::response::ToolResponse;
use crate::tool::input::Tool;

/// Reads the typed input of the tool `T` from validated arguments and runs its checks
/// ([`Tool::check`]): every value they refuse is one problem of one `<validation_error>`.
#[allow(
    clippy::result_large_err,
    reason = "the error is the response to send, moved once"
)]
pub(crate) fn read_tool<T: Tool>(arguments: &Value, reference: &str) -> Result<T, ToolResponse> {
    let input = read_typed::<T>(arguments, reference)?;
    if !T::CHECKS {
        return Ok(input);
    }
    let mut checks = Checks::default();
    input.check(&mut checks);
    if checks.is_empty() {
        Ok(input)
    } else {
        Err(super::failure(
            reference.to_owned(),
            checks.into_problems(arguments),
        ))
    }
}

/// Reads the typed input from validated arguments; a value serde still refuses (a check of the
/// type's own, such as a `TryFrom` conversion) becomes a `<validation_error>` at `(root)`.
///
/// serde reads the value in place, so the arguments are still there to describe SENT when it
/// refuses them (and for the tool's checks), and are never copied or written out for a call
/// that succeeds.
#[allow(
    clippy::result_large_err,
    reason = "the error is the response to send, moved once"
)]
pub(crate) fn read_typed<T: serde::de::DeserializeOwned>(
    arguments: &Value,
    reference: &str,
) -> Result<T, ToolResponse> {
    T::deserialize(arguments).map_err(|error| {
        // serde's message may quote the input (`invalid value: string "…"`): cut it like
        // echoed input, with room for serde's own words.
        let mut reason = cut(&error.to_string(), 2 * ECHO_MAX_CHARS).into_owned();
        if let Some(first) = reason.chars().next() {
            reason = first.to_uppercase().chain(reason.chars().skip(1)).collect();
        }
        if !reason.ends_with('.') {
            reason.push('.');
        }
        let sent = describe_sent(arguments);
        let problem = Problem::new("(root)", ProblemKind::Invalid { sent, reason });
        super::failure(reference.to_owned(), vec![problem])
    })
}
