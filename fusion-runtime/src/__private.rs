//! The API generated code calls. Hidden, exempt from semver: only `fusion-derive` uses it.
//!
//! Generated code names everything through `::fusion_runtime::__private`, so a user module that
//! shadows `Option`, `String` or `serde` cannot change what the expansion means.

// std items, re-exported so expansions never depend on the user's prelude.
pub use core::fmt::Write as FmtWrite;
pub use core::option::Option::{self, None, Some};
pub use core::result::Result::{self, Err, Ok};
pub use std::borrow::Cow;
pub use std::boxed::Box;
pub use std::string::String;
pub use std::vec::Vec;
// serde, so users need no direct dependency for the generated `Serialize` impl.
pub use serde;
// The traits and sinks a generated presenter implements and fills.
pub use crate::present::{Embed, EmbedSink, Field, Model, Presenter};
pub use crate::response::{Rules, Suggestion, Suggestions};
pub use crate::select::FieldMask;
pub use crate::ui::UiBlock;
// The tool declaration `#[derive(Tool)]` implements and builds.
pub use crate::tool::{ActionSpec, Tool, ToolSpec};
