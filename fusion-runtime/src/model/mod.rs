//! Layer 1, the model: what a presentable type is, independent of how it is written.
//!
//! - [`Field`] and [`Model`], the schema traits `#[derive(Presenter)]` implements;
//! - [`FieldMask`], the members of one model that a selection keeps;
//! - [`StaticRules`], the static rules of a model and its embedded models (a lean tool's description);
//! - [`Selection`], the checked `_select` of a call (wire format §7);
//! - [`Embed`], what an `#[embed]` field holds, and its data cut to the child's agent limit;
//! - [`UnknownField`] and the look-ups of the generated field enum.
//!
//! It imports no other layer.

mod embedded;
mod field_enum;
mod said;
mod schema;
mod selection;

pub use embedded::{Children, Embed};
pub use field_enum::{NoField, UnknownField, field_named, parse_field, wire_name};
pub use said::StaticRules;
pub use schema::{Field, FieldMask, Model};
pub use selection::Selection;
