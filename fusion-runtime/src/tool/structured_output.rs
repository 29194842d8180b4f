//! Structured output tied to the handler's return type (wire format §11.1, §11.3): a handler that
//! returns [`Structured<T>`] answers with `structuredContent`, and the tool's `outputSchema` is
//! generated from that same `T`, so the two cannot disagree.
//!
//! `Structured<T>` is deliberately not an [`IntoToolResponse`](crate::IntoToolResponse) value,
//! only a [`ToolResult`]: the tool set asks a handler's result type (sync or async, with or
//! without state, bare or in a `Result`) for [`ToolResult::output_schema`] when the tool is
//! added, which is how it learns the output type.

use std::error::Error as StdError;

use schemars::JsonSchema;
use serde::Serialize;
use serde_json::Value;

use super::handler_result::ToolResult;
use super::spec::output_schema_of;
use crate::response::{ToolResponse, success_structured};

/// A handler's structured result (wire format §11.1): a JSON data block and `structuredContent`
/// holding the same value, which must serialize to a JSON object. The tool's `outputSchema` is
/// `T`'s JSON Schema, taken from the handler's return type when the tool is added (a tool that
/// also declares `#[fusion(output = ...)]` must declare this same type).
///
/// ```
/// use fusion_runtime::{Call, Structured, Tool, ToolSet};
///
/// /// Count the words of a text
/// #[derive(serde::Deserialize, schemars::JsonSchema, Tool)]
/// #[fusion(read_only)]
/// struct WordCount {
///     text: String,
/// }
///
/// #[derive(serde::Serialize, schemars::JsonSchema)]
/// struct Counted {
///     words: usize,
/// }
///
/// let tools = ToolSet::new().tool(|input: WordCount, _: &Call| {
///     Structured(Counted { words: input.text.split_whitespace().count() })
/// })?;
/// let schema = tools.get("word_count").unwrap().output_schema().unwrap();
/// assert_eq!(schema["properties"]["words"]["type"], "integer");
/// let response = tools.call("word_count", Some(serde_json::json!({"text": "a b c"})));
/// assert_eq!(response.structured_content(), Some(&serde_json::json!({"words": 3})));
/// # Ok::<(), fusion_runtime::tool::DefinitionError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Structured<T>(pub T);

/// A structured result as the response: the toolkit's wrapping of a `Result` then sends a
/// `ToolError` as its envelope and turns any other failure, a value that is not an object
/// included, into `INTERNAL_ERROR`.
type Answer = Result<ToolResponse, Box<dyn StdError + Send + Sync>>;

fn answer<T: Serialize>(result: Result<T, Box<dyn StdError + Send + Sync>>) -> Answer {
    Ok(success_structured(&result?)?)
}

fn schema<T: JsonSchema>() -> (&'static str, Value) {
    (std::any::type_name::<T>(), output_schema_of::<T>())
}

/// The handler's structured value: its type is the tool's `outputSchema`.
impl<T: Serialize + JsonSchema> ToolResult for Structured<T> {
    type Answer = Answer;

    fn into_answer(self) -> Answer {
        answer(Ok(self.0))
    }

    fn output_schema() -> Option<(&'static str, Value)> {
        Some(schema::<T>())
    }
}

/// `Ok` as [`Structured<T>`]; `Err` is the handler's error (a [`ToolError`](crate::ToolError)
/// is sent as its envelope, anything else becomes `INTERNAL_ERROR`).
impl<T, E> ToolResult for Result<Structured<T>, E>
where
    T: Serialize + JsonSchema,
    E: Into<Box<dyn StdError + Send + Sync>>,
{
    type Answer = Answer;

    fn into_answer(self) -> Answer {
        answer(self.map(|structured| structured.0).map_err(Into::into))
    }

    fn output_schema() -> Option<(&'static str, Value)> {
        Some(schema::<T>())
    }
}
