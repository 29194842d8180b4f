//! Arbitrary bytes as a JSON value, encoded as TOON: the first byte picks the delimiter and the
//! indentation, the rest is read as JSON. The encoder must not panic, its text must hold no
//! framework tag start (wire format §5.7), and `toon-format`'s decoder (an independent TOON v4
//! implementation) must read the value back (JSON-model equality, TOON spec §2). The TOON
//! response of the same value must build too.

#![no_main]

use fusion_runtime::testing::escape::contains_tag_start;
use fusion_runtime::toon::{self, Delimiter, ToonOptions};
use libfuzzer_sys::fuzz_target;
use serde_json::Value;

/// JSON-model equality: numbers by value, whatever their representation.
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

fuzz_target!(|data: &[u8]| {
    let Some((&selector, json)) = data.split_first() else {
        return;
    };
    let Ok(value) = serde_json::from_slice::<Value>(json) else {
        return;
    };
    let delimiter = [Delimiter::Comma, Delimiter::Tab, Delimiter::Pipe][usize::from(selector % 3)];
    let indent = 1 + usize::from(selector / 3 % 4);
    let options = ToonOptions::default()
        .with_delimiter(delimiter)
        .with_indent(indent);
    let text = toon::encode(&value, &options).expect("every JSON value encodes");
    assert!(!contains_tag_start(&text), "a tag start in {text:?}");
    let decode_options =
        toon_format::DecodeOptions::new().with_indent(toon_format::Indent::Spaces(indent));
    match toon_format::decode::<Value>(&text, &decode_options) {
        Ok(decoded) => assert!(
            same(&decoded, &value),
            "decoded {decoded}\nexpected {value}\n--- toon:\n{text}"
        ),
        Err(error) => {
            panic!("toon-format cannot read it: {error}\n--- toon:\n{text}\n--- value: {value}")
        }
    }
    let response = fusion_runtime::toon::success(&value).expect("every JSON value encodes");
    assert!(!response.blocks()[0].is_empty());
});
