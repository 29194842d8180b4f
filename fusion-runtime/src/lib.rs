#![doc = include_str!("../../README.md")]
//!
//! # Crate layout
//!
//! | module | job |
//! |---|---|
//! | [`escape`] | the injection-safety rules of SPEC §5, in one place |
//! | [`json`] | the SPEC §3 JSON writer |
//! | [`ui`] | UI blocks and their helpers (SPEC §4) |
//! | [`response`] | the response and its builder (SPEC §1, §2) |
//! | [`view`] | the testing view (SPEC §14) |
//! | [`present`] | presenter traits and the presentation engine (SPEC §6) |
//! | [`select`] | `_select` selections (SPEC §7) |
//! | [`toon`] | the TOON encoder and TOON responses (SPEC §9) |
//! | [`description`] | tool descriptions, plain and TOON layouts (SPEC §10) |

pub mod description;
pub mod escape;
pub mod json;
pub mod present;
pub mod response;
pub mod select;
pub mod toon;
pub mod ui;
pub mod view;

#[doc(hidden)]
pub mod __private;

pub use json::JsonError;
pub use present::{
    Embed, EmbedSink, Field, Model, Present, Presentation, Presenter, present, present_all,
};
pub use response::{ResponseBuilder, Suggestion, ToolResponse};
pub use select::{FieldMask, Selection};
pub use toon::{ToonError, toon_success};
pub use ui::{UiBlock, Width};
pub use view::{DataFormat, TestingView, ViewValue};

#[cfg(feature = "derive")]
pub use fusion_derive::Presenter;

/// The names most code needs: `use fusion_runtime::prelude::*;`.
pub mod prelude {
    pub use crate::present::{Present, Presenter as _};
    pub use crate::response::{ResponseBuilder, ToolResponse};
    pub use crate::select::Selection;
    pub use crate::ui::{self, UiBlock, Width};
    #[cfg(feature = "derive")]
    pub use fusion_derive::Presenter;
}
