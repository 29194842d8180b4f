//! Streamed tables: the generic encoder's fast path for a root list of flat objects (wire format
//! §9.6), written straight from serde without a value tree of the whole input.
//!
//! Only the first element is built as a tree, for its schema (the member names, every value a
//! primitive: [`Table::of_first`]); every element, the first included, is then written as a
//! table row into a [`TableText`] by the one row serializer (`row`), which checks it against
//! the schema as it goes: an object (struct or map) with exactly the schema's names, in its
//! order, each value a primitive. The first element
//! that does not fit (another order, a nested value, a missing or extra member, a `Serialize`
//! impl that fails) ends the stream: what was written is discarded and [`super::encode()`] takes
//! the tree path, which picks the form the TOON specification requires and reports any real
//! error. So the streamed text is always byte-identical to the tree path's.
//!
//! Why: on 10,000 rows building, walking and freeing the tree was the whole cost of the generic
//! encoder (PERFORMANCE.md, "Why the generic TOON encoder misses").

use serde::Serialize;
use serde::ser::{self, Impossible};

use super::ToonOptions;
use super::cell::{NotARow, not_a_row};
use super::sink::{Table, TableText};
use crate::encode::reject::{reject, see_through};

/// The TOON document of `value` when it is a non-empty list of flat objects of one shape, every
/// element's members in the first element's order; `None` otherwise (the caller then encodes
/// the tree).
pub(crate) fn table<T: Serialize + ?Sized>(value: &T, options: &ToonOptions) -> Option<String> {
    value.serialize(RootSerializer { options }).ok()
}

/// Accepts the root value: a sequence (or tuple) of known, non-zero length.
struct RootSerializer<'o> {
    options: &'o ToonOptions,
}

impl<'o> RootSerializer<'o> {
    fn list(self, len: Option<usize>) -> Result<Elements<'o>, NotARow> {
        match len {
            // The header holds the count before the rows: a list of unknown length, and the
            // empty list (`[]`, no table), are left to the tree path.
            Some(len) if len > 0 => Ok(Elements {
                options: self.options,
                len,
                text: None,
            }),
            _ => Err(NotARow),
        }
    }
}

impl<'o> ser::Serializer for RootSerializer<'o> {
    type Ok = String;
    type Error = NotARow;
    type SerializeSeq = Elements<'o>;
    type SerializeTuple = Elements<'o>;
    type SerializeTupleStruct = Impossible<String, NotARow>;
    type SerializeTupleVariant = Impossible<String, NotARow>;
    type SerializeMap = Impossible<String, NotARow>;
    type SerializeStruct = Impossible<String, NotARow>;
    type SerializeStructVariant = Impossible<String, NotARow>;

    fn serialize_seq(self, len: Option<usize>) -> Result<Elements<'o>, NotARow> {
        self.list(len)
    }

    fn serialize_tuple(self, len: usize) -> Result<Elements<'o>, NotARow> {
        self.list(Some(len))
    }

    see_through!();

    reject!(not_a_row =>
        primitives, serialize_newtype_variant, serialize_tuple_struct, serialize_tuple_variant,
        serialize_map, serialize_struct, serialize_struct_variant);
}

/// The elements of the root list, each a row of the table its first element shapes.
struct Elements<'o> {
    options: &'o ToonOptions,
    /// The element count the list announced, which the header states.
    len: usize,
    /// The table, from the first element on.
    text: Option<TableText>,
}

impl Elements<'_> {
    fn row<V: Serialize + ?Sized>(&mut self, element: &V) -> Result<(), NotARow> {
        if self.text.is_none() {
            let table = Table::of_first(element, self.options).ok_or(NotARow)?;
            self.text = Some(TableText::new(table, self.len));
        }
        self.text.as_mut().ok_or(NotARow)?.push(element)
    }

    fn finish(self) -> Result<String, NotARow> {
        self.text.ok_or(NotARow)?.finish()
    }
}

impl ser::SerializeSeq for Elements<'_> {
    type Ok = String;
    type Error = NotARow;

    fn serialize_element<V: Serialize + ?Sized>(&mut self, value: &V) -> Result<(), NotARow> {
        self.row(value)
    }

    fn end(self) -> Result<String, NotARow> {
        self.finish()
    }
}

impl ser::SerializeTuple for Elements<'_> {
    type Ok = String;
    type Error = NotARow;

    fn serialize_element<V: Serialize + ?Sized>(&mut self, value: &V) -> Result<(), NotARow> {
        self.row(value)
    }

    fn end(self) -> Result<String, NotARow> {
        self.finish()
    }
}

#[cfg(test)]
mod tests;
