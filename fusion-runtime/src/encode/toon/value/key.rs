//! The serializer of map keys into TOON member names.

use serde::Serialize;
use serde::ser::{self, Impossible};

use super::super::ToonError;
use super::{Key, push_span};
use crate::encode::reject::{reject, see_through};

/// Turns a map key into a member name: strings, characters, integers, booleans and unit
/// variants are accepted (as `serde_json` does); anything else is [`ToonError::KeyMustBeString`].
pub(super) struct KeySerializer<'t> {
    pub(super) text: &'t mut String,
}

impl KeySerializer<'_> {
    fn text(self, name: &str) -> Key {
        Key::Text(push_span(self.text, name))
    }

    fn integer<I: itoa::Integer>(self, v: I) -> Key {
        self.text(itoa::Buffer::new().format(v))
    }

    /// The error for a key that is `kind` (what [`reject!`] passes: `"a float"`, ...).
    fn reject(kind: &'static str) -> ToonError {
        ToonError::KeyMustBeString { found: kind }
    }
}

impl ser::Serializer for KeySerializer<'_> {
    type Ok = Key;
    type Error = ToonError;
    type SerializeSeq = Impossible<Key, ToonError>;
    type SerializeTuple = Impossible<Key, ToonError>;
    type SerializeTupleStruct = Impossible<Key, ToonError>;
    type SerializeTupleVariant = Impossible<Key, ToonError>;
    type SerializeMap = Impossible<Key, ToonError>;
    type SerializeStruct = Impossible<Key, ToonError>;
    type SerializeStructVariant = Impossible<Key, ToonError>;

    fn serialize_bool(self, v: bool) -> Result<Key, ToonError> {
        Ok(Key::Static(if v { "true" } else { "false" }))
    }

    fn serialize_i8(self, v: i8) -> Result<Key, ToonError> {
        Ok(self.integer(v))
    }

    fn serialize_i16(self, v: i16) -> Result<Key, ToonError> {
        Ok(self.integer(v))
    }

    fn serialize_i32(self, v: i32) -> Result<Key, ToonError> {
        Ok(self.integer(v))
    }

    fn serialize_i64(self, v: i64) -> Result<Key, ToonError> {
        Ok(self.integer(v))
    }

    fn serialize_i128(self, v: i128) -> Result<Key, ToonError> {
        Ok(self.integer(v))
    }

    fn serialize_u8(self, v: u8) -> Result<Key, ToonError> {
        Ok(self.integer(v))
    }

    fn serialize_u16(self, v: u16) -> Result<Key, ToonError> {
        Ok(self.integer(v))
    }

    fn serialize_u32(self, v: u32) -> Result<Key, ToonError> {
        Ok(self.integer(v))
    }

    fn serialize_u64(self, v: u64) -> Result<Key, ToonError> {
        Ok(self.integer(v))
    }

    fn serialize_u128(self, v: u128) -> Result<Key, ToonError> {
        Ok(self.integer(v))
    }

    fn serialize_char(self, v: char) -> Result<Key, ToonError> {
        Ok(self.text(v.encode_utf8(&mut [0; 4])))
    }

    fn serialize_str(self, v: &str) -> Result<Key, ToonError> {
        Ok(self.text(v))
    }

    see_through!();

    fn serialize_unit_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
    ) -> Result<Key, ToonError> {
        Ok(Key::Static(variant))
    }

    reject!(Self::reject =>
        serialize_f32, serialize_f64, serialize_bytes, serialize_none, serialize_unit,
        serialize_unit_struct, serialize_newtype_variant, compounds);
}

/// The member name `key` stands for, as the tree path would name it: a static name as it is,
/// any other written into `scratch` (cleared first), so a table row's keys cost no allocation.
pub(crate) fn member_name<'s, K: Serialize + ?Sized>(
    key: &K,
    scratch: &'s mut String,
) -> Result<&'s str, ToonError> {
    scratch.clear();
    let key = key.serialize(KeySerializer { text: scratch })?;
    Ok(super::Text(scratch).key(&key))
}
