//! From what a handler returns to a response: [`success`], [`success_structured`] and the
//! implicit wrapping of SPEC §12 ([`IntoToolResponse`]).
//!
//! | handler result | response |
//! |---|---|
//! | [`ToolResponse`], [`ResponseBuilder`], [`ToolError`], [`ValidationError`] | unchanged |
//! | a [`Presentation`] (`value.present()`, with its selection and context) | presented (SPEC §6) |
//! | `()`, `None`, the empty text | text data block `OK` |
//! | `String`, `&str`, `Cow<str>` | text data block, SPEC §5.3 applied |
//! | numbers, `bool`, `serde_json::Value`, `Vec<T>`, maps, [`Json<T>`] | JSON data block (SPEC §3) |
//! | `Ok(v)` | as `v` |
//! | `Err(e)` | a [`ToolError`] passes as its envelope; any other error is a [`WrapError::Handler`] |
//!
//! The kind is decided by the value's type, never by its JSON form: a `String` is a text block,
//! while `Json("abc")` is the JSON string `"abc"`, quotes included. A value of an action that
//! declares a presenter is presented by the tool layer, not here.
//!
//! ```
//! use fusion_runtime::{IntoToolResponse, Json};
//! # fn main() -> Result<(), fusion_runtime::WrapError> {
//! assert_eq!("hello world".into_tool_response()?.blocks(), ["hello world"]);
//! assert_eq!(().into_tool_response()?.blocks(), ["OK"]);
//! assert_eq!(42.into_tool_response()?.blocks(), ["42"]);
//! assert_eq!(Json("abc").into_tool_response()?.blocks(), ["\"abc\""]);
//! # Ok(())
//! # }
//! ```

use std::borrow::Cow;
use std::collections::{BTreeMap, HashMap};
use std::error::Error as StdError;
use std::fmt;

use serde::Serialize;

use crate::error::{ToolError, ValidationError};
use crate::json::{self, JsonError};
use crate::present::{Presentation, Presenter};
use crate::response::{ResponseBuilder, ToolResponse};

/// A JSON data block (SPEC §3) of any serializable value, without `structuredContent`.
///
/// Models derived with `Presenter` serialize redacted, so their redactions apply here too. To add
/// UI entries, hints, rules or suggestions, start from [`ResponseBuilder::json`] instead.
///
/// ```
/// let response = fusion_runtime::success(&serde_json::json!({"id": 1, "tags": ["x"]})).unwrap();
/// assert_eq!(response.blocks(), ["{\n  \"id\": 1,\n  \"tags\": [\n    \"x\"\n  ]\n}"]);
/// ```
pub fn success<T: Serialize + ?Sized>(value: &T) -> Result<ToolResponse, JsonError> {
    ResponseBuilder::json(value).map(ResponseBuilder::build)
}

/// A structured response (SPEC §11.1): a JSON data block and `structuredContent` holding the same
/// JSON value. The value must serialize to a JSON object; anything else is refused with a
/// [`StructuredError`] and nothing is sent for it.
///
/// To add UI entries, hints, rules or suggestions (they go to `content` only), start from
/// [`ResponseBuilder::structured`] instead.
///
/// ```
/// #[derive(serde::Serialize)]
/// struct Stats { count: u32 }
///
/// let response = fusion_runtime::success_structured(&Stats { count: 3 }).unwrap();
/// assert_eq!(
///     response.to_json(),
///     r#"{"content":[{"type":"text","text":"{\n  \"count\": 3\n}"}],"structuredContent":{"count":3}}"#
/// );
///
/// let refused = fusion_runtime::success_structured(&[1, 2]).unwrap_err();
/// assert!(refused.to_string().contains("must be a JSON object"));
/// ```
pub fn success_structured<T: Serialize + ?Sized>(
    value: &T,
) -> Result<ToolResponse, StructuredError> {
    ResponseBuilder::structured(value).map(ResponseBuilder::build)
}

impl ResponseBuilder {
    /// A structured response's builder (SPEC §11.1): JSON data block plus `structuredContent`,
    /// the same JSON value; refused unless the value serializes to a JSON object.
    ///
    /// ```
    /// use fusion_runtime::ResponseBuilder;
    /// let response = ResponseBuilder::structured(&serde_json::json!({"count": 3}))
    ///     .unwrap()
    ///     .hint("Counts include voided invoices.")
    ///     .build();
    /// assert_eq!(response.blocks().len(), 2);
    /// assert_eq!(response.structured_content(), Some(&serde_json::json!({"count": 3})));
    /// ```
    pub fn structured<T: Serialize + ?Sized>(value: &T) -> Result<Self, StructuredError> {
        // structuredContent is a JSON value, so the value is built once and both channels are
        // written from it: the block and structuredContent cannot disagree.
        let value = serde_json::to_value(value)
            .map_err(|e| StructuredError::Json(JsonError::from_serde(e)))?;
        if !value.is_object() {
            return Err(StructuredError::NotAnObject {
                found: json_kind(&value),
            });
        }
        let text = json::to_string(&value).map_err(StructuredError::Json)?;
        let mut builder = ResponseBuilder::json_text(text);
        builder.set_structured(value);
        Ok(builder)
    }
}

/// How SPEC §11.1 names a JSON value that is not an object.
fn json_kind(value: &serde_json::Value) -> &'static str {
    match value {
        serde_json::Value::Null => "null",
        serde_json::Value::Bool(_) => "a boolean",
        serde_json::Value::Number(_) => "a number",
        serde_json::Value::String(_) => "a string",
        serde_json::Value::Array(_) => "an array",
        serde_json::Value::Object(_) => "an object",
    }
}

/// Why a structured response (SPEC §11.1) was refused. Nothing is sent for it; a handler that
/// lets it escape ends the call with `INTERNAL_ERROR` (SPEC §13.7).
#[derive(Debug)]
#[non_exhaustive]
pub enum StructuredError {
    /// The value's JSON form is not an object.
    NotAnObject {
        /// What it is instead: `an array`, `a string`, `a number`, `a boolean` or `null`.
        found: &'static str,
    },
    /// The value cannot be written as JSON at all.
    Json(JsonError),
}

impl fmt::Display for StructuredError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StructuredError::NotAnObject { found } => write!(
                f,
                "structured content must be a JSON object, but the value is {found}; return a \
                 struct or a map (put a list in a named field, e.g. `{{\"items\": [...]}}`), or \
                 use `success` for a JSON data block without structured content"
            ),
            StructuredError::Json(error) => {
                write!(f, "the structured content cannot be built: {error}")
            }
        }
    }
}

impl StdError for StructuredError {
    fn source(&self) -> Option<&(dyn StdError + 'static)> {
        match self {
            StructuredError::NotAnObject { .. } => None,
            StructuredError::Json(error) => Some(error),
        }
    }
}

/// Why a handler's result did not become a response. The tool layer answers the call with
/// `INTERNAL_ERROR` (SPEC §13.7) and never puts this text on the wire; it may log it.
#[derive(Debug)]
#[non_exhaustive]
pub enum WrapError {
    /// The returned value cannot be written as JSON.
    Json(JsonError),
    /// The handler returned an error that is not a [`ToolError`].
    Handler(Box<dyn StdError + Send + Sync + 'static>),
}

impl fmt::Display for WrapError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WrapError::Json(error) => write!(f, "the handler's result is not a response: {error}"),
            WrapError::Handler(error) => write!(
                f,
                "the handler failed: {error}; the call answers with INTERNAL_ERROR (return a \
                 `ToolError` to show the agent an expected failure)"
            ),
        }
    }
}

impl StdError for WrapError {
    fn source(&self) -> Option<&(dyn StdError + 'static)> {
        match self {
            WrapError::Json(error) => Some(error),
            WrapError::Handler(error) => Some(&**error),
        }
    }
}

impl From<JsonError> for WrapError {
    fn from(error: JsonError) -> Self {
        WrapError::Json(error)
    }
}

/// A value a tool handler can return: SPEC §12's implicit wrapping, decided by the type.
///
/// Implemented for the toolkit's responses ([`ToolResponse`], [`ResponseBuilder`], [`ToolError`],
/// [`ValidationError`], [`Presentation`]), `()`, texts, `Option`, numbers, `bool`,
/// `serde_json::Value`, `Vec`, maps with serializable values, [`Json<T>`] for any other
/// serializable value, and `Result`.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be returned from a tool handler",
    label = "not a tool result",
    note = "return a `ToolResponse`, a `ResponseBuilder`, a `ToolError`, `()`, a text, a number, a `bool`, a `serde_json::Value` or a `Vec`",
    note = "wrap any other serializable value in `fusion_runtime::Json(...)`, or present a model with `.present()`",
    note = "a `Result` needs an error type that converts into `Box<dyn Error + Send + Sync>` (any `Send + Sync` error, `anyhow::Error`, `String`)"
)]
pub trait IntoToolResponse {
    /// The response for this value, or why there is none.
    fn into_tool_response(self) -> Result<ToolResponse, WrapError>;
}

/// Any serializable value as a JSON data block (SPEC §12).
///
/// There is no blanket wrapping of `T: Serialize`, since a `String` is a text block and not the
/// JSON string; `Json` says "this value is data".
///
/// ```
/// use fusion_runtime::{IntoToolResponse, Json};
/// #[derive(serde::Serialize)]
/// struct Point { x: i32, y: i32 }
///
/// let response = Json(Point { x: 1, y: 2 }).into_tool_response().unwrap();
/// assert_eq!(response.blocks(), ["{\n  \"x\": 1,\n  \"y\": 2\n}"]);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Json<T>(pub T);

impl<T: Serialize> Serialize for Json<T> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(serializer)
    }
}

impl<T: Serialize> IntoToolResponse for Json<T> {
    fn into_tool_response(self) -> Result<ToolResponse, WrapError> {
        Ok(success(&self.0)?)
    }
}

impl IntoToolResponse for ToolResponse {
    fn into_tool_response(self) -> Result<ToolResponse, WrapError> {
        Ok(self)
    }
}

impl IntoToolResponse for ResponseBuilder {
    fn into_tool_response(self) -> Result<ToolResponse, WrapError> {
        Ok(self.build())
    }
}

/// A presentation configured by the handler (selection, context) is built as it stands.
impl<T: Presenter<Ctx>, Ctx: ?Sized> IntoToolResponse for Presentation<'_, T, Ctx> {
    fn into_tool_response(self) -> Result<ToolResponse, WrapError> {
        Ok(self.build()?)
    }
}

impl IntoToolResponse for ToolError {
    fn into_tool_response(self) -> Result<ToolResponse, WrapError> {
        Ok(self.into_response())
    }
}

impl IntoToolResponse for ValidationError {
    fn into_tool_response(self) -> Result<ToolResponse, WrapError> {
        Ok(self.into_response())
    }
}

impl IntoToolResponse for () {
    fn into_tool_response(self) -> Result<ToolResponse, WrapError> {
        Ok(ResponseBuilder::text(String::new()).build())
    }
}

impl IntoToolResponse for String {
    fn into_tool_response(self) -> Result<ToolResponse, WrapError> {
        Ok(ResponseBuilder::text(self).build())
    }
}

impl IntoToolResponse for &str {
    fn into_tool_response(self) -> Result<ToolResponse, WrapError> {
        Ok(ResponseBuilder::text(self).build())
    }
}

impl IntoToolResponse for Cow<'_, str> {
    fn into_tool_response(self) -> Result<ToolResponse, WrapError> {
        Ok(ResponseBuilder::text(self.into_owned()).build())
    }
}

impl<T: IntoToolResponse> IntoToolResponse for Option<T> {
    fn into_tool_response(self) -> Result<ToolResponse, WrapError> {
        match self {
            Some(value) => value.into_tool_response(),
            None => ().into_tool_response(),
        }
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
        match self {
            Ok(value) => value.into_tool_response(),
            Err(error) => {
                let error: Box<dyn StdError + Send + Sync> = error.into();
                let error = match error.downcast::<ToolError>() {
                    Ok(tool_error) => return Ok(tool_error.into_response()),
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

/// JSON data blocks for the types whose JSON form is the natural answer.
macro_rules! json_data {
    ($($ty:ty),* $(,)?) => {$(
        impl IntoToolResponse for $ty {
            fn into_tool_response(self) -> Result<ToolResponse, WrapError> {
                Ok(success(&self)?)
            }
        }
    )*};
}

json_data!(
    bool,
    i8,
    i16,
    i32,
    i64,
    i128,
    isize,
    u8,
    u16,
    u32,
    u64,
    u128,
    usize,
    f32,
    f64,
    serde_json::Value,
    serde_json::Map<String, serde_json::Value>,
);

impl<T: Serialize> IntoToolResponse for Vec<T> {
    fn into_tool_response(self) -> Result<ToolResponse, WrapError> {
        Ok(success(&self)?)
    }
}

impl<K: Serialize, V: Serialize> IntoToolResponse for BTreeMap<K, V> {
    fn into_tool_response(self) -> Result<ToolResponse, WrapError> {
        Ok(success(&self)?)
    }
}

/// Members come in the map's iteration order, which `HashMap` does not define (SPEC §3.3); use
/// a `BTreeMap` or an ordered map for stable bytes.
impl<K: Serialize, V: Serialize, S> IntoToolResponse for HashMap<K, V, S> {
    fn into_tool_response(self) -> Result<ToolResponse, WrapError> {
        Ok(success(&self)?)
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

    #[test]
    fn non_string_keys_are_a_json_error() {
        let mut map = BTreeMap::new();
        map.insert(vec![1], 1);
        let Err(WrapError::Json(error)) = map.into_tool_response() else {
            panic!("list keys cannot be written");
        };
        assert!(error.to_string().contains("use string map keys"));
    }

    #[test]
    fn structured_refuses_every_non_object_root() {
        for (value, found) in [
            (serde_json::json!([1]), "an array"),
            (serde_json::json!("x"), "a string"),
            (serde_json::json!(1.5), "a number"),
            (serde_json::json!(true), "a boolean"),
            (serde_json::Value::Null, "null"),
        ] {
            let Err(StructuredError::NotAnObject { found: got }) = success_structured(&value)
            else {
                panic!("{value} must be refused");
            };
            assert_eq!(got, found);
        }
    }
}
