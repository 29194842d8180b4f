//! The short way against the long way: whatever it forwards as it is, the long way forwards as
//! it is too.

use proptest::prelude::*;

use super::{MESSAGE, PARAMS, forwards_as_is};
use crate::adapters::rmcp::classify::{BodyVerdict, sort_body};

/// The short way never decides otherwise than the long way.
fn agrees(body: &[u8]) -> bool {
    !forwards_as_is(body) || sort_body(body) == BodyVerdict::Forward(None)
}

const CALL: &str = r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"billing","arguments":{"action":"get_invoice","id":"INV-1"}}}"#;

#[test]
fn plain_calls_take_the_short_way() {
    let bodies = [
        CALL.to_owned(),
        CALL.replace(r#""id":1"#, r#""id":"a-1""#),
        CALL.replace(r#""id":1"#, r#""id":-9223372036854775808"#),
        CALL.replace(r#""id":1"#, r#""id":9223372036854775807"#),
        // Written twice, both valid: the last counts.
        CALL.replace(r#""id":1"#, r#""id":"a","id":2"#),
        r#"{"params":{"arguments":{},"name":"n","other":[1,2.5,null,true,{"a":"\u00e9\n"}]},"method":"tools/call","id":7,"jsonrpc":"2.0","extra":{}}"#.to_owned(),
        r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"n"}}"#.to_owned(),
        // Escapes in keys and values read as `Value` reads them.
        r#"{"jsonrpc":"2.\u0030","i\u0064":1,"m\u0065thod":"tools\/call","params":{"n\u0061me":"b"}}"#.to_owned(),
        format!(" \n\t{CALL} \r\n"),
        format!("{CALL}\r"),
    ];
    for body in bodies {
        assert!(forwards_as_is(body.as_bytes()), "{body}");
        assert_eq!(
            sort_body(body.as_bytes()),
            BodyVerdict::Forward(None),
            "{body}"
        );
    }
}

#[test]
fn everything_else_goes_the_long_way() {
    let deep = format!("{}{}", "[".repeat(200), "]".repeat(200));
    let arguments = |value: &str| CALL.replace(r#"{"action":"get_invoice","id":"INV-1"}"#, value);
    let mut bodies: Vec<Vec<u8>> = [
        CALL.replace(r#""id":1"#, r#""id":1.0"#),
        CALL.replace(r#""id":1"#, r#""id":-0"#),
        CALL.replace(r#""id":1"#, r#""id":9223372036854775808"#),
        CALL.replace(r#""id":1"#, r#""id":null"#),
        CALL.replace(r#""id":1"#, r#""id":true"#),
        CALL.replace(r#""id":1"#, r#""id":[1]"#),
        CALL.replace(r#""id":1,"#, ""),
        // Written twice, the last invalid.
        CALL.replace(r#""id":1"#, r#""id":1,"id":{}"#),
        CALL.replace(r#""2.0""#, r#""2.1""#),
        CALL.replace(r#""jsonrpc":"2.0","#, ""),
        CALL.replace("tools/call", "tools/list"),
        CALL.replace(
            r#""method":"tools/call""#,
            r#""method":"tools/call","method":1"#,
        ),
        CALL.replace(r#""method":"tools/call","#, ""),
        CALL.replace(
            r#","params":{"name":"billing","arguments":{"action":"get_invoice","id":"INV-1"}}"#,
            "",
        ),
        CALL.replace(
            r#""params":{"name":"billing","arguments":{"action":"get_invoice","id":"INV-1"}}"#,
            r#""params":null"#,
        ),
        CALL.replace(
            r#""params":{"name":"billing","arguments":{"action":"get_invoice","id":"INV-1"}}"#,
            r#""params":[]"#,
        ),
        CALL.replace(r#""name":"billing","#, ""),
        CALL.replace(r#""name":"billing""#, r#""name":5"#),
        CALL.replace(r#""name":"billing""#, r#""name":"b","name":null"#),
        arguments("[]"),
        arguments("null"),
        arguments(r#"{},"_meta":{}"#),
        arguments(r#"{},"inputResponses":{}"#),
        arguments(r#"{},"requestState":"s""#),
        arguments(r#"{},"task":{}"#),
        CALL.replace(r#""id":1"#, r#""id":1,"result":{}"#),
        CALL.replace(r#""id":1"#, r#""id":1,"error":null"#),
        // Valid JSON beyond the parser's limits, and JSON that is not.
        arguments(&format!(r#"{{"a":{deep}}}"#)),
        arguments(r#"{"a":1e400}"#),
        arguments(r#"{"a":"\ud800"}"#),
        arguments("{\"a\":\"\u{1}\"}"),
        arguments(r#"{"a":"\x"}"#),
        arguments(r#"{"$serde_json::private::Number":"1"}"#),
        arguments(r#"{"$serde_json::private::RawValue":"1"}"#),
        format!("{CALL} x"),
        format!("{CALL}{CALL}"),
        format!("[{CALL}]"),
        CALL[..CALL.len() - 1].to_owned(),
        String::new(),
        " \r".to_owned(),
    ]
    .into_iter()
    .map(String::into_bytes)
    .collect();
    bodies.push([b"\xEF\xBB\xBF".as_slice(), CALL.as_bytes()].concat());
    bodies.push(
        arguments(r#"{"a":"__"}"#)
            .into_bytes()
            .into_iter()
            .map(|b| if b == b'_' { 0xff } else { b })
            .collect(),
    );
    for body in &bodies {
        assert!(!forwards_as_is(body), "{}", String::from_utf8_lossy(body));
    }
}

/// Values a member may hold: valid and invalid, at and beyond the parser's limits.
fn value() -> BoxedStrategy<String> {
    let scalar = prop::sample::select(vec![
        "1",
        "-1",
        "1.0",
        "-0",
        "0",
        "9223372036854775807",
        "9223372036854775808",
        "-9223372036854775809",
        "1e400",
        "1e5",
        "\"2.0\"",
        "\"2.\\u0030\"",
        "\"tools/call\"",
        "\"tools\\/call\"",
        "\"x\"",
        "\"\\ud800\"",
        "\"\\ud800\\udc00\"",
        "\"\u{1}\"",
        "\"\\q\"",
        "null",
        "true",
        "[]",
        "{}",
        "[1,{\"a\":[null]}]",
        "{\"$serde_json::private::Number\":\"1\"}",
        "\"\u{e9}\"",
        "01",
        "tru",
        "\"",
    ])
    .prop_map(str::to_owned);
    let deep = (125usize..132).prop_map(|n| format!("{}{}", "[".repeat(n), "]".repeat(n)));
    prop_oneof![8 => scalar, 1 => deep].boxed()
}

/// One member: mostly a good value (one of `good`), sometimes any value, sometimes absent;
/// its name sometimes escaped.
fn member(name: &'static str, good: &'static [&'static str]) -> BoxedStrategy<Vec<String>> {
    let escaped = format!("\\u{:04x}{}", u32::from(name.as_bytes()[0]), &name[1..]);
    let name = prop_oneof![5 => Just(name.to_owned()), 1 => Just(escaped)];
    let value = prop_oneof![14 => prop::sample::select(good).prop_map(str::to_owned), 1 => value()];
    prop_oneof![
        20 => (name, value).prop_map(|(name, value)| vec![format!("\"{name}\":{value}")]),
        1 => Just(Vec::new()),
    ]
    .boxed()
}

/// Members of any name and value besides the expected ones, some named like them.
/// The members the reader knows, and `others` times a member it does not (drawn that much more
/// often).
fn known_and_other(known: &[&'static str], others: usize) -> Vec<&'static str> {
    known
        .iter()
        .copied()
        .chain(std::iter::repeat_n("other", others))
        .collect()
}

fn others(names: Vec<&'static str>) -> BoxedStrategy<Vec<String>> {
    prop::collection::vec((prop::sample::select(names), value()), 0..3)
        .prop_map(|members| {
            members
                .into_iter()
                .map(|(name, value)| format!("\"{name}\":{value}"))
                .collect()
        })
        .boxed()
}

/// An object of these members, in any order.
fn object(members: Vec<BoxedStrategy<Vec<String>>>) -> BoxedStrategy<String> {
    members
        .prop_map(|members| members.concat())
        .prop_shuffle()
        .prop_map(|members| format!("{{{}}}", members.join(",")))
        .boxed()
}

fn params() -> BoxedStrategy<String> {
    let arguments = prop_oneof![
        1 => value(),
        4 => object(vec![others(vec!["a", "b", "$serde_json::private::RawValue"])]),
    ];
    let arguments = prop_oneof![
        4 => (Just("arguments"), arguments)
            .prop_map(|(name, value)| vec![format!("\"{name}\":{value}")]),
        1 => Just(Vec::new()),
    ];
    let plain = object(vec![
        member("name", &["\"billing\"", "\"b\\u0069\""]),
        arguments.boxed(),
        others(known_and_other(&PARAMS, 10)),
    ]);
    prop_oneof![14 => plain, 1 => value()].boxed()
}

fn message() -> BoxedStrategy<String> {
    object(vec![
        member("id", &["1", "\"a\"", "-5"]),
        member("jsonrpc", &["\"2.0\""]),
        member("method", &["\"tools/call\"", "\"tools\\/call\""]),
        (Just("params"), params())
            .prop_map(|(name, value)| vec![format!("\"{name}\":{value}")])
            .boxed(),
        others(known_and_other(&MESSAGE, 12)),
    ])
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2048))]

    /// Messages made of the members and values the guard reads, in any order, written twice,
    /// escaped, framed with a mark, whitespace or trailing bytes.
    #[test]
    fn the_short_way_agrees_with_the_long_way(
        prefix in prop::sample::select(vec!["", "", "", "", "\u{feff}", " "]),
        message in message(),
        suffix in prop::sample::select(vec!["", "", "", "", "\r", "\n", " x", "}", "\r\n"]),
    ) {
        let body = format!("{prefix}{message}{suffix}");
        prop_assert!(agrees(body.as_bytes()), "{}", body);
    }

    /// Plain calls with one member's value changed into any value, or written twice.
    #[test]
    fn a_plain_call_changed_in_one_place_is_sorted_alike(
        (name, original) in prop::sample::select(vec![
            ("id", "1"),
            ("jsonrpc", "\"2.0\""),
            ("method", "\"tools/call\""),
            ("name", "\"billing\""),
            ("arguments", "{\"action\":\"get_invoice\",\"id\":\"INV-1\"}"),
            ("params", "{\"name\":\"billing\",\"arguments\":{\"action\":\"get_invoice\",\"id\":\"INV-1\"}}"),
        ]),
        value in value(),
        order in 0..3u8,
    ) {
        let member = format!("\"{name}\":{original}");
        let changed = format!("\"{name}\":{value}");
        let replacement = match order {
            0 => changed,
            1 => format!("{member},{changed}"),
            _ => format!("{changed},{member}"),
        };
        let body = CALL.replacen(&member, &replacement, 1);
        prop_assert!(agrees(body.as_bytes()), "{}", body);
    }
}
