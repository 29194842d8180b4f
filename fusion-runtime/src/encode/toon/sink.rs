//! The table sink (wire format §9.6): a TOON table's layout ([`Table`]: its member names, the
//! delimiter, the indentation of a row) and the text of one table grown row by row
//! ([`TableText`]). Rows go in through the one row serializer (`row`), whoever writes them: a
//! collection of models (`table`), a root list given to [`encode()`](super::encode()) (`stream`),
//! or a collection fitted to a budget item by item (`present/fit/prefix.rs`).

use std::borrow::Cow;

use serde::Serialize;

use super::cell::NotARow;
use super::row::RowSerializer;
use super::value::{self, Value};
use super::{Delimiter, ToonOptions, quote};

/// How the rows of one table are written: its header's member names, the delimiter, and what
/// starts every row.
pub(crate) struct Table {
    names: Vec<Cow<'static, str>>,
    delimiter: Delimiter,
    /// A line break and one indentation step (depth 1): what starts every row.
    line_start: String,
    /// Where the row serializer writes a map key to compare it with the names.
    scratch: String,
}

impl Table {
    /// The table of `names`, or `None` when no table holds them: rows of no members are empty
    /// objects (wire format §9.6 wants at least one), two equal names are an error the tree
    /// path reports, and an indentation of zero is refused.
    pub(crate) fn new(names: Vec<Cow<'static, str>>, options: &ToonOptions) -> Option<Self> {
        if names.is_empty() || has_duplicates(&names) || options.indent() == 0 {
            return None;
        }
        let mut line_start = String::with_capacity(options.indent() + 1);
        line_start.push('\n');
        line_start.extend(std::iter::repeat_n(' ', options.indent()));
        Some(Table {
            names,
            delimiter: options.delimiter(),
            line_start,
            scratch: String::new(),
        })
    }

    /// The table whose rows are shaped like `first`: its member names when it is a non-empty
    /// object of primitives, or `None` (its tree also checks the names are distinct, wire
    /// format §5.10 P4).
    pub(crate) fn of_first<V: Serialize + ?Sized>(
        first: &V,
        options: &ToonOptions,
    ) -> Option<Self> {
        let tree = value::to_tree(first).ok()?;
        let Value::Object(members) = &tree.root else {
            return None;
        };
        if !members.iter().all(|(_, value)| value.is_primitive()) {
            return None;
        }
        let text = tree.text();
        let names = members
            .iter()
            .map(|(key, _)| match *key {
                value::Key::Static(name) => Cow::Borrowed(name),
                value::Key::Text(_) => Cow::Owned(text.key(key).to_owned()),
            })
            .collect();
        Table::new(names, options)
    }

    /// Appends the header of a table of `rows` rows: `[N|]{names}:` (the delimiter shown when
    /// it is not a comma). It ends in `:` whatever the count.
    pub(crate) fn push_header(&self, out: &mut String, rows: usize) {
        self.push_count(out, rows);
        self.push_fields(out);
    }

    /// The header's first part, `[N|]`: all that depends on the count.
    pub(crate) fn push_count(&self, out: &mut String, rows: usize) {
        quote::push_count(out, rows, false, self.delimiter);
    }

    /// The header's second part, `{names}:`: the same for any count.
    pub(crate) fn push_fields(&self, out: &mut String) {
        out.push('{');
        for (i, name) in self.names.iter().enumerate() {
            if i > 0 {
                out.push(self.delimiter.as_char());
            }
            quote::push_key(out, name);
        }
        out.push_str("}:");
    }

    /// Appends `row` as the next row, after its line break and indentation; `false` when it is
    /// no row of this table (`out` then holds part of it: discard it).
    pub(crate) fn push_row<V: Serialize + ?Sized>(&mut self, out: &mut String, row: &V) -> bool {
        out.push_str(&self.line_start);
        row.serialize(RowSerializer {
            out,
            names: &self.names,
            delimiter: self.delimiter.as_byte(),
            scratch: &mut self.scratch,
        })
        .is_ok()
    }
}

/// Whether two of `names` are equal; a model has a handful of members.
fn has_duplicates(names: &[Cow<'static, str>]) -> bool {
    names
        .iter()
        .enumerate()
        .any(|(i, name)| names[..i].contains(name))
}

/// The text of one whole table of a known number of rows: the header, then each row as it
/// comes; [`NotARow`] for a row that does not fit, or a count other than the header's.
pub(crate) struct TableText {
    table: Table,
    out: String,
    /// The row count the header states.
    len: usize,
    /// How many rows were written.
    written: usize,
}

impl TableText {
    /// The header of a table of `len` rows, in a buffer sized for a first row.
    pub(crate) fn new(table: Table, len: usize) -> Self {
        let mut out = String::with_capacity(64);
        table.push_header(&mut out, len);
        TableText {
            table,
            out,
            len,
            written: 0,
        }
    }

    /// Appends the next row.
    pub(crate) fn push<V: Serialize + ?Sized>(&mut self, row: &V) -> Result<(), NotARow> {
        if self.written == self.len {
            return Err(NotARow); // More rows than the header says.
        }
        let before = self.out.len();
        if !self.table.push_row(&mut self.out, row) {
            return Err(NotARow);
        }
        self.written += 1;
        if self.written == 1 {
            // Size the rest of the table on the first row: one allocation instead of a
            // doubling series that copies the text again at each step.
            let row = self.out.len() - before;
            let rest = self.len - 1;
            self.out
                .reserve(row.saturating_add(row / 8).saturating_mul(rest));
        }
        Ok(())
    }

    /// The table's text, when it holds as many rows as its header says.
    pub(crate) fn finish(self) -> Result<String, NotARow> {
        if self.written == self.len {
            Ok(self.out)
        } else {
            Err(NotARow) // Fewer rows than the header says.
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn duplicate_names_are_found() {
        let names =
            |list: &[&'static str]| list.iter().map(|n| Cow::Borrowed(*n)).collect::<Vec<_>>();
        assert!(has_duplicates(&names(&["a", "b", "a"])));
        assert!(!has_duplicates(&names(&["a", "b", "c"])));
        assert!(Table::new(names(&["a", "a"]), &ToonOptions::pipe()).is_none());
        assert!(Table::new(names(&[]), &ToonOptions::pipe()).is_none());
    }

    #[test]
    fn a_table_states_its_count_and_takes_that_many_rows() {
        #[derive(Serialize)]
        struct Line {
            sku: &'static str,
            qty: u32,
        }
        let line = Line { sku: "A|1", qty: 2 };
        let table = Table::of_first(&line, &ToonOptions::pipe()).expect("a table");
        let mut text = TableText::new(table, 2);
        text.push(&line).unwrap();
        text.push(&Line { sku: "B", qty: 3 }).unwrap();
        assert!(text.push(&line).is_err(), "a third row");
        assert_eq!(text.finish().unwrap(), "[2|]{sku|qty}:\n  \"A|1\"|2\n  B|3");
        let table = Table::of_first(&line, &ToonOptions::pipe()).expect("a table");
        let mut short = TableText::new(table, 2);
        short.push(&line).unwrap();
        assert!(short.finish().is_err(), "one row of two");
    }
}
