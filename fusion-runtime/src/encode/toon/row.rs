//! The one serializer of TOON table rows (wire format §9.6): an object (a struct, or a map)
//! written as the cells of one row of a [`Table`](super::sink::Table), checked against the
//! table's member names as it goes.
//!
//! Every table the encoder writes goes through it: a collection of models (whose names are the
//! model's [`WIRE_NAMES`](crate::model::Model::WIRE_NAMES)) and a root list of flat objects
//! given to [`encode()`](super::encode()) (whose names are the first element's). A row that is no
//! row of the table is [`NotARow`], and the caller then takes the tree path, which writes the
//! form the specification prescribes and reports any real error; so what this writes, when it
//! answers, is the tree path's row byte for byte (property test
//! `stream::tests::the_stream_equals_the_tree_path`).

use std::borrow::Cow;

use serde::Serialize;
use serde::ser::{self, Impossible};

use super::cell::{CellSerializer, NotARow, not_a_row};
use super::value::{member_name, same_name};
use crate::encode::reject::{reject, see_through};

/// Writes one value as the cells of a table row; anything but an object of primitives with
/// exactly the table's names, in its order, is [`NotARow`] (`out` then holds part of the row:
/// the caller discards it).
pub(super) struct RowSerializer<'o> {
    pub(super) out: &'o mut String,
    /// The table's member names, in header order.
    pub(super) names: &'o [Cow<'static, str>],
    /// The delimiter byte between cells (it forces quotes in a cell, wire format §9.3 Q7).
    pub(super) delimiter: u8,
    /// Where a map key is written to be compared with the names.
    pub(super) scratch: &'o mut String,
}

/// Accepts the members of one row one by one, struct fields or map entries.
pub(super) struct RowWriter<'o> {
    row: RowSerializer<'o>,
    /// How many names were matched (for a map, a matched key may still await its value).
    next: usize,
    /// Whether a map key was matched and its value is due.
    key_pending: bool,
}

impl RowWriter<'_> {
    /// Matches the next member's name against the table's.
    fn name(&mut self, key: &str) -> Result<(), NotARow> {
        match self.row.names.get(self.next) {
            Some(name) if same_name(name, key) => {
                self.next += 1;
                Ok(())
            }
            _ => Err(NotARow),
        }
    }

    /// Writes the cell of the member just matched, after the delimiter unless it is the first.
    fn cell<V: Serialize + ?Sized>(&mut self, value: &V) -> Result<(), NotARow> {
        if self.next > 1 {
            self.row.out.push(char::from(self.row.delimiter));
        }
        value.serialize(CellSerializer {
            out: self.row.out,
            delimiter: self.row.delimiter,
        })
    }

    fn finish(&self) -> Result<(), NotARow> {
        if self.next == self.row.names.len() && !self.key_pending {
            Ok(())
        } else {
            Err(NotARow) // A member is missing, or a key has no value.
        }
    }
}

impl ser::SerializeStruct for RowWriter<'_> {
    type Ok = ();
    type Error = NotARow;

    fn serialize_field<V: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &V,
    ) -> Result<(), NotARow> {
        self.name(key)?;
        self.cell(value)
    }

    fn end(self) -> Result<(), NotARow> {
        self.finish()
    }
}

impl ser::SerializeMap for RowWriter<'_> {
    type Ok = ();
    type Error = NotARow;

    fn serialize_key<K: Serialize + ?Sized>(&mut self, key: &K) -> Result<(), NotARow> {
        if self.key_pending {
            return Err(NotARow); // Two keys in a row: the tree path reports the misuse.
        }
        let row = &mut self.row;
        let name = member_name(key, row.scratch).map_err(|_| NotARow)?;
        match row.names.get(self.next) {
            Some(expected) if same_name(expected, name) => self.next += 1,
            _ => return Err(NotARow),
        }
        self.key_pending = true;
        Ok(())
    }

    fn serialize_value<V: Serialize + ?Sized>(&mut self, value: &V) -> Result<(), NotARow> {
        if !self.key_pending {
            return Err(NotARow);
        }
        self.key_pending = false;
        self.cell(value)
    }

    fn end(self) -> Result<(), NotARow> {
        self.finish()
    }
}

impl<'o> RowSerializer<'o> {
    fn writer(self) -> RowWriter<'o> {
        RowWriter {
            row: self,
            next: 0,
            key_pending: false,
        }
    }
}

impl<'o> ser::Serializer for RowSerializer<'o> {
    type Ok = ();
    type Error = NotARow;
    type SerializeSeq = Impossible<(), NotARow>;
    type SerializeTuple = Impossible<(), NotARow>;
    type SerializeTupleStruct = Impossible<(), NotARow>;
    type SerializeTupleVariant = Impossible<(), NotARow>;
    type SerializeMap = RowWriter<'o>;
    type SerializeStruct = RowWriter<'o>;
    type SerializeStructVariant = Impossible<(), NotARow>;

    fn serialize_struct(self, _name: &'static str, _len: usize) -> Result<RowWriter<'o>, NotARow> {
        Ok(self.writer())
    }

    fn serialize_map(self, _len: Option<usize>) -> Result<RowWriter<'o>, NotARow> {
        Ok(self.writer())
    }

    see_through!();

    reject!(not_a_row =>
        primitives, serialize_newtype_variant, serialize_seq, serialize_tuple,
        serialize_tuple_struct, serialize_tuple_variant, serialize_struct_variant);
}
