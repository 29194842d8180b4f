//! The presenter layer: `#[derive(Presenter)]` and what it generates (wire format §6–§8): container
//! options, rules, suggestions, UI blocks (and `DECLARES_UI`), embeds, redaction, `_select`,
//! serde compatibility, hygiene and lints of the expansion. One test binary for the layer, so the tests link once.

mod declares_ui;
mod embed;
mod embed_static;
mod hygiene;
mod lean;
mod page;
// Public: `missing_docs` only looks at items reachable from the crate root, and this module
// checks that the expansion's public items pass it.
mod budget;
mod budget_search;
pub mod lints;
mod presenter;
mod redact;
mod rule;
mod said_in_description;
mod said_once;
mod select;
mod serde_compat;
mod suggest;
mod support;
mod table;
mod ui;
