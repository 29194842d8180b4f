//! The wire value of a JSON data block (wire format §3), made from the value itself: what a JSON
//! parser reads back from the text [`to_string`](super::to_string) writes, without writing or
//! reading that text.
//!
//! `structuredContent` (wire format §11.2) and the testing view (§14.2) hold this value. Made
//! here, it is exact with no `serde_json` feature switched on: reading the text back would need
//! `float_roundtrip` for the exact floats and `unbounded_depth` past 128 levels, and those hold
//! for the whole build of every user.
//!
//! The numbers follow the text: a float whose ECMAScript form is an integer (`100.0` is written
//! `100`) is the integer a parser reads, `-0.0` is `0`, NaN and the infinities are `null`, and an
//! integer beyond 64 bits is the nearest float, as `serde_json` parses its digits. Map keys
//! follow the writer's key rules (wire format §3.3).

use serde::Serialize;
use serde::ser::{self, Impossible};
use serde_json::{Map, Number, Value};

use super::{Error, RAW_TOKENS, error, number_str};
use crate::encode::EncodeError;
use crate::encode::reject::{compound, reject, see_through};

/// The value the JSON data block of `value` holds (see the module docs).
///
/// ```ignore
/// let value = to_value(&serde_json::json!({"a": 100.0, "b": -0.0}))?;
/// assert_eq!(value.to_string(), r#"{"a":100,"b":0}"#);
/// ```
pub(crate) fn to_value<T: Serialize + ?Sized>(value: &T) -> Result<Value, EncodeError> {
    value.serialize(ToValue).map_err(EncodeError::from_serde)
}

/// A binary64 as a parser reads its ECMAScript text back (wire format §3.6).
fn float(x: f64) -> Value {
    if !x.is_finite() {
        return Value::Null;
    }
    // Written without a fraction or an exponent below 1e21: integer digits, which a parser
    // reads as an integer when it fits 64 bits. The casts are exact: `x` is integral and in range.
    #[allow(
        clippy::cast_possible_truncation,
        clippy::cast_sign_loss,
        reason = "x is integral and within the target's range"
    )]
    if x.fract() == 0.0 && x.abs() < 1e21 {
        if x == 0.0 {
            return Value::from(0u64);
        }
        if (0.0..18_446_744_073_709_551_616.0).contains(&x) {
            return Value::from(x as u64);
        }
        if (-9_223_372_036_854_775_808.0..0.0).contains(&x) {
            return Value::from(x as i64);
        }
    }
    Number::from_f64(x).map_or(Value::Null, Value::Number)
}

/// The serializer of [`to_value`].
struct ToValue;

/// An array being built; for a tuple variant, its name too.
struct Seq {
    items: Vec<Value>,
    variant: Option<&'static str>,
}

/// An object being built (a map, a struct, a struct variant with its name), or the JSON text of
/// a `serde_json` number or raw value (see [`RAW_TOKENS`]).
enum Obj {
    Members {
        map: Map<String, Value>,
        key: Option<String>,
        variant: Option<&'static str>,
    },
    Raw(Option<Value>),
}

/// `{variant: value}`, serde's external tagging.
fn tagged(variant: &'static str, value: Value) -> Value {
    let mut map = Map::new();
    map.insert(variant.to_owned(), value);
    Value::Object(map)
}

impl ser::Serializer for ToValue {
    type Ok = Value;
    type Error = Error;
    type SerializeSeq = Seq;
    type SerializeTuple = Seq;
    type SerializeTupleStruct = Seq;
    type SerializeTupleVariant = Seq;
    type SerializeMap = Obj;
    type SerializeStruct = Obj;
    type SerializeStructVariant = Obj;

    fn serialize_bool(self, v: bool) -> Result<Value, Error> {
        Ok(Value::Bool(v))
    }
    fn serialize_i8(self, v: i8) -> Result<Value, Error> {
        Ok(Value::from(v))
    }
    fn serialize_i16(self, v: i16) -> Result<Value, Error> {
        Ok(Value::from(v))
    }
    fn serialize_i32(self, v: i32) -> Result<Value, Error> {
        Ok(Value::from(v))
    }
    fn serialize_i64(self, v: i64) -> Result<Value, Error> {
        Ok(Value::from(v))
    }
    fn serialize_i128(self, v: i128) -> Result<Value, Error> {
        #[allow(clippy::cast_precision_loss, reason = "as a parser reads the digits")]
        Ok(i64::try_from(v).map_or_else(|_| float(v as f64), Value::from))
    }
    fn serialize_u8(self, v: u8) -> Result<Value, Error> {
        Ok(Value::from(v))
    }
    fn serialize_u16(self, v: u16) -> Result<Value, Error> {
        Ok(Value::from(v))
    }
    fn serialize_u32(self, v: u32) -> Result<Value, Error> {
        Ok(Value::from(v))
    }
    fn serialize_u64(self, v: u64) -> Result<Value, Error> {
        Ok(Value::from(v))
    }
    fn serialize_u128(self, v: u128) -> Result<Value, Error> {
        #[allow(clippy::cast_precision_loss, reason = "as a parser reads the digits")]
        Ok(u64::try_from(v).map_or_else(|_| float(v as f64), Value::from))
    }
    fn serialize_f32(self, v: f32) -> Result<Value, Error> {
        // Written as the binary64 it converts to (exactly), as the writer does.
        Ok(float(f64::from(v)))
    }
    fn serialize_f64(self, v: f64) -> Result<Value, Error> {
        Ok(float(v))
    }
    fn serialize_char(self, v: char) -> Result<Value, Error> {
        Ok(Value::String(v.to_string()))
    }
    fn serialize_str(self, v: &str) -> Result<Value, Error> {
        Ok(Value::String(v.to_owned()))
    }
    fn serialize_bytes(self, v: &[u8]) -> Result<Value, Error> {
        // As the writer (and serde_json): an array of numbers.
        Ok(Value::Array(v.iter().map(|&b| Value::from(b)).collect()))
    }
    fn serialize_none(self) -> Result<Value, Error> {
        Ok(Value::Null)
    }
    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<Value, Error> {
        value.serialize(self)
    }
    fn serialize_unit(self) -> Result<Value, Error> {
        Ok(Value::Null)
    }
    fn serialize_unit_struct(self, _name: &'static str) -> Result<Value, Error> {
        Ok(Value::Null)
    }
    fn serialize_unit_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
    ) -> Result<Value, Error> {
        Ok(Value::String(variant.to_owned()))
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        value: &T,
    ) -> Result<Value, Error> {
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<Value, Error> {
        Ok(tagged(variant, value.serialize(self)?))
    }
    fn serialize_seq(self, len: Option<usize>) -> Result<Seq, Error> {
        Ok(Seq {
            items: Vec::with_capacity(len.unwrap_or(0)),
            variant: None,
        })
    }
    fn serialize_tuple(self, len: usize) -> Result<Seq, Error> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_struct(self, _name: &'static str, len: usize) -> Result<Seq, Error> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<Seq, Error> {
        Ok(Seq {
            items: Vec::with_capacity(len),
            variant: Some(variant),
        })
    }
    fn serialize_map(self, _len: Option<usize>) -> Result<Obj, Error> {
        Ok(Obj::Members {
            map: Map::new(),
            key: None,
            variant: None,
        })
    }
    fn serialize_struct(self, name: &'static str, _len: usize) -> Result<Obj, Error> {
        if RAW_TOKENS.contains(&name) {
            return Ok(Obj::Raw(None));
        }
        self.serialize_map(None)
    }
    fn serialize_struct_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        _len: usize,
    ) -> Result<Obj, Error> {
        Ok(Obj::Members {
            map: Map::new(),
            key: None,
            variant: Some(variant),
        })
    }
    fn collect_str<T: std::fmt::Display + ?Sized>(self, value: &T) -> Result<Value, Error> {
        Ok(Value::String(value.to_string()))
    }
}

impl Seq {
    fn push<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
        self.items.push(value.serialize(ToValue)?);
        Ok(())
    }

    fn finish(self) -> Value {
        let array = Value::Array(self.items);
        match self.variant {
            Some(variant) => tagged(variant, array),
            None => array,
        }
    }

    #[expect(clippy::unnecessary_wraps, reason = "serde's `end`")]
    fn done(self) -> Result<Value, Error> {
        Ok(self.finish())
    }
}

compound!(Seq => Value, Error; end = Seq::done;
    SerializeSeq(Seq::push),
    SerializeTuple(Seq::push),
    SerializeTupleStruct(Seq::push),
    SerializeTupleVariant(Seq::push),
);

impl Obj {
    fn member<T: Serialize + ?Sized>(&mut self, key: &str, value: &T) -> Result<(), Error> {
        match self {
            Obj::Members { map, .. } => {
                map.insert(key.to_owned(), value.serialize(ToValue)?);
            }
            Obj::Raw(raw) => {
                // The one field of a raw value: its JSON text.
                let text = value.serialize(RawText)?;
                *raw = Some(serde_json::from_str(&text)?);
            }
        }
        Ok(())
    }

    fn finish(self) -> Value {
        match self {
            Obj::Members { map, variant, .. } => {
                let object = Value::Object(map);
                match variant {
                    Some(variant) => tagged(variant, object),
                    None => object,
                }
            }
            Obj::Raw(raw) => raw.unwrap_or(Value::Null),
        }
    }

    #[expect(clippy::unnecessary_wraps, reason = "serde's `end`")]
    fn done(self) -> Result<Value, Error> {
        Ok(self.finish())
    }
}

impl ser::SerializeMap for Obj {
    type Ok = Value;
    type Error = Error;
    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<(), Error> {
        if let Obj::Members { key: slot, .. } = self {
            *slot = Some(key.serialize(KeyText)?);
        }
        Ok(())
    }
    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
        let key = match self {
            Obj::Members { key, .. } => key.take().unwrap_or_default(),
            Obj::Raw(_) => String::new(),
        };
        self.member(&key, value)
    }
    fn end(self) -> Result<Value, Error> {
        self.done()
    }
}

compound!(Obj => Value, Error; end = Obj::done;
    SerializeStruct(Obj::member),
    SerializeStructVariant(Obj::member),
);

/// The compound types of a serializer below, which takes none.
macro_rules! no_compound_types {
    () => {
        type SerializeSeq = Impossible<String, Error>;
        type SerializeTuple = Impossible<String, Error>;
        type SerializeTupleStruct = Impossible<String, Error>;
        type SerializeTupleVariant = Impossible<String, Error>;
        type SerializeMap = Impossible<String, Error>;
        type SerializeStruct = Impossible<String, Error>;
        type SerializeStructVariant = Impossible<String, Error>;
    };
}

/// A map key as the writer writes it (wire format §3.3, the writer's `Key`): strings, and the
/// scalars `serde_json` writes as strings; floats in their ECMAScript form.
struct KeyText;

/// The writer's refusal of a map key that is no string or scalar, whatever was found.
fn key_must_be_a_string(_found: &'static str) -> Error {
    error("key must be a string")
}

impl ser::Serializer for KeyText {
    type Ok = String;
    type Error = Error;
    no_compound_types!();
    reject!(key_must_be_a_string =>
        serialize_bytes, serialize_none, serialize_unit, serialize_unit_struct,
        serialize_newtype_variant, compounds);

    fn serialize_bool(self, v: bool) -> Result<String, Error> {
        Ok(if v { "true" } else { "false" }.to_owned())
    }
    fn serialize_i8(self, v: i8) -> Result<String, Error> {
        Ok(itoa::Buffer::new().format(v).to_owned())
    }
    fn serialize_i16(self, v: i16) -> Result<String, Error> {
        Ok(itoa::Buffer::new().format(v).to_owned())
    }
    fn serialize_i32(self, v: i32) -> Result<String, Error> {
        Ok(itoa::Buffer::new().format(v).to_owned())
    }
    fn serialize_i64(self, v: i64) -> Result<String, Error> {
        Ok(itoa::Buffer::new().format(v).to_owned())
    }
    fn serialize_i128(self, v: i128) -> Result<String, Error> {
        Ok(itoa::Buffer::new().format(v).to_owned())
    }
    fn serialize_u8(self, v: u8) -> Result<String, Error> {
        Ok(itoa::Buffer::new().format(v).to_owned())
    }
    fn serialize_u16(self, v: u16) -> Result<String, Error> {
        Ok(itoa::Buffer::new().format(v).to_owned())
    }
    fn serialize_u32(self, v: u32) -> Result<String, Error> {
        Ok(itoa::Buffer::new().format(v).to_owned())
    }
    fn serialize_u64(self, v: u64) -> Result<String, Error> {
        Ok(itoa::Buffer::new().format(v).to_owned())
    }
    fn serialize_u128(self, v: u128) -> Result<String, Error> {
        Ok(itoa::Buffer::new().format(v).to_owned())
    }
    fn serialize_f32(self, v: f32) -> Result<String, Error> {
        self.serialize_f64(f64::from(v))
    }
    fn serialize_f64(self, v: f64) -> Result<String, Error> {
        if !v.is_finite() {
            return Err(error("float key must be finite (got NaN or +/-inf)"));
        }
        Ok(number_str(&mut ryu_js::Buffer::new(), v).to_owned())
    }
    fn serialize_char(self, v: char) -> Result<String, Error> {
        Ok(v.to_string())
    }
    fn serialize_str(self, v: &str) -> Result<String, Error> {
        Ok(v.to_owned())
    }
    see_through!();
    fn serialize_unit_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
    ) -> Result<String, Error> {
        Ok(variant.to_owned())
    }
    fn collect_str<T: std::fmt::Display + ?Sized>(self, value: &T) -> Result<String, Error> {
        Ok(value.to_string())
    }
}

/// The JSON text a `serde_json` number or raw value carries in its one field.
struct RawText;

/// The refusal of a raw JSON value that does not hold its text, whatever was found.
fn raw_must_be_text(_found: &'static str) -> Error {
    error("a raw JSON value must hold its text")
}

impl ser::Serializer for RawText {
    type Ok = String;
    type Error = Error;
    no_compound_types!();
    reject!(raw_must_be_text =>
        serialize_bool, serialize_i8, serialize_i16, serialize_i32, serialize_i64, serialize_u8,
        serialize_u16, serialize_u32, serialize_u64, serialize_f32, serialize_f64, serialize_char,
        serialize_bytes, serialize_none, serialize_unit, serialize_unit_struct,
        serialize_unit_variant, serialize_some, serialize_newtype_struct,
        serialize_newtype_variant, compounds);

    fn serialize_str(self, v: &str) -> Result<String, Error> {
        Ok(v.to_owned())
    }
    fn collect_str<T: std::fmt::Display + ?Sized>(self, value: &T) -> Result<String, Error> {
        Ok(value.to_string())
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::to_value;

    /// The value equals what the text reads back as (floats exact here: short digits).
    fn same_as_text<T: serde::Serialize>(value: &T) {
        let text = crate::encode::json::to_string(value).unwrap();
        let read: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(to_value(value).unwrap(), read, "{text}");
        assert_eq!(to_value(value).unwrap().to_string(), read.to_string());
    }

    #[test]
    fn numbers_are_what_the_text_reads_back_as() {
        same_as_text(&json!([
            100.0, -0.0, 1e21, 1e20, -5.0, 0.5, 1e-7, 9.3e18, -9.3e18
        ]));
        same_as_text(&[f64::NAN, f64::INFINITY]);
        same_as_text(&[1.5f32, 100.0f32]);
        same_as_text(&(u64::MAX, i64::MIN, 1u128 << 64, -(1i128 << 70)));
        assert_eq!(
            to_value(&json!({"a": 100.0})).unwrap().to_string(),
            r#"{"a":100}"#
        );
    }

    #[test]
    fn keys_and_variants_follow_the_writer() {
        #[derive(serde::Serialize)]
        enum E {
            Unit,
            New(u8),
            Tuple(u8, u8),
            Struct { a: u8 },
        }
        struct FloatKeys;
        impl serde::Serialize for FloatKeys {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.collect_map([(100.0f64, 1), (0.5, 2), (-0.0, 3)])
            }
        }
        let mut map = std::collections::BTreeMap::new();
        map.insert(1u8, E::Unit);
        map.insert(2, E::New(1));
        map.insert(3, E::Tuple(1, 2));
        map.insert(4, E::Struct { a: 1 });
        same_as_text(&map);
        assert_eq!(
            to_value(&FloatKeys).unwrap(),
            json!({"100": 1, "0.5": 2, "0": 3})
        );
        same_as_text(
            &[(true, 1)]
                .into_iter()
                .collect::<std::collections::BTreeMap<_, _>>(),
        );
        assert!(
            to_value(
                &[(vec![1], 1)]
                    .into_iter()
                    .collect::<std::collections::BTreeMap<_, _>>()
            )
            .is_err()
        );
    }

    #[test]
    fn deep_values_need_no_recursion_limit() {
        let mut deep = json!("bottom");
        for _ in 0..300 {
            deep = json!([deep]);
        }
        assert_eq!(to_value(&deep).unwrap(), deep);
    }
}
