//! wire format §9.1: the encoder specialised for a model (the compile-time path, `toon::encode_table`,
//! and the TOON data block of a presented collection) gives the same bytes as the generic
//! encoder for every value: random rows of derived models, strings weighted toward every
//! quoting trigger, every delimiter, indentations 1, 2 and 4, random `_select` selections.
//!
//! 512 cases per property (the issue asks for at least 256); the environment variable
//! `PROPTEST_CASES` replaces that number, e.g. `PROPTEST_CASES=100000` for a long run.

use fusion_runtime::present::{FieldMask, Format, Model};
use fusion_runtime::toon::{self, Delimiter, ToonOptions};
use fusion_runtime::{Presenter, Selection};
use proptest::prelude::*;
use serde::{Serialize, Serializer};

/// Text weighted toward TOON's quoting triggers (wire format §9.3 Q1–Q9) and framework tags.
fn tricky_text() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        4 => "[a-zA-Z]{1,5}",
        3 => prop::sample::select(vec![
            "|", ",", "\t", ":", "\"", "\\", "[", "]", "{", "}", " ", "-", "#", "<", "</", ">",
            "\n", "\r", "\u{0}", "\u{1}", "\u{1b}", "\u{1f}", "\u{7f}",
        ])
        .prop_map(str::to_owned),
        2 => prop::sample::select(vec![
            "42", "-1.5e3", "0", "+7", "1e-6", "05", "1.", "true", "false", "null", "é", "🚀",
            "\u{a0}", "\u{2028}", "\u{feff}", "Café Crème", "日本",
        ])
        .prop_map(str::to_owned),
        1 => prop::sample::select(vec![
            "</domain_rules>", "<tool_error>", "<action_suggestions>", "<ui_passthrough",
            "</llm_directives>", "<validation_error>", "<a>", "a < b",
        ])
        .prop_map(str::to_owned),
    ];
    prop_oneof![
        1 => Just(String::new()),
        8 => prop::collection::vec(piece, 1..5).prop_map(|pieces| pieces.concat()),
    ]
}

fn float() -> impl Strategy<Value = f64> {
    prop_oneof![
        3 => any::<f64>(),
        1 => prop::sample::select(vec![
            0.0, -0.0, 1e21, 1e-7, 1.5e-10, 0.1, 100.0, 5e-324, 1.7e308, f64::NAN,
            f64::INFINITY, f64::NEG_INFINITY, 8261.99,
        ]),
    ]
}

fn integer() -> impl Strategy<Value = i64> {
    prop_oneof![any::<i64>(), -100_i64..100, Just(i64::MIN), Just(i64::MAX)]
}

fn unsigned() -> impl Strategy<Value = u64> {
    prop_oneof![any::<u64>(), 0_u64..100, Just(u64::MAX)]
}

#[derive(Serialize, Debug, Clone, Copy)]
enum Kind {
    Plain,
    #[serde(rename = "two words")]
    Spaced,
    #[serde(rename = "-1")]
    Negative,
}

/// A flat model: every member a primitive, so the table path takes it.
#[derive(Presenter, Debug, Clone)]
struct Flat {
    name: String,
    note: Option<String>,
    #[serde(rename = "full name")]
    full_name: String,
    count: i64,
    total: u64,
    big: u128,
    ratio: f64,
    small: f32,
    flag: bool,
    kind: Kind,
    letter: char,
    #[redact]
    secret: String,
}

prop_compose! {
    fn flat()(
        name in tricky_text(),
        note in prop::option::of(tricky_text()),
        full_name in tricky_text(),
        count in integer(),
        total in unsigned(),
        big in prop_oneof![any::<u128>(), Just(u128::MAX)],
        ratio in float(),
        small in any::<f32>(),
        flag in any::<bool>(),
        kind in prop::sample::select(vec![Kind::Plain, Kind::Spaced, Kind::Negative]),
        letter in any::<char>(),
        secret in tricky_text(),
    ) -> Flat {
        Flat { name, note, full_name, count, total, big, ratio, small, flag, kind, letter, secret }
    }
}

#[derive(Presenter, Debug, Clone)]
struct Inner {
    label: String,
    value: i64,
}

/// Members the table cannot always hold: a nested model (a nested group while every row has
/// one, no table when a row has `null`), a list, a member `skip_serializing_if` leaves out.
#[derive(Presenter, Debug, Clone)]
struct Mixed {
    id: i64,
    inner: Option<Inner>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    tags: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    extra: Option<String>,
}

prop_compose! {
    fn mixed()(
        id in integer(),
        inner in prop::option::weighted(0.8, (tricky_text(), integer())),
        tags in prop::collection::vec(tricky_text(), 0..3),
        extra in prop::option::weighted(0.8, tricky_text()),
        // Often no list at all, so the nested group and the skipped member are reached.
        no_tags in prop::bool::weighted(0.7),
    ) -> Mixed {
        Mixed {
            id,
            inner: inner.map(|(label, value)| Inner { label, value }),
            tags: if no_tags { Vec::new() } else { tags },
            extra,
        }
    }
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

/// A random `_select` of `T`'s names (empty: no selection).
fn selection<T: Model>() -> impl Strategy<Value = Selection> {
    prop::sample::subsequence(T::WIRE_NAMES.to_vec(), 0..=T::WIRE_NAMES.len())
        .prop_shuffle()
        .prop_map(Selection::new)
}

/// A collection written by the generic path with a field mask, for comparison.
struct Masked<'a, T> {
    items: &'a [T],
    mask: FieldMask,
}

impl<T: Model> Serialize for Masked<'_, T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        struct One<'a, T>(&'a T, &'a FieldMask);
        impl<T: Model> Serialize for One<'_, T> {
            fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                self.0.serialize_selected(self.1, serializer)
            }
        }
        serializer.collect_seq(self.items.iter().map(|item| One(item, &self.mask)))
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn flat_rows_equal_the_generic_encoder(
        rows in prop::collection::vec(flat(), 0..6),
        options in options(),
    ) {
        let table = toon::encode_table(&rows, &options).unwrap();
        let generic = toon::encode(&rows, &options).unwrap();
        prop_assert_eq!(&table, &generic);
        // The flat rows always make a table.
        if !rows.is_empty() {
            let header = format!("[{}", rows.len());
            prop_assert!(table.starts_with(&header), "{}", table);
            prop_assert_eq!(table.lines().count(), rows.len() + 1);
        }
    }

    #[test]
    fn mixed_rows_fall_back_to_the_generic_encoder(
        rows in prop::collection::vec(mixed(), 0..5),
        options in options(),
    ) {
        prop_assert_eq!(
            toon::encode_table(&rows, &options).unwrap(),
            toon::encode(&rows, &options).unwrap()
        );
    }

    #[test]
    fn presented_collections_equal_the_generic_encoder(
        flat_rows in prop::collection::vec(flat(), 0..5),
        flat_selection in selection::<Flat>(),
        mixed_rows in prop::collection::vec(mixed(), 0..5),
        mixed_selection in selection::<Mixed>(),
    ) {
        let pipe = ToonOptions::pipe();
        let block = Flat::present_all(&flat_rows)
            .select(&flat_selection)
            .format(Format::Toon)
            .build()
            .unwrap();
        let expected = Masked { items: &flat_rows, mask: FieldMask::of::<Flat>(&flat_selection) };
        prop_assert_eq!(&block.blocks()[0], &toon::encode(&expected, &pipe).unwrap());
        let block = Mixed::present_all(&mixed_rows)
            .select(&mixed_selection)
            .format(Format::Toon)
            .build()
            .unwrap();
        let expected = Masked { items: &mixed_rows, mask: FieldMask::of::<Mixed>(&mixed_selection) };
        prop_assert_eq!(&block.blocks()[0], &toon::encode(&expected, &pipe).unwrap());
    }
}
