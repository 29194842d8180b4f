//! What the code `#[derive(Presenter)]` generates calls beyond the traits: redaction, the UI
//! flag of embedded fields and the stub of a failed derive. Generated code reaches these through
//! `fusion_runtime::__private`; nothing here is meant to be called by hand.

use std::marker::PhantomData;

use crate::model::{EmbedData, FieldMask, StaticRules};

/// The mask the plain `Serialize` impl writes with: every member, nothing allocated.
pub static ALL_FIELDS: FieldMask = FieldMask::ALL;

/// The text of the default censor (wire format §8.1).
pub const REDACTED: &str = "[REDACTED]";

/// The censored value of an optional field: `None` stays `null` (wire format §8.3), `Some` becomes `text`.
#[inline]
pub fn censor_option<T>(value: &Option<T>, text: &'static str) -> Option<&'static str> {
    value.as_ref().map(|_| text)
}

/// The `DECLARES_UI` of an embedded field's type, without an error when the type embeds
/// nothing (the field's data write reports that, once): the associated constant of this
/// inherent impl exists only when `E: EmbedData`; otherwise [`DeclaresUiFallback`]'s `false`
/// answers. Read through `EmbedData`, not `Embed<C>`: proving `Embed<C>` of a model proves its
/// whole chain of embedded models, which the compiler would redo for every parent.
pub struct DeclaresUiProbe<E: ?Sized>(PhantomData<E>);

impl<E: EmbedData + ?Sized> DeclaresUiProbe<E> {
    /// The embedded type's `DECLARES_UI`.
    pub const DECLARES_UI: bool = E::DECLARES_UI;

    /// Adds the embedded type's static rules ([`EmbedData::embedded_static_rules`]) to `out`.
    pub fn static_rules(out: &mut StaticRules) {
        E::embedded_static_rules(out);
    }
}

/// The answer of [`DeclaresUiProbe`] for a type that embeds nothing (generated code imports it).
pub trait DeclaresUiFallback {
    /// Nothing embedded, no UI.
    const DECLARES_UI: bool = false;

    /// Nothing embedded, no rules.
    fn static_rules(out: &mut StaticRules) {
        let _ = out;
    }
}

impl<E: ?Sized> DeclaresUiFallback for DeclaresUiProbe<E> {}

/// The body of a stub `Serialize` impl: a model whose derive failed never reaches run time, but
/// the impl must still type-check.
pub fn stub_serialize<S: serde::Serializer>(serializer: S) -> Result<S::Ok, S::Error> {
    serializer.serialize_unit()
}
