//! The cells of a TOON table row written straight from serde (wire format §9.3): the token the
//! generic encoder writes for the same primitive, or [`NotARow`] for anything a table cell
//! cannot hold. The one row serializer (`row`) writes every member of a row with it.

use serde::ser::{self, Impossible};

use super::quote;
use crate::encode::reject::{reject, see_through};

/// Why a row cannot be a table row. Never shown: the caller then uses the tree path of the
/// generic encoder, which reports a real error if there is one.
#[derive(Debug)]
pub(crate) struct NotARow;

impl std::fmt::Display for NotARow {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("the row does not fit the TOON table")
    }
}

impl std::error::Error for NotARow {}

impl ser::Error for NotARow {
    fn custom<T: std::fmt::Display>(_message: T) -> Self {
        NotARow
    }
}

/// [`NotARow`], whatever was found: the argument of [`reject!`] in the serializers of rows.
pub(crate) fn not_a_row(_found: &'static str) -> NotARow {
    NotARow
}

/// Writes one primitive cell: the token the generic encoder writes for the same value (wire format
/// §9.3), with the serde data model mapped as it maps it (unit → `null`, unit variant → its
/// name). Lists, objects and enum variants with data are [`NotARow`].
pub(crate) struct CellSerializer<'o> {
    /// The document being written.
    pub(crate) out: &'o mut String,
    /// The delimiter byte, which forces quotes (wire format §9.3 Q7).
    pub(crate) delimiter: u8,
}

#[allow(
    clippy::unnecessary_wraps,
    reason = "each helper returns what the Serializer methods return"
)]
impl CellSerializer<'_> {
    fn integer<I: itoa::Integer>(self, v: I) -> Result<(), NotARow> {
        quote::push_integer(self.out, v);
        Ok(())
    }

    fn null(self) -> Result<(), NotARow> {
        self.out.push_str("null");
        Ok(())
    }

    fn string(self, v: &str) -> Result<(), NotARow> {
        quote::push_string(self.out, v, self.delimiter);
        Ok(())
    }
}

impl ser::Serializer for CellSerializer<'_> {
    type Ok = ();
    type Error = NotARow;
    type SerializeSeq = Impossible<(), NotARow>;
    type SerializeTuple = Impossible<(), NotARow>;
    type SerializeTupleStruct = Impossible<(), NotARow>;
    type SerializeTupleVariant = Impossible<(), NotARow>;
    type SerializeMap = Impossible<(), NotARow>;
    type SerializeStruct = Impossible<(), NotARow>;
    type SerializeStructVariant = Impossible<(), NotARow>;

    fn serialize_bool(self, v: bool) -> Result<(), NotARow> {
        self.out.push_str(if v { "true" } else { "false" });
        Ok(())
    }

    fn serialize_i8(self, v: i8) -> Result<(), NotARow> {
        self.integer(v)
    }

    fn serialize_i16(self, v: i16) -> Result<(), NotARow> {
        self.integer(v)
    }

    fn serialize_i32(self, v: i32) -> Result<(), NotARow> {
        self.integer(v)
    }

    fn serialize_i64(self, v: i64) -> Result<(), NotARow> {
        self.integer(v)
    }

    fn serialize_i128(self, v: i128) -> Result<(), NotARow> {
        self.integer(v)
    }

    fn serialize_u8(self, v: u8) -> Result<(), NotARow> {
        self.integer(v)
    }

    fn serialize_u16(self, v: u16) -> Result<(), NotARow> {
        self.integer(v)
    }

    fn serialize_u32(self, v: u32) -> Result<(), NotARow> {
        self.integer(v)
    }

    fn serialize_u64(self, v: u64) -> Result<(), NotARow> {
        self.integer(v)
    }

    fn serialize_u128(self, v: u128) -> Result<(), NotARow> {
        self.integer(v)
    }

    fn serialize_f32(self, v: f32) -> Result<(), NotARow> {
        // Widened as the generic encoder widens it.
        self.serialize_f64(f64::from(v))
    }

    fn serialize_f64(self, v: f64) -> Result<(), NotARow> {
        quote::push_float(self.out, v);
        Ok(())
    }

    fn serialize_char(self, v: char) -> Result<(), NotARow> {
        self.string(v.encode_utf8(&mut [0; 4]))
    }

    fn serialize_str(self, v: &str) -> Result<(), NotARow> {
        self.string(v)
    }

    fn serialize_none(self) -> Result<(), NotARow> {
        self.null()
    }

    see_through!();

    fn serialize_unit(self) -> Result<(), NotARow> {
        self.null()
    }

    fn serialize_unit_struct(self, _name: &'static str) -> Result<(), NotARow> {
        self.null()
    }

    fn serialize_unit_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
    ) -> Result<(), NotARow> {
        self.string(variant)
    }

    reject!(not_a_row => serialize_bytes, serialize_newtype_variant, compounds);
}
