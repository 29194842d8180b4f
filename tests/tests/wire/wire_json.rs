//! wire format §3: the JSON data block (vectors V9–V11), and properties of the JSON writer against
//! `serde_json` and an independent model of ECMAScript's number text.

#![allow(
    clippy::float_cmp,
    clippy::cast_precision_loss,
    clippy::excessive_precision,
    clippy::many_single_char_names,
    reason = "this file tests float text: exact comparisons, lossy casts, over-long literals and \
              wire format §3.6's one-letter names are the point"
)]

use crate::text;

use fusion_runtime::testing::{ViewExt, json_eq};
use fusion_runtime::testing::{escape, json};
use fusion_runtime::{IntoToolResponse, Json};
use proptest::prelude::*;
use serde_json::{Value, json};

#[derive(serde::Serialize)]
struct NumberVector {
    a: f64,
    b: f64,
    c: f64,
    d: f64,
    e: f64,
    f: f64,
    g: u64,
    h: f64,
    i: f64,
    j: f64,
    k: f64,
}

#[test]
fn v09_number_formatting() {
    let expected = "{\n  \"a\": 100,\n  \"b\": 0.30000000000000004,\n  \"c\": 1e+21,\n  \"d\": 1e-7,\n  \"e\": 0,\n  \"f\": null,\n  \"g\": 12345678901234567890,\n  \"h\": 123456789012345680000,\n  \"i\": 0.000001,\n  \"j\": 5e-324,\n  \"k\": -1.5e+300\n}";
    let value = NumberVector {
        a: 100.0,
        b: 0.1 + 0.2,
        c: 1e21,
        d: 1e-7,
        e: -0.0,
        f: f64::NAN,
        g: 12_345_678_901_234_567_890,
        h: 123_456_789_012_345_680_000.0,
        i: 0.000_001,
        j: 5e-324,
        k: -1.5e300,
    };
    let response = Json(&value).into_tool_response().unwrap();
    response.assert_blocks(&[expected]).assert_is_error(None);
    // The same through a `serde_json::Value` (NaN is already `null` there).
    let as_value = json!({
        "a": 100.0, "b": 0.1 + 0.2, "c": 1e21, "d": 1e-7, "e": -0.0, "f": null,
        "g": 12_345_678_901_234_567_890_u64, "h": 123_456_789_012_345_680_000.0,
        "i": 0.000_001, "j": 5e-324, "k": -1.5e300
    });
    assert_eq!(json::to_string(&as_value).unwrap(), expected);
}

#[test]
fn number_table_of_spec_3_6() {
    for (float, text) in [
        (100.0, "100"),
        (0.1 + 0.2, "0.30000000000000004"),
        (8261.99, "8261.99"),
        (45.0, "45"),
        (1e20, "100000000000000000000"),
        (1.234_567_890_123_456_8e20, "123456789012345680000"),
        (9_007_199_254_740_993_u64 as f64, "9007199254740992"),
        (-0.0, "0"),
        (1e21, "1e+21"),
        (1.5e300, "1.5e+300"),
        (0.000_001, "0.000001"),
        (1.234e-6, "0.000001234"),
        (1e-7, "1e-7"),
        (1.5e-10, "1.5e-10"),
        (5e-324, "5e-324"),
        (f64::NAN, "null"),
        (f64::INFINITY, "null"),
        (f64::NEG_INFINITY, "null"),
        (-8261.99, "-8261.99"),
        (f64::MAX, "1.7976931348623157e+308"),
        // Two shortest candidates equally near: the even one (Rust's `{}` would write `.3`).
        (1_490_133_575_841_354.2, "1490133575841354.2"),
    ] {
        assert_eq!(json::number_text(float), text, "{float:e}");
        assert_eq!(json::to_string(&float).unwrap(), text, "{float:e}");
    }
    // Integers of every width keep their exact digits (wire format §3.5).
    assert_eq!(
        json::to_string(&u128::MAX).unwrap(),
        "340282366920938463463374607431768211455"
    );
    assert_eq!(
        json::to_string(&i128::MIN).unwrap(),
        "-170141183460469231731687303715884105728"
    );
    assert_eq!(json::to_string(&-7_i8).unwrap(), "-7");
    // An f32 is written as the binary64 it converts to.
    assert_eq!(json::to_string(&0.5_f32).unwrap(), "0.5");
}

#[test]
fn v10_string_escaping_and_tag_neutralization() {
    let value = json!({
        "s": "q\" b\\ n\n t\t bel\u{7} del\u{7f} ls\u{2028} é / a < b <T> </domain_rules> <Tool_Error code=1>",
        "<action>": 1
    });
    let response = value.clone().into_tool_response().unwrap();
    response
        .assert_blocks(&["{\n  \"s\": \"q\\\" b\\\\ n\\n t\\t bel\\u0007 del\u{7f} ls\u{2028} é / a < b <T> \\u003c/domain_rules> \\u003cTool_Error code=1>\",\n  \"\\u003caction>\": 1\n}"])
        .assert_is_error(None)
        // The parsed value is unchanged, `<` included.
        .assert_data(value);
}

#[test]
fn tag_starts_at_string_edges_and_beside_escapes() {
    for (input, expected) in [
        ("<field", "\"\\u003cfield\""),
        ("<field\n", "\"\\u003cfield\\n\""),
        ("a\n</message>", "\"a\\n\\u003c/message>\""),
        ("\"<detail\"", "\"\\\"\\u003cdetail\\\"\""),
        (
            "<details-x <details\u{1}",
            "\"<details-x \\u003cdetails\\u0001\"",
        ),
        ("<\n/field", "\"<\\n/field\""),
        ("\u{8}\u{c}\r\u{1b}", "\"\\b\\f\\r\\u001b\""),
    ] {
        assert_eq!(json::to_string(input).unwrap(), expected, "{input:?}");
    }
}

#[test]
fn v11_empty_containers_and_nesting() {
    let value = json!({"n": {}, "l": [], "o": {"x": [1, {"y": null}]}});
    value
        .clone()
        .into_tool_response()
        .unwrap()
        .assert_blocks(&["{\n  \"n\": {},\n  \"l\": [],\n  \"o\": {\n    \"x\": [\n      1,\n      {\n        \"y\": null\n      }\n    ]\n  }\n}"])
        .assert_is_error(None)
        .assert_data(value);
    assert_eq!(json::to_string(&json!([])).unwrap(), "[]");
    assert_eq!(json::to_string(&json!({})).unwrap(), "{}");
    assert_eq!(json::to_string(&()).unwrap(), "null");
}

#[test]
fn member_order_is_the_values_own() {
    // Integer-like names are not moved to the front, as ECMAScript would (wire format §3.3).
    let value = json!({"b": 1, "10": 2, "a": 3, "2": 4});
    assert_eq!(
        json::to_string(&value).unwrap(),
        "{\n  \"b\": 1,\n  \"10\": 2,\n  \"a\": 3,\n  \"2\": 4\n}"
    );
    let mut map = std::collections::BTreeMap::new();
    map.insert(2, "x");
    map.insert(1, "y");
    assert_eq!(
        json::to_string(&map).unwrap(),
        "{\n  \"1\": \"y\",\n  \"2\": \"x\"\n}"
    );
}

#[test]
fn a_failing_value_is_an_error_not_a_panic() {
    let mut map = std::collections::BTreeMap::new();
    map.insert((1, 2), "pair keys cannot be JSON member names");
    let error = json::to_string(&map).unwrap_err();
    assert!(error.to_string().contains("use string map keys"), "{error}");
    assert!(fusion_runtime::success(&map).is_err());
    assert!(fusion_runtime::ResponseBuilder::json(&map).is_err());
}

/// The shortest round-trip digits of a positive finite `x` and its exponent n (wire format §3.6), from
/// Rust's own formatting: `{:e}` gives shortest digits, but breaks a tie between two equally near
/// candidates upwards, so the tie is detected on the exact expansion and resolved to the even one.
fn shortest_digits(x: f64) -> (String, i32) {
    let scientific = format!("{x:e}");
    let (mantissa, exponent) = scientific.split_once('e').unwrap();
    let digits: String = mantissa.chars().filter(char::is_ascii_digit).collect();
    let digits = digits.trim_end_matches('0').to_owned();
    let n = exponent.parse::<i32>().unwrap() + 1;
    let k = digits.len();
    // Exact decimal expansion of x (a binary64 has at most 767 significant digits).
    let exact = format!("{x:.800e}");
    let (exact_mantissa, exact_exponent) = exact.split_once('e').unwrap();
    let exact_digits: String = exact_mantissa
        .chars()
        .filter(char::is_ascii_digit)
        .collect();
    let is_tie = exact_exponent.parse::<i32>().unwrap() + 1 == n
        && exact_digits.as_bytes()[k] == b'5'
        && exact_digits[k + 1..].bytes().all(|b| b == b'0');
    let last_is_odd = (digits.as_bytes()[k - 1] - b'0') % 2 == 1;
    if is_tie && last_is_odd {
        let low = exact_digits[..k].to_owned();
        let other = if digits == low { increment(&low) } else { low };
        let round_trips = format!("{}.{}e{}", &other[..1], &other[1..], n - 1)
            .parse::<f64>()
            .is_ok_and(|back| back == x);
        if other.len() == k && round_trips {
            return (other.trim_end_matches('0').to_owned(), n);
        }
    }
    (digits, n)
}

/// A decimal digit string plus one unit in its last place.
fn increment(digits: &str) -> String {
    let mut bytes = digits.as_bytes().to_vec();
    for byte in bytes.iter_mut().rev() {
        if *byte == b'9' {
            *byte = b'0';
        } else {
            *byte += 1;
            return String::from_utf8(bytes).unwrap();
        }
    }
    format!("1{}", String::from_utf8(bytes).unwrap())
}

/// wire format §3.6 written from its text: shortest digits (above), laid out by the four rules. An
/// oracle independent of ryu-js.
fn ecmascript_number(x: f64) -> String {
    if !x.is_finite() {
        return "null".to_owned();
    }
    if x == 0.0 {
        return "0".to_owned();
    }
    if x < 0.0 {
        return format!("-{}", ecmascript_number(-x));
    }
    let (s, n) = shortest_digits(x);
    let s = s.as_str();
    let k = i32::try_from(s.len()).unwrap();
    if k <= n && n <= 21 {
        format!("{s}{}", "0".repeat(usize::try_from(n - k).unwrap()))
    } else if 0 < n && n <= 21 {
        let n = usize::try_from(n).unwrap();
        format!("{}.{}", &s[..n], &s[n..])
    } else if -6 < n && n <= 0 {
        format!("0.{}{s}", "0".repeat(usize::try_from(-n).unwrap()))
    } else {
        let e = n - 1;
        let sign = if e >= 0 { '+' } else { '-' };
        if k == 1 {
            format!("{s}e{sign}{}", e.abs())
        } else {
            format!("{}.{}e{sign}{}", &s[..1], &s[1..], e.abs())
        }
    }
}

/// Arbitrary JSON values: integers of both signs and ranges, finite floats, tricky texts.
fn json_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        any::<f64>()
            .prop_filter("finite", |x| x.is_finite())
            .prop_map(Value::from),
        (-1_000_000_i64..1_000_000, 0_i32..6)
            .prop_map(|(m, p)| Value::from(m as f64 / 10_f64.powi(p))),
        text::tricky_text().prop_map(Value::String),
    ];
    leaf.prop_recursive(4, 48, 5, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..5).prop_map(Value::Array),
            prop::collection::vec((text::tricky_text(), inner), 0..5)
                .prop_map(|members| Value::Object(members.into_iter().collect())),
        ]
    })
}

/// Whether a value holds a float or a text with a framework tag start (member names included):
/// the two places where wire format §3 differs from `serde_json::to_string_pretty`.
fn differs_from_serde_json(value: &Value) -> bool {
    match value {
        Value::Number(n) => n.is_f64(),
        Value::String(s) => escape::contains_tag_start(s),
        Value::Array(items) => items.iter().any(differs_from_serde_json),
        Value::Object(members) => members
            .iter()
            .any(|(k, v)| escape::contains_tag_start(k) || differs_from_serde_json(v)),
        Value::Null | Value::Bool(_) => false,
    }
}

#[test]
fn the_oracle_breaks_ties_to_even() {
    assert_eq!(
        format!("{}", 1_490_133_575_841_354.25_f64),
        "1490133575841354.3"
    );
    assert_eq!(
        ecmascript_number(1_490_133_575_841_354.25),
        "1490133575841354.2"
    );
    assert_eq!(ecmascript_number(-1.5e300), "-1.5e+300");
    assert_eq!(ecmascript_number(1.234e-6), "0.000001234");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn json_writer_round_trips_and_matches_serde_json(value in json_value()) {
        let text = json::to_string(&value).unwrap();
        let parsed: Value = serde_json::from_str(&text).unwrap();
        prop_assert!(json_eq(&parsed, &value), "{text}");
        // wire format §5.7: a JSON data block never holds a framework tag start.
        prop_assert!(!escape::contains_tag_start(&text), "{text}");
        // wire format §3.2: no final LF, and no TAB or CR of its own (strings escape theirs).
        prop_assert!(!text.ends_with('\n') && !text.contains('\t') && !text.contains('\r'));
        // The testing view holds the same wire value (wire format §14.2).
        let response = fusion_runtime::success(&value).unwrap();
        let view_data = response.view().data();
        prop_assert!(view_data.as_value().is_some_and(|data| json_eq(data, &value)));
        if !differs_from_serde_json(&value) {
            prop_assert_eq!(&text, &serde_json::to_string_pretty(&value).unwrap());
        }
    }

    /// wire format §3.8: the compact text is the same value, has no layout, and is what
    /// `serde_json::to_string` writes wherever §3 itself agrees with `serde_json`.
    #[test]
    fn compact_json_is_the_same_value_without_layout(value in json_value()) {
        let pretty = json::to_string(&value).unwrap();
        let compact = json::compact(&pretty);
        let parsed: Value = serde_json::from_str(&compact).unwrap();
        prop_assert!(json_eq(&parsed, &value), "{compact}");
        prop_assert!(!escape::contains_tag_start(&compact), "{compact}");
        prop_assert!(!compact.contains('\n'));
        prop_assert_eq!(json::compact(&compact), compact.clone());
        if !differs_from_serde_json(&value) {
            prop_assert_eq!(&compact, &serde_json::to_string(&value).unwrap());
        }
    }

    #[test]
    fn number_text_is_ecmascript(x in any::<f64>()) {
        prop_assert_eq!(json::number_text(x), ecmascript_number(x));
    }

    #[test]
    fn number_text_of_integral_floats(m in any::<i64>(), shift in 0_i32..40) {
        let x = m as f64 * 10_f64.powi(shift - 20);
        let text = json::number_text(x);
        prop_assert_eq!(&text, &ecmascript_number(x));
        prop_assert_eq!(text.parse::<f64>().unwrap(), x);
    }
}
