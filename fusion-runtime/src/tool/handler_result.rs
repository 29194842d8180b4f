//! What a handler may return ([`ToolResult`]), and the implicit wrapping (wire format §12) of
//! what needs the tool layer: a `ValidationError`, and a handler's `Result`, whose error may be a
//! `ToolError` or a `ValidationError` envelope.

use std::error::Error as StdError;

use serde_json::Value;

use super::args::ValidationError;
use crate::response::{Asked, IntoToolResponse, ToolError, ToolResponse, WrapError};

/// What a handler may return (or its future give): every [`IntoToolResponse`] value (a
/// `ToolResponse`, a `ToolError`, `()`, a text, a number, [`Json`](crate::Json), a presentation,
/// a `Result` of one, ...), and [`Structured<T>`](crate::Structured) or a `Result` of one, whose
/// `T` is also the tool's `outputSchema`.
///
/// A value that is only `Serialize` is not one: wrap it in `Json(...)` (a JSON data block) or
/// `Structured(...)` (a JSON object as `structuredContent` too), or present it. The compiler says
/// so once, naming the type the handler returns (inside an `Ok` or `Some` too), at the handler
/// given to [`ToolSet::tool`](crate::ToolSet::tool): the closure, or the function's path (rustc
/// reports a bound on a closure's or function's return type where the closure or function is
/// passed, not at its return expression):
///
/// ```text
/// error[E0277]: `Point` is not a tool result: wrap it in `Json(...)` (or `Structured(...)`), or return a presentation
///   --> src/main.rs:14:33
///    |
/// 14 |     let _ = ToolSet::new().tool(|_: Locate, _: &Call| Point { x: 1 });
///    |                            ---- ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ this handler returns `Point`
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a tool result: wrap it in `Json(...)` (or `Structured(...)`), or return a presentation",
    label = "this handler returns `{Self}`",
    note = "a handler returns a tool result (an `async` handler, as its future's output): a `ToolResponse`, a `ToolError`, `()`, a text, a number, `Json(value)`, `Structured(value)`, a presentation (`call.present(&model).build()`), or a `Result` of one",
    note = "`Json(value)` takes any `serde::Serialize` value; `Structured(value)` one that also derives `schemars::JsonSchema` (its schema is the tool's `outputSchema`)"
)]
pub trait ToolResult {
    /// What the tool set wraps as the response (wire format §12).
    type Answer: IntoToolResponse;

    /// The value to wrap. For [`Structured`](crate::Structured), the structured response (or the
    /// handler's error).
    fn into_answer(self) -> Self::Answer;

    /// The output type this result declares, named, with its JSON Schema: the `outputSchema`
    /// of the tool (wire format §11.3). `None` unless it is [`Structured`](crate::Structured).
    fn output_schema() -> Option<(&'static str, Value)> {
        None
    }
}

impl<R: IntoToolResponse> ToolResult for R {
    type Answer = R;

    fn into_answer(self) -> R {
        self
    }
}

impl IntoToolResponse for ValidationError {
    fn into_tool_response(self) -> Result<ToolResponse, WrapError> {
        Ok(self.into_response())
    }
}

/// `Ok(v)` wraps `v`. `Err(e)`: a [`ToolError`] or [`ValidationError`] becomes its envelope (a
/// response built by the toolkit); any other error is a failure, [`WrapError::Handler`].
impl<T, E> IntoToolResponse for Result<T, E>
where
    T: IntoToolResponse,
    E: Into<Box<dyn StdError + Send + Sync + 'static>>,
{
    fn into_tool_response(self) -> Result<ToolResponse, WrapError> {
        self.into_tool_response_within(Asked::default())
    }

    fn into_tool_response_within(self, asked: Asked) -> Result<ToolResponse, WrapError> {
        match self {
            Ok(value) => value.into_tool_response_within(asked),
            Err(error) => {
                let error: Box<dyn StdError + Send + Sync> = error.into();
                let error = match error.downcast::<ToolError>() {
                    // An `INTERNAL_ERROR` made by `?` is the handler's failure: reported, and
                    // answered with the action's reference (wire format §13.7).
                    Ok(tool_error) => {
                        return match tool_error.into_failure() {
                            Ok(tool_error) => Ok(tool_error.into_response()),
                            Err(failure) => Err(WrapError::Handler(Box::new(failure))),
                        };
                    }
                    Err(other) => other,
                };
                match error.downcast::<ValidationError>() {
                    Ok(validation) => Ok(validation.into_response()),
                    Err(other) => Err(WrapError::Handler(other)),
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_of_the_handler() {
        let failed: Result<String, std::io::Error> = Err(std::io::Error::other("disk"));
        let Err(WrapError::Handler(error)) = failed.into_tool_response() else {
            panic!("an io error is a failure");
        };
        assert_eq!(error.to_string(), "disk");

        let tool: Result<(), ToolError> = Err(ToolError::not_found("no such invoice"));
        let response = tool.into_tool_response().unwrap();
        assert_eq!(response.is_error(), Some(true));
        assert!(response.blocks()[0].starts_with("<tool_error code=\"NOT_FOUND\""));

        let boxed: Result<(), Box<dyn StdError + Send + Sync>> =
            Err(Box::new(ToolError::warning("DEPRECATED", "Use v2")));
        assert_eq!(boxed.into_tool_response().unwrap().is_error(), Some(false));
    }
}
