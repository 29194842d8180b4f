//! Layer 4, presentation: presenters and the engine that turns a value or a collection into a
//! response (wire format §6–§8), and the public namespace of what presenting needs besides the derive.
//!
//! - `engine`: the [`Presenter`](crate::Presenter) trait, the [`EmbedSink`], and
//!   the [`Presentation`] that [`present`] and [`present_all`] start;
//! - `callbacks`: what `call = ...` and `when = ...` functions may take and return
//!   ([`Callback`], [`ValueCallback`], [`IntoRules`], [`IntoSuggestions`], [`IntoUi`]);
//! - `expansion`: the helpers generated code calls (through `__private`);
//! - `fit` (feature `budget`): fitting a response to a token budget (wire format §17).
//!
//! This module also re-exports the names of the lower layers a presenter written or used by hand
//! needs: the schema traits [`Model`] and [`Field`], what an `#[embed]` field holds ([`Embed`],
//! [`Children`]), the [`FieldMask`], the data block
//! [`Format`], and the rule and suggestion lists.
//!
//! ```
//! use fusion_runtime::Presenter;
//! use fusion_runtime::present::{self, Format};
//!
//! #[derive(Presenter)]
//! struct Invoice {
//!     id: String,
//! }
//!
//! let invoice = Invoice { id: "INV-1".into() };
//! let response = present::present(&invoice).format(Format::Toon).build().unwrap();
//! assert_eq!(response.blocks(), ["id: INV-1"]);
//! ```

mod build;
pub(crate) mod callbacks;
pub(crate) mod engine;
pub(crate) mod expansion;
#[cfg(feature = "budget")]
mod fit;
pub(crate) mod page;
pub(crate) mod presentation;

#[cfg(feature = "tool")]
pub(crate) use presentation::tightest;

pub use callbacks::{
    Callback, ContextDeclared, IntoRules, IntoSuggestions, IntoUi, ReadsContext, ValueCallback,
    ValueOnly, WithContext,
};
pub use engine::EmbedSink;
pub use page::{PageInfo, Paged};
pub use presentation::{Present, Presentation, present, present_all};

pub use crate::model::{
    Children, Embed, Field, FieldMask, Model, NoField, StaticRules, UnknownField,
};
pub use crate::response::{Format, Rules, Suggestions};
