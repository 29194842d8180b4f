//! The serializer against the writer it replaced: `serde_json`'s serializer with a formatter of
//! ours (kept here as the reference), on every shape of the serde data model and on arbitrary
//! `serde_json::Value`s.

use std::collections::BTreeMap;
use std::io;

use proptest::prelude::*;
use serde::Serialize;
use serde_json::ser::{CharEscape, Formatter, PrettyFormatter};
use serde_json::{Value, json};

use super::{number_str, to_string};
use crate::encode::escape;

/// The reference: what `json::to_string` wrote before it had a serializer of its own.
fn reference<T: Serialize + ?Sized>(value: &T) -> Result<String, String> {
    let mut out = Vec::new();
    let mut serializer = serde_json::Serializer::with_formatter(&mut out, SpecFormatter::default());
    value
        .serialize(&mut serializer)
        .map_err(|e| e.to_string())?;
    Ok(String::from_utf8(out).unwrap())
}

fn ours<T: Serialize + ?Sized>(value: &T) -> Result<String, String> {
    // The cause's own message, without the advice `EncodeError` adds around it.
    to_string(value).map_err(|e| {
        std::error::Error::source(&e).map_or_else(|| e.to_string(), ToString::to_string)
    })
}

/// `serde_json`'s pretty layout with ECMAScript number text and tag-start escaping.
#[derive(Default)]
struct SpecFormatter {
    pretty: PrettyFormatter<'static>,
}

impl Formatter for SpecFormatter {
    fn write_f32<W: ?Sized + io::Write>(&mut self, writer: &mut W, value: f32) -> io::Result<()> {
        self.write_f64(writer, f64::from(value))
    }

    fn write_f64<W: ?Sized + io::Write>(&mut self, writer: &mut W, value: f64) -> io::Result<()> {
        writer.write_all(number_str(&mut ryu_js::Buffer::new(), value).as_bytes())
    }

    fn write_string_fragment<W: ?Sized + io::Write>(
        &mut self,
        writer: &mut W,
        fragment: &str,
    ) -> io::Result<()> {
        // serde_json splits a string at characters it escapes, none of which can continue an
        // element name, so the end of a fragment is a valid tag terminator (wire format §5.1).
        if !fragment.as_bytes().contains(&b'<') {
            // The common case, without the tag-start scan.
            return writer.write_all(fragment.as_bytes());
        }
        writer.write_all(escape::replace_tag_starts(fragment, "\\u003c").as_bytes())
    }

    fn write_char_escape<W: ?Sized + io::Write>(
        &mut self,
        writer: &mut W,
        char_escape: CharEscape,
    ) -> io::Result<()> {
        self.pretty.write_char_escape(writer, char_escape)
    }

    fn begin_array<W: ?Sized + io::Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.pretty.begin_array(writer)
    }

    fn end_array<W: ?Sized + io::Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.pretty.end_array(writer)
    }

    fn begin_array_value<W: ?Sized + io::Write>(
        &mut self,
        writer: &mut W,
        first: bool,
    ) -> io::Result<()> {
        self.pretty.begin_array_value(writer, first)
    }

    fn end_array_value<W: ?Sized + io::Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.pretty.end_array_value(writer)
    }

    fn begin_object<W: ?Sized + io::Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.pretty.begin_object(writer)
    }

    fn end_object<W: ?Sized + io::Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.pretty.end_object(writer)
    }

    fn begin_object_key<W: ?Sized + io::Write>(
        &mut self,
        writer: &mut W,
        first: bool,
    ) -> io::Result<()> {
        self.pretty.begin_object_key(writer, first)
    }

    fn begin_object_value<W: ?Sized + io::Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.pretty.begin_object_value(writer)
    }

    fn end_object_value<W: ?Sized + io::Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.pretty.end_object_value(writer)
    }
}

#[derive(Serialize)]
struct Unit;

#[derive(Serialize)]
struct Newtype(u8);

#[derive(Serialize)]
struct Pair(i32, &'static str);

#[derive(Serialize)]
struct Empty {}

#[derive(Serialize)]
#[allow(dead_code, reason = "every variant shape of the serde data model")]
enum Shape {
    Unit,
    Newtype(Vec<u8>),
    Tuple(u8, Option<bool>),
    EmptyTuple(),
    Struct { a: char, b: f32 },
    EmptyStruct {},
}

/// Bytes through `serialize_bytes` (serde writes `&[u8]` as a sequence).
struct Bytes(&'static [u8]);

impl Serialize for Bytes {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_bytes(self.0)
    }
}

/// A `Display` value written with `collect_str`.
struct Shown(&'static str);

impl Serialize for Shown {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self.0)
    }
}

#[derive(Serialize, PartialEq, Eq, PartialOrd, Ord)]
enum KeyVariant {
    Left,
}

#[derive(Serialize, PartialEq, Eq, PartialOrd, Ord)]
struct KeyNewtype(String);

#[derive(Serialize)]
#[allow(clippy::option_option, reason = "`Some(None)` is one of the shapes")]
struct Everything {
    unit: (),
    unit_struct: Unit,
    newtype: Newtype,
    pair: Pair,
    empty: Empty,
    shapes: Vec<Shape>,
    bytes: Bytes,
    no_bytes: Bytes,
    shown: Shown,
    chars: [char; 3],
    ints: (i8, i16, i32, i64, i128, u8, u16, u32, u64, u128),
    extremes: (i128, u128),
    floats: (f32, f64, f64, f64, f64),
    options: (Option<u8>, Option<Option<u8>>),
    nested_empty: Vec<Vec<Value>>,
    int_keys: BTreeMap<i64, u8>,
    bool_keys: BTreeMap<bool, u8>,
    char_keys: BTreeMap<char, u8>,
    variant_keys: BTreeMap<KeyVariant, u8>,
    newtype_keys: BTreeMap<KeyNewtype, u8>,
    tags: Vec<&'static str>,
    value: Value,
}

fn everything() -> Everything {
    Everything {
        unit: (),
        unit_struct: Unit,
        newtype: Newtype(7),
        pair: Pair(-1, "x"),
        empty: Empty {},
        shapes: vec![
            Shape::Unit,
            Shape::Newtype(vec![]),
            Shape::Newtype(vec![1, 2]),
            Shape::Tuple(3, None),
            Shape::EmptyTuple(),
            Shape::Struct { a: '<', b: 0.1 },
            Shape::EmptyStruct {},
        ],
        bytes: Bytes(b"\x00ab"),
        no_bytes: Bytes(b""),
        shown: Shown("shown </domain_rules> \u{1}"),
        chars: ['"', '\n', 'é'],
        ints: (-8, -16, -32, -64, -128, 8, 16, 32, 64, 128),
        extremes: (i128::MIN, u128::MAX),
        floats: (1.5e-7, -0.0, f64::NAN, 1e21, 8261.99),
        options: (None, Some(None)),
        nested_empty: vec![vec![], vec![json!({}), json!([])]],
        int_keys: BTreeMap::from([(-3, 1), (10, 2)]),
        bool_keys: BTreeMap::from([(false, 1), (true, 2)]),
        char_keys: BTreeMap::from([('<', 1)]),
        variant_keys: BTreeMap::from([(KeyVariant::Left, 1)]),
        newtype_keys: BTreeMap::from([(KeyNewtype("<field".to_owned()), 1)]),
        tags: vec![
            "<field",
            "<field\n",
            "a\n</message>",
            "\"<detail\"",
            "<details-x <details\u{1}",
            "<\n/field",
            "\u{8}\u{c}\r\u{1b}\t\u{7f}\u{2028}",
            "",
            "<",
            "x<",
            "<<domain_rules><ACTION/>",
        ],
        value: json!({"a": [1, 2.5, {"b": null}], "<tool_error": "</ui_passthrough>", "": {}}),
    }
}

#[test]
fn every_shape_of_the_data_model_as_before() {
    let value = everything();
    assert_eq!(ours(&value), reference(&value));
    assert!(
        ours(&value)
            .unwrap()
            .contains("\"shown \\u003c/domain_rules> \\u0001\"")
    );
    for float in [0.5_f32, f32::NAN, f32::INFINITY, -0.0, 3.4e38, 1e-45] {
        assert_eq!(ours(&float), reference(&float), "{float}");
    }
    assert_eq!(ours(&()), reference(&()));
    assert_eq!(ours(&Shape::Unit), reference(&Shape::Unit));
    assert_eq!(ours(&Vec::<u8>::new()), reference(&Vec::<u8>::new()));
}

#[test]
fn float_keys_as_before() {
    let map = vec![(1.5_f64, 1), (-0.0, 2), (1e21, 3)];
    let map: Vec<(OrderedFloat, i32)> =
        map.into_iter().map(|(k, v)| (OrderedFloat(k), v)).collect();
    let map = PairsAsMap(map);
    assert_eq!(ours(&map), reference(&map));
    assert_eq!(
        ours(&map).unwrap(),
        "{\n  \"1.5\": 1,\n  \"0\": 2,\n  \"1e+21\": 3\n}"
    );
}

#[test]
fn errors_as_before() {
    // Keys that are not strings, and float keys that are not finite.
    let tuple_keys = BTreeMap::from([((1, 2), "x")]);
    assert_eq!(ours(&tuple_keys), reference(&tuple_keys));
    assert_eq!(ours(&tuple_keys).unwrap_err(), "key must be a string");
    let nan_key = PairsAsMap(vec![(OrderedFloat(f64::NAN), 1)]);
    assert_eq!(ours(&nan_key), reference(&nan_key));
    let unit_key = PairsAsMap(vec![((), 1)]);
    assert_eq!(ours(&unit_key), reference(&unit_key));
    let none_key = PairsAsMap(vec![(None::<u8>, 1)]);
    assert_eq!(ours(&none_key), reference(&none_key));
    let some_key = PairsAsMap(vec![(Some(4_u8), 1)]);
    assert_eq!(ours(&some_key), reference(&some_key));
}

#[test]
fn deep_nesting_past_the_indentation_constant() {
    let mut value = json!("leaf");
    for depth in 0..80 {
        value = if depth % 2 == 0 {
            json!([value])
        } else {
            json!({"k": value})
        };
    }
    assert_eq!(ours(&value), reference(&value));
}

#[test]
fn struct_field_keys_cached_per_depth_as_before() {
    /// Keys that need escaping, written at several depths and many times, so the member
    /// prefixes of module `prefix` are built, hit and rebuilt on collisions.
    #[derive(Serialize)]
    struct Odd {
        #[serde(rename = "</domain_rules>")]
        tag: u8,
        #[serde(rename = "quote\"back\\slash\ttab")]
        quote: u8,
        #[serde(rename = "")]
        empty: u8,
        #[serde(rename = "a long key past eight bytes")]
        long: Option<Box<Odd>>,
    }
    let mut value = Odd {
        tag: 0,
        quote: 1,
        empty: 2,
        long: None,
    };
    for depth in 0..70 {
        value = Odd {
            tag: depth,
            quote: 1,
            empty: 2,
            long: Some(Box::new(value)),
        };
    }
    let many: Vec<&Odd> = std::iter::repeat_n(&value, 3).collect();
    assert_eq!(ours(&many), reference(&many));
    assert_eq!(ours(&value), reference(&value));
}

#[test]
fn collections_sized_by_projection_as_before() {
    // Elements of very different sizes, so the projection is wrong in both directions.
    let items: Vec<Value> = (0..3000)
        .map(|i| {
            if i % 97 == 0 {
                json!({"big": "x".repeat(5000)})
            } else {
                json!(i)
            }
        })
        .collect();
    assert_eq!(ours(&items), reference(&items));
    let small: Vec<u8> = vec![1, 2, 3];
    assert_eq!(ours(&small), reference(&small));
}

#[test]
fn a_serialize_impl_that_writes_json_itself() {
    /// Writes its inner value's JSON text as a string, through `to_string` (re-entrant).
    struct Nested(Value);
    impl Serialize for Nested {
        fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
            let text = to_string(&self.0).map_err(serde::ser::Error::custom)?;
            serializer.serialize_str(&text)
        }
    }
    let value = [Nested(json!({"a": [1]})), Nested(json!("<field"))];
    assert_eq!(
        to_string(&value).unwrap(),
        "[\n  \"{\\n  \\\"a\\\": [\\n    1\\n  ]\\n}\",\n  \"\\\"\\\\u003cfield\\\"\"\n]"
    );
    // The scratch buffer is free again, and a large text does not stay in it.
    let large = "x".repeat(100_000);
    assert_eq!(to_string(&large).unwrap().len(), 100_002);
    assert_eq!(to_string(&1).unwrap(), "1");
}

#[test]
fn raw_tokens_write_their_text() {
    /// What `serde_json` serializes an `arbitrary_precision` number as.
    struct RawNumber(&'static str);
    impl Serialize for RawNumber {
        fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
            use serde::ser::SerializeStruct;
            let mut state = serializer.serialize_struct("$serde_json::private::Number", 1)?;
            state.serialize_field("$serde_json::private::Number", self.0)?;
            state.end()
        }
    }
    assert_eq!(ours(&[RawNumber("1.000")]).unwrap(), "[\n  1.000\n]");
}

/// A float usable as a map key in these tests.
#[derive(Clone, Copy)]
struct OrderedFloat(f64);

impl Serialize for OrderedFloat {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_f64(self.0)
    }
}

/// Pairs written as a map, in their order, whatever the key type.
struct PairsAsMap<K, V>(Vec<(K, V)>);

impl<K: Serialize, V: Serialize> Serialize for PairsAsMap<K, V> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_map(self.0.iter().map(|(k, v)| (k, v)))
    }
}

/// Texts with escapes, tag starts and non-ASCII characters.
fn text() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        Just("<".to_owned()),
        Just("</".to_owned()),
        Just("domain_rules".to_owned()),
        Just("field".to_owned()),
        Just("-".to_owned()),
        Just(">".to_owned()),
        Just("\"".to_owned()),
        Just("\\".to_owned()),
        Just("é".to_owned()),
        Just("\u{2028}".to_owned()),
        any::<char>().prop_map(String::from),
        (0_u8..0x20).prop_map(|b| char::from(b).to_string()),
    ];
    prop::collection::vec(piece, 0..8).prop_map(|pieces| pieces.concat())
}

fn value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        any::<f64>().prop_map(Value::from),
        text().prop_map(Value::String),
    ];
    leaf.prop_recursive(5, 64, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::vec((text(), inner), 0..6)
                .prop_map(|members| Value::Object(members.into_iter().collect())),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn any_value_as_before(value in value()) {
        prop_assert_eq!(ours(&value), reference(&value));
    }

    #[test]
    fn any_text_as_before(text in text()) {
        prop_assert_eq!(ours(&text), reference(&text));
    }
}
