//! The JSON text that `serde_json` numbers and raw values carry, written as it is.

use serde::ser::{self, Impossible};

use crate::encode::reject::reject;

use super::{Error, error};

/// Takes the JSON text of a [`RAW_TOKENS`] struct's field and writes it as it is.
pub(super) struct Raw<'a>(pub(super) &'a mut String);

impl ser::Serializer for Raw<'_> {
    type Ok = ();
    type Error = Error;
    type SerializeSeq = Impossible<(), Error>;
    type SerializeTuple = Impossible<(), Error>;
    type SerializeTupleStruct = Impossible<(), Error>;
    type SerializeTupleVariant = Impossible<(), Error>;
    type SerializeMap = Impossible<(), Error>;
    type SerializeStruct = Impossible<(), Error>;
    type SerializeStructVariant = Impossible<(), Error>;

    fn serialize_str(self, value: &str) -> Result<(), Error> {
        self.0.push_str(value);
        Ok(())
    }

    reject!(raw_must_be_text =>
        serialize_bool, serialize_i8, serialize_i16, serialize_i32, serialize_i64,
        serialize_i128, serialize_u8, serialize_u16, serialize_u32, serialize_u64,
        serialize_u128, serialize_f32, serialize_f64, serialize_char, serialize_bytes,
        serialize_none, serialize_some, serialize_unit, serialize_unit_struct,
        serialize_unit_variant, serialize_newtype_struct, serialize_newtype_variant, compounds);
}

/// What the serializer answers for anything but the JSON text of a number or raw value.
fn raw_must_be_text(_found: &'static str) -> Error {
    error("a serde_json number or raw value must hold its JSON text")
}
