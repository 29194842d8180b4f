//! Layer 3, the response: the blocks of one tool result and everything that makes them.
//!
//! - [`ToolResponse`] (`tool_response`) and [`ResponseBuilder`] (`builder`), which composes a data
//!   block, UI, embeds, hints, rules and suggestions in the fixed order of wire format §2;
//! - the list blocks and embed blocks (`blocks`), the de-duplicating rule and suggestion lists
//!   (`lists`, and the index they ask "seen?", `dedup_index`), the one data block [`Format`]
//!   (`format`);
//! - [`ui`]: UI blocks and their helpers (wire format §4);
//! - [`content`]: image, audio and resource content after the text blocks;
//! - the `<tool_error>` envelope, [`ToolError`] and [`Severity`] (`envelope`, wire format §13);
//! - [`success`], [`success_structured`] and the implicit wrapping of wire format §12 (`wrap`), and the
//!   TOON responses with the public face of the TOON encoder ([`toon`]);
//! - the testing view (`view`, wire format §14) and the assertions on it ([`testing`]), feature
//!   `testing`.
//!
//! It imports the model and the encoders, never the presentation engine or the tool layer.

#[cfg(feature = "tool")]
pub(crate) mod ask;
mod blocks;
mod builder;
pub mod content;
mod dedup_index;
mod envelope;
mod format;
mod lists;
pub mod testing;
mod tool_response;
pub mod toon;
pub mod ui;
#[cfg(feature = "testing")]
mod view;
mod wrap;

pub(crate) use blocks::{EmbedBlock, EmbedKind};
// A lean tool's description says its static rules as a rules block (wire format §6.12).
#[cfg(feature = "tool")]
pub(crate) use blocks::rules_block;
pub use builder::{ResponseBuilder, StructuredError};
#[cfg(feature = "budget")]
pub(crate) use builder::{blocks_tokens, toon_presented_text};
pub(crate) use builder::{toon_presented_all, toon_presented_one};
pub(crate) use dedup_index::DedupIndex;
pub use envelope::{Severity, ToolError};
pub use format::Format;
pub use lists::{ItemGroup, ItemKey, ManyPiece, Rules, Suggestion, Suggestions};
pub(crate) use tool_response::Presented;
pub use tool_response::ToolResponse;
#[cfg(feature = "mcp-app")]
pub use tool_response::UI_META_KEY;
#[cfg(feature = "tool")]
pub use wrap::Asked;
pub use wrap::{IntoToolResponse, Json, WrapError, success, success_structured};
