//! The JSON data block writer (SPEC §3): byte-identical to ECMAScript `JSON.stringify(value, null, 2)`
//! except for exact integers, the value's own member order and `\u003c` at framework tag starts.
//!
//! It writes straight from any [`Serialize`] value through `serde_json`'s serializer with a
//! formatter of our own, so no intermediate `serde_json::Value` is built.
//!
//! ```
//! use fusion_runtime::json;
//! assert_eq!(json::to_string(&[1e21, 0.1 + 0.2]).unwrap(), "[\n  1e+21,\n  0.30000000000000004\n]");
//! assert_eq!(json::to_string("</domain_rules>").unwrap(), "\"\\u003c/domain_rules>\"");
//! ```

use std::io;

use serde::Serialize;
use serde_json::ser::{CharEscape, Formatter, PrettyFormatter};

use crate::escape;

/// Why a value could not be written as JSON (or, for a presenter with the TOON format, as TOON).
///
/// `Serialize` values that fail: a map whose keys are not strings (or integers, booleans or
/// finite floats, which are written as strings), or a `Serialize` impl that reports an error of
/// its own. The message says which.
#[derive(Debug)]
pub struct JsonError(Inner);

#[derive(Debug)]
enum Inner {
    Json(serde_json::Error),
    /// A TOON data block (SPEC §9) that could not be written; only presenters with the TOON
    /// format report it here, so that `Presentation::build` keeps one error type.
    Toon(crate::toon::ToonError),
}

impl JsonError {
    /// Wraps an error of `serde_json`.
    pub(crate) fn from_serde(error: serde_json::Error) -> Self {
        JsonError(Inner::Json(error))
    }

    /// Wraps the error of a presenter's TOON data block.
    pub(crate) fn from_toon(error: crate::toon::ToonError) -> Self {
        JsonError(Inner::Toon(error))
    }
}

impl std::fmt::Display for JsonError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.0 {
            Inner::Json(error) => write!(
                f,
                "the value cannot be written as JSON ({error}); use string map keys (or a list of \
                 pairs) and make sure its `Serialize` impl succeeds"
            ),
            // Its own message says what to do.
            Inner::Toon(error) => error.fmt(f),
        }
    }
}

impl std::error::Error for JsonError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match &self.0 {
            Inner::Json(error) => Some(error),
            Inner::Toon(error) => Some(error),
        }
    }
}

/// Writes `value` as a SPEC §3 JSON text (two-space indentation, no final LF).
///
/// ```
/// let text = fusion_runtime::json::to_string(&serde_json::json!({"a": 100.0, "b": [1]})).unwrap();
/// assert_eq!(text, "{\n  \"a\": 100,\n  \"b\": [\n    1\n  ]\n}");
/// ```
pub fn to_string<T: Serialize + ?Sized>(value: &T) -> Result<String, JsonError> {
    let mut out = Vec::with_capacity(128);
    write(&mut out, value)?;
    // The serializer writes whole UTF-8 strings and ASCII punctuation only, so this never fails;
    // the error arm keeps the function total without a panic.
    String::from_utf8(out).map_err(|e| JsonError::from_serde(serde::ser::Error::custom(e)))
}

/// Appends `value` as a SPEC §3 JSON text to `out`.
///
/// On error `out` may hold a partial text; discard it.
pub fn write<T: Serialize + ?Sized>(out: &mut Vec<u8>, value: &T) -> Result<(), JsonError> {
    let mut serializer = serde_json::Serializer::with_formatter(out, SpecFormatter::default());
    value
        .serialize(&mut serializer)
        .map_err(JsonError::from_serde)
}

/// `serde_json`'s pretty layout with ECMAScript number text and tag-start escaping.
#[derive(Default)]
struct SpecFormatter {
    pretty: PrettyFormatter<'static>,
}

impl Formatter for SpecFormatter {
    fn write_f32<W: ?Sized + io::Write>(&mut self, writer: &mut W, value: f32) -> io::Result<()> {
        self.write_f64(writer, f64::from(value))
    }

    fn write_f64<W: ?Sized + io::Write>(&mut self, writer: &mut W, value: f64) -> io::Result<()> {
        writer.write_all(number_str(&mut ryu_js::Buffer::new(), value).as_bytes())
    }

    fn write_string_fragment<W: ?Sized + io::Write>(
        &mut self,
        writer: &mut W,
        fragment: &str,
    ) -> io::Result<()> {
        // serde_json splits a string at characters it escapes, none of which can continue an
        // element name, so the end of a fragment is a valid tag terminator (SPEC §5.1).
        if !fragment.as_bytes().contains(&b'<') {
            // The common case, without the tag-start scan.
            return writer.write_all(fragment.as_bytes());
        }
        writer.write_all(escape::replace_tag_starts(fragment, "\\u003c").as_bytes())
    }

    fn write_char_escape<W: ?Sized + io::Write>(
        &mut self,
        writer: &mut W,
        char_escape: CharEscape,
    ) -> io::Result<()> {
        self.pretty.write_char_escape(writer, char_escape)
    }

    fn begin_array<W: ?Sized + io::Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.pretty.begin_array(writer)
    }

    fn end_array<W: ?Sized + io::Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.pretty.end_array(writer)
    }

    fn begin_array_value<W: ?Sized + io::Write>(
        &mut self,
        writer: &mut W,
        first: bool,
    ) -> io::Result<()> {
        self.pretty.begin_array_value(writer, first)
    }

    fn end_array_value<W: ?Sized + io::Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.pretty.end_array_value(writer)
    }

    fn begin_object<W: ?Sized + io::Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.pretty.begin_object(writer)
    }

    fn end_object<W: ?Sized + io::Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.pretty.end_object(writer)
    }

    fn begin_object_key<W: ?Sized + io::Write>(
        &mut self,
        writer: &mut W,
        first: bool,
    ) -> io::Result<()> {
        self.pretty.begin_object_key(writer, first)
    }

    fn begin_object_value<W: ?Sized + io::Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.pretty.begin_object_value(writer)
    }

    fn end_object_value<W: ?Sized + io::Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.pretty.end_object_value(writer)
    }
}

/// The ECMAScript text of a float (SPEC §3.6): `null` for NaN and infinities, `0` for both zeros.
///
/// ```
/// use fusion_runtime::json::number_text;
/// assert_eq!(number_text(100.0), "100");
/// assert_eq!(number_text(1e-7), "1e-7");
/// assert_eq!(number_text(-0.0), "0");
/// assert_eq!(number_text(f64::NAN), "null");
/// ```
pub fn number_text(value: f64) -> String {
    number_str(&mut ryu_js::Buffer::new(), value).to_owned()
}

/// [`number_text`] without allocating: the text lives in `buffer` or is a literal.
fn number_str(buffer: &mut ryu_js::Buffer, value: f64) -> &str {
    if !value.is_finite() {
        "null"
    } else if value == 0.0 {
        // ECMAScript writes -0 as `0`; ryu-js would keep the sign.
        "0"
    } else {
        // ryu-js yields the shortest round-trip digits laid out by ECMAScript's Number::toString.
        buffer.format_finite(value)
    }
}
