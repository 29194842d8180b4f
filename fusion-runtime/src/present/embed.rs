//! What an `#[embed]` field may hold (wire format §6.8): the [`Embed`] trait a parent presents
//! its children through, its impls for the wrappers (`Option`, `Box`, `Arc`, references, lists
//! and slices), and the [`Embeddable`] / [`EmbeddableIn`] traits every use of an embedded field
//! in generated code goes through, so that a field holding no presenter is one error at its type.

use serde::ser::SerializeStruct;

use super::engine::{EmbedSink, Presenter};
use crate::model::{EmbedData, Embedded, FieldMask};

/// A field value that can be embedded: a presenter, or an optional value, box, list or slice of
/// presenters (wire format §6.8).
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be embedded: it is not a presenter for the context `{Ctx}`",
    label = "`#[embed]` needs a presenter here",
    note = "derive `Presenter` on the field's type (with the parent's `#[presenter(context = ...)]`, or none), or remove `#[embed]` from the field"
)]
pub trait Embed<Ctx: ?Sized> {
    /// Whether embedding this value can produce UI blocks: the embedded model's
    /// [`Model::DECLARES_UI`](crate::model::Model::DECLARES_UI), of which a parent's own is made.
    const DECLARES_UI: bool = false;

    /// Presents the value as a child of the current item.
    fn embed_into(&self, ctx: &Ctx, sink: &mut EmbedSink<'_>);
}

impl<T: Presenter<Ctx>, Ctx: ?Sized> Embed<Ctx> for [T] {
    const DECLARES_UI: bool = T::DECLARES_UI;

    fn embed_into(&self, ctx: &Ctx, sink: &mut EmbedSink<'_>) {
        sink.collection(self, ctx);
    }
}

impl<T: Presenter<Ctx>, Ctx: ?Sized> Embed<Ctx> for Vec<T> {
    const DECLARES_UI: bool = T::DECLARES_UI;

    fn embed_into(&self, ctx: &Ctx, sink: &mut EmbedSink<'_>) {
        sink.collection(self.as_slice(), ctx);
    }
}

impl<E: Embed<Ctx>, Ctx: ?Sized> Embed<Ctx> for Option<E> {
    const DECLARES_UI: bool = E::DECLARES_UI;

    fn embed_into(&self, ctx: &Ctx, sink: &mut EmbedSink<'_>) {
        if let Some(value) = self {
            value.embed_into(ctx, sink);
        }
    }
}

/// A box, an `Arc` or a reference embeds what it points to.
macro_rules! forward_embed {
    ($($pointer:ty),*) => {
        $(
            impl<E: Embed<Ctx> + ?Sized, Ctx: ?Sized> Embed<Ctx> for $pointer {
                const DECLARES_UI: bool = E::DECLARES_UI;

                fn embed_into(&self, ctx: &Ctx, sink: &mut EmbedSink<'_>) {
                    (**self).embed_into(ctx, sink);
                }
            }
        )*
    };
}

forward_embed!(Box<E>, std::sync::Arc<E>, &E);

/// What `#[embed]` accepts on a model that declares no context: a value that embeds with any
/// context, `()` among them, and that the parent's data block can write.
///
/// The derive checks such a model's embedded fields through this trait only (the data block
/// writes [`Embeddable::write_member`]; the UI flag reads `EmbedData::DECLARES_UI` through a
/// probe that adds no error), so a field that holds no presenter is reported once, at its type,
/// without naming a context the model never wrote or the `Serialize` its derive would have given.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be embedded: it is not a presenter",
    label = "`#[embed]` needs a presenter here",
    note = "derive `Presenter` on the field's type (on the item type of a `Vec`, slice or `Option`), or remove `#[embed]` from the field; a child with `#[presenter(context = ...)]` needs the same context on the parent"
)]
pub trait Embeddable {
    /// [`Embed::DECLARES_UI`] of the value.
    const DECLARES_UI: bool;

    /// Writes the value as the member `key` of the parent's data block written with `mask`: a
    /// collection cut to its model's agent limit and the mask's budget cap (wire format §6.8).
    ///
    /// # Errors
    ///
    /// The serializer's error.
    fn write_member<S: SerializeStruct>(
        &self,
        state: &mut S,
        key: &'static str,
        mask: &FieldMask,
    ) -> Result<(), S::Error>;
}

// `do_not_recommend`: a field that is no presenter is reported as "not `Embeddable`" with the
// message above, not as an unmet bound of this impl.
#[diagnostic::do_not_recommend]
impl<E: Embed<()> + EmbedData + ?Sized> Embeddable for E {
    const DECLARES_UI: bool = <E as Embed<()>>::DECLARES_UI;

    #[inline]
    fn write_member<S: SerializeStruct>(
        &self,
        state: &mut S,
        key: &'static str,
        mask: &FieldMask,
    ) -> Result<(), S::Error> {
        state.serialize_field(key, &Embedded::of(self, mask))
    }
}

/// What `#[embed]` accepts on a model with the context `Ctx`: [`Embeddable`]'s twin, through
/// which the derive both writes and embeds the field (one error at its type when it is no
/// presenter for `Ctx`).
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be embedded: it is not a presenter for the context `{Ctx}`",
    label = "`#[embed]` needs a presenter here",
    note = "derive `Presenter` with `#[presenter(context = {Ctx})]` on the field's type (on the item type of a `Vec`, slice or `Option`), or remove `#[embed]` from the field"
)]
pub trait EmbeddableIn<Ctx: ?Sized> {
    /// Writes the value as the member `key` of the parent's data block written with `mask`: a
    /// collection cut to its model's agent limit and the mask's budget cap (wire format §6.8).
    ///
    /// # Errors
    ///
    /// The serializer's error.
    fn write_member<S: SerializeStruct>(
        &self,
        state: &mut S,
        key: &'static str,
        mask: &FieldMask,
    ) -> Result<(), S::Error>;

    /// Presents the value as a child of the current item ([`Embed::embed_into`]).
    fn embed_field(&self, ctx: &Ctx, sink: &mut EmbedSink<'_>);
}

#[diagnostic::do_not_recommend]
impl<E: Embed<Ctx> + EmbedData + ?Sized, Ctx: ?Sized> EmbeddableIn<Ctx> for E {
    #[inline]
    fn write_member<S: SerializeStruct>(
        &self,
        state: &mut S,
        key: &'static str,
        mask: &FieldMask,
    ) -> Result<(), S::Error> {
        state.serialize_field(key, &Embedded::of(self, mask))
    }

    #[inline]
    fn embed_field(&self, ctx: &Ctx, sink: &mut EmbedSink<'_>) {
        self.embed_into(ctx, sink);
    }
}
