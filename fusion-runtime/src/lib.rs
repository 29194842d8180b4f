#![doc = include_str!("../../README.md")]
//!
//! # Crate layout
//!
//! | module | job |
//! |---|---|
//! | [`error`] | the `<tool_error>` and `<validation_error>` envelopes (SPEC §13) |
//! | [`escape`] | the injection-safety rules of SPEC §5, in one place |
//! | [`json`] | the SPEC §3 JSON writer |
//! | [`ui`] | UI blocks and their helpers (SPEC §4) |
//! | [`response`] | the response and its builder (SPEC §1, §2) |
//! | [`view`] | the testing view (SPEC §14) |
//! | [`present`](mod@present) | presenter traits and the presentation engine (SPEC §6) |
//! | [`select`] | `_select` selections (SPEC §7) |
//! | [`wrap`] | `success`, `success_structured` and implicit wrapping (SPEC §11, §12) |
//! | [`testing`] | assertions on the testing view (SPEC §14) |
//! | [`toon`] | the TOON encoder and TOON responses (SPEC §9) |
//! | [`description`] | tool descriptions, plain and TOON layouts (SPEC §10) |
//! | [`tool`] | tool definitions, argument validation, calls (SPEC §7, §10–§13) |
//! | [`mcp_app`] | the MCP Apps view that renders UI blocks for people |
//! | `rmcp` | the rmcp adapter (feature `rmcp`) |

pub mod description;
pub mod error;
pub mod escape;
pub mod json;
pub mod mcp_app;
pub mod present;
pub mod response;
#[cfg(feature = "rmcp")]
pub mod rmcp;
pub mod select;
pub mod testing;
pub mod tool;
pub mod toon;
pub mod ui;
pub mod view;
pub mod wrap;

#[doc(hidden)]
pub mod __private;

pub use error::{Severity, ToolError, ValidationError};
pub use json::JsonError;
pub use present::{
    Embed, EmbedSink, Field, Format, Model, Present, Presentation, Presenter, present, present_all,
};
pub use response::{ResponseBuilder, Suggestion, ToolResponse};
pub use select::{FieldMask, Selection};
pub use tool::{Call, Tool, ToolDefinition, ToolSet};
pub use toon::{ToonError, toon_success, toon_success_table};
pub use ui::{UiBlock, Width};
pub use view::{DataFormat, TestingView, ViewValue};
pub use wrap::{IntoToolResponse, Json, StructuredError, WrapError, success, success_structured};

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
