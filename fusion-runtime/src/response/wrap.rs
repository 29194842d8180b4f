//! From what a handler returns to a response: [`success`], [`success_structured`] and the
//! implicit wrapping of wire format §12 ([`IntoToolResponse`]).
//!
//! | handler result | response |
//! |---|---|
//! | [`ToolResponse`], [`ResponseBuilder`], [`ToolError`], [`ValidationError`](crate::tool::ValidationError) | unchanged |
//! | a [`Presentation`](crate::present::Presentation) (`value.present()`, with its selection and context) | presented (wire format §6) |
//! | `()`, `None`, the empty text | text data block `OK` |
//! | `String`, `&str`, `Cow<str>` | text data block, wire format §5.3 applied |
//! | numbers, `bool`, `serde_json::Value`, `Vec<T>`, maps, [`Json<T>`] | JSON data block (wire format §3) |
//! | `Ok(v)` | as `v` |
//! | `Err(e)` | a [`ToolError`] or [`ValidationError`](crate::tool::ValidationError) passes as its envelope; any other error is a [`WrapError::Handler`] |
//!
//! The kind is decided by the value's type, never by its JSON form: a `String` is a text block,
//! while `Json("abc")` is the JSON string `"abc"`, quotes included. A value of an action that
//! declares a presenter is presented by the tool layer, not here.
//!
//! The impls for presentations and for `Result` (which recognizes a `ValidationError`) live in
//! the layers that define those types: `present` and `tool`.
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

use super::builder::{ResponseBuilder, StructuredError};
use super::envelope::ToolError;
use super::tool_response::ToolResponse;
use crate::encode::EncodeError;

/// A JSON data block (wire format §3) of any serializable value, without `structuredContent`.
///
/// Models derived with `Presenter` serialize redacted, so their redactions apply here too. To add
/// UI entries, hints, rules or suggestions, start from [`ResponseBuilder::json`] instead.
///
/// ```
/// let response = fusion_runtime::success(&serde_json::json!({"id": 1, "tags": ["x"]})).unwrap();
/// assert_eq!(response.blocks(), ["{\n  \"id\": 1,\n  \"tags\": [\n    \"x\"\n  ]\n}"]);
/// ```
pub fn success<T: Serialize + ?Sized>(value: &T) -> Result<ToolResponse, EncodeError> {
    ResponseBuilder::json(value).map(ResponseBuilder::build)
}

/// A structured response (wire format §11.1): a JSON data block and `structuredContent` holding the same
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

/// Why a handler's result did not become a response. The tool layer answers the call with
/// `INTERNAL_ERROR` (wire format §13.7) and never puts this text on the wire; it may log it.
#[derive(Debug)]
#[non_exhaustive]
pub enum WrapError {
    /// The returned value cannot be written as JSON.
    Json(EncodeError),
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

impl From<EncodeError> for WrapError {
    fn from(error: EncodeError) -> Self {
        WrapError::Json(error)
    }
}

/// A value a tool handler can return: wire format §12's implicit wrapping, decided by the type.
///
/// Implemented for the toolkit's responses ([`ToolResponse`], [`ResponseBuilder`], [`ToolError`],
/// [`ValidationError`](crate::tool::ValidationError), [`Presentation`](crate::present::Presentation)), `()`, texts, `Option`, numbers, `bool`,
/// `serde_json::Value`, `Vec`, maps with serializable values, [`Json<T>`] for any other
/// serializable value, and `Result`.
///
/// A value that is only `Serialize` is not one: the compiler says to wrap it in `Json(...)` (or
/// `Structured(...)`), or to present it, in the same words as the tool set's bound on a
/// handler's return type (`fusion_runtime::tool::ToolResult`), which names the value inside an
/// `Ok` or `Some` too.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a tool result: wrap it in `Json(...)` (or `Structured(...)`), or return a presentation",
    label = "`{Self}` is returned here",
    note = "a handler returns a tool result: a `ToolResponse`, a `ResponseBuilder`, a `ToolError`, `()`, a text, a number, a `bool`, a `serde_json::Value`, a `Vec`, `Json(value)`, `Structured(value)`, a presentation (`call.present(&model).build()`), or a `Result` or `Option` of one",
    note = "a `Result` needs an error type that converts into `Box<dyn Error + Send + Sync>` (any `Send + Sync` error, `anyhow::Error`, `String`)"
)]
pub trait IntoToolResponse {
    /// The response for this value, or why there is none.
    fn into_tool_response(self) -> Result<ToolResponse, WrapError>;

    /// The response for this value as the tool layer asks for it ([`Asked`]): under a
    /// response budget (wire format §17), the tool's and the tool set's, and with the data value
    /// as `structuredContent` too when the action asks for it (wire format §11.2).
    ///
    /// A [`Presentation`](crate::present::Presentation) is fitted to the budget and makes its
    /// wire value; a JSON value (`Json`, `serde_json::Value`, numbers, `Vec`, maps) makes its
    /// value from itself; `Option` and `Result` pass the ask to their value. Every other answer
    /// was built by hand and is sent as it is, even over the budget (wire format §17.6): only a
    /// presentation knows where its items begin and end, and a cut anywhere else would leave the
    /// model data that does not parse.
    #[cfg(feature = "tool")]
    fn into_tool_response_within(self, asked: Asked) -> Result<ToolResponse, WrapError>
    where
        Self: Sized,
    {
        let _ = asked;
        self.into_tool_response()
    }
}

/// What the tool layer asks of a handler's answer ([`IntoToolResponse::into_tool_response_within`]).
#[cfg(feature = "tool")]
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Asked {
    /// The response budget in tokens (wire format §17.1): the tighter of the tool's and the
    /// tool set's, if any.
    pub max_tokens: Option<usize>,
    /// The action asks for `structuredContent` (wire format §11.2): the answer's data value is
    /// made (from the value, never read back from the text) for the tool layer to send.
    pub structured: bool,
    /// The budget is kept by the exact `o200k_base` count
    /// ([`ToolSet::exact_tokens`](crate::ToolSet::exact_tokens)).
    #[cfg(feature = "exact-tokens")]
    pub exact_tokens: bool,
}

#[cfg(feature = "tool")]
impl Asked {
    /// What a call of an action with this budget and this structured flag asks.
    pub(crate) fn new(max_tokens: Option<usize>, structured: bool) -> Self {
        Asked {
            max_tokens,
            structured,
            #[cfg(feature = "exact-tokens")]
            exact_tokens: false,
        }
    }
}

/// A JSON data block of `value`, with its wire value when a structured action asks for it.
#[cfg(feature = "tool")]
fn json_answer<T: Serialize + ?Sized>(value: &T, asked: Asked) -> Result<ToolResponse, WrapError> {
    let mut builder = ResponseBuilder::json(value)?;
    if asked.structured && !builder.has_value() {
        builder.set_value(crate::encode::json::to_value(value)?);
    }
    Ok(builder.build())
}

/// Any serializable value as a JSON data block (wire format §12).
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

    #[cfg(feature = "tool")]
    fn into_tool_response_within(self, asked: Asked) -> Result<ToolResponse, WrapError> {
        json_answer(&self.0, asked)
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

impl IntoToolResponse for ToolError {
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

    #[cfg(feature = "tool")]
    fn into_tool_response_within(self, asked: Asked) -> Result<ToolResponse, WrapError> {
        match self {
            Some(value) => value.into_tool_response_within(asked),
            None => ().into_tool_response(),
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

            #[cfg(feature = "tool")]
            fn into_tool_response_within(self, asked: Asked) -> Result<ToolResponse, WrapError> {
                json_answer(&self, asked)
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

    #[cfg(feature = "tool")]
    fn into_tool_response_within(self, asked: Asked) -> Result<ToolResponse, WrapError> {
        json_answer(&self, asked)
    }
}

impl<K: Serialize, V: Serialize> IntoToolResponse for BTreeMap<K, V> {
    fn into_tool_response(self) -> Result<ToolResponse, WrapError> {
        Ok(success(&self)?)
    }

    #[cfg(feature = "tool")]
    fn into_tool_response_within(self, asked: Asked) -> Result<ToolResponse, WrapError> {
        json_answer(&self, asked)
    }
}

/// Members come in the map's iteration order, which `HashMap` does not define (wire format §3.3); use
/// a `BTreeMap` or an ordered map for stable bytes.
impl<K: Serialize, V: Serialize, S> IntoToolResponse for HashMap<K, V, S> {
    fn into_tool_response(self) -> Result<ToolResponse, WrapError> {
        Ok(success(&self)?)
    }

    #[cfg(feature = "tool")]
    fn into_tool_response_within(self, asked: Asked) -> Result<ToolResponse, WrapError> {
        json_answer(&self, asked)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
