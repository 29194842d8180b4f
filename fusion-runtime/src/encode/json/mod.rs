//! The JSON data block writer (wire format §3): byte-identical to ECMAScript `JSON.stringify(value, null, 2)`
//! except for exact integers, the value's own member order and `\u003c` at framework tag starts.
//!
//! It is a `serde::Serializer` of its own that writes straight from any [`Serialize`] value into
//! a `String`, so no intermediate `serde_json::Value` is built. It is not `serde_json`'s
//! serializer with a custom formatter because that costs a second scan of every string (for tag
//! starts), one write per indentation level and a UTF-8 check of the whole output; here one scan
//! per string escapes and neutralizes together, an indentation is one copy, and the output is a
//! `String` from the start. The bytes are those `serde_json::to_string_pretty` writes, apart from
//! the three differences above (a unit test compares the two on every shape of the serde data
//! model).
//!
//! ```
//! use fusion_runtime::testing::json;
//! assert_eq!(json::to_string(&[1e21, 0.1 + 0.2]).unwrap(), "[\n  1e+21,\n  0.30000000000000004\n]");
//! assert_eq!(json::to_string("</domain_rules>").unwrap(), "\"\\u003c/domain_rules>\"");
//! ```

use std::fmt::Write as _;

use serde::Serialize;
use serde::ser;

use super::error::EncodeError;
use super::escape;
use key::Key;
use raw::Raw;

mod key;
mod raw;

/// Writes `value` as a wire format §3 JSON text (two-space indentation, no final LF).
///
/// ```
/// let text = fusion_runtime::testing::json::to_string(&serde_json::json!({"a": 100.0, "b": [1]})).unwrap();
/// assert_eq!(text, "{\n  \"a\": 100,\n  \"b\": [\n    1\n  ]\n}");
/// ```
pub fn to_string<T: Serialize + ?Sized>(value: &T) -> Result<String, EncodeError> {
    SCRATCH.with(|scratch| {
        // A `Serialize` impl that itself calls `to_string` finds the scratch taken.
        let Ok(mut scratch) = scratch.try_borrow_mut() else {
            let mut out = String::new();
            append(&mut out, value)?;
            return Ok(out);
        };
        scratch.clear();
        let written = append(&mut scratch, value);
        let out = if scratch.capacity() > SCRATCH_LIMIT {
            // A large text keeps the buffer it grew in (no copy); the next call starts afresh.
            std::mem::take(&mut *scratch)
        } else {
            // One allocation of the exact size, however many fields the value has.
            scratch.as_str().to_owned()
        };
        written.map(|()| out)
    })
}

/// The largest scratch buffer a thread keeps between calls of [`to_string`].
const SCRATCH_LIMIT: usize = 64 * 1024;

thread_local! {
    /// The buffer [`to_string`] writes into: it has grown to the size of earlier texts, so a
    /// text is written without reallocations and then copied out once.
    static SCRATCH: std::cell::RefCell<String> = const { std::cell::RefCell::new(String::new()) };
}

/// Appends `value` as a wire format §3 JSON text to `out`.
///
/// On error `out` may hold a partial text; discard it.
fn append<T: Serialize + ?Sized>(out: &mut String, value: &T) -> Result<(), EncodeError> {
    value
        .serialize(&mut Writer { out, depth: 0 })
        .map_err(EncodeError::from_serde)
}

/// Appends `value` to `out` as an element of a top-level collection is written (indented one
/// level): what fitting a collection to a budget writes item by item (wire format §17.3).
///
/// On error `out` may hold a partial text; discard it.
pub(crate) fn append_element<T: Serialize + ?Sized>(
    out: &mut String,
    value: &T,
) -> Result<(), EncodeError> {
    value
        .serialize(&mut Writer { out, depth: 1 })
        .map_err(EncodeError::from_serde)
}

/// The error of the serializer: `serde_json`'s, so [`EncodeError`] keeps its one shape.
type Error = serde_json::Error;

fn error(message: &str) -> Error {
    ser::Error::custom(message)
}

/// The wire format §3 serializer: the output and the current indentation depth.
struct Writer<'o> {
    out: &'o mut String,
    depth: usize,
}

/// A line break and the indentation of up to 64 levels, copied in one piece.
const NEWLINE_INDENT: &str = "\n                                                                                                                                ";

/// How each byte is written inside a string: 0 as itself, `u` as `\u00XX`, `<` as itself unless
/// it starts a framework tag (wire format §5.1), any other as a backslash and that byte (wire format §3.4).
static ESCAPE: [u8; 256] = {
    let mut table = [0_u8; 256];
    let mut byte = 0;
    while byte < 0x20 {
        table[byte] = b'u';
        byte += 1;
    }
    table[0x08] = b'b';
    table[0x09] = b't';
    table[0x0A] = b'n';
    table[0x0C] = b'f';
    table[0x0D] = b'r';
    table[b'"' as usize] = b'"';
    table[b'\\' as usize] = b'\\';
    table[b'<' as usize] = b'<';
    table
};

const HEX: &[u8; 16] = b"0123456789abcdef";

impl<'o> Writer<'o> {
    /// A line break and the indentation of the current depth.
    #[inline]
    fn newline(&mut self) {
        let width = 2 * self.depth;
        if let Some(line) = NEWLINE_INDENT.get(..=width) {
            self.out.push_str(line);
        } else {
            self.out.push('\n');
            for _ in 0..self.depth {
                self.out.push_str("  ");
            }
        }
    }

    /// A string (wire format §3.4): escapes and tag-start neutralization in one scan.
    fn string(&mut self, text: &str) {
        let out = &mut *self.out;
        out.reserve(text.len() + 2);
        out.push('"');
        // One table lookup per byte, as serde_json does (an eight-bytes-at-a-time scan measured
        // no faster on these short strings, and slower on rows of short fields).
        let mut copied = 0;
        for (at, &byte) in text.as_bytes().iter().enumerate() {
            let kind = ESCAPE[usize::from(byte)];
            if kind != 0 && (kind != b'<' || escape::is_tag_start_at(text, at)) {
                // `at` is the index of an ASCII byte, so both ends are character boundaries.
                out.push_str(&text[copied..at]);
                match kind {
                    b'<' => out.push_str("\\u003c"),
                    b'u' => {
                        out.push_str("\\u00");
                        out.push(char::from(HEX[usize::from(byte >> 4)]));
                        out.push(char::from(HEX[usize::from(byte & 0xF)]));
                    }
                    other => {
                        out.push('\\');
                        out.push(char::from(other));
                    }
                }
                copied = at + 1;
            }
        }
        out.push_str(&text[copied..]);
        out.push('"');
    }

    fn integer<I: itoa::Integer>(&mut self, value: I) {
        self.out.push_str(itoa::Buffer::new().format(value));
    }

    fn float(&mut self, value: f64) {
        self.out
            .push_str(number_str(&mut ryu_js::Buffer::new(), value));
    }

    /// Opens an array or object: its elements are one level deeper.
    fn open(&mut self, bracket: char) {
        self.out.push(bracket);
        self.depth += 1;
    }

    /// `{"VARIANT": ` of an externally tagged enum variant with content.
    fn open_variant(&mut self, variant: &str) {
        self.open('{');
        self.newline();
        self.string(variant);
        self.out.push_str(": ");
    }

    /// Closes what [`Writer::open_variant`] opened.
    fn close_variant(&mut self) {
        self.depth -= 1;
        self.newline();
        self.out.push('}');
    }

    /// `Display` text as a string; collected first so that a tag start split across two
    /// writes of the `Display` impl is still found.
    fn display<T: std::fmt::Display + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
        let mut text = String::new();
        write!(text, "{value}").map_err(|_| error("a `Display` impl failed"))?;
        self.string(&text);
        Ok(())
    }

    fn compound<'a>(&'a mut self, bracket: char, variant: bool) -> Compound<'a, 'o> {
        self.open(bracket);
        Compound {
            writer: self,
            first: true,
            variant,
            close: if bracket == '[' { ']' } else { '}' },
        }
    }
}

/// The names `serde_json` gives the structs its `arbitrary_precision` numbers and `RawValue`s
/// serialize as, when those features are on somewhere in the build: their one field is JSON text
/// to write as it is, as `serde_json`'s own serializer does.
const RAW_TOKENS: [&str; 2] = [
    "$serde_json::private::Number",
    "$serde_json::private::RawValue",
];

impl<'a, 'o> ser::Serializer for &'a mut Writer<'o> {
    type Ok = ();
    type Error = Error;
    type SerializeSeq = Compound<'a, 'o>;
    type SerializeTuple = Compound<'a, 'o>;
    type SerializeTupleStruct = Compound<'a, 'o>;
    type SerializeTupleVariant = Compound<'a, 'o>;
    type SerializeMap = Compound<'a, 'o>;
    type SerializeStruct = Struct<'a, 'o>;
    type SerializeStructVariant = Compound<'a, 'o>;

    fn serialize_bool(self, value: bool) -> Result<(), Error> {
        self.out.push_str(if value { "true" } else { "false" });
        Ok(())
    }

    fn serialize_i8(self, value: i8) -> Result<(), Error> {
        self.integer(value);
        Ok(())
    }

    fn serialize_i16(self, value: i16) -> Result<(), Error> {
        self.integer(value);
        Ok(())
    }

    fn serialize_i32(self, value: i32) -> Result<(), Error> {
        self.integer(value);
        Ok(())
    }

    fn serialize_i64(self, value: i64) -> Result<(), Error> {
        self.integer(value);
        Ok(())
    }

    fn serialize_i128(self, value: i128) -> Result<(), Error> {
        self.integer(value);
        Ok(())
    }

    fn serialize_u8(self, value: u8) -> Result<(), Error> {
        self.integer(value);
        Ok(())
    }

    fn serialize_u16(self, value: u16) -> Result<(), Error> {
        self.integer(value);
        Ok(())
    }

    fn serialize_u32(self, value: u32) -> Result<(), Error> {
        self.integer(value);
        Ok(())
    }

    fn serialize_u64(self, value: u64) -> Result<(), Error> {
        self.integer(value);
        Ok(())
    }

    fn serialize_u128(self, value: u128) -> Result<(), Error> {
        self.integer(value);
        Ok(())
    }

    fn serialize_f32(self, value: f32) -> Result<(), Error> {
        // An f32 is written as the binary64 it converts to (exactly).
        self.float(f64::from(value));
        Ok(())
    }

    fn serialize_f64(self, value: f64) -> Result<(), Error> {
        self.float(value);
        Ok(())
    }

    fn serialize_char(self, value: char) -> Result<(), Error> {
        self.string(value.encode_utf8(&mut [0; 4]));
        Ok(())
    }

    fn serialize_str(self, value: &str) -> Result<(), Error> {
        self.string(value);
        Ok(())
    }

    fn serialize_bytes(self, value: &[u8]) -> Result<(), Error> {
        // As serde_json: an array of numbers.
        let mut seq = self.compound('[', false);
        for byte in value {
            ser::SerializeSeq::serialize_element(&mut seq, byte)?;
        }
        ser::SerializeSeq::end(seq)
    }

    fn serialize_none(self) -> Result<(), Error> {
        self.serialize_unit()
    }

    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<(), Error> {
        value.serialize(self)
    }

    fn serialize_unit(self) -> Result<(), Error> {
        self.out.push_str("null");
        Ok(())
    }

    fn serialize_unit_struct(self, _name: &'static str) -> Result<(), Error> {
        self.serialize_unit()
    }

    fn serialize_unit_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
    ) -> Result<(), Error> {
        self.string(variant);
        Ok(())
    }

    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        value: &T,
    ) -> Result<(), Error> {
        value.serialize(self)
    }

    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<(), Error> {
        self.open_variant(variant);
        value.serialize(&mut *self)?;
        self.close_variant();
        Ok(())
    }

    fn serialize_seq(self, _len: Option<usize>) -> Result<Compound<'a, 'o>, Error> {
        Ok(self.compound('[', false))
    }

    fn serialize_tuple(self, _len: usize) -> Result<Compound<'a, 'o>, Error> {
        Ok(self.compound('[', false))
    }

    fn serialize_tuple_struct(
        self,
        _name: &'static str,
        _len: usize,
    ) -> Result<Compound<'a, 'o>, Error> {
        Ok(self.compound('[', false))
    }

    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        _len: usize,
    ) -> Result<Compound<'a, 'o>, Error> {
        self.open_variant(variant);
        Ok(self.compound('[', true))
    }

    fn serialize_map(self, _len: Option<usize>) -> Result<Compound<'a, 'o>, Error> {
        Ok(self.compound('{', false))
    }

    fn serialize_struct(self, name: &'static str, _len: usize) -> Result<Struct<'a, 'o>, Error> {
        if RAW_TOKENS.contains(&name) {
            return Ok(Struct::Raw(self));
        }
        Ok(Struct::Object(self.compound('{', false)))
    }

    fn serialize_struct_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        _len: usize,
    ) -> Result<Compound<'a, 'o>, Error> {
        self.open_variant(variant);
        Ok(self.compound('{', true))
    }

    fn collect_str<T: std::fmt::Display + ?Sized>(self, value: &T) -> Result<(), Error> {
        self.display(value)
    }
}

/// An array or object being written.
struct Compound<'a, 'o> {
    writer: &'a mut Writer<'o>,
    /// No element written yet (an empty one closes as `[]` or `{}`).
    first: bool,
    /// The content of an enum variant: closing also closes `{"VARIANT": `.
    variant: bool,
    close: char,
}

impl Compound<'_, '_> {
    /// The separator and indentation before an element or member.
    #[inline]
    fn next(&mut self) {
        if self.first {
            self.first = false;
        } else {
            self.writer.out.push(',');
        }
        self.writer.newline();
    }

    fn end(self) {
        self.writer.depth -= 1;
        if !self.first {
            self.writer.newline();
        }
        self.writer.out.push(self.close);
        if self.variant {
            self.writer.close_variant();
        }
    }

    fn element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
        self.next();
        value.serialize(&mut *self.writer)
    }

    fn member<T: Serialize + ?Sized>(&mut self, key: &str, value: &T) -> Result<(), Error> {
        self.next();
        self.writer.string(key);
        self.writer.out.push_str(": ");
        value.serialize(&mut *self.writer)
    }
}

impl ser::SerializeSeq for Compound<'_, '_> {
    type Ok = ();
    type Error = Error;

    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
        self.element(value)
    }

    fn end(self) -> Result<(), Error> {
        Compound::end(self);
        Ok(())
    }
}

impl ser::SerializeTuple for Compound<'_, '_> {
    type Ok = ();
    type Error = Error;

    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
        self.element(value)
    }

    fn end(self) -> Result<(), Error> {
        Compound::end(self);
        Ok(())
    }
}

impl ser::SerializeTupleStruct for Compound<'_, '_> {
    type Ok = ();
    type Error = Error;

    fn serialize_field<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
        self.element(value)
    }

    fn end(self) -> Result<(), Error> {
        Compound::end(self);
        Ok(())
    }
}

impl ser::SerializeTupleVariant for Compound<'_, '_> {
    type Ok = ();
    type Error = Error;

    fn serialize_field<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
        self.element(value)
    }

    fn end(self) -> Result<(), Error> {
        Compound::end(self);
        Ok(())
    }
}

impl ser::SerializeMap for Compound<'_, '_> {
    type Ok = ();
    type Error = Error;

    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<(), Error> {
        self.next();
        key.serialize(Key(&mut *self.writer))
    }

    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
        self.writer.out.push_str(": ");
        value.serialize(&mut *self.writer)
    }

    fn end(self) -> Result<(), Error> {
        Compound::end(self);
        Ok(())
    }
}

impl ser::SerializeStructVariant for Compound<'_, '_> {
    type Ok = ();
    type Error = Error;

    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), Error> {
        self.member(key, value)
    }

    fn end(self) -> Result<(), Error> {
        Compound::end(self);
        Ok(())
    }
}

/// A struct being written: an object, or JSON text held by `serde_json` (see [`RAW_TOKENS`]).
enum Struct<'a, 'o> {
    Object(Compound<'a, 'o>),
    Raw(&'a mut Writer<'o>),
}

impl ser::SerializeStruct for Struct<'_, '_> {
    type Ok = ();
    type Error = Error;

    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), Error> {
        match self {
            Struct::Object(object) => object.member(key, value),
            Struct::Raw(writer) => value.serialize(Raw(&mut *writer.out)),
        }
    }

    fn end(self) -> Result<(), Error> {
        if let Struct::Object(object) = self {
            object.end();
        }
        Ok(())
    }
}

/// The ECMAScript text of a float (wire format §3.6): `null` for NaN and infinities, `0` for both zeros.
///
/// ```
/// use fusion_runtime::testing::json::number_text;
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

#[cfg(test)]
mod tests;
