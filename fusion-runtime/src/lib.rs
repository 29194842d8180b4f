#![doc = include_str!("../README.md")]
//!
//! # Crate layout
//!
//! The root holds the names most code needs; a few namespaces hold the rest:
//!
//! | path | what |
//! |---|---|
//! | `Presenter`, `Tool` | the derives (feature `derive`; `Tool` with `tool`) and their traits |
//! | `ToolSet`, `Call` | the tools of a server, and the context of one call (feature `tool`) |
//! | [`ToolResponse`], [`ResponseBuilder`], [`Suggestion`] | a tool result and its builder (wire format §1, §2) |
//! | [`success`], [`success_structured`], [`Json`], `Structured`, [`IntoToolResponse`] | answering a call (wire format §11, §12) |
//! | [`ToolError`], [`Severity`] | the `<tool_error>` envelope (wire format §13) |
//! | [`echo`] | caller input as envelopes repeat it: quoted, on one line, cut |
//! | [`Selection`] | a call's `_select` (wire format §7) |
//! | [`EncodeError`], [`StructuredError`], [`WrapError`] | why a value did not become a response |
//! | [`ui`] | UI blocks and their helpers (wire format §4) |
//! | [`content`] | image, audio and resource content after the text blocks |
//! | [`present`](mod@present) | presenting by hand: `Presentation`, `Model`, `Format`, callback traits (wire format §6–§8) |
//! | `tool` | tool definitions, specs, `<validation_error>` and descriptions (wire format §7, §10–§13; feature `tool`) |
//! | `tokens` | token counts: the fast estimate (feature `budget`) and the exact counter (feature `exact-tokens`) |
//! | [`toon`] | the TOON encoder and TOON responses (wire format §9) |
//! | `mcp_app` | the MCP Apps view that renders UI blocks for people (feature `mcp-app`) |
//! | [`testing`] | the testing view and assertions on it (wire format §14; feature `testing`), the JSON writer and escaping primitives |
//! | `rmcp` | the rmcp adapter (feature `rmcp`) |
//! | `http` | Streamable HTTP for the rmcp adapter (feature `http`) |
//! | `schemars` (feature `tool`), [`serde`], [`serde_json`] | the versions fusion uses, re-exported |
//!
//! The features (the README's table): `derive`, `tool`, `budget` and `mcp-app` are on by default,
//! what a server author needs; a crate that only presents models takes `derive` alone. `testing`
//! is for dev-dependencies.
//!
//! Inside, the crate is six layers that import only downward: `model`, `encode`, `response`,
//! `present`, `tool`, `adapters` (see `ARCHITECTURE.md` in the repository).

mod adapters;
mod encode;
mod model;
pub mod present;
mod response;
#[cfg(feature = "tool")]
pub mod tool;

#[doc(hidden)]
pub mod __private;

#[cfg(feature = "mcp-app")]
pub use adapters::mcp_app;
#[cfg(feature = "budget")]
pub use encode::tokens;
pub use encode::{EncodeError, echo};
pub use model::Selection;
pub use present::engine::Presenter;
pub use response::{
    IntoToolResponse, Json, ResponseBuilder, Severity, StructuredError, Suggestion, ToolError,
    ToolResponse, WrapError, success, success_structured,
};
pub use response::{content, testing, toon, ui};
#[cfg(feature = "tool")]
pub use tool::{Structured, call::Call, input::Tool, tool_set::ToolSet};

/// The `schemars` fusion uses (major 1): a crate that keeps another major for its own types
/// derives tool inputs with `#[schemars(crate = "fusion_runtime::schemars")]`.
#[cfg(feature = "tool")]
pub use schemars;
/// The `serde` fusion uses.
pub use serde;
/// The `serde_json` fusion uses (with no feature of its own switched on).
pub use serde_json;

#[cfg(feature = "rmcp")]
pub use adapters::rmcp;

#[cfg(feature = "http")]
pub use adapters::http;

#[cfg(feature = "derive")]
pub use fusion_derive::Presenter;
#[cfg(all(feature = "derive", feature = "tool"))]
pub use fusion_derive::Tool;
