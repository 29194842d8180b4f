//! The JSON text that `serde_json` numbers and raw values carry, written as it is.

use serde::Serialize;
use serde::ser::{self, Impossible};

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

    fn serialize_bool(self, _value: bool) -> Result<(), Error> {
        Err(raw_must_be_text())
    }

    fn serialize_i8(self, _value: i8) -> Result<(), Error> {
        Err(raw_must_be_text())
    }

    fn serialize_i16(self, _value: i16) -> Result<(), Error> {
        Err(raw_must_be_text())
    }

    fn serialize_i32(self, _value: i32) -> Result<(), Error> {
        Err(raw_must_be_text())
    }

    fn serialize_i64(self, _value: i64) -> Result<(), Error> {
        Err(raw_must_be_text())
    }

    fn serialize_u8(self, _value: u8) -> Result<(), Error> {
        Err(raw_must_be_text())
    }

    fn serialize_u16(self, _value: u16) -> Result<(), Error> {
        Err(raw_must_be_text())
    }

    fn serialize_u32(self, _value: u32) -> Result<(), Error> {
        Err(raw_must_be_text())
    }

    fn serialize_u64(self, _value: u64) -> Result<(), Error> {
        Err(raw_must_be_text())
    }

    fn serialize_f32(self, _value: f32) -> Result<(), Error> {
        Err(raw_must_be_text())
    }

    fn serialize_f64(self, _value: f64) -> Result<(), Error> {
        Err(raw_must_be_text())
    }

    fn serialize_char(self, _value: char) -> Result<(), Error> {
        Err(raw_must_be_text())
    }

    fn serialize_bytes(self, _value: &[u8]) -> Result<(), Error> {
        Err(raw_must_be_text())
    }

    fn serialize_none(self) -> Result<(), Error> {
        Err(raw_must_be_text())
    }

    fn serialize_some<T: Serialize + ?Sized>(self, _value: &T) -> Result<(), Error> {
        Err(raw_must_be_text())
    }

    fn serialize_unit(self) -> Result<(), Error> {
        Err(raw_must_be_text())
    }

    fn serialize_unit_struct(self, _name: &'static str) -> Result<(), Error> {
        Err(raw_must_be_text())
    }

    fn serialize_unit_variant(
        self,
        _name: &'static str,
        _index: u32,
        _variant: &'static str,
    ) -> Result<(), Error> {
        Err(raw_must_be_text())
    }

    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        _value: &T,
    ) -> Result<(), Error> {
        Err(raw_must_be_text())
    }

    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        _index: u32,
        _variant: &'static str,
        _value: &T,
    ) -> Result<(), Error> {
        Err(raw_must_be_text())
    }

    fn serialize_seq(self, _len: Option<usize>) -> Result<Self::SerializeSeq, Error> {
        Err(raw_must_be_text())
    }

    fn serialize_tuple(self, _len: usize) -> Result<Self::SerializeTuple, Error> {
        Err(raw_must_be_text())
    }

    fn serialize_tuple_struct(
        self,
        _name: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeTupleStruct, Error> {
        Err(raw_must_be_text())
    }

    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        _index: u32,
        _variant: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeTupleVariant, Error> {
        Err(raw_must_be_text())
    }

    fn serialize_map(self, _len: Option<usize>) -> Result<Self::SerializeMap, Error> {
        Err(raw_must_be_text())
    }

    fn serialize_struct(
        self,
        _name: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeStruct, Error> {
        Err(raw_must_be_text())
    }

    fn serialize_struct_variant(
        self,
        _name: &'static str,
        _index: u32,
        _variant: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeStructVariant, Error> {
        Err(raw_must_be_text())
    }
}

fn raw_must_be_text() -> Error {
    error("a serde_json number or raw value must hold its JSON text")
}
