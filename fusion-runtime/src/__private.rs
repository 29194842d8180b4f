//! The names generated code uses. Hidden, exempt from semver: only `fusion-derive` uses it.
//!
//! Generated code names everything through `::fusion_runtime::__private`, so a user module that
//! shadows `Option`, `String` or `serde` cannot change what the expansion means. This file is a
//! re-export list only: every item lives in its layer.

// ---- std and serde, for every derive ----------------------------------------------------------

// `Display` bounds template arguments.
pub use core::fmt::Display;
// `Option` and its variants, for generated bounds and matches.
pub use core::option::Option::{self, None, Some};
// Primitive types by path: a user type named `usize` or `str` would shadow the bare names.
pub use core::primitive::{bool, str, usize};
// `Result` and its variants, for the generated `Serialize` and `FromStr` impls.
pub use core::result::Result::{self, Err, Ok};
// Owned and borrowed rule texts.
pub use std::borrow::Cow;
// Interpolated templates are formatted with `format!`.
pub use std::format;
// Owned texts.
pub use std::string::String;
// UI lists.
pub use std::vec::Vec;
// serde, so users need no direct dependency for the generated `Serialize` impl.
pub use serde;

// ---- `#[derive(Presenter)]`: the traits it implements and the sinks it fills -------------------

// The presenter trait, and what an `#[embed]` field holds and the sink it is presented into.
pub use crate::model::{Children, Embed};
pub use crate::present::engine::{EmbedSink, Presenter};
pub use crate::present::presentation::Presentation;
// The schema traits of the model and its field enum.
pub use crate::model::{Field, Model};
// The data block format of `#[presenter(format = ...)]`.
pub use crate::response::Format;
// The lists generated callbacks push into, and the suggestion of `#[suggest(...)]`.
pub use crate::response::{Rules, Suggestion, Suggestions};
// The group of an item rule or suggestion said once for several items (wire format §6.10).
pub use crate::response::{ItemGroup, ItemKey, ManyPiece};
// The UI entries generated callbacks push.
pub use crate::response::ui::UiBlock;
// The templated UI helpers (`#[ui(markdown = "...")]`, `#[ui(summary = "...")]`).
pub use crate::response::ui::{markdown as ui_markdown, summary as ui_summary};
// The cells of the generated tables.
pub use crate::response::ui::cell as ui_cell;
// The generated tables of `#[ui(table(...))]` and `#[collection_ui(table(...))]`.
pub use crate::present::expansion::table_of as ui_table_of;
// `Model::present()` and `Model::present_all()` of the generated inherent methods.
pub use crate::present::presentation::{present, present_all};

// ---- `#[derive(Presenter)]`: the wire form and the field enum -----------------------------------

// The selection mask `serialize_selected` reads.
pub use crate::model::FieldMask;
// The error of the field enum's `FromStr`.
pub use crate::model::UnknownField;
// The field enum's `wire_name`, `from_wire_name` and `from_str` bodies (one body for every model).
pub use crate::model::{field_named, parse_field, wire_name};
// The field enum of a model whose derive failed (the fallback impls).
pub use crate::model::NoField;
// The mask of the plain `Serialize` impl, and the default censor's text (wire format §8.1).
pub use crate::present::expansion::{ALL_FIELDS, REDACTED};
// One member of the wire writer: written when the mask keeps it.
pub use crate::present::expansion::serialize_member;
// The censored value of an optional field (wire format §8.3).
pub use crate::present::expansion::censor_option;
// What `Model::static_rules` fills: the static rules a lean tool says in its description.
pub use crate::model::StaticRules;
// The body of a failed derive's stub `Serialize` impl.
pub use crate::present::expansion::stub_serialize;

// ---- `#[derive(Presenter)]`: callbacks (`call = ...`, `when = ...`) -----------------------------
//
// Called through their public paths (`fusion_runtime::present::{Callback, ValueCallback,
// IntoRules, ...}`), so a callback of the wrong shape is reported in names the user can read.

// ---- `#[derive(Tool)]` -------------------------------------------------------------------------

// The trait it implements and the declaration it builds.
#[cfg(feature = "tool")]
pub use crate::tool::input::Tool;
// The declaration of the tool and of each action.
#[cfg(feature = "tool")]
pub use crate::tool::{ActionSpec, ToolSpec};
// The refusals `check = path` fills.
#[cfg(feature = "tool")]
pub use crate::tool::Checks;
// The targets of suggestions written as paths (`Billing::Remind`), one per action.
#[cfg(feature = "tool")]
pub use crate::tool::ToolActions;
// What `returns = M` names, called at the user's `M` so a non-presenter is reported there.
#[cfg(feature = "tool")]
pub use crate::tool::{Presentable, StructuredModel};
