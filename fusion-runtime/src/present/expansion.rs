//! What the code `#[derive(Presenter)]` generates calls beyond the traits: redaction and the
//! stub of a failed derive. Generated code reaches these through
//! `fusion_runtime::__private`; nothing here is meant to be called by hand.

use crate::model::FieldMask;

/// The mask the plain `Serialize` impl writes with: every member, nothing allocated.
pub static ALL_FIELDS: FieldMask = FieldMask::ALL;

/// The text of the default censor (wire format §8.1).
pub const REDACTED: &str = "[REDACTED]";

/// The censored value of an optional field: `None` stays `null` (wire format §8.3), `Some` becomes `text`.
#[inline]
pub fn censor_option<T>(value: &Option<T>, text: &'static str) -> Option<&'static str> {
    value.as_ref().map(|_| text)
}

/// The body of a stub `Serialize` impl: a model whose derive failed never reaches run time, but
/// the impl must still type-check.
pub fn stub_serialize<S: serde::Serializer>(serializer: S) -> Result<S::Ok, S::Error> {
    serializer.serialize_unit()
}
