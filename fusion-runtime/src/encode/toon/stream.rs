//! Streamed tables: the generic encoder's fast path for a root list of flat objects (wire format
//! §9.6), written straight from serde without a value tree of the whole input.
//!
//! Only the first element is built as a tree, for its schema (the member names, every value a
//! primitive); every element, the first included, is then written as a table row by
//! [`RowSerializer`], which checks it against the schema as it goes: an object (struct or map)
//! with exactly the schema's names, in its order, each value a primitive. The first element
//! that does not fit (another order, a nested value, a missing or extra member, a `Serialize`
//! impl that fails) ends the stream: what was written is discarded and [`super::encode()`] takes
//! the tree path, which picks the form the TOON specification requires and reports any real
//! error. So the streamed text is always byte-identical to the tree path's.
//!
//! Why: on 10,000 rows building, walking and freeing the tree was the whole cost of the generic
//! encoder (PERFORMANCE.md, "Why the generic TOON encoder misses").

use std::borrow::Cow;

use serde::Serialize;
use serde::ser::{self, Impossible};

use super::cell::{CellSerializer, NotARow, not_a_row};
use super::value::{self, Value};
use super::{Delimiter, ToonOptions, quote};

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
    fn list(self, len: Option<usize>) -> Result<TableWriter<'o>, NotARow> {
        match len {
            // The header holds the count before the rows: a list of unknown length, and the
            // empty list (`[]`, no table), are left to the tree path.
            Some(len) if len > 0 => Ok(TableWriter {
                options: self.options,
                len,
                written: 0,
                names: Vec::new(),
                out: String::new(),
                scratch: String::new(),
            }),
            _ => Err(NotARow),
        }
    }
}

impl<'o> ser::Serializer for RootSerializer<'o> {
    type Ok = String;
    type Error = NotARow;
    type SerializeSeq = TableWriter<'o>;
    type SerializeTuple = TableWriter<'o>;
    type SerializeTupleStruct = Impossible<String, NotARow>;
    type SerializeTupleVariant = Impossible<String, NotARow>;
    type SerializeMap = Impossible<String, NotARow>;
    type SerializeStruct = Impossible<String, NotARow>;
    type SerializeStructVariant = Impossible<String, NotARow>;

    fn serialize_seq(self, len: Option<usize>) -> Result<TableWriter<'o>, NotARow> {
        self.list(len)
    }

    fn serialize_tuple(self, len: usize) -> Result<TableWriter<'o>, NotARow> {
        self.list(Some(len))
    }

    // The tree path sees through both wrappers; so does the stream.
    fn serialize_some<V: Serialize + ?Sized>(self, value: &V) -> Result<String, NotARow> {
        value.serialize(self)
    }

    fn serialize_newtype_struct<V: Serialize + ?Sized>(
        self,
        _name: &'static str,
        value: &V,
    ) -> Result<String, NotARow> {
        value.serialize(self)
    }

    fn serialize_newtype_variant<V: Serialize + ?Sized>(
        self,
        _name: &'static str,
        _index: u32,
        _variant: &'static str,
        _value: &V,
    ) -> Result<String, NotARow> {
        Err(NotARow)
    }

    not_a_row!(primitives -> String);

    not_a_row! {
        serialize_tuple_struct(&'static str, usize) -> Self::SerializeTupleStruct;
        serialize_tuple_variant(&'static str, u32, &'static str, usize) -> Self::SerializeTupleVariant;
        serialize_map(Option<usize>) -> Self::SerializeMap;
        serialize_struct(&'static str, usize) -> Self::SerializeStruct;
        serialize_struct_variant(&'static str, u32, &'static str, usize) -> Self::SerializeStructVariant;
    }
}

/// Writes the table: the header from the first element, then one row per element.
struct TableWriter<'o> {
    options: &'o ToonOptions,
    /// The element count the list announced, which the header states.
    len: usize,
    /// How many rows were written.
    written: usize,
    /// The schema: the first element's member names in its order.
    names: Vec<Cow<'static, str>>,
    out: String,
    /// Where map keys are written to be compared with the schema's names.
    scratch: String,
}

impl TableWriter<'_> {
    /// Takes the schema from the first element and writes the header (`[N|]{a|b}:`).
    fn start<V: Serialize + ?Sized>(&mut self, first: &V) -> Result<(), NotARow> {
        self.names = flat_schema(first)?;
        let delimiter = self.options.delimiter();
        self.out.reserve(64);
        self.out.push('[');
        quote::push_integer(&mut self.out, self.len);
        match delimiter {
            Delimiter::Comma => {}
            Delimiter::Tab => self.out.push('\t'),
            Delimiter::Pipe => self.out.push('|'),
        }
        self.out.push_str("]{");
        for (i, name) in self.names.iter().enumerate() {
            if i > 0 {
                self.out.push(delimiter.as_char());
            }
            quote::push_key(&mut self.out, name);
        }
        self.out.push_str("}:");
        Ok(())
    }

    fn row<V: Serialize + ?Sized>(&mut self, element: &V) -> Result<(), NotARow> {
        if self.written == 0 {
            self.start(element)?;
        }
        if self.written == self.len {
            return Err(NotARow); // More elements than announced.
        }
        let before = self.out.len();
        // Every row is a line at depth 1.
        self.out.push('\n');
        self.out
            .extend(std::iter::repeat_n(' ', self.options.indent()));
        element.serialize(RowSerializer {
            out: &mut self.out,
            names: &self.names,
            delimiter: self.options.delimiter().as_byte(),
            scratch: &mut self.scratch,
        })?;
        self.written += 1;
        if self.written == 1 {
            // Size the rest of the table on the first row, as the compile-time path does.
            let row = self.out.len() - before;
            let rest = self.len - 1;
            self.out
                .reserve(row.saturating_add(row / 8).saturating_mul(rest));
        }
        Ok(())
    }

    fn finish(self) -> Result<String, NotARow> {
        if self.written == self.len {
            Ok(self.out)
        } else {
            Err(NotARow) // Fewer elements than announced.
        }
    }
}

impl ser::SerializeSeq for TableWriter<'_> {
    type Ok = String;
    type Error = NotARow;

    fn serialize_element<V: Serialize + ?Sized>(&mut self, value: &V) -> Result<(), NotARow> {
        self.row(value)
    }

    fn end(self) -> Result<String, NotARow> {
        self.finish()
    }
}

impl ser::SerializeTuple for TableWriter<'_> {
    type Ok = String;
    type Error = NotARow;

    fn serialize_element<V: Serialize + ?Sized>(&mut self, value: &V) -> Result<(), NotARow> {
        self.row(value)
    }

    fn end(self) -> Result<String, NotARow> {
        self.finish()
    }
}

/// The member names of `first` when it is a non-empty object of primitives (a table the
/// stream can write); its tree also checks the names are distinct (wire format §5.10 P4).
fn flat_schema<V: Serialize + ?Sized>(first: &V) -> Result<Vec<Cow<'static, str>>, NotARow> {
    let tree = value::to_tree(first).map_err(|_| NotARow)?;
    let Value::Object(members) = &tree.root else {
        return Err(NotARow);
    };
    if members.is_empty() || !members.iter().all(|(_, value)| value.is_primitive()) {
        return Err(NotARow);
    }
    let text = tree.text();
    Ok(members
        .iter()
        .map(|(key, _)| match *key {
            value::Key::Static(name) => Cow::Borrowed(name),
            value::Key::Text(_) => Cow::Owned(text.key(key).to_owned()),
        })
        .collect())
}

/// Whether a member name is the schema's: elements of one struct type pass the very
/// `&'static str` the schema holds, so the common case compares no bytes.
fn is_named(name: &str, key: &str) -> bool {
    std::ptr::eq(name, key) || name == key
}

/// Writes one element as the cells of a table row; anything but an object of primitives with
/// exactly the schema's names, in its order, is [`NotARow`].
struct RowSerializer<'o> {
    out: &'o mut String,
    names: &'o [Cow<'static, str>],
    delimiter: u8,
    scratch: &'o mut String,
}

/// Accepts the members of one row one by one, struct fields or map entries.
struct RowWriter<'o> {
    out: &'o mut String,
    names: &'o [Cow<'static, str>],
    delimiter: u8,
    scratch: &'o mut String,
    /// How many names were matched (for a map, a matched key may still await its value).
    next: usize,
    /// Whether a map key was matched and its value is due.
    key_pending: bool,
}

impl RowWriter<'_> {
    /// Matches the next member's name against the schema.
    fn name(&mut self, key: &str) -> Result<(), NotARow> {
        match self.names.get(self.next) {
            Some(name) if is_named(name, key) => {
                self.next += 1;
                Ok(())
            }
            _ => Err(NotARow),
        }
    }

    /// Writes the cell of the member just matched.
    fn cell<V: Serialize + ?Sized>(&mut self, value: &V) -> Result<(), NotARow> {
        if self.next > 1 {
            self.out.push(char::from(self.delimiter));
        }
        value.serialize(CellSerializer {
            out: self.out,
            delimiter: self.delimiter,
        })
    }

    fn finish(&self) -> Result<(), NotARow> {
        if self.next == self.names.len() && !self.key_pending {
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
        let name = value::member_name(key, self.scratch).map_err(|_| NotARow)?;
        match self.names.get(self.next) {
            Some(expected) if is_named(expected, name) => self.next += 1,
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
            out: self.out,
            names: self.names,
            delimiter: self.delimiter,
            scratch: self.scratch,
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

    // The tree path sees through both wrappers; so does the row.
    fn serialize_some<V: Serialize + ?Sized>(self, value: &V) -> Result<(), NotARow> {
        value.serialize(self)
    }

    fn serialize_newtype_struct<V: Serialize + ?Sized>(
        self,
        _name: &'static str,
        value: &V,
    ) -> Result<(), NotARow> {
        value.serialize(self)
    }

    fn serialize_newtype_variant<V: Serialize + ?Sized>(
        self,
        _name: &'static str,
        _index: u32,
        _variant: &'static str,
        _value: &V,
    ) -> Result<(), NotARow> {
        Err(NotARow)
    }

    not_a_row!(primitives -> ());

    not_a_row! {
        serialize_seq(Option<usize>) -> Self::SerializeSeq;
        serialize_tuple(usize) -> Self::SerializeTuple;
        serialize_tuple_struct(&'static str, usize) -> Self::SerializeTupleStruct;
        serialize_tuple_variant(&'static str, u32, &'static str, usize) -> Self::SerializeTupleVariant;
        serialize_struct_variant(&'static str, u32, &'static str, usize) -> Self::SerializeStructVariant;
    }
}

#[cfg(test)]
mod tests;
