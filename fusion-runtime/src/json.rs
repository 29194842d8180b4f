//! The JSON data block writer (SPEC §3): byte-identical to ECMAScript `JSON.stringify(value, null, 2)`
//! except for exact integers, the value's own member order and `\u003c` at framework tag starts.
//!
//! It writes straight from any [`Serialize`] value through serde_json's serializer with a
//! formatter of our own, so no intermediate `serde_json::Value` is built.

use std::io;

use serde::Serialize;
use serde_json::ser::{CharEscape, Formatter, PrettyFormatter};

use crate::escape;

/// Why a value could not be written as JSON.
///
/// Serde values that fail: a map whose keys are not strings, or a `Serialize` impl that
/// reports an error of its own. Make the keys strings (or serialize the map as a list of pairs).
#[derive(Debug)]
pub struct JsonError(serde_json::Error);

impl std::fmt::Display for JsonError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "the value cannot be written as JSON: {}", self.0)
    }
}

impl std::error::Error for JsonError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.0)
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
    // The serializer writes whole UTF-8 strings and ASCII punctuation only.
    String::from_utf8(out).map_err(|e| JsonError(serde::ser::Error::custom(e)))
}

/// Appends `value` as a SPEC §3 JSON text to `out`.
pub fn write<T: Serialize + ?Sized>(out: &mut Vec<u8>, value: &T) -> Result<(), JsonError> {
    let mut serializer = serde_json::Serializer::with_formatter(out, SpecFormatter::default());
    value.serialize(&mut serializer).map_err(JsonError)
}

/// serde_json's pretty layout with ECMAScript number text and tag-start escaping.
#[derive(Default)]
struct SpecFormatter {
    pretty: PrettyFormatter<'static>,
}

impl Formatter for SpecFormatter {
    fn write_f32<W: ?Sized + io::Write>(&mut self, writer: &mut W, value: f32) -> io::Result<()> {
        self.write_f64(writer, f64::from(value))
    }

    fn write_f64<W: ?Sized + io::Write>(&mut self, writer: &mut W, value: f64) -> io::Result<()> {
        writer.write_all(number_text(value).as_bytes())
    }

    fn write_string_fragment<W: ?Sized + io::Write>(
        &mut self,
        writer: &mut W,
        fragment: &str,
    ) -> io::Result<()> {
        // serde_json splits a string at characters it escapes, none of which can continue an
        // element name, so the end of a fragment is a valid tag terminator (SPEC §5.1).
        writer.write_all(escape_tag_starts(fragment).as_bytes())
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

/// `fragment` with the `<` of each framework tag start written as `\u003c` (SPEC §3.4).
fn escape_tag_starts(fragment: &str) -> std::borrow::Cow<'_, str> {
    if !fragment.contains('<') || !escape::contains_tag_start(fragment) {
        return std::borrow::Cow::Borrowed(fragment);
    }
    let mut out = String::with_capacity(fragment.len() + 8);
    let mut copied = 0;
    for (at, byte) in fragment.bytes().enumerate() {
        if byte == b'<' && escape::is_tag_start_at(fragment, at) {
            out.push_str(&fragment[copied..at]);
            out.push_str("\\u003c");
            copied = at + 1;
        }
    }
    out.push_str(&fragment[copied..]);
    std::borrow::Cow::Owned(out)
}

/// The ECMAScript text of a float (SPEC §3.6): `null` for NaN and infinities, `0` for both zeros.
pub fn number_text(value: f64) -> String {
    if !value.is_finite() {
        return "null".to_owned();
    }
    if value == 0.0 {
        return "0".to_owned();
    }
    ryu_js::Buffer::new().format_finite(value).to_owned()
}
