//! The one place the encoders' serde `Serializer`s turn a part of the serde data model down.
//!
//! Every `Serializer` of the encoders accepts a few shapes (a map key takes strings and
//! scalars, a table cell primitives, a table row a struct or a map) and refuses the rest, each
//! with its own error. Written out, a refusal is five lines of signature per method and a
//! serializer refuses up to 28 of them; [`reject!`] writes them from their names:
//!
//! ```ignore
//! impl ser::Serializer for CellSerializer<'_> {
//!     // ...the methods it accepts...
//!     reject!(not_a_row => serialize_bytes, compounds);
//! }
//! ```
//!
//! `not_a_row` is any function (a path) from what was found, in words (`"a float"`, `"a
//! sequence"`; see each arm), to the serializer's error; `primitives` stands for every scalar
//! method, `None` and the units, `compounds` for the seven methods that open a list, a map, a
//! struct or a variant with data.
//!
//! Most serializers also look through an `Option`'s `Some` and a newtype struct to the value
//! inside, as the tree path and `serde_json` do; [`see_through!`] writes those two. And a
//! serializer's compound type usually takes every element, or every named field, alike in
//! several of serde's compound traits; [`compound!`] writes those impls from the one function
//! that takes an element (or a field) and the one that ends:
//!
//! ```ignore
//! compound!(Seq => Value, Error; end = Seq::done;
//!     SerializeSeq(Seq::push), SerializeTuple(Seq::push), SerializeTupleVariant(Seq::push));
//! ```

/// Writes each named `Serializer` method so that it returns `Err(error(what))` (see the
/// module docs).
macro_rules! reject {
    (@method $e:path, primitives) => {
        $crate::encode::reject::reject!($e =>
            serialize_bool, serialize_i8, serialize_i16, serialize_i32, serialize_i64,
            serialize_i128, serialize_u8, serialize_u16, serialize_u32, serialize_u64,
            serialize_u128, serialize_f32, serialize_f64, serialize_char, serialize_str,
            serialize_bytes, serialize_none, serialize_unit, serialize_unit_struct,
            serialize_unit_variant);
    };
    (@method $e:path, compounds) => {
        $crate::encode::reject::reject!($e =>
            serialize_seq, serialize_tuple, serialize_tuple_struct, serialize_tuple_variant,
            serialize_map, serialize_struct, serialize_struct_variant);
    };
    (@method $e:path, serialize_bool) => { $crate::encode::reject::reject!(@fn $e, serialize_bool(bool) -> Ok, "a boolean"); };
    (@method $e:path, serialize_i8) => { $crate::encode::reject::reject!(@fn $e, serialize_i8(i8) -> Ok, "an integer"); };
    (@method $e:path, serialize_i16) => { $crate::encode::reject::reject!(@fn $e, serialize_i16(i16) -> Ok, "an integer"); };
    (@method $e:path, serialize_i32) => { $crate::encode::reject::reject!(@fn $e, serialize_i32(i32) -> Ok, "an integer"); };
    (@method $e:path, serialize_i64) => { $crate::encode::reject::reject!(@fn $e, serialize_i64(i64) -> Ok, "an integer"); };
    (@method $e:path, serialize_i128) => { $crate::encode::reject::reject!(@fn $e, serialize_i128(i128) -> Ok, "an integer"); };
    (@method $e:path, serialize_u8) => { $crate::encode::reject::reject!(@fn $e, serialize_u8(u8) -> Ok, "an integer"); };
    (@method $e:path, serialize_u16) => { $crate::encode::reject::reject!(@fn $e, serialize_u16(u16) -> Ok, "an integer"); };
    (@method $e:path, serialize_u32) => { $crate::encode::reject::reject!(@fn $e, serialize_u32(u32) -> Ok, "an integer"); };
    (@method $e:path, serialize_u64) => { $crate::encode::reject::reject!(@fn $e, serialize_u64(u64) -> Ok, "an integer"); };
    (@method $e:path, serialize_u128) => { $crate::encode::reject::reject!(@fn $e, serialize_u128(u128) -> Ok, "an integer"); };
    (@method $e:path, serialize_f32) => { $crate::encode::reject::reject!(@fn $e, serialize_f32(f32) -> Ok, "a float"); };
    (@method $e:path, serialize_f64) => { $crate::encode::reject::reject!(@fn $e, serialize_f64(f64) -> Ok, "a float"); };
    (@method $e:path, serialize_char) => { $crate::encode::reject::reject!(@fn $e, serialize_char(char) -> Ok, "a character"); };
    (@method $e:path, serialize_str) => { $crate::encode::reject::reject!(@fn $e, serialize_str(&str) -> Ok, "a string"); };
    (@method $e:path, serialize_bytes) => { $crate::encode::reject::reject!(@fn $e, serialize_bytes(&[u8]) -> Ok, "bytes"); };
    (@method $e:path, serialize_none) => { $crate::encode::reject::reject!(@fn $e, serialize_none() -> Ok, "none"); };
    (@method $e:path, serialize_unit) => { $crate::encode::reject::reject!(@fn $e, serialize_unit() -> Ok, "a unit"); };
    (@method $e:path, serialize_unit_struct) => { $crate::encode::reject::reject!(@fn $e, serialize_unit_struct(&'static str) -> Ok, "a unit struct"); };
    (@method $e:path, serialize_unit_variant) => { $crate::encode::reject::reject!(@fn $e, serialize_unit_variant(&'static str, u32, &'static str) -> Ok, "a unit variant"); };
    (@method $e:path, serialize_some) => { $crate::encode::reject::reject!(@generic $e, serialize_some() "an option"); };
    (@method $e:path, serialize_newtype_struct) => { $crate::encode::reject::reject!(@generic $e, serialize_newtype_struct(&'static str) "a newtype struct"); };
    (@method $e:path, serialize_newtype_variant) => { $crate::encode::reject::reject!(@generic $e, serialize_newtype_variant(&'static str, u32, &'static str) "an enum variant with data"); };
    (@method $e:path, serialize_seq) => { $crate::encode::reject::reject!(@fn $e, serialize_seq(::core::option::Option<usize>) -> SerializeSeq, "a sequence"); };
    (@method $e:path, serialize_tuple) => { $crate::encode::reject::reject!(@fn $e, serialize_tuple(usize) -> SerializeTuple, "a tuple"); };
    (@method $e:path, serialize_tuple_struct) => { $crate::encode::reject::reject!(@fn $e, serialize_tuple_struct(&'static str, usize) -> SerializeTupleStruct, "a tuple struct"); };
    (@method $e:path, serialize_tuple_variant) => { $crate::encode::reject::reject!(@fn $e, serialize_tuple_variant(&'static str, u32, &'static str, usize) -> SerializeTupleVariant, "an enum variant with data"); };
    (@method $e:path, serialize_map) => { $crate::encode::reject::reject!(@fn $e, serialize_map(::core::option::Option<usize>) -> SerializeMap, "a map"); };
    (@method $e:path, serialize_struct) => { $crate::encode::reject::reject!(@fn $e, serialize_struct(&'static str, usize) -> SerializeStruct, "a struct"); };
    (@method $e:path, serialize_struct_variant) => { $crate::encode::reject::reject!(@fn $e, serialize_struct_variant(&'static str, u32, &'static str, usize) -> SerializeStructVariant, "an enum variant with data"); };
    // A method whose arguments are `$arg`s and whose result is `Self::$ret`.
    (@fn $e:path, $method:ident($($arg:ty),*) -> $ret:ident, $what:literal) => {
        fn $method(self, $(_: $arg),*) -> ::core::result::Result<Self::$ret, Self::Error> {
            ::core::result::Result::Err($e($what))
        }
    };
    // A method generic over the value it is given last, after the `$arg`s.
    (@generic $e:path, $method:ident($($arg:ty),*) $what:literal) => {
        fn $method<V: ::serde::Serialize + ?Sized>(
            self,
            $(_: $arg,)*
            _: &V,
        ) -> ::core::result::Result<Self::Ok, Self::Error> {
            ::core::result::Result::Err($e($what))
        }
    };
    // The entry (last, so that the `@` arms above are matched first).
    ($e:path => $($method:ident),+ $(,)?) => {
        $( $crate::encode::reject::reject!(@method $e, $method); )+
    };
}

/// Writes `serialize_some` and `serialize_newtype_struct` so that each serializes the value
/// inside with the same serializer (see the module docs).
macro_rules! see_through {
    () => {
        fn serialize_some<V: ::serde::Serialize + ?Sized>(
            self,
            value: &V,
        ) -> ::core::result::Result<Self::Ok, Self::Error> {
            value.serialize(self)
        }

        fn serialize_newtype_struct<V: ::serde::Serialize + ?Sized>(
            self,
            _: &'static str,
            value: &V,
        ) -> ::core::result::Result<Self::Ok, Self::Error> {
            value.serialize(self)
        }
    };
}

/// Writes the named serde compound traits for `$ty`: each element (`SerializeSeq`,
/// `SerializeTuple`) or field (`SerializeTupleStruct`, `SerializeTupleVariant`) goes to
/// `$with(self, value)`, each named field (`SerializeStruct`, `SerializeStructVariant`) to
/// `$with(self, key, value)`, and `end` is `$end(self)` (see the module docs).
macro_rules! compound {
    ($ty:ty => $ok:ty, $err:ty; end = $end:path; $($name:ident($with:path)),+ $(,)?) => {
        $( $crate::encode::reject::compound!(@$name $ty, $ok, $err, $end, $with); )+
    };
    (@SerializeSeq $($rest:tt)*) => {
        $crate::encode::reject::compound!(@element SerializeSeq serialize_element $($rest)*);
    };
    (@SerializeTuple $($rest:tt)*) => {
        $crate::encode::reject::compound!(@element SerializeTuple serialize_element $($rest)*);
    };
    (@SerializeTupleStruct $($rest:tt)*) => {
        $crate::encode::reject::compound!(@element SerializeTupleStruct serialize_field $($rest)*);
    };
    (@SerializeTupleVariant $($rest:tt)*) => {
        $crate::encode::reject::compound!(@element SerializeTupleVariant serialize_field $($rest)*);
    };
    (@SerializeStruct $($rest:tt)*) => {
        $crate::encode::reject::compound!(@named SerializeStruct $($rest)*);
    };
    (@SerializeStructVariant $($rest:tt)*) => {
        $crate::encode::reject::compound!(@named SerializeStructVariant $($rest)*);
    };
    (@element $trait_:ident $method:ident $ty:ty, $ok:ty, $err:ty, $end:path, $with:path) => {
        impl ::serde::ser::$trait_ for $ty {
            type Ok = $ok;
            type Error = $err;

            fn $method<T: ::serde::Serialize + ?Sized>(
                &mut self,
                value: &T,
            ) -> ::core::result::Result<(), $err> {
                $with(self, value)
            }

            fn end(self) -> ::core::result::Result<$ok, $err> {
                $end(self)
            }
        }
    };
    (@named $trait_:ident $ty:ty, $ok:ty, $err:ty, $end:path, $with:path) => {
        impl ::serde::ser::$trait_ for $ty {
            type Ok = $ok;
            type Error = $err;

            fn serialize_field<T: ::serde::Serialize + ?Sized>(
                &mut self,
                key: &'static str,
                value: &T,
            ) -> ::core::result::Result<(), $err> {
                $with(self, key, value)
            }

            fn end(self) -> ::core::result::Result<$ok, $err> {
                $end(self)
            }
        }
    };
}

pub(crate) use {compound, reject, see_through};
