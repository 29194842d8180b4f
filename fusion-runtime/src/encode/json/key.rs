//! The serializer of map keys (wire format §3.3): strings, and the scalars `serde_json` writes as
//! strings.

use serde::ser::{self, Impossible};

use crate::encode::reject::{reject, see_through};

use super::{Error, Writer, error, number_str};

/// The serializer of map keys: strings, and the scalars `serde_json` writes as strings.
pub(super) struct Key<'a, 'o>(pub(super) &'a mut Writer<'o>);

impl Key<'_, '_> {
    #[expect(
        clippy::unnecessary_wraps,
        reason = "every caller returns it as the serializer's result"
    )]
    fn quoted(self, text: &str) -> Result<(), Error> {
        let out = &mut *self.0.out;
        out.push('"');
        out.push_str(text);
        out.push('"');
        Ok(())
    }

    fn integer<I: itoa::Integer>(self, value: I) -> Result<(), Error> {
        self.quoted(itoa::Buffer::new().format(value))
    }

    fn float(self, value: f64) -> Result<(), Error> {
        if !value.is_finite() {
            return Err(error("float key must be finite (got NaN or +/-inf)"));
        }
        self.quoted(number_str(&mut ryu_js::Buffer::new(), value))
    }
}

/// What the serializer answers for any key but a string or a scalar, in `serde_json`'s words.
fn key_must_be_a_string(_found: &'static str) -> Error {
    error("key must be a string")
}

impl ser::Serializer for Key<'_, '_> {
    type Ok = ();
    type Error = Error;
    type SerializeSeq = Impossible<(), Error>;
    type SerializeTuple = Impossible<(), Error>;
    type SerializeTupleStruct = Impossible<(), Error>;
    type SerializeTupleVariant = Impossible<(), Error>;
    type SerializeMap = Impossible<(), Error>;
    type SerializeStruct = Impossible<(), Error>;
    type SerializeStructVariant = Impossible<(), Error>;

    fn serialize_bool(self, value: bool) -> Result<(), Error> {
        self.quoted(if value { "true" } else { "false" })
    }

    fn serialize_i8(self, value: i8) -> Result<(), Error> {
        self.integer(value)
    }

    fn serialize_i16(self, value: i16) -> Result<(), Error> {
        self.integer(value)
    }

    fn serialize_i32(self, value: i32) -> Result<(), Error> {
        self.integer(value)
    }

    fn serialize_i64(self, value: i64) -> Result<(), Error> {
        self.integer(value)
    }

    fn serialize_i128(self, value: i128) -> Result<(), Error> {
        self.integer(value)
    }

    fn serialize_u8(self, value: u8) -> Result<(), Error> {
        self.integer(value)
    }

    fn serialize_u16(self, value: u16) -> Result<(), Error> {
        self.integer(value)
    }

    fn serialize_u32(self, value: u32) -> Result<(), Error> {
        self.integer(value)
    }

    fn serialize_u64(self, value: u64) -> Result<(), Error> {
        self.integer(value)
    }

    fn serialize_u128(self, value: u128) -> Result<(), Error> {
        self.integer(value)
    }

    fn serialize_f32(self, value: f32) -> Result<(), Error> {
        self.float(f64::from(value))
    }

    fn serialize_f64(self, value: f64) -> Result<(), Error> {
        self.float(value)
    }

    fn serialize_char(self, value: char) -> Result<(), Error> {
        self.0.string(value.encode_utf8(&mut [0; 4]));
        Ok(())
    }

    fn serialize_str(self, value: &str) -> Result<(), Error> {
        self.0.string(value);
        Ok(())
    }

    see_through!();

    fn serialize_unit_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
    ) -> Result<(), Error> {
        self.0.string(variant);
        Ok(())
    }

    reject!(key_must_be_a_string =>
        serialize_bytes, serialize_none, serialize_unit, serialize_unit_struct,
        serialize_newtype_variant, compounds);

    fn collect_str<T: std::fmt::Display + ?Sized>(self, value: &T) -> Result<(), Error> {
        self.0.display(value)
    }
}
