//! The data of an `#[embed]` field (wire format §6.8): a collection of models is written cut to
//! the child's agent limit (wire format §6.7), so the data block holds exactly the items the
//! embedded blocks describe; a response budget can cut it further (wire format §17).
//!
//! The cut needs no request context: the agent limit is a property of the model
//! ([`Model::AGENT_LIMIT`]), and the budget's cut rides on the [`FieldMask`] the parent is
//! written with.

use std::sync::Arc;

use serde::{Serialize, Serializer};

use super::{FieldMask, Model, StaticRules};

/// A value an `#[embed]` field can hold, written as data: a model, or an optional value, box,
/// `Arc`, reference, list or slice of models.
///
/// `#[derive(Presenter)]` implements it for every model; the wrappers forward to it.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be embedded: it is not a presenter",
    label = "`#[embed]` needs a presenter here",
    note = "derive `Presenter` on the field's type, or remove `#[embed]` from the field"
)]
pub trait EmbedData {
    /// Whether presenting the embedded model can produce UI blocks: its
    /// [`Model::DECLARES_UI`]. A parent's own `DECLARES_UI` is made of these: read here, it
    /// needs no proof that the child presents with some context, which for a chain of models
    /// embedding each other costs the compiler a proof the length of the chain per model.
    const DECLARES_UI: bool = false;

    /// Adds the static item rules of the embedded model and of the models it embeds
    /// ([`Model::static_rules`]) to `out`; the default adds nothing.
    fn embedded_static_rules(out: &mut StaticRules) {
        let _ = out;
    }

    /// Writes the value; a collection keeps at most its model's agent limit and at most `cap`
    /// items (`None`: no cap).
    fn write_embedded<S: Serializer>(
        &self,
        cap: Option<usize>,
        serializer: S,
    ) -> Result<S::Ok, S::Error>;
}

/// How many of `len` embedded items are written: the agent limit and `cap`, the smaller one.
pub(crate) fn embedded_len<T: Model>(len: usize, cap: Option<usize>) -> usize {
    let limit = T::AGENT_LIMIT.unwrap_or(usize::MAX);
    len.min(limit).min(cap.unwrap_or(usize::MAX))
}

impl<T: Model> EmbedData for [T] {
    const DECLARES_UI: bool = T::DECLARES_UI;

    fn embedded_static_rules(out: &mut StaticRules) {
        <T as Model>::static_rules(out);
    }

    fn write_embedded<S: Serializer>(
        &self,
        cap: Option<usize>,
        serializer: S,
    ) -> Result<S::Ok, S::Error> {
        let kept = embedded_len::<T>(self.len(), cap);
        self.get(..kept).unwrap_or(self).serialize(serializer)
    }
}

impl<T: Model> EmbedData for Vec<T> {
    const DECLARES_UI: bool = T::DECLARES_UI;

    fn embedded_static_rules(out: &mut StaticRules) {
        <T as Model>::static_rules(out);
    }

    fn write_embedded<S: Serializer>(
        &self,
        cap: Option<usize>,
        serializer: S,
    ) -> Result<S::Ok, S::Error> {
        self.as_slice().write_embedded(cap, serializer)
    }
}

impl<E: EmbedData> EmbedData for Option<E> {
    const DECLARES_UI: bool = E::DECLARES_UI;

    fn embedded_static_rules(out: &mut StaticRules) {
        E::embedded_static_rules(out);
    }

    fn write_embedded<S: Serializer>(
        &self,
        cap: Option<usize>,
        serializer: S,
    ) -> Result<S::Ok, S::Error> {
        match self {
            Some(value) => serializer.serialize_some(&Embedded { value, cap }),
            None => serializer.serialize_none(),
        }
    }
}

/// A box, an `Arc` or a reference holds the data of what it points to.
macro_rules! forward_embed_data {
    ($($pointer:ty),*) => {
        $(
            impl<E: EmbedData + ?Sized> EmbedData for $pointer {
                const DECLARES_UI: bool = E::DECLARES_UI;

                fn embedded_static_rules(out: &mut StaticRules) {
                    E::embedded_static_rules(out);
                }

                fn write_embedded<S: Serializer>(
                    &self,
                    cap: Option<usize>,
                    serializer: S,
                ) -> Result<S::Ok, S::Error> {
                    (**self).write_embedded(cap, serializer)
                }
            }
        )*
    };
}

forward_embed_data!(Box<E>, Arc<E>, &E);

/// The field `value` of a parent written with `mask`, before it is known whether it can be
/// embedded: generated code calls `.data()` on a reference to it with [`EmbedDataProbe`] and
/// [`NotEmbeddable`] in scope. A value that can be embedded is written by [`EmbedDataProbe`];
/// one that cannot picks [`NotEmbeddable`] (autoref dispatch), which writes nothing and raises
/// no error of its own: the `#[embed]` check of the presenter already reports that field once,
/// at its type, in the toolkit's words.
pub struct Probe<'a, E: ?Sized> {
    value: &'a E,
    cap: Option<usize>,
}

/// The probe of the field `value` of a parent written with `mask`.
#[inline]
pub fn probe<'a, E: ?Sized>(value: &'a E, mask: &FieldMask) -> Probe<'a, E> {
    Probe {
        value,
        cap: mask.embed_cap(),
    }
}

/// A probed value that can be embedded: its data, cut as [`EmbedData`] says.
pub trait EmbedDataProbe<'a, E: ?Sized> {
    /// The value as the parent writes it.
    fn data(&self) -> Embedded<'a, E>;
}

impl<'a, E: EmbedData + ?Sized> EmbedDataProbe<'a, E> for Probe<'a, E> {
    #[inline]
    fn data(&self) -> Embedded<'a, E> {
        Embedded {
            value: self.value,
            cap: self.cap,
        }
    }
}

/// A probed value that cannot be embedded: a model whose derive already failed to compile.
pub trait NotEmbeddable {
    /// A unit in its place; never written, since the program does not compile.
    fn data(&self) {}
}

impl<E: ?Sized> NotEmbeddable for &Probe<'_, E> {}

/// An `#[embed]` field's value as the parent writes it: cut by the child's agent limit and by
/// the cap of the parent's mask.
pub struct Embedded<'a, E: ?Sized> {
    value: &'a E,
    cap: Option<usize>,
}

impl<'a, E: ?Sized> Embedded<'a, E> {
    /// The field `value` of a parent written with `mask`.
    #[inline]
    pub fn of(value: &'a E, mask: &FieldMask) -> Self {
        Embedded {
            value,
            cap: mask.embed_cap(),
        }
    }
}

impl<E: EmbedData + ?Sized> Serialize for Embedded<'_, E> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.value.write_embedded(self.cap, serializer)
    }
}
