//! The streamed tables against the tree path (wire format §9.6): the same bytes whenever the
//! stream answers, an answer for every list of same-shaped flat rows, and the tree path's
//! answer (through the fallback) for rows that stop the stream part-way: another key order, a
//! nested value, a list, a missing, extra or renamed key.

use proptest::prelude::*;
use serde::ser::{SerializeMap, SerializeSeq};
use serde::{Serialize, Serializer};

use super::table;
use crate::encode::toon::{Delimiter, ToonOptions, encode, encode::encode_tree, value::to_tree};

/// The tree path alone, or its error's text.
fn tree_path<T: Serialize + ?Sized>(value: &T, options: &ToonOptions) -> Result<String, String> {
    to_tree(value)
        .map(|tree| encode_tree(&tree, options))
        .map_err(|e| e.to_string())
}

/// One cell: the primitives of the JSON model, plus the values that stop a table.
#[derive(Debug, Clone)]
enum Cell {
    Null,
    Bool(bool),
    Int(i64),
    Big(u128),
    Float(f64),
    Text(String),
    Unit,
    Nested(Vec<(String, Cell)>),
    List(Vec<Cell>),
}

impl Serialize for Cell {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Cell::Null => s.serialize_none(),
            Cell::Bool(b) => s.serialize_bool(*b),
            Cell::Int(n) => s.serialize_i64(*n),
            Cell::Big(n) => s.serialize_u128(*n),
            Cell::Float(x) => s.serialize_f64(*x),
            Cell::Text(t) => s.serialize_str(t),
            Cell::Unit => s.serialize_unit_variant("Kind", 0, "-unit"),
            Cell::Nested(members) => Members(members).serialize(s),
            Cell::List(items) => items.serialize(s),
        }
    }
}

/// A row's members in the order it serializes them.
type Row = Vec<(String, Cell)>;

/// A row as a map with its members in the given order.
#[derive(Debug, Clone)]
struct Members<'a>(&'a [(String, Cell)]);

impl Serialize for Members<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(self.0.len()))?;
        for (key, value) in self.0 {
            map.serialize_entry(key, value)?;
        }
        map.end()
    }
}

/// Rows serialized as a sequence, with a length hint that may lie (`None` gives no hint).
struct Rows<'a> {
    rows: &'a [Row],
    hint: Option<usize>,
}

impl Serialize for Rows<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut seq = s.serialize_seq(self.hint)?;
        for row in self.rows {
            seq.serialize_element(&Members(row))?;
        }
        seq.end()
    }
}

fn text() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => "[a-zA-Z ]{0,6}",
        2 => prop::sample::select(vec![
            "", "|", ",", "\t", ":", "\"q\"", "a\\b", "[x]", "{", "- a", "#", "<tool_error>",
            "</domain_rules>", "a < b", "\n", "\u{1}", "42", "-1.5e3", "true", "null", "05",
            "Café Crème", "日本語のテキスト", "🚀", "\u{feff}x", " lead", "trail ",
        ])
        .prop_map(str::to_owned),
    ]
}

fn primitive() -> impl Strategy<Value = Cell> {
    prop_oneof![
        1 => Just(Cell::Null),
        1 => any::<bool>().prop_map(Cell::Bool),
        2 => any::<i64>().prop_map(Cell::Int),
        1 => any::<u128>().prop_map(Cell::Big),
        1 => prop_oneof![any::<f64>(), Just(1e21), Just(-0.0), Just(f64::NAN)].prop_map(Cell::Float),
        4 => text().prop_map(Cell::Text),
        1 => Just(Cell::Unit),
    ]
}

/// What a later row does to the first row's shape.
#[derive(Debug, Clone)]
enum Change {
    /// Swaps two members.
    Reorder(usize, usize),
    /// Makes one member an object.
    Nest(usize),
    /// Makes one member a list.
    List(usize),
    /// Drops one member.
    Drop(usize),
    /// Adds a member at the end.
    Extra,
    /// Renames one member to a name the schema has not.
    Rename(usize),
}

fn change() -> impl Strategy<Value = Change> {
    prop_oneof![
        (0..6_usize, 0..6_usize).prop_map(|(a, b)| Change::Reorder(a, b)),
        (0..6_usize).prop_map(Change::Nest),
        (0..6_usize).prop_map(Change::List),
        (0..6_usize).prop_map(Change::Drop),
        Just(Change::Extra),
        (0..6_usize).prop_map(Change::Rename),
    ]
}

fn apply(row: &mut Row, change: &Change) {
    let len = row.len();
    match *change {
        Change::Reorder(a, b) => row.swap(a % len, b % len),
        Change::Nest(i) => row[i % len].1 = Cell::Nested(vec![("x".to_owned(), Cell::Int(1))]),
        Change::List(i) => row[i % len].1 = Cell::List(vec![Cell::Bool(true)]),
        Change::Drop(i) => {
            row.remove(i % len);
        }
        Change::Extra => row.push(("extra".to_owned(), Cell::Null)),
        Change::Rename(i) => row[i % len].0 = "renamed".to_owned(),
    }
}

/// A schema of distinct names, some needing quotes as keys.
fn names() -> impl Strategy<Value = Vec<String>> {
    prop::sample::subsequence(
        vec![
            "id",
            "name",
            "full name",
            "a.b",
            "9x",
            "",
            "amount_cents",
            "é",
        ],
        1..=6,
    )
    .prop_shuffle()
    .prop_map(|names| names.into_iter().map(str::to_owned).collect())
}

/// Rows of one shape; with `Some((at, change))` the row at `at` (modulo the count) changed.
fn row_set() -> impl Strategy<Value = (Vec<Row>, Option<(usize, Change)>)> {
    (names(), 1..12_usize).prop_flat_map(|(names, count)| {
        let row = names
            .into_iter()
            .map(|name| primitive().prop_map(move |cell| (name.clone(), cell)))
            .collect::<Vec<_>>();
        (
            prop::collection::vec(row, count),
            prop::option::of((0..count, change())),
        )
    })
}

fn options() -> impl Strategy<Value = ToonOptions> {
    (
        prop::sample::select(vec![Delimiter::Comma, Delimiter::Tab, Delimiter::Pipe]),
        prop::sample::select(vec![1_usize, 2, 4]),
    )
        .prop_map(|(delimiter, indent)| {
            ToonOptions::default()
                .with_delimiter(delimiter)
                .with_indent(indent)
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn the_stream_equals_the_tree_path((mut rows, change) in row_set(), options in options()) {
        let changed = change.is_some();
        if let Some((at, change)) = &change {
            apply(&mut rows[*at], change);
        }
        let value = Rows { rows: &rows, hint: Some(rows.len()) };
        let tree = tree_path(&value, &options);
        let streamed = table(&value, &options);
        if let Some(text) = &streamed {
            prop_assert_eq!(Ok(text.clone()), tree.clone());
        }
        if !changed {
            prop_assert!(streamed.is_some(), "same-shaped flat rows must stream");
        }
        // Through the public encoder, whichever path answers.
        prop_assert_eq!(encode(&value, &options).map_err(|e| e.to_string()), tree);
    }

    #[test]
    fn a_wrong_length_hint_never_streams((rows, _) in row_set(), options in options(), extra in 1..3_usize) {
        for hint in [None, Some(rows.len() + extra), Some(rows.len() - 1)] {
            let value = Rows { rows: &rows, hint };
            prop_assert_eq!(table(&value, &options), None);
            prop_assert_eq!(
                encode(&value, &options).map_err(|e| e.to_string()),
                tree_path(&value, &options)
            );
        }
    }
}

#[derive(Serialize)]
struct Line {
    sku: &'static str,
    qty: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    note: Option<&'static str>,
}

#[test]
fn struct_rows_stream_and_fall_back_on_a_skipped_member() {
    let options = ToonOptions::pipe();
    let line = |sku, note| Line { sku, qty: 2, note };
    let fit = [line("A1", Some("x")), line("B|2", Some(""))];
    assert_eq!(
        table(&fit, &options).as_deref(),
        Some("[2|]{sku|qty|note}:\n  A1|2|x\n  \"B|2\"|2|\"\"")
    );
    let skipped = vec![line("A1", Some("x")), line("B2", None)];
    assert_eq!(table(&skipped, &options), None);
    assert_eq!(
        encode(&skipped, &options).unwrap(),
        tree_path(&skipped, &options).unwrap()
    );
}

#[test]
fn only_a_root_list_of_flat_objects_streams() {
    let options = ToonOptions::default();
    let empty: [Line; 0] = [];
    assert_eq!(table(&empty, &options), None);
    assert_eq!(table(&[1, 2], &options), None);
    assert_eq!(table(&serde_json::json!({"a": [{"b": 1}]}), &options), None);
    assert_eq!(table(&[serde_json::json!({})], &options), None);
    let some = Some(vec![serde_json::json!({"b": 1})]);
    assert_eq!(table(&some, &options).as_deref(), Some("[1]{b}:\n  1"));
}
