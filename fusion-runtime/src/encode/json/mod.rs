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
use crate::encode::reject::{compound, see_through};
pub use compact::compact;
#[cfg(feature = "budget")]
pub(crate) use compact::compact_into;
#[cfg(feature = "budget")]
pub(crate) use elements::with_elements;
use key::Key;
use number::number_str;
pub use number::number_text;
use prefix::Prefixes;
use raw::Raw;
use string::escape_into;
pub(crate) use value::to_value;

mod compact;
// A budget's fitting writes a collection item by item.
#[cfg(feature = "budget")]
mod elements;
mod key;
mod number;
mod prefix;
mod raw;
mod string;
mod value;

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
            append(&mut out, value, None)?;
            return Ok(out);
        };
        scratch.clear();
        if scratch.capacity() < SCRATCH_START {
            // After a large text took the buffer: no run of small reallocations to start with.
            scratch.reserve(SCRATCH_START);
        }
        let written = PREFIXES.with(|prefixes| {
            // Taken only by a nested call, which then writes its keys piece by piece.
            let mut prefixes = prefixes.try_borrow_mut().ok();
            append(&mut scratch, value, prefixes.as_deref_mut())
        });
        let out = if scratch.len() > SCRATCH_LIMIT {
            // A large text keeps the buffer it was written in (sized by the projection of
            // `Writer::project`, so it holds little spare room): no copy of it. Not shrunk
            // either: a smaller buffer would make the allocator map fresh pages for the next
            // text of this size (see `Writer::project`).
            std::mem::take(&mut *scratch)
        } else {
            // One allocation of the exact size, however many fields the value has.
            scratch.as_str().to_owned()
        };
        if scratch.capacity() > SCRATCH_LIMIT {
            // The next call starts afresh rather than keep a large buffer per thread.
            *scratch = String::new();
        }
        written.map(|()| out)
    })
}

/// Writes `value` as a wire format §3 JSON text and hands the text to `use_text`, without
/// copying it out of the thread's buffer: for a caller that puts the text inside a larger
/// one (a fenced UI block) and would otherwise copy it twice.
pub(crate) fn with_text<T: Serialize + ?Sized, R>(
    value: &T,
    use_text: impl FnOnce(&str) -> R,
) -> Result<R, EncodeError> {
    SCRATCH.with(|scratch| {
        let Ok(mut scratch) = scratch.try_borrow_mut() else {
            let mut out = String::new();
            append(&mut out, value, None)?;
            return Ok(use_text(&out));
        };
        scratch.clear();
        let written = PREFIXES.with(|prefixes| {
            let mut prefixes = prefixes.try_borrow_mut().ok();
            append(&mut scratch, value, prefixes.as_deref_mut())
        });
        let result = written.map(|()| use_text(&scratch));
        if scratch.capacity() > SCRATCH_LIMIT {
            *scratch = String::new();
        }
        result
    })
}

/// The largest scratch buffer a thread keeps between calls of [`to_string`]. Texts up to this
/// size are copied out of it, so the next text of that size is written with no reallocation
/// (the allocations of a render do not grow with its fields); longer ones leave in the buffer
/// they were written in.
const SCRATCH_LIMIT: usize = 64 * 1024;

/// The first element count of a top-level array from which [`Writer::project`] sizes the
/// output (a power of two).
const PROJECT_FROM: usize = 16;

/// The capacity [`to_string`] gives an empty scratch buffer.
const SCRATCH_START: usize = 1024;

thread_local! {
    /// The buffer [`to_string`] writes into: it has grown to the size of earlier texts, so a
    /// text is written without reallocations and then copied out once.
    static SCRATCH: std::cell::RefCell<String> = const { std::cell::RefCell::new(String::new()) };

    /// The member prefixes of struct fields this thread has written (module `prefix`).
    static PREFIXES: std::cell::RefCell<Prefixes> = const { std::cell::RefCell::new(Prefixes::new()) };
}

/// Appends `value` as a wire format §3 JSON text to `out`.
///
/// On error `out` may hold a partial text; discard it.
fn append<T: Serialize + ?Sized>(
    out: &mut String,
    value: &T,
    prefixes: Option<&mut Prefixes>,
) -> Result<(), EncodeError> {
    value
        .serialize(&mut Writer {
            out,
            prefixes,
            depth: 0,
            top_len: None,
            top_written: 0,
        })
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
    /// The cache of struct fields' prefixes, when this call has it.
    prefixes: Option<&'o mut Prefixes>,
    depth: usize,
    /// The length the top-level array announced (a slice or `Vec` of items: a collection).
    top_len: Option<usize>,
    /// How many elements of the top-level array are written.
    top_written: usize,
}

/// A comma, a line break and the indentation of up to 64 levels: the separator before an element
/// is one copy of a prefix of this (without the comma before the first element).
const COMMA_NEWLINE_INDENT: &str = ",\n                                                                                                                                ";

impl<'o> Writer<'o> {
    /// A line break and the indentation of the current depth.
    #[inline]
    fn newline(&mut self) {
        self.separator(false);
    }

    /// After each element of the top-level array: at the 16th, 32nd, 64th... element, sizes
    /// the output for the whole array as projected from the elements so far (plus 1/16), so a
    /// collection of megabytes is not copied from buffer to buffer as it grows. Not earlier:
    /// a projection from the first few elements can overshoot by far, and an oversized buffer
    /// is worse than a copy (glibc serves each such request with fresh pages from the kernel,
    /// measured as one page fault per 4 KiB written on every call).
    #[inline]
    fn project(&mut self) {
        self.top_written += 1;
        let written = self.top_written;
        if let Some(total) = self.top_len
            && written >= PROJECT_FROM
            && written.is_power_of_two()
            && written < total
        {
            let per_element = self.out.len() / written;
            let projected = per_element.saturating_mul(total + total / 16 + 1);
            if projected > self.out.capacity() {
                self.out.reserve_exact(projected - self.out.len());
            }
        }
    }

    /// `,` (with `comma`), a line break and the indentation of the current depth, in one copy.
    #[inline]
    fn separator(&mut self, comma: bool) {
        let skip = usize::from(!comma);
        if let Some(line) = COMMA_NEWLINE_INDENT.get(skip..2 + 2 * self.depth) {
            self.out.push_str(line);
        } else {
            // Deeper than the constant: rare enough for a loop.
            self.out.push_str(&COMMA_NEWLINE_INDENT[skip..2]);
            for _ in 0..self.depth {
                self.out.push_str("  ");
            }
        }
    }

    /// A string (wire format §3.4): escapes and tag-start neutralization in one scan.
    #[inline]
    fn string(&mut self, text: &str) {
        self.out.reserve(text.len() + 2);
        self.out.push('"');
        self.string_body(text);
        self.out.push('"');
    }

    /// An object member's key and the `": "` after it (wire format §3.3).
    #[inline]
    fn key(&mut self, key: &str) {
        self.out.reserve(key.len() + 4);
        self.out.push('"');
        self.string_body(key);
        self.out.push_str("\": ");
    }

    /// The inside of a string (see [`escape_into`]).
    #[inline]
    fn string_body(&mut self, text: &str) {
        escape_into(self.out, text);
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
        self.key(variant);
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

    see_through!();

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

    fn serialize_seq(self, len: Option<usize>) -> Result<Compound<'a, 'o>, Error> {
        if self.depth == 0 {
            self.top_len = len;
        }
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
        self.writer.separator(!self.first);
        self.first = false;
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

    /// Serde's `end`: [`Compound::end`], which cannot fail.
    #[inline]
    #[expect(clippy::unnecessary_wraps, reason = "serde's `end`")]
    fn done(self) -> Result<(), Error> {
        self.end();
        Ok(())
    }

    fn element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
        self.next();
        value.serialize(&mut *self.writer)
    }

    /// A struct field: its prefix comes from the cache when this call has one.
    fn member<T: Serialize + ?Sized>(&mut self, key: &'static str, value: &T) -> Result<(), Error> {
        let writer = &mut *self.writer;
        if let Some(prefixes) = writer.prefixes.as_deref_mut()
            && let Some(prefix) = prefixes.get(key, writer.depth)
        {
            // The cached prefix starts with the comma a first member does without.
            writer
                .out
                .push_str(prefix.get(usize::from(self.first)..).unwrap_or(prefix));
            self.first = false;
        } else {
            self.next();
            self.writer.key(key);
        }
        value.serialize(&mut *self.writer)
    }
}

impl ser::SerializeSeq for Compound<'_, '_> {
    type Ok = ();
    type Error = Error;

    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
        self.element(value)?;
        if self.writer.depth == 1 {
            self.writer.project();
        }
        Ok(())
    }

    fn end(self) -> Result<(), Error> {
        Compound::done(self)
    }
}

compound!(Compound<'_, '_> => (), Error; end = Compound::done;
    SerializeTuple(Compound::element),
    SerializeTupleStruct(Compound::element),
    SerializeTupleVariant(Compound::element),
    SerializeStructVariant(Compound::member),
);

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
        Compound::done(self)
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

#[cfg(test)]
mod tests;
