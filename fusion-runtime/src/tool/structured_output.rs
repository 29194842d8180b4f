//! Structured output tied to the handler's return type (wire format §11.1, §11.3): a handler that
//! returns [`Structured<T>`] answers with `structuredContent`, and the tool's `outputSchema` is
//! generated from that same `T`, so the two cannot disagree.
//!
//! `Structured<T>` is deliberately not an [`IntoToolResponse`] value: the handler shapes that
//! return it (sync or async, with or without state, bare or in a `Result`) are their own
//! [`Handler`] and [`AsyncHandler`] impls, which is how the tool set learns the output type when
//! the tool is added.

use std::error::Error as StdError;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};

use schemars::JsonSchema;
use serde::Serialize;
use serde_json::Value;

use super::call::Call;
use super::handler::marker::{self, Returning};
use super::handler::{AsyncHandler, Handler};
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

/// What the handler shapes below accept as a structured result: [`Structured<T>`], or a
/// `Result` of one whose error is a handler error (a [`ToolError`](crate::ToolError) is sent as
/// its envelope, anything else becomes `INTERNAL_ERROR`).
pub trait IntoStructured {
    /// The structured type: the source of the `outputSchema`.
    type Value: Serialize + JsonSchema;

    /// The value, or the handler's error.
    fn into_structured(self) -> Result<Self::Value, Box<dyn StdError + Send + Sync>>;
}

impl<T: Serialize + JsonSchema> IntoStructured for Structured<T> {
    type Value = T;

    fn into_structured(self) -> Result<T, Box<dyn StdError + Send + Sync>> {
        Ok(self.0)
    }
}

impl<T, E> IntoStructured for Result<Structured<T>, E>
where
    T: Serialize + JsonSchema,
    E: Into<Box<dyn StdError + Send + Sync>>,
{
    type Value = T;

    fn into_structured(self) -> Result<T, Box<dyn StdError + Send + Sync>> {
        self.map(|structured| structured.0).map_err(Into::into)
    }
}

/// A structured result as the response: the toolkit's wrapping of a `Result` then sends a
/// `ToolError` as its envelope and turns any other failure, a value that is not an object
/// included, into `INTERNAL_ERROR`.
type Answer = Result<ToolResponse, Box<dyn StdError + Send + Sync>>;

fn answer<R: IntoStructured>(result: R) -> Answer {
    Ok(success_structured(&result.into_structured()?)?)
}

fn schema<R: IntoStructured>() -> (&'static str, Value) {
    (
        std::any::type_name::<R::Value>(),
        output_schema_of::<R::Value>(),
    )
}

impl<T, S, F, R> Handler<T, S, (marker::Stateless, Returning<R>)> for F
where
    F: Fn(T, &Call) -> R + Send + Sync + 'static,
    R: IntoStructured,
{
    type Output = Answer;

    fn handle(&self, _: &S, input: T, call: &Call) -> Answer {
        answer(self(input, call))
    }

    fn output_schema() -> Option<(&'static str, Value)> {
        Some(schema::<R>())
    }
}

impl<T, S, F, R> Handler<T, S, (marker::WithState, Returning<R>)> for F
where
    F: Fn(&S, T, &Call) -> R + Send + Sync + 'static,
    R: IntoStructured,
{
    type Output = Answer;

    fn handle(&self, state: &S, input: T, call: &Call) -> Answer {
        answer(self(state, input, call))
    }

    fn output_schema() -> Option<(&'static str, Value)> {
        Some(schema::<R>())
    }
}

/// A structured handler's future, its output turned into the response.
pub struct StructuredFuture<Fut> {
    inner: Pin<Box<Fut>>,
}

impl<Fut> Future for StructuredFuture<Fut>
where
    Fut: Future<Output: IntoStructured>,
{
    type Output = Answer;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Answer> {
        self.get_mut().inner.as_mut().poll(cx).map(answer)
    }
}

impl<T, S, F, Fut> AsyncHandler<T, S, (marker::Stateless, Returning<Fut>)> for F
where
    F: Fn(T, Call) -> Fut + Send + Sync + 'static,
    Fut: Future<Output: IntoStructured> + Send + 'static,
{
    type Future = StructuredFuture<Fut>;

    fn start(&self, _: &Arc<S>, input: T, call: Call) -> Self::Future {
        StructuredFuture {
            inner: Box::pin(self(input, call)),
        }
    }

    fn output_schema() -> Option<(&'static str, Value)> {
        Some(schema::<Fut::Output>())
    }
}

impl<T, S, F, Fut> AsyncHandler<T, S, (marker::WithState, Returning<Fut>)> for F
where
    F: Fn(Arc<S>, T, Call) -> Fut + Send + Sync + 'static,
    Fut: Future<Output: IntoStructured> + Send + 'static,
{
    type Future = StructuredFuture<Fut>;

    fn start(&self, state: &Arc<S>, input: T, call: Call) -> Self::Future {
        StructuredFuture {
            inner: Box::pin(self(Arc::clone(state), input, call)),
        }
    }

    fn output_schema() -> Option<(&'static str, Value)> {
        Some(schema::<Fut::Output>())
    }
}
