//! The value tree against `serde_json`'s model: exact integers, enums, one text buffer, the
//! refused keys and duplicate names.

use std::collections::BTreeMap;

use serde::Serialize;
use serde_json::json;

use super::*;

fn root<T: Serialize + ?Sized>(value: &T) -> Value {
    to_tree(value).unwrap().root
}

#[test]
fn integers_stay_exact_to_128_bits() {
    assert_eq!(root(&u128::MAX), Value::UInt(u128::MAX));
    assert_eq!(root(&i128::MIN), Value::Int(i128::MIN));
    assert_eq!(root(&-1_i8), Value::Int(-1));
    assert_eq!(root(&7_i64), Value::UInt(7));
}

#[test]
fn enums_map_like_serde_json() {
    #[derive(Serialize)]
    enum E {
        Unit,
        New(u8),
        Tuple(u8, u8),
        Struct { a: u8 },
    }
    let values = [E::Unit, E::New(1), E::Tuple(1, 2), E::Struct { a: 3 }];
    for value in &values {
        let ours = to_tree(value).unwrap().into_json();
        assert_eq!(ours, serde_json::to_value(value).unwrap());
    }
}

#[test]
fn strings_and_keys_share_one_buffer() {
    let mut map = BTreeMap::new();
    map.insert(2_u8, ('x', "bé"));
    map.insert(10_u8, ('y', ""));
    let tree = to_tree(&map).unwrap();
    assert_eq!(tree.text, "2xbé10y");
    assert_eq!(tree.into_json(), json!({"2": ["x", "bé"], "10": ["y", ""]}));
}

#[test]
fn non_string_keys_are_refused() {
    let mut bad = BTreeMap::new();
    bad.insert(vec![1_u8], 1);
    let err = to_tree(&bad).unwrap_err();
    assert!(matches!(
        err,
        ToonError::KeyMustBeString {
            found: "a sequence"
        }
    ));
}

#[test]
fn duplicate_keys_are_refused() {
    struct Twice(usize);
    impl Serialize for Twice {
        fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            use serde::ser::SerializeMap;
            let mut map = s.serialize_map(None)?;
            for i in 0..self.0 {
                map.serialize_entry(&i, &i)?;
            }
            map.serialize_entry("a", &1)?;
            map.serialize_entry("a", &2)?;
            map.end()
        }
    }
    // Both the pairwise check and the hashed one (past 12 members).
    for others in [0, 20] {
        assert!(matches!(to_tree(&Twice(others)), Err(ToonError::DuplicateKey(key)) if key == "a"));
    }
}

#[test]
fn view_conversion_widens_what_serde_json_cannot_hold() {
    let view = |value| {
        Tree {
            text: String::new(),
            root: value,
        }
        .into_json()
    };
    let json = view(Value::UInt(u128::from(u64::MAX) + 1));
    assert_eq!(json.as_f64(), Some(18_446_744_073_709_551_616.0));
    assert_eq!(view(Value::Float(f64::NAN)), serde_json::Value::Null);
    assert_eq!(view(Value::Int(-5)), json!(-5));
}
