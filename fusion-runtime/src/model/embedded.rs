//! What an `#[embed]` field holds (wire format §6.8): the one [`Embed`] trait, which says which
//! model a field holds and whether it holds none, one or a list of them.
//!
//! Both uses of an embedded field go through it: the parent's data block writes the field with
//! [`Embed::write_member`] (a collection cut to the child's agent limit, wire format §6.7, and to
//! a response budget's cap, §17.4), and the presentation engine presents its
//! [`children`](Embed::children) as child blocks. The cut needs no request context: the agent
//! limit is a property of the model ([`Model::AGENT_LIMIT`]), and the budget's cap rides on the
//! [`FieldMask`] the parent is written with.
//!
//! The trait names no context on purpose: which contexts a child presents with is the
//! presenter's bound (`<F as Embed>::Model: Presenter<Ctx>`), so the data write and the UI flag
//! of a parent ([`Model::DECLARES_UI`]) need no proof that the child presents, which for a chain
//! of models embedding each other would cost the compiler a proof the length of the chain per
//! model.

use std::sync::Arc;

use serde::ser::{Serialize, SerializeStruct, Serializer};

use super::{FieldMask, Model, StaticRules};

/// A value an `#[embed]` field can hold: a model, or an optional value, box, `Arc`, reference,
/// list or slice of models.
///
/// `#[derive(Presenter)]` implements it for every model (a model holds one child: itself); the
/// wrappers forward to what they hold. A presenter written by hand implements it the same way:
///
/// ```
/// use fusion_runtime::present::{Children, Embed};
/// # #[derive(serde::Serialize)] struct Note;
/// # impl fusion_runtime::present::Model for Note {
/// #     type Field = fusion_runtime::present::NoField;
/// #     const NAME: &'static str = "Note";
/// #     const WIRE_NAMES: &'static [&'static str] = &[];
/// #     fn serialize_selected<S: serde::Serializer>(&self, _: &fusion_runtime::present::FieldMask, s: S) -> Result<S::Ok, S::Error> { serde::Serialize::serialize(self, s) }
/// # }
///
/// impl Embed for Note {
///     type Model = Self;
///
///     fn children(&self) -> Children<'_, Self> {
///         Children::One(self)
///     }
/// }
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be embedded: it is not a presenter",
    label = "`#[embed]` needs a presenter here",
    note = "derive `Presenter` on the field's type (on the item type of a `Vec`, slice or `Option`), or remove `#[embed]` from the field"
)]
pub trait Embed {
    /// The model the value holds (the item type of a list).
    type Model: Model;

    /// Whether presenting the model can produce UI blocks: its [`Model::DECLARES_UI`], of which
    /// a parent's own is made.
    const DECLARES_UI: bool = <Self::Model as Model>::DECLARES_UI;

    /// The models the value holds: none (an absent option), one, or a list.
    fn children(&self) -> Children<'_, Self::Model>;

    /// Adds the static item rules of the model held and of the models it embeds
    /// ([`Model::static_rules`]) to `out` (wire format §6.12).
    #[inline]
    fn embedded_static_rules(out: &mut StaticRules) {
        <Self::Model as Model>::static_rules(out);
    }

    /// Writes the value as the member `key` of the parent's data block written with `mask`: a
    /// list cut to its model's agent limit and to the mask's budget cap (wire format §6.8,
    /// §17.4), an absent value as `null`.
    ///
    /// # Errors
    ///
    /// The serializer's error.
    #[inline]
    fn write_member<S: SerializeStruct>(
        &self,
        state: &mut S,
        key: &'static str,
        mask: &FieldMask,
    ) -> Result<(), S::Error> {
        let data = Data {
            children: self.children(),
            cap: mask.embed_cap(),
        };
        state.serialize_field(key, &data)
    }
}

/// The models an embedded value holds ([`Embed::children`]).
#[derive(Debug)]
pub enum Children<'a, T> {
    /// None: an absent optional value.
    None,
    /// One model.
    One(&'a T),
    /// A list of models (possibly empty).
    Many(&'a [T]),
}

impl<T> Clone for Children<'_, T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for Children<'_, T> {}

/// How many of `len` embedded items are written: the agent limit and `cap`, the smaller one.
fn embedded_len<T: Model>(len: usize, cap: Option<usize>) -> usize {
    let limit = T::AGENT_LIMIT.unwrap_or(usize::MAX);
    len.min(limit).min(cap.unwrap_or(usize::MAX))
}

/// An embedded value as the parent writes it: cut by the child's agent limit and by `cap`.
struct Data<'a, T> {
    children: Children<'a, T>,
    cap: Option<usize>,
}

impl<T: Model> Serialize for Data<'_, T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self.children {
            Children::None => serializer.serialize_none(),
            Children::One(model) => model.serialize(serializer),
            Children::Many(items) => {
                let kept = embedded_len::<T>(items.len(), self.cap);
                items.get(..kept).unwrap_or(items).serialize(serializer)
            }
        }
    }
}

// `do_not_recommend` (here and on the wrappers): a list of non-models is reported as "not
// `Embed`" in the trait's words, not as an unmet bound of this impl.
// A list holds models, not lists: its items are `Embed` with themselves as `Model`. `Model` is
// named through the item's impl, so a list of non-models names none and adds no second error.
#[diagnostic::do_not_recommend]
impl<T: Model + Embed<Model = T>> Embed for [T] {
    type Model = T::Model;

    #[inline]
    fn children(&self) -> Children<'_, T> {
        Children::Many(self)
    }
}

#[diagnostic::do_not_recommend]
impl<T: Model + Embed<Model = T>> Embed for Vec<T> {
    type Model = T::Model;

    #[inline]
    fn children(&self) -> Children<'_, T> {
        Children::Many(self)
    }
}

#[diagnostic::do_not_recommend]
impl<E: Embed> Embed for Option<E> {
    type Model = E::Model;

    #[inline]
    fn children(&self) -> Children<'_, E::Model> {
        match self {
            Some(value) => value.children(),
            None => Children::None,
        }
    }
}

/// A box, an `Arc` or a reference holds what it points to.
macro_rules! forward_embed {
    ($($pointer:ty),*) => {
        $(
            #[diagnostic::do_not_recommend]
            impl<E: Embed + ?Sized> Embed for $pointer {
                type Model = E::Model;

                #[inline]
                fn children(&self) -> Children<'_, E::Model> {
                    (**self).children()
                }
            }
        )*
    };
}

forward_embed!(Box<E>, Arc<E>, &E);
