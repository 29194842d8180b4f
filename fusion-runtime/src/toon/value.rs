//! The value the encoder walks: the JSON data model with member order kept and integers exact up
//! to 128 bits, built from any [`Serialize`] value by a serde `Serializer` of our own.
//!
//! `serde_json::Value` is not used because, without `serde_json`'s `arbitrary_precision` feature
//! (which would change number handling for every crate in the tree), it cannot hold an `i128` or a
//! `u128` beyond 64 bits, and SPEC §9.3 wants exact integer digits.

use serde::Serialize;
use serde::ser::{self, Impossible};

use super::ToonError;

/// Object members in the value's own order (SPEC §3.3).
pub(crate) type Members = Vec<(String, Value)>;

/// One JSON-model value.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Value {
    Null,
    Bool(bool),
    /// A non-negative integer.
    UInt(u128),
    /// A negative integer.
    Int(i128),
    Float(f64),
    String(String),
    Array(Vec<Value>),
    Object(Members),
}

impl Value {
    /// Null, a boolean, a number or a string.
    pub(crate) fn is_primitive(&self) -> bool {
        !matches!(self, Value::Array(_) | Value::Object(_))
    }

    /// The same value as a `serde_json::Value`, for the testing view (SPEC §14.2).
    ///
    /// `serde_json`'s value holds 64-bit integers and finite floats only: an integer beyond
    /// `u64`/`i64` becomes the nearest float, and NaN or an infinity becomes `null` (which is what
    /// the TOON text says too).
    pub(crate) fn into_json(self) -> serde_json::Value {
        use serde_json::Value as Json;
        match self {
            Value::Null => Json::Null,
            Value::Bool(b) => Json::Bool(b),
            Value::UInt(n) => u64::try_from(n).map_or_else(
                // Precision loss is the documented cost of showing a u128 in serde_json's model.
                #[allow(clippy::cast_precision_loss, reason = "documented: view only")]
                |_| float_json(n as f64),
                Json::from,
            ),
            Value::Int(n) => i64::try_from(n).map_or_else(
                #[allow(clippy::cast_precision_loss, reason = "documented: view only")]
                |_| float_json(n as f64),
                Json::from,
            ),
            Value::Float(x) => float_json(x),
            Value::String(s) => Json::String(s),
            Value::Array(items) => Json::Array(items.into_iter().map(Value::into_json).collect()),
            Value::Object(members) => Json::Object(
                members
                    .into_iter()
                    .map(|(key, value)| (key, value.into_json()))
                    .collect(),
            ),
        }
    }
}

fn float_json(x: f64) -> serde_json::Value {
    serde_json::Number::from_f64(x).map_or(serde_json::Value::Null, serde_json::Value::Number)
}

/// Builds the [`Value`] of `value`.
pub(crate) fn to_value<T: Serialize + ?Sized>(value: &T) -> Result<Value, ToonError> {
    value.serialize(ValueSerializer)
}

/// Fails when two members share a name: a TOON decoder would keep one of them, so the text
/// would not decode to the value (SPEC §5.10 P4).
fn check_unique(members: &Members) -> Result<(), ToonError> {
    // Models have a handful of fields: pairwise comparison beats hashing there.
    const PAIRWISE_LIMIT: usize = 12;
    if members.len() <= PAIRWISE_LIMIT {
        for (i, (key, _)) in members.iter().enumerate() {
            if members[..i].iter().any(|(earlier, _)| earlier == key) {
                return Err(ToonError::DuplicateKey(key.clone()));
            }
        }
        return Ok(());
    }
    let mut seen = std::collections::HashSet::with_capacity(members.len());
    for (key, _) in members {
        if !seen.insert(key.as_str()) {
            return Err(ToonError::DuplicateKey(key.clone()));
        }
    }
    Ok(())
}

/// The serde `Serializer` that builds a [`Value`], mapping the serde data model the way
/// `serde_json` does (unit → null, unit variant → its name, newtype variant → `{name: value}`,
/// bytes → a list of numbers, map keys → strings).
struct ValueSerializer;

impl ser::Serializer for ValueSerializer {
    type Ok = Value;
    type Error = ToonError;
    type SerializeSeq = SeqBuilder;
    type SerializeTuple = SeqBuilder;
    type SerializeTupleStruct = SeqBuilder;
    type SerializeTupleVariant = VariantSeqBuilder;
    type SerializeMap = MapBuilder;
    type SerializeStruct = MapBuilder;
    type SerializeStructVariant = VariantMapBuilder;

    fn serialize_bool(self, v: bool) -> Result<Value, ToonError> {
        Ok(Value::Bool(v))
    }

    fn serialize_i8(self, v: i8) -> Result<Value, ToonError> {
        self.serialize_i128(i128::from(v))
    }

    fn serialize_i16(self, v: i16) -> Result<Value, ToonError> {
        self.serialize_i128(i128::from(v))
    }

    fn serialize_i32(self, v: i32) -> Result<Value, ToonError> {
        self.serialize_i128(i128::from(v))
    }

    fn serialize_i64(self, v: i64) -> Result<Value, ToonError> {
        self.serialize_i128(i128::from(v))
    }

    fn serialize_i128(self, v: i128) -> Result<Value, ToonError> {
        Ok(u128::try_from(v).map_or(Value::Int(v), Value::UInt))
    }

    fn serialize_u8(self, v: u8) -> Result<Value, ToonError> {
        Ok(Value::UInt(u128::from(v)))
    }

    fn serialize_u16(self, v: u16) -> Result<Value, ToonError> {
        Ok(Value::UInt(u128::from(v)))
    }

    fn serialize_u32(self, v: u32) -> Result<Value, ToonError> {
        Ok(Value::UInt(u128::from(v)))
    }

    fn serialize_u64(self, v: u64) -> Result<Value, ToonError> {
        Ok(Value::UInt(u128::from(v)))
    }

    fn serialize_u128(self, v: u128) -> Result<Value, ToonError> {
        Ok(Value::UInt(v))
    }

    fn serialize_f32(self, v: f32) -> Result<Value, ToonError> {
        // Widened like the JSON writer does, so both blocks show the same digits.
        Ok(Value::Float(f64::from(v)))
    }

    fn serialize_f64(self, v: f64) -> Result<Value, ToonError> {
        Ok(Value::Float(v))
    }

    fn serialize_char(self, v: char) -> Result<Value, ToonError> {
        Ok(Value::String(v.to_string()))
    }

    fn serialize_str(self, v: &str) -> Result<Value, ToonError> {
        Ok(Value::String(v.to_owned()))
    }

    fn serialize_bytes(self, v: &[u8]) -> Result<Value, ToonError> {
        Ok(Value::Array(
            v.iter().map(|&b| Value::UInt(u128::from(b))).collect(),
        ))
    }

    fn serialize_none(self) -> Result<Value, ToonError> {
        Ok(Value::Null)
    }

    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<Value, ToonError> {
        value.serialize(self)
    }

    fn serialize_unit(self) -> Result<Value, ToonError> {
        Ok(Value::Null)
    }

    fn serialize_unit_struct(self, _name: &'static str) -> Result<Value, ToonError> {
        Ok(Value::Null)
    }

    fn serialize_unit_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
    ) -> Result<Value, ToonError> {
        Ok(Value::String(variant.to_owned()))
    }

    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        value: &T,
    ) -> Result<Value, ToonError> {
        value.serialize(self)
    }

    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<Value, ToonError> {
        Ok(Value::Object(vec![(
            variant.to_owned(),
            value.serialize(self)?,
        )]))
    }

    fn serialize_seq(self, len: Option<usize>) -> Result<SeqBuilder, ToonError> {
        Ok(SeqBuilder {
            items: Vec::with_capacity(len.unwrap_or(0)),
        })
    }

    fn serialize_tuple(self, len: usize) -> Result<SeqBuilder, ToonError> {
        self.serialize_seq(Some(len))
    }

    fn serialize_tuple_struct(
        self,
        _name: &'static str,
        len: usize,
    ) -> Result<SeqBuilder, ToonError> {
        self.serialize_seq(Some(len))
    }

    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<VariantSeqBuilder, ToonError> {
        Ok(VariantSeqBuilder {
            variant,
            items: Vec::with_capacity(len),
        })
    }

    fn serialize_map(self, len: Option<usize>) -> Result<MapBuilder, ToonError> {
        Ok(MapBuilder {
            members: Vec::with_capacity(len.unwrap_or(0)),
            next_key: None,
        })
    }

    fn serialize_struct(self, _name: &'static str, len: usize) -> Result<MapBuilder, ToonError> {
        self.serialize_map(Some(len))
    }

    fn serialize_struct_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<VariantMapBuilder, ToonError> {
        Ok(VariantMapBuilder {
            variant,
            members: Vec::with_capacity(len),
        })
    }
}

/// Collects the elements of a sequence or tuple.
pub(crate) struct SeqBuilder {
    items: Vec<Value>,
}

impl ser::SerializeSeq for SeqBuilder {
    type Ok = Value;
    type Error = ToonError;

    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), ToonError> {
        self.items.push(value.serialize(ValueSerializer)?);
        Ok(())
    }

    fn end(self) -> Result<Value, ToonError> {
        Ok(Value::Array(self.items))
    }
}

impl ser::SerializeTuple for SeqBuilder {
    type Ok = Value;
    type Error = ToonError;

    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), ToonError> {
        ser::SerializeSeq::serialize_element(self, value)
    }

    fn end(self) -> Result<Value, ToonError> {
        ser::SerializeSeq::end(self)
    }
}

impl ser::SerializeTupleStruct for SeqBuilder {
    type Ok = Value;
    type Error = ToonError;

    fn serialize_field<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), ToonError> {
        ser::SerializeSeq::serialize_element(self, value)
    }

    fn end(self) -> Result<Value, ToonError> {
        ser::SerializeSeq::end(self)
    }
}

/// Collects a tuple variant: `{variant: [elements]}`.
pub(crate) struct VariantSeqBuilder {
    variant: &'static str,
    items: Vec<Value>,
}

impl ser::SerializeTupleVariant for VariantSeqBuilder {
    type Ok = Value;
    type Error = ToonError;

    fn serialize_field<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), ToonError> {
        self.items.push(value.serialize(ValueSerializer)?);
        Ok(())
    }

    fn end(self) -> Result<Value, ToonError> {
        Ok(Value::Object(vec![(
            self.variant.to_owned(),
            Value::Array(self.items),
        )]))
    }
}

/// Collects the members of a map or struct.
pub(crate) struct MapBuilder {
    members: Members,
    next_key: Option<String>,
}

impl ser::SerializeMap for MapBuilder {
    type Ok = Value;
    type Error = ToonError;

    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<(), ToonError> {
        self.next_key = Some(key.serialize(KeySerializer)?);
        Ok(())
    }

    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), ToonError> {
        // serde calls serialize_key before serialize_value; a hand-written impl that does not
        // breaks the SerializeMap contract, which we report rather than panic on.
        let key = self.next_key.take().ok_or_else(|| {
            <ToonError as ser::Error>::custom("serialize_value was called before serialize_key")
        })?;
        self.members.push((key, value.serialize(ValueSerializer)?));
        Ok(())
    }

    fn end(self) -> Result<Value, ToonError> {
        check_unique(&self.members)?;
        Ok(Value::Object(self.members))
    }
}

impl ser::SerializeStruct for MapBuilder {
    type Ok = Value;
    type Error = ToonError;

    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), ToonError> {
        self.members
            .push((key.to_owned(), value.serialize(ValueSerializer)?));
        Ok(())
    }

    fn end(self) -> Result<Value, ToonError> {
        ser::SerializeMap::end(self)
    }
}

/// Collects a struct variant: `{variant: {members}}`.
pub(crate) struct VariantMapBuilder {
    variant: &'static str,
    members: Members,
}

impl ser::SerializeStructVariant for VariantMapBuilder {
    type Ok = Value;
    type Error = ToonError;

    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), ToonError> {
        self.members
            .push((key.to_owned(), value.serialize(ValueSerializer)?));
        Ok(())
    }

    fn end(self) -> Result<Value, ToonError> {
        check_unique(&self.members)?;
        Ok(Value::Object(vec![(
            self.variant.to_owned(),
            Value::Object(self.members),
        )]))
    }
}

/// Turns a map key into a member name: strings, characters, integers, booleans and unit
/// variants are accepted (as `serde_json` does); anything else is [`ToonError::KeyMustBeString`].
struct KeySerializer;

impl KeySerializer {
    fn reject(kind: &'static str) -> ToonError {
        ToonError::KeyMustBeString { found: kind }
    }
}

impl ser::Serializer for KeySerializer {
    type Ok = String;
    type Error = ToonError;
    type SerializeSeq = Impossible<String, ToonError>;
    type SerializeTuple = Impossible<String, ToonError>;
    type SerializeTupleStruct = Impossible<String, ToonError>;
    type SerializeTupleVariant = Impossible<String, ToonError>;
    type SerializeMap = Impossible<String, ToonError>;
    type SerializeStruct = Impossible<String, ToonError>;
    type SerializeStructVariant = Impossible<String, ToonError>;

    fn serialize_bool(self, v: bool) -> Result<String, ToonError> {
        Ok(if v { "true" } else { "false" }.to_owned())
    }

    fn serialize_i8(self, v: i8) -> Result<String, ToonError> {
        Ok(itoa::Buffer::new().format(v).to_owned())
    }

    fn serialize_i16(self, v: i16) -> Result<String, ToonError> {
        Ok(itoa::Buffer::new().format(v).to_owned())
    }

    fn serialize_i32(self, v: i32) -> Result<String, ToonError> {
        Ok(itoa::Buffer::new().format(v).to_owned())
    }

    fn serialize_i64(self, v: i64) -> Result<String, ToonError> {
        Ok(itoa::Buffer::new().format(v).to_owned())
    }

    fn serialize_i128(self, v: i128) -> Result<String, ToonError> {
        Ok(itoa::Buffer::new().format(v).to_owned())
    }

    fn serialize_u8(self, v: u8) -> Result<String, ToonError> {
        Ok(itoa::Buffer::new().format(v).to_owned())
    }

    fn serialize_u16(self, v: u16) -> Result<String, ToonError> {
        Ok(itoa::Buffer::new().format(v).to_owned())
    }

    fn serialize_u32(self, v: u32) -> Result<String, ToonError> {
        Ok(itoa::Buffer::new().format(v).to_owned())
    }

    fn serialize_u64(self, v: u64) -> Result<String, ToonError> {
        Ok(itoa::Buffer::new().format(v).to_owned())
    }

    fn serialize_u128(self, v: u128) -> Result<String, ToonError> {
        Ok(itoa::Buffer::new().format(v).to_owned())
    }

    fn serialize_f32(self, _v: f32) -> Result<String, ToonError> {
        Err(Self::reject("a float"))
    }

    fn serialize_f64(self, _v: f64) -> Result<String, ToonError> {
        Err(Self::reject("a float"))
    }

    fn serialize_char(self, v: char) -> Result<String, ToonError> {
        Ok(v.to_string())
    }

    fn serialize_str(self, v: &str) -> Result<String, ToonError> {
        Ok(v.to_owned())
    }

    fn serialize_bytes(self, _v: &[u8]) -> Result<String, ToonError> {
        Err(Self::reject("bytes"))
    }

    fn serialize_none(self) -> Result<String, ToonError> {
        Err(Self::reject("none"))
    }

    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<String, ToonError> {
        value.serialize(self)
    }

    fn serialize_unit(self) -> Result<String, ToonError> {
        Err(Self::reject("a unit"))
    }

    fn serialize_unit_struct(self, _name: &'static str) -> Result<String, ToonError> {
        Err(Self::reject("a unit struct"))
    }

    fn serialize_unit_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
    ) -> Result<String, ToonError> {
        Ok(variant.to_owned())
    }

    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        value: &T,
    ) -> Result<String, ToonError> {
        value.serialize(self)
    }

    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        _index: u32,
        _variant: &'static str,
        _value: &T,
    ) -> Result<String, ToonError> {
        Err(Self::reject("an enum variant with data"))
    }

    fn serialize_seq(self, _len: Option<usize>) -> Result<Self::SerializeSeq, ToonError> {
        Err(Self::reject("a sequence"))
    }

    fn serialize_tuple(self, _len: usize) -> Result<Self::SerializeTuple, ToonError> {
        Err(Self::reject("a tuple"))
    }

    fn serialize_tuple_struct(
        self,
        _name: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeTupleStruct, ToonError> {
        Err(Self::reject("a tuple struct"))
    }

    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        _index: u32,
        _variant: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeTupleVariant, ToonError> {
        Err(Self::reject("an enum variant with data"))
    }

    fn serialize_map(self, _len: Option<usize>) -> Result<Self::SerializeMap, ToonError> {
        Err(Self::reject("a map"))
    }

    fn serialize_struct(
        self,
        _name: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeStruct, ToonError> {
        Err(Self::reject("a struct"))
    }

    fn serialize_struct_variant(
        self,
        _name: &'static str,
        _index: u32,
        _variant: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeStructVariant, ToonError> {
        Err(Self::reject("an enum variant with data"))
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use serde::Serialize;

    use super::*;

    #[test]
    fn integers_stay_exact_to_128_bits() {
        assert_eq!(to_value(&u128::MAX).unwrap(), Value::UInt(u128::MAX));
        assert_eq!(to_value(&i128::MIN).unwrap(), Value::Int(i128::MIN));
        assert_eq!(to_value(&-1_i8).unwrap(), Value::Int(-1));
        assert_eq!(to_value(&7_i64).unwrap(), Value::UInt(7));
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
            let ours = to_value(value).unwrap().into_json();
            assert_eq!(ours, serde_json::to_value(value).unwrap());
        }
    }

    #[test]
    fn non_string_keys() {
        let mut map = BTreeMap::new();
        map.insert(2_u8, "b");
        assert_eq!(
            to_value(&map).unwrap(),
            Value::Object(vec![("2".to_owned(), Value::String("b".to_owned()))])
        );
        let mut bad = BTreeMap::new();
        bad.insert(vec![1_u8], 1);
        let err = to_value(&bad).unwrap_err();
        assert!(matches!(
            err,
            ToonError::KeyMustBeString {
                found: "a sequence"
            }
        ));
    }

    #[test]
    fn duplicate_keys_are_refused() {
        struct Twice;
        impl Serialize for Twice {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                use serde::ser::SerializeMap;
                let mut map = s.serialize_map(None)?;
                map.serialize_entry("a", &1)?;
                map.serialize_entry("a", &2)?;
                map.end()
            }
        }
        assert!(matches!(to_value(&Twice), Err(ToonError::DuplicateKey(key)) if key == "a"));
    }

    #[test]
    fn view_conversion_widens_what_serde_json_cannot_hold() {
        let json = Value::UInt(u128::from(u64::MAX) + 1).into_json();
        assert_eq!(json.as_f64(), Some(18_446_744_073_709_551_616.0));
        assert_eq!(Value::Float(f64::NAN).into_json(), serde_json::Value::Null);
        assert_eq!(Value::Int(-5).into_json(), serde_json::json!(-5));
    }
}
