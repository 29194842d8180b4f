//! Tools (SPEC §7, §10–§13): one MCP tool with several actions chosen by a discriminator, or a
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
//! ```
//! use fusion_runtime::tool::{ActionSpec, Call, Tool, ToolSet, ToolSpec};
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

mod call;
mod definition;
mod shape;
mod spec;
mod validate;

pub use call::{Call, InternalFailure, ToolSet, report_to_stderr};
pub use definition::{DefinitionError, ParsedCall, ToolDefinition, input_schema_of};
pub use spec::{ActionSpec, ToolSpec};

/// The name of the selection argument (SPEC §7).
pub const SELECT: &str = "_select";

/// A tool's input type: serde reads it, schemars describes it, and [`Tool::spec`] declares the
/// rest. `#[derive(Tool)]` implements it.
pub trait Tool: serde::de::DeserializeOwned + schemars::JsonSchema + 'static {
    /// The declaration of the tool.
    fn spec() -> ToolSpec;

    /// The tool's definition (built from [`Tool::spec`] and the input's JSON Schema).
    fn definition() -> Result<ToolDefinition, DefinitionError> {
        ToolDefinition::of::<Self>()
    }
}
