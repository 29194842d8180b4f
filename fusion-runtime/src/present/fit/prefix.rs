//! A collection's data block grown item by item, for the prefix search of [`super`]: the JSON
//! list or the TOON table, each item written once, in place, and its tokens counted as it is
//! appended, so that the data block of any prefix, and its estimate, is at hand without
//! writing anything again.
//!
//! The tally counts the text in whole blocks as it grows ([`TokenTally::push_blocks`]: after
//! every item, but short items every few hundred bytes where a block path counts a text's last
//! bytes whole), so every byte is counted once and at block speed wherever the items end; an
//! item's saved tally covers the text up to the last count before its end, and the bytes after
//! it are counted when that prefix's estimate is asked for.

use std::cell::{Cell, RefCell};

use super::super::presentation::{Selected, Shape};
use crate::encode::tokens::{TokenTally, estimate};
#[cfg(test)]
use crate::encode::toon;
use crate::encode::toon::ToonOptions;
use crate::encode::toon::encode::{push_list_element, push_list_header, starts_element_list};
use crate::encode::toon::table::{Members, Row, Rows, TableRows};
use crate::encode::toon::value::to_tree_in;
use crate::encode::{EncodeError, json};
use crate::model::Model;
use crate::response::{Format, ResponseBuilder, toon_presented_text};

/// A data block grown item by item.
pub(super) trait DataPrefix<T> {
    /// How many items are written.
    fn len(&self) -> usize;

    /// Writes the items of `all` after those written until `count` are (or all are), sizing
    /// the buffers for them; `false` when an item cannot be written so (a TOON row that is no
    /// row of the table: the collection is then fitted by full renders).
    fn extend(&mut self, all: &[T], count: usize) -> Result<bool, EncodeError>;

    /// Makes room, before anything is written, for a data block of about `tokens` estimated
    /// tokens (the room of a budget: a search writes about that much).
    fn reserve_tokens(&mut self, tokens: usize);

    /// The estimated tokens of the data block of the first `kept` items (`kept` ≥ 1).
    fn tokens(&self, kept: usize) -> usize;

    /// The data block of the first `kept` items (`kept` ≥ 1), of `all` the items written.
    fn into_data(self, kept: usize, all: &[T]) -> Result<ResponseBuilder, EncodeError>;
}

/// Text grown item by item and its tally: per item, where it ends, and how far the tally had
/// counted then, with the tally there.
struct Tallied {
    text: String,
    /// The tally of `text[..counted]`.
    tally: TokenTally,
    counted: usize,
    /// How much of the text may be left uncounted between counts.
    uncounted: usize,
    ends: Vec<(usize, usize, TokenTally)>,
    /// Per item, once asked for: the tally up to its end (the prefix search asks for the same
    /// prefixes in each round).
    known: Vec<Cell<Option<TokenTally>>>,
}

impl Tallied {
    fn new(text: String, tally: TokenTally) -> Self {
        Tallied {
            text,
            tally,
            counted: 0,
            uncounted: TokenTally::uncounted_bytes(),
            ends: Vec::new(),
            known: Vec::new(),
        }
    }

    /// Records this item's end with the tally so far, first counting the whole blocks written
    /// since the last count when they are more than the tally leaves uncounted
    /// ([`TokenTally::uncounted_bytes`]: a TOON table's rows are about 90 bytes, and a count
    /// after every one cost the table's fit 6% at 8,000 and 25,000 tokens), or when the item
    /// alone is a quarter of that: a count's own cost is small beside a long item's, and the
    /// rest is counted again for every prefix a search asks about ([`Tallied::at`]).
    fn item_written(&mut self) {
        let start = self.ends.last().map_or(0, |&(end, ..)| end);
        let (waiting, item) = (self.text.len() - self.counted, self.text.len() - start);
        if waiting >= self.uncounted || 4 * item >= self.uncounted {
            self.counted += self.tally.push_blocks(&self.text[self.counted..]);
        }
        self.ends.push((self.text.len(), self.counted, self.tally));
        self.known.push(Cell::new(None));
    }

    /// The tally of the text up to the end of item `kept` (≥ 1), and where that end is.
    fn at(&self, kept: usize) -> (TokenTally, usize) {
        let (end, counted, mut tally) = self.ends[kept - 1];
        let known = &self.known[kept - 1];
        if let Some(tally) = known.get() {
            return (tally, end);
        }
        tally.push(&self.text[counted..end]);
        known.set(Some(tally));
        (tally, end)
    }

    /// The items of `all` after those written, up to the first `count` (none when `count` are
    /// written already), with the buffers sized for them.
    fn unwritten<'a, T>(&mut self, all: &'a [T], count: usize) -> &'a [T] {
        let items = all
            .get(self.ends.len()..count.min(all.len()))
            .unwrap_or_default();
        if !items.is_empty() {
            self.reserve_for(count);
        }
        items
    }

    /// Makes room for the text of about `tokens` estimated tokens: growing it one doubling at
    /// a time, from one item's size to the room's, cost 7% of a fit of wide rows at 2,000
    /// tokens. Four bytes a token is more than JSON and TOON take (billing JSON 3.3, wide
    /// rows of non-ASCII text 3.0, TOON 2.7), and a larger text is still grown as needed. At
    /// most 16 KiB up front: 100 KB reserved for 25,000 tokens and freed after every fit was
    /// handed back to the system each time and touched afresh by the next (the TOON table at
    /// 25,000 tokens went from 1.39x to 1.69x its render).
    fn reserve_tokens(&mut self, tokens: usize) {
        const BYTES_PER_TOKEN: usize = 4;
        const MOST: usize = 16 * 1024;
        self.text
            .reserve(tokens.saturating_mul(BYTES_PER_TOKEN).min(MOST));
    }

    /// The estimate of a TOON data block of the first `kept` items: `header` (which ends in
    /// `:`, as the tally's start assumed), then their lines.
    fn tokens_after(&self, header: &str, kept: usize) -> usize {
        if kept == 0 {
            return estimate("[]");
        }
        let mut tally = TokenTally::new();
        tally.push(header);
        let (lines, _) = self.at(kept);
        tally.then(lines).tokens()
    }

    /// The TOON data block of the first `kept` of `all`: `header`, then their lines; its wire
    /// value, the kept items', when `keep_value` (see [`Shape::value`]).
    fn into_toon<T: Model>(
        self,
        header: &str,
        kept: usize,
        all: &[T],
        members: Members<'_>,
        keep_value: bool,
    ) -> Result<ResponseBuilder, EncodeError> {
        let (_, end) = self.at(kept);
        // The rows move up in their own buffer, which mostly has room for the header (sized
        // for the room's tokens): no second buffer to copy them into.
        let mut text = self.text;
        text.truncate(end);
        text.insert_str(0, header);
        let wire = Rows {
            items: &all[..kept],
            members,
        };
        toon_presented_text(text, &wire, keep_value)
    }

    /// Sizes the buffers for `count` items, from the size of those written: growing them by
    /// doubling would copy them about twice.
    fn reserve_for(&mut self, count: usize) {
        let written = self.ends.len();
        if written == 0 || count <= written {
            return;
        }
        // One item more than asked for: the search writes one past the answer, and a JSON
        // list's close is written at the end.
        let more = count - written + 1;
        let bytes = (self.text.len() / written).saturating_mul(more);
        self.text.reserve(bytes);
        self.ends.reserve(more);
        self.known.reserve(more);
    }
}

/// The JSON data block (wire format §3): `[`, then each item after `\n  ` or `,\n  `, indented
/// one level, as the collection writer writes its elements; `\n]` closes a prefix.
pub(super) struct JsonPrefix<'s, 'c, Ctx: ?Sized> {
    shape: &'s Shape<'c, Ctx>,
    counted: Tallied,
    /// Compact JSON (wire format §3.8): each item written as §3 lays it out, then compacted
    /// (the compact form of a list is its elements' compact forms, joined by `,` in `[...]`).
    compact: Option<String>,
}

impl<'s, 'c, Ctx: ?Sized> JsonPrefix<'s, 'c, Ctx> {
    pub(super) fn new(shape: &'s Shape<'c, Ctx>) -> Self {
        JsonPrefix {
            shape,
            counted: Tallied::new(String::from("["), TokenTally::new()),
            compact: (shape.format == Format::CompactJson).then(String::new),
        }
    }

    /// What closes the list after its last item.
    fn close(&self) -> &'static str {
        if self.compact.is_some() { "]" } else { "\n]" }
    }

    /// The data block of the first `kept` items.
    #[cfg(test)]
    pub(super) fn text(&self, kept: usize) -> String {
        if kept == 0 {
            return "[]".to_owned();
        }
        let (_, end) = self.counted.at(kept);
        format!("{}{}", &self.counted.text[..end], self.close())
    }
}

impl<T: Model, Ctx: ?Sized> DataPrefix<T> for JsonPrefix<'_, '_, Ctx> {
    fn len(&self) -> usize {
        self.counted.ends.len()
    }

    fn extend(&mut self, all: &[T], count: usize) -> Result<bool, EncodeError> {
        let mask = self.shape.mask;
        let counted = &mut self.counted;
        let items = counted.unwritten(all, count);
        if items.is_empty() {
            return Ok(true);
        }
        let compact = &mut self.compact;
        json::with_elements(|elements| {
            for item in items {
                let first = counted.ends.is_empty();
                let text = &mut counted.text;
                // Laid out in the list's text, or in the scratch text that is then compacted.
                let out = if let Some(scratch) = compact {
                    scratch.clear();
                    scratch
                } else {
                    text.push_str(if first { "\n  " } else { ",\n  " });
                    &mut *text
                };
                match mask {
                    None => elements.append(out, item)?,
                    Some(mask) => elements.append(out, &Selected { item, mask })?,
                }
                if let Some(scratch) = compact {
                    if !first {
                        text.push(',');
                    }
                    json::compact_into(text, scratch);
                }
                counted.item_written();
            }
            Ok(true)
        })
    }

    fn reserve_tokens(&mut self, tokens: usize) {
        self.counted.reserve_tokens(tokens);
    }

    fn tokens(&self, kept: usize) -> usize {
        if kept == 0 {
            return estimate("[]");
        }
        let (mut tally, _) = self.counted.at(kept);
        tally.push(self.close());
        tally.tokens()
    }

    /// In the buffer the items were written to (no copy).
    fn into_data(self, kept: usize, all: &[T]) -> Result<ResponseBuilder, EncodeError> {
        let (_, end) = self.counted.at(kept);
        let close = self.close();
        let mut text = self.counted.text;
        text.truncate(end);
        text.push_str(close);
        let wire = Rows {
            items: &all[..kept],
            members: self.shape.mask.map_or(Members::Every, Members::Selected),
        };
        ResponseBuilder::presented_json_text(text, &wire, self.shape.value)
    }
}

/// The TOON table of a presented collection (wire format §9): the rows, each after its line
/// break and indentation, counted after a header; the header, which holds the row count, is
/// written for the prefix chosen (it ends in `:` whatever the count, so the rows' tally holds
/// after any header).
pub(super) struct ToonPrefix<'m> {
    rows: TableRows<'m>,
    /// The header after its count, `{names}:`, and its tally after the count's `]`.
    fields: String,
    fields_tally: TokenTally,
    members: Members<'m>,
    counted: Tallied,
    keep_value: bool,
    /// The text a count is written to to be counted (the search asks for many counts).
    count_scratch: RefCell<String>,
}

impl<'m> ToonPrefix<'m> {
    /// The table of `T`'s rows with the members `shape` selects; `None` when no table holds
    /// them (their TOON is then the generic encoding).
    pub(super) fn new<T: Model, Ctx: ?Sized>(shape: &Shape<'m, Ctx>) -> Option<Self> {
        let members = shape.mask.map_or(Members::Every, Members::Selected);
        let rows = TableRows::new::<T>(members, &ToonOptions::pipe())?;
        // Sized for the header of twenty short names, most tables' whole header.
        let mut fields = String::with_capacity(256);
        rows.push_fields(&mut fields);
        let mut fields_tally = TokenTally::after("]");
        fields_tally.push(&fields);
        Some(ToonPrefix {
            rows,
            fields,
            fields_tally,
            members,
            counted: Tallied::new(String::new(), TokenTally::after(":")),
            keep_value: shape.value,
            count_scratch: RefCell::new(String::with_capacity(24)),
        })
    }

    /// The header of a table of `kept` rows: its count, then the fields.
    fn header(&self, kept: usize) -> String {
        let mut header = String::with_capacity(24 + self.fields.len());
        self.rows.push_count(&mut header, kept);
        header.push_str(&self.fields);
        header
    }
}

impl<T: Model> DataPrefix<T> for ToonPrefix<'_> {
    fn len(&self) -> usize {
        self.counted.ends.len()
    }

    fn extend(&mut self, all: &[T], count: usize) -> Result<bool, EncodeError> {
        for item in self.counted.unwritten(all, count) {
            if !self.rows.push_row(&mut self.counted.text, item) {
                return Ok(false);
            }
            self.counted.item_written();
        }
        Ok(true)
    }

    fn reserve_tokens(&mut self, tokens: usize) {
        self.counted.reserve_tokens(tokens);
    }

    /// The count's tally, then the fields' (counted once: only the count changes with the
    /// prefix), then the rows'.
    fn tokens(&self, kept: usize) -> usize {
        if kept == 0 {
            return estimate("[]");
        }
        let mut count = TokenTally::new();
        {
            let mut text = self.count_scratch.borrow_mut();
            text.clear();
            self.rows.push_count(&mut text, kept);
            count.push(&text);
        }
        let (rows, _) = self.counted.at(kept);
        count.then(self.fields_tally).then(rows).tokens()
    }

    /// The header, then the kept rows.
    fn into_data(self, kept: usize, all: &[T]) -> Result<ResponseBuilder, EncodeError> {
        let header = self.header(kept);
        self.counted
            .into_toon(&header, kept, all, self.members, self.keep_value)
    }
}

/// The TOON list of a presented collection whose items are no table rows (wire format §9.8: a
/// nested member, say): `[N|]:`, then each item as a list element, `\n  - ` and its fields,
/// written from its own tree. Each element's text depends on that item alone, so the list of
/// any prefix is the header of its count and the elements written; the header is written for
/// the prefix chosen, as the table's is.
pub(super) struct ToonListPrefix<'m> {
    members: Members<'m>,
    options: ToonOptions,
    counted: Tallied,
    keep_value: bool,
    /// The text of the last element's tree, the next one's to be built in: an element's tree
    /// built from nothing grew its text a doubling at a time, 5% of the fit of billing as TOON.
    tree_text: String,
}

impl<'m> ToonListPrefix<'m> {
    /// The list of the members `shape` selects.
    pub(super) fn new<Ctx: ?Sized>(shape: &Shape<'m, Ctx>) -> Self {
        ToonListPrefix {
            members: shape.mask.map_or(Members::Every, Members::Selected),
            options: ToonOptions::pipe(),
            counted: Tallied::new(String::new(), TokenTally::after(":")),
            keep_value: shape.value,
            tree_text: String::new(),
        }
    }

    fn header(&self, kept: usize) -> String {
        let mut header = String::with_capacity(16);
        push_list_header(&mut header, kept, &self.options);
        header
    }
}

impl<T: Model> DataPrefix<T> for ToonListPrefix<'_> {
    fn len(&self) -> usize {
        self.counted.ends.len()
    }

    /// `false` when the first item could be a table row: whether the list is a table then
    /// depends on the items after it, and the collection is fitted by renders.
    fn extend(&mut self, all: &[T], count: usize) -> Result<bool, EncodeError> {
        for item in self.counted.unwritten(all, count) {
            let members = self.members;
            let text = std::mem::take(&mut self.tree_text);
            let tree = to_tree_in(&Row { item, members }, text).map_err(EncodeError::from)?;
            if self.counted.ends.is_empty() && !starts_element_list(&tree) {
                return Ok(false);
            }
            push_list_element(&mut self.counted.text, &tree, &self.options);
            self.tree_text = tree.into_text();
            self.counted.item_written();
        }
        Ok(true)
    }

    fn reserve_tokens(&mut self, tokens: usize) {
        self.counted.reserve_tokens(tokens);
    }

    fn tokens(&self, kept: usize) -> usize {
        self.counted.tokens_after(&self.header(kept), kept)
    }

    /// The header, then the kept elements.
    fn into_data(self, kept: usize, all: &[T]) -> Result<ResponseBuilder, EncodeError> {
        let header = self.header(kept);
        self.counted
            .into_toon(&header, kept, all, self.members, self.keep_value)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::FieldMask;
    use crate::response::Format;

    /// A hand-written model of three members, one holding line feeds and one a nested list
    /// (no TOON table row).
    struct Row(u32, &'static str);

    impl serde::Serialize for Row {
        fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
            self.serialize_selected(&FieldMask::ALL, serializer)
        }
    }

    impl Model for Row {
        type Field = crate::model::NoField;
        const NAME: &'static str = "Row";
        const WIRE_NAMES: &'static [&'static str] = &["id", "note", "tags"];

        fn serialize_selected<S: serde::Serializer>(
            &self,
            _: &FieldMask,
            serializer: S,
        ) -> Result<S::Ok, S::Error> {
            use serde::ser::SerializeStruct;
            let mut state = serializer.serialize_struct("Row", 3)?;
            state.serialize_field("id", &self.0)?;
            state.serialize_field("note", self.1)?;
            state.serialize_field("tags", &[self.1, "x"])?;
            state.end()
        }
    }

    /// A hand-written model of two primitive members: a TOON table row.
    struct Cell(u32, &'static str);

    impl serde::Serialize for Cell {
        fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
            self.serialize_selected(&FieldMask::ALL, serializer)
        }
    }

    impl Model for Cell {
        type Field = crate::model::NoField;
        const NAME: &'static str = "Cell";
        const WIRE_NAMES: &'static [&'static str] = &["id", "note"];

        fn serialize_selected<S: serde::Serializer>(
            &self,
            _: &FieldMask,
            serializer: S,
        ) -> Result<S::Ok, S::Error> {
            use serde::ser::SerializeStruct;
            let mut state = serializer.serialize_struct("Cell", 2)?;
            state.serialize_field("id", &self.0)?;
            state.serialize_field("note", self.1)?;
            state.end()
        }
    }

    fn shape(format: Format) -> Shape<'static, ()> {
        Shape {
            ctx: &(),
            mask: None,
            format,
            value: true,
            said: &[],
            projected: false,
            reserved: 0,
        }
    }

    /// The data block a prefix's `into_data` holds.
    fn data_block<T>(data: impl DataPrefix<T>, kept: usize, all: &[T]) -> String {
        data.into_data(kept, all).unwrap().build().blocks()[0].clone()
    }

    #[test]
    fn every_prefix_is_the_json_of_that_many_items_and_its_estimate() {
        let rows = [Row(1, "a\nb"), Row(2, "</domain_rules>"), Row(3, "")];
        let shape = shape(Format::Json);
        let mut data = JsonPrefix::new(&shape);
        assert!(data.extend(&rows, usize::MAX).unwrap());
        for kept in 0..=rows.len() {
            let whole = json::to_string(&rows[..kept]).unwrap();
            assert_eq!(data.text(kept), whole);
            assert_eq!(DataPrefix::<Row>::tokens(&data, kept), estimate(&whole));
        }
        let last = data.text(2);
        assert_eq!(data_block(data, 2, &rows), last);
    }

    #[test]
    fn every_prefix_is_the_toon_table_of_that_many_rows_and_its_estimate() {
        // Long enough for the tally to count whole blocks.
        let notes = [
            "a note | with a pipe",
            "plain",
            "",
            "\"quoted\"",
            "ünïcødé 😬",
        ];
        let cells: Vec<Cell> = (0..40).map(|i| Cell(i, notes[i as usize % 5])).collect();
        let shape = shape(Format::Toon);
        let mut data = ToonPrefix::new::<Cell, ()>(&shape).expect("a table");
        assert!(data.extend(&cells, usize::MAX).unwrap());
        let table = |kept: usize| {
            toon::table::encode_rows(&cells[..kept], Members::Every, &ToonOptions::pipe()).unwrap()
        };
        for kept in 1..=cells.len() {
            assert_eq!(
                DataPrefix::<Cell>::tokens(&data, kept),
                estimate(&table(kept)),
                "{kept}"
            );
        }
        assert_eq!(data_block(data, 17, &cells), table(17));
    }

    #[test]
    fn every_prefix_is_the_toon_list_of_that_many_items_and_its_estimate() {
        // Rows holding a list: no table, each item a list element (wire format §9.8).
        let notes = [
            "a note | with a pipe",
            "line\nbreak",
            "",
            "- dash",
            "ünïcødé 😬",
        ];
        let rows: Vec<Row> = (0..30).map(|i| Row(i, notes[i as usize % 5])).collect();
        let shape = shape(Format::Toon);
        let mut data = ToonListPrefix::new(&shape);
        assert!(data.extend(&rows, usize::MAX).unwrap());
        let list = |kept: usize| {
            toon::table::encode_rows(&rows[..kept], Members::Every, &ToonOptions::pipe()).unwrap()
        };
        for kept in 1..=rows.len() {
            assert_eq!(
                DataPrefix::<Row>::tokens(&data, kept),
                estimate(&list(kept)),
                "{kept}"
            );
        }
        assert_eq!(data_block(data, 11, &rows), list(11));
        // A first item that could be a table row: the list may still be a table.
        let cells = [Cell(1, "x")];
        assert!(
            !ToonListPrefix::new(&shape)
                .extend(&cells, usize::MAX)
                .unwrap()
        );
    }

    #[test]
    fn a_row_that_is_no_table_row_stops_the_toon_prefix() {
        let shape = shape(Format::Toon);
        let mut data = ToonPrefix::new::<Row, ()>(&shape).expect("a header");
        assert!(!data.extend(&[Row(1, "x")], usize::MAX).unwrap());
    }
}
