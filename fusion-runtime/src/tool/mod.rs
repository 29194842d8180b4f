//! Layer 5, tools (wire format §7, §10–§13): one MCP tool with several actions chosen by a discriminator, or a
//! flat tool with none, defined from a serde input type and its JSON Schema.
//!
//! A tool's input is a type that serde reads and schemars describes:
//!
//! - an internally tagged enum (`#[serde(tag = "action")]`) is a *discriminated* tool, one
//!   action per variant, the tag being the discriminator;
//! - a struct with named fields is a *flat* tool.
//!
//! What the schema cannot say (the tool name, the description layout, `_select`, the output
//! schema, and per action the presented model and the destructive/read-only hints) is the
//! [`ToolSpec`], written by `#[derive(Tool)]` or by hand. From both, [`ToolDefinition`] builds
//! the MCP definition (the flattened `inputSchema` with the `action` enum and per-field action
//! annotations, `_select`, the plain or TOON description, `outputSchema`, `annotations`) and the
//! checks that turn every problem of a call's arguments into one `<validation_error>`. The
//! handler only ever sees a valid, typed input.
//!
//! A [`ToolSet`](crate::ToolSet) holds the tools of a server with their handlers, synchronous
//! ([`ToolSet::tool`](crate::ToolSet::tool)) or asynchronous ([`ToolSet::tool_async`](crate::ToolSet::tool_async), plain `std` futures: no
//! executor is assumed); either way, a failure or a panic becomes `INTERNAL_ERROR` (wire format §13.7).
//! An action declared [`structured`](ActionSpec::structured) also sends its presented single
//! value as `structuredContent` (wire format §11.2).
//!
//! ```
//! use fusion_runtime::tool::{ActionSpec, ToolSpec};
//! use fusion_runtime::{Call, Tool, ToolSet};
//! use serde::Deserialize;
//!
//! /// Manage projects
//! #[derive(Deserialize, schemars::JsonSchema)]
//! #[serde(tag = "action", rename_all = "snake_case")]
//! enum Projects {
//!     /// List all
//!     List,
//!     /// Delete permanently
//!     Delete { id: String },
//! }
//!
//! impl Tool for Projects {
//!     fn spec() -> ToolSpec {
//!         ToolSpec::new("projects").toon().action("delete", ActionSpec::new().destructive())
//!     }
//! }
//!
//! let tools = ToolSet::new()
//!     .tool(|action: Projects, _call: &Call| match action {
//!         Projects::List => "p1, p2".to_owned(),
//!         Projects::Delete { id } => format!("{id} deleted."),
//!     })
//!     .unwrap();
//! let definition = tools.get("projects").unwrap();
//! assert_eq!(
//!     definition.description(),
//!     "Manage projects. Select operation via the `action` parameter.\n\n[2|]{action|desc|required}:\n  list|List all|\"\"\n  delete|\"[DESTRUCTIVE] Delete permanently\"|id"
//! );
//! let response = tools.call("projects", Some(serde_json::json!({"action": "delete"})));
//! assert_eq!(
//!     response.blocks()[0],
//!     "<validation_error action=\"projects/delete\">\n<field name=\"id\">Missing required field. Expected type: string.</field>\n<recovery>Fix the fields above and call the tool again. Do not explain the error.</recovery>\n</validation_error>"
//! );
//! ```
//!
//! The files, one job each: `input` (the [`Tool`](crate::Tool) trait), `spec` (the declaration),
//! `definition` (what `tools/list` shows), `schema` (building a definition from a JSON Schema; `wide_integers`, the 128-bit integers it refuses),
//! `merge` (the fields actions share, merged into one property each, and their clashes),
//! `select_schema` (the `_select` property and each action's selectable names),
//! `routing` (one call's action, then its arguments), `args` (the one place a call's arguments
//! are checked: the compiled shapes and their walk, `_select`, serde's typed read, the tool's own
//! checks, and the `<validation_error>` envelope), `description` (wire format §10 descriptions), `call` (the call context and its handler's
//! outcome), `handler` (the shapes of a handler, with or without the shared state), `structured_output` (a handler's [`Structured`] result and the `outputSchema` it implies), `tool_set` (the tools of a server), `handler_result` (what a handler may return, [`ToolResult`], and wrapping its `Result`), `actions` (the targets `Tool::Action` of
//! suggestions).

mod actions;
mod args;
mod block_on;
pub(crate) mod call;
mod definition;
mod definition_error;
pub mod description;
mod handler;
mod handler_result;
pub(crate) mod input;
mod merge;
mod routing;
mod schema;
mod select_schema;
mod spec;
mod structured_output;
#[cfg(test)]
mod structured_tests;
mod targets;
pub(crate) mod tool_set;
pub(crate) mod trace;
mod wide_integers;

pub use crate::response::Asked;
pub use crate::response::ask::{Answers, Ask, Asks};
pub use actions::ToolActions;
pub use args::Checks;
pub use args::ValidationError;
pub use args::{Bound, Expected, JsonType, Problem, ProblemKind};
pub use call::{Asking, InternalFailure, report_to_stderr};
pub use definition::{ToolDefinition, input_schema_of};
pub use definition_error::DefinitionError;
pub use handler::{AsyncHandler, Handler, marker};
pub use handler_result::ToolResult;
pub use spec::{ActionSpec, ToolSpec};
pub use spec::{Presentable, StructuredModel};
pub use structured_output::Structured;
pub use tool_set::ListingCache;

/// The name of the selection argument (wire format §7).
pub(crate) const SELECT: &str = "_select";

/// Removes `key` from `map` and keeps the order of the other members, with or without `serde_json`'s
/// `preserve_order` (which the runtime never switches on, but a user's build may: `shift_remove`
/// exists only with it, and `remove` under it moves the last member into the gap). In place:
/// `retain` keeps the order under both.
pub(crate) fn remove_in_order(
    map: &mut serde_json::Map<String, serde_json::Value>,
    key: &str,
) -> Option<serde_json::Value> {
    let mut removed = None;
    map.retain(|name, value| {
        if name == key {
            removed = Some(std::mem::take(value));
            false
        } else {
            true
        }
    });
    removed
}
