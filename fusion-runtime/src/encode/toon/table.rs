//! The compile-time path (wire format §9.1): a collection of models written as one TOON table straight
//! from the models, without building a generic value.
//!
//! The header comes from [`Model::WIRE_NAMES`] (the derive's field list, keys encoded once per
//! table); each row goes into the table sink (`sink`) through the one row serializer (`row`),
//! which the model's generated wire writer drives field by field in declaration order, each
//! cell written with the same token functions as the generic encoder. Monomorphized per model,
//! that is straight-line code: no tree, one output `String`.
//!
//! Whenever a row is not what the header promises (a member that is not a primitive, a member
//! skipped by `skip_serializing_if`, other names or another order, a `Serialize` impl that
//! fails), the whole collection is handed to the generic encoder instead, which then writes the
//! form wire format §9.5 prescribes. So the result is always byte-identical to [`super::encode`].

use std::borrow::Cow;

use serde::Serialize;
use serde::ser;

use super::sink::{Table, TableText};
use super::{ToonError, ToonOptions, encode};
use crate::model::{FieldMask, Model};

/// Encodes a collection of models as a TOON document, byte-identical to
/// [`encode`](super::encode)`(items, options)`.
///
/// A collection whose rows all hold the model's members as primitives, in declaration order,
/// is written as a table directly from the models (the compile-time path); any other collection
/// (a nested model, a list member, a member skipped by `skip_serializing_if`) is encoded by the
/// generic encoder, which picks the form the TOON specification requires.
///
/// ```
/// use fusion_runtime::Presenter;
/// use fusion_runtime::toon::{self, ToonOptions};
///
/// #[derive(Presenter)]
/// struct InvoiceRow { id: String, customer: String, amount_cents: u64 }
///
/// let rows = [
///     InvoiceRow { id: "INV-0001".into(), customer: "Acme Corp".into(), amount_cents: 826199 },
///     InvoiceRow { id: "INV-0002".into(), customer: "Hooli: Cloud".into(), amount_cents: 4500 },
/// ];
/// let text = toon::encode_table(&rows, &ToonOptions::pipe())?;
/// assert_eq!(
///     text,
///     "[2|]{id|customer|amount_cents}:\n  INV-0001|Acme Corp|826199\n  INV-0002|\"Hooli: Cloud\"|4500",
/// );
/// assert_eq!(text, toon::encode(&rows, &ToonOptions::pipe())?);
/// # Ok::<(), fusion_runtime::toon::ToonError>(())
/// ```
pub fn encode_table<T: Model>(items: &[T], options: &ToonOptions) -> Result<String, ToonError> {
    encode_rows(items, Members::Every, options)
}

/// Which members each row writes: its plain `Serialize` impl (every wire member), or
/// [`Model::serialize_selected`] with a `_select` mask.
#[derive(Clone, Copy)]
pub(crate) enum Members<'a> {
    /// `Serialize`: every wire member.
    Every,
    /// `serialize_selected` with this mask.
    Selected(&'a FieldMask),
}

impl Members<'_> {
    /// Writes `item` with `serializer`.
    fn write<T: Model, S: ser::Serializer>(
        self,
        item: &T,
        serializer: S,
    ) -> Result<S::Ok, S::Error> {
        match self {
            Members::Every => item.serialize(serializer),
            Members::Selected(mask) => item.serialize_selected(mask, serializer),
        }
    }

    /// Whether the member at `index` of the model is written (before `skip_serializing_if`).
    fn contains(self, index: usize) -> bool {
        match self {
            Members::Every => true,
            Members::Selected(mask) => mask.contains(index),
        }
    }
}

/// A collection written with [`Members`]: what the generic encoder falls back on.
pub(crate) struct Rows<'a, T> {
    pub(crate) items: &'a [T],
    pub(crate) members: Members<'a>,
}

impl<T: Model> Serialize for Rows<'_, T> {
    fn serialize<S: ser::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.items.iter().map(|item| Row {
            item,
            members: self.members,
        }))
    }
}

/// One element of [`Rows`], or a presented single value.
pub(crate) struct Row<'a, T> {
    pub(crate) item: &'a T,
    pub(crate) members: Members<'a>,
}

impl<T: Model> Serialize for Row<'_, T> {
    fn serialize<S: ser::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.members.write(self.item, serializer)
    }
}

/// [`encode_table`] with a choice of members: the table if every row fits it, the generic
/// encoding of the same rows otherwise.
pub(crate) fn encode_rows<T: Model>(
    items: &[T],
    members: Members<'_>,
    options: &ToonOptions,
) -> Result<String, ToonError> {
    if options.indent() == 0 {
        return Err(ToonError::ZeroIndent);
    }
    match table(items, members, options) {
        Some(text) => Ok(text),
        None => encode(&Rows { items, members }, options),
    }
}

/// The table, or `None` when some row does not fit it.
fn table<T: Model>(items: &[T], members: Members<'_>, options: &ToonOptions) -> Option<String> {
    if items.is_empty() {
        return Some("[]".to_owned()); // wire format §9.9: the empty root list.
    }
    let table = TableRows::new::<T>(members, options)?;
    let mut text = TableText::new(table.table, items.len());
    for item in items {
        text.push(&Row { item, members }).ok()?;
    }
    text.finish().ok()
}

/// The table of a model's rows, for a table grown one row at a time whose header, which holds
/// the row count, is written for the rows kept (fitting a TOON collection to a budget, wire
/// format §17.3).
pub(crate) struct TableRows<'a> {
    table: Table,
    members: Members<'a>,
}

impl<'a> TableRows<'a> {
    /// The table form of `T` with `members` (the names of [`Model::WIRE_NAMES`] it keeps), or
    /// `None` when no table holds it (see [`Table::new`]).
    pub(crate) fn new<T: Model>(members: Members<'a>, options: &ToonOptions) -> Option<Self> {
        let names = T::WIRE_NAMES
            .iter()
            .enumerate()
            .filter_map(|(index, name)| members.contains(index).then_some(Cow::Borrowed(*name)))
            .collect();
        Some(TableRows {
            table: Table::new(names, options)?,
            members,
        })
    }

    /// Appends the first part of the header of a table of `rows` rows, `[N|]` (it ends in `]`
    /// whatever the count); [`TableRows::push_fields`] appends the rest.
    pub(crate) fn push_count(&self, out: &mut String, rows: usize) {
        self.table.push_count(out, rows);
    }

    /// Appends the rest of a table's header, `{names}:`, the same for any count.
    pub(crate) fn push_fields(&self, out: &mut String) {
        self.table.push_fields(out);
    }

    /// Appends `item` as the next row, after its line break and indentation; `false` when it is
    /// no row of this table (`out` then holds part of it: discard it).
    pub(crate) fn push_row<T: Model>(&mut self, out: &mut String, item: &T) -> bool {
        let members = self.members;
        self.table.push_row(out, &Row { item, members })
    }
}

#[cfg(all(test, feature = "derive"))]
mod tests {
    use super::*;

    #[derive(crate::Presenter)]
    #[presenter(crate = crate, field_enum)]
    struct Line {
        sku: &'static str,
        qty: u32,
        #[serde(skip_serializing_if = "Option::is_none")]
        note: Option<&'static str>,
    }

    #[derive(crate::Presenter)]
    #[presenter(crate = crate)]
    struct Holder {
        line: Line,
    }

    const LINES: [Line; 2] = [
        Line {
            sku: "A1",
            qty: 2,
            note: Some("x"),
        },
        Line {
            sku: "B|2",
            qty: 1,
            note: Some(""),
        },
    ];

    /// The table path itself answers (no fallback) exactly when rows fit the header.
    #[test]
    fn the_table_path_takes_rows_that_fit_and_only_those() {
        let options = ToonOptions::pipe();
        assert_eq!(
            table(&LINES, Members::Every, &options).as_deref(),
            Some("[2|]{sku|qty|note}:\n  A1|2|x\n  \"B|2\"|1|\"\"")
        );
        let mask = FieldMask::fields(&[LineField::Qty]);
        assert_eq!(
            table(&LINES, Members::Selected(&mask), &options).as_deref(),
            Some("[2|]{qty}:\n  2\n  1")
        );
        let skipped = [Line {
            sku: "C",
            qty: 3,
            note: None,
        }];
        assert_eq!(table(&skipped, Members::Every, &options), None);
        let nested = [Holder {
            line: Line {
                sku: "D",
                qty: 4,
                note: None,
            },
        }];
        assert_eq!(table(&nested, Members::Every, &options), None);
        let nothing = FieldMask::fields::<LineField>(&[]);
        assert_eq!(table(&LINES, Members::Selected(&nothing), &options), None);
    }
}
