//! wire format §5.10 properties of the TOON encoder with generated values: P1 (no framework tag start
//! in the text) and P4 (a conforming TOON v4 decoder, here `toon-format`'s, returns the value),
//! for each delimiter and for indentations 2 and 4.

use fusion_runtime::testing::escape::contains_tag_start;
use fusion_runtime::toon::{self, Delimiter, ToonOptions};
use proptest::prelude::*;
use serde_json::{Map, Number, Value};

/// Text weighted toward what breaks TOON and tags: framework names, `<`, `/`, delimiters,
/// quotes, colons, brackets, control characters, leading `-`/`#`, number-like and literal words.
fn tricky_text() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        3 => "[a-z]{1,4}",
        1 => Just("<".to_owned()),
        1 => Just("</".to_owned()),
        1 => prop::sample::select(vec![
            "domain_rules", "TOOL_ERROR", "Message", "action", "field", "ui_passthrough",
        ])
        .prop_map(str::to_owned),
        3 => prop::sample::select(vec![
            ",", "|", "\t", ":", "\"", "\\", "[", "]", "{", "}", " ", "-", "#", "\n", ">",
        ])
        .prop_map(str::to_owned),
        1 => prop::sample::select(vec![
            "\r", "\u{1}", "\u{7f}", "\u{feff}", "é", "🚀", ".", "_", "0", "1.5", "-2", "e9",
            "1e-6", "true", "false", "null",
        ])
        .prop_map(str::to_owned),
    ];
    prop::collection::vec(piece, 0..5).prop_map(|pieces| pieces.concat())
}

fn number() -> impl Strategy<Value = Value> {
    prop_oneof![
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        (-1000_i64..1000).prop_map(Value::from),
        any::<f64>()
            .prop_filter("JSON numbers are finite", |x| x.is_finite())
            .prop_map(|x| Number::from_f64(x).map_or(Value::Null, Value::Number)),
        prop::sample::select(vec![1e21, 1e-7, 1.5e-10, 0.1, 100.0, 5e-324, 1.7e308, -0.0])
            .prop_map(|x| Number::from_f64(x).map_or(Value::Null, Value::Number)),
    ]
}

fn primitive() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        number(),
        tricky_text().prop_map(Value::String),
    ]
}

fn object_of(value: impl Strategy<Value = Value>, keys: usize) -> impl Strategy<Value = Value> {
    prop::collection::vec((tricky_text(), value), 0..keys)
        .prop_map(|members| Value::Object(members.into_iter().collect::<Map<_, _>>()))
}

/// Lists of same-keyed objects, so the tabular, nested-group and keyed forms come up often.
fn uniform_rows() -> impl Strategy<Value = Value> {
    (
        prop::collection::vec(tricky_text(), 1..4),
        1..4_usize,
        any::<bool>(),
    )
        .prop_flat_map(|(names, count, keyed)| {
            let row_len = names.len();
            let rows = prop::collection::vec(
                prop::collection::vec(
                    prop_oneof![4 => primitive(), 1 => object_of(primitive(), 3)],
                    row_len,
                ),
                count,
            );
            let entry_keys = prop::collection::vec(tricky_text(), count);
            (Just(names), rows, entry_keys, Just(keyed))
        })
        .prop_map(|(names, rows, entry_keys, keyed)| {
            let rows = rows.into_iter().map(|cells| {
                Value::Object(names.iter().cloned().zip(cells).collect::<Map<_, _>>())
            });
            if keyed {
                Value::Object(entry_keys.into_iter().zip(rows).collect::<Map<_, _>>())
            } else {
                Value::Array(rows.collect())
            }
        })
}

fn value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![3 => primitive(), 1 => uniform_rows()];
    leaf.prop_recursive(4, 48, 5, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..5).prop_map(Value::Array),
            object_of(inner, 5),
        ]
    })
}

fn options() -> impl Strategy<Value = ToonOptions> {
    (
        prop::sample::select(vec![Delimiter::Comma, Delimiter::Tab, Delimiter::Pipe]),
        prop::sample::select(vec![2_usize, 4]),
    )
        .prop_map(|(delimiter, indent)| {
            ToonOptions::default()
                .with_delimiter(delimiter)
                .with_indent(indent)
        })
}

/// JSON-model equality (TOON spec §2): numbers compare by value, whatever their type.
fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => match (x.as_i128(), y.as_i128()) {
            (Some(x), Some(y)) => x == y,
            _ => x.as_f64() == y.as_f64(),
        },
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(x, y)| same(x, y))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .zip(y)
                    .all(|((kx, vx), (ky, vy))| kx == ky && same(vx, vy))
        }
        _ => a == b,
    }
}

proptest! {
    // 512 cases unless `PROPTEST_CASES` says otherwise (the hardening runs set it higher).
    #![proptest_config(ProptestConfig::with_cases(
        std::env::var("PROPTEST_CASES").ok().and_then(|c| c.parse().ok()).unwrap_or(512)
    ))]

    #[test]
    fn p1_no_framework_tag_start(value in value(), options in options()) {
        let text = toon::encode(&value, &options).unwrap();
        prop_assert!(!contains_tag_start(&text), "{text:?}");
    }

    #[test]
    fn p4_round_trip(value in value(), options in options()) {
        let text = toon::encode(&value, &options).unwrap();
        let decode_options = toon_format::DecodeOptions::new()
            .with_indent(toon_format::Indent::Spaces(options.indent()));
        let decoded: Value = toon_format::decode(&text, &decode_options)
            .map_err(|e| TestCaseError::fail(format!("{e}\n--- text:\n{text}")))?;
        // An empty root object encodes to an empty document, which decodes to `{}`.
        prop_assert!(same(&decoded, &value), "decoded {decoded}\nexpected {value}\ntext:\n{text}");
    }
}
