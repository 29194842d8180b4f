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
//! A [`ToolSet`] holds the tools of a server with their handlers, synchronous
//! ([`ToolSet::tool`]) or asynchronous ([`ToolSet::tool_async`], plain `std` futures: no
//! executor is assumed); either way, a failure or a panic becomes `INTERNAL_ERROR` (SPEC §13.7).
//! An action declared [`structured`](ActionSpec::structured) also sends its presented single
//! value as `structuredContent` (SPEC §11.2).
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

/// `#[derive(Tool)]`, documented on the trait [`Tool`](trait@Tool).
#[cfg(feature = "derive")]
pub use fusion_derive::Tool;

/// The name of the selection argument (SPEC §7).
pub const SELECT: &str = "_select";

/// A tool's input type: serde reads it, schemars describes it, and [`Tool::spec`] declares the
/// rest. `#[derive(Tool)]` implements it.
///
/// # `#[derive(Tool)]`
///
/// On an internally tagged enum (one action per variant) or a struct with named fields (a flat
/// tool), next to `Deserialize` and `schemars::JsonSchema`. The helper attribute is
/// `#[fusion(...)]` (not `#[tool]`, which would clash with rmcp's attribute macro):
///
/// | where | key | meaning |
/// |---|---|---|
/// | enum or struct | `name = "billing"` | the MCP tool name (default: the type name in snake case) |
/// | enum or struct | `description = "..."` | the tool description (default: the type's doc comment, else the name) |
/// | enum or struct | `select` | accept `_select` over the models the actions return (SPEC §7) |
/// | enum | `toon` | describe the actions as a TOON table (SPEC §10.2) instead of the plain layout |
/// | enum or struct | `output = Type` | the `outputSchema` (SPEC §11.3) |
/// | enum or struct | `crate = path` | where `fusion_runtime` is, if re-exported under another name |
/// | variant, or struct | `returns = Model` | the action presents a single `Model`: its wire names join `_select` |
/// | variant, or struct | `returns = [Model]` | the action presents a collection of `Model` |
/// | variant, or struct | `structured` | the action's data value is also sent as `structuredContent` (SPEC §11.2; see [`ActionSpec::structured`]) |
/// | variant, or struct | `destructive` / `read_only` | the action's hints (`[DESTRUCTIVE]`, `destructiveHint`, `readOnlyHint`) |
/// | variant | `description = "..."` | the action description (default: the variant's doc comment) |
///
/// Every mistake is reported at once, at the token that caused it.
///
/// # Structured actions
///
/// `#[fusion(returns = Model, structured)]` sends the presented value, selection and redaction
/// applied, as `structuredContent` too. `structured` with `returns = [Model]` is a compile
/// error (a collection's root is a list, never an object). When the tool declares no `output`
/// and *every* action is `structured` with the same single model, the `outputSchema` is
/// generated from that model (the root's `required` dropped under `_select`, SPEC §11.3), so the
/// model derives `schemars::JsonSchema` next to `Presenter`:
///
/// - schemars reads the same `#[serde(rename, rename_all, skip_serializing, ...)]` attributes
///   as the generated `Serialize`, so names and skipped fields agree with the wire;
/// - a `#[redact]`ed field is sent as the censor's value (`"[REDACTED]"` by default), which
///   schemars cannot know: describe a redacted field that is not a text as one, with
///   `#[schemars(with = "String")]` (or declare `output` yourself for a custom censor).
///
/// With actions that present different models, or some that are not structured, no single
/// schema describes every answer, so none is generated (declare `output` if one fits).
///
/// ```
/// use fusion_runtime::tool::{Call, ToolSet};
/// use fusion_runtime::{Presenter, Tool};
/// use serde::Deserialize;
///
/// #[derive(Presenter)]
/// #[rule("amount_cents is in CENTS. Divide by 100.")]
/// struct Invoice {
///     id: String,
///     amount_cents: u64,
/// }
///
/// #[derive(Deserialize, schemars::JsonSchema, Tool)]
/// #[serde(tag = "action", rename_all = "snake_case")]
/// #[fusion(name = "billing", description = "Manage invoices", select)]
/// enum Billing {
///     /// Fetch one invoice by id
///     #[fusion(returns = Invoice, read_only)]
///     GetInvoice { id: String },
///     /// Void an invoice
///     #[fusion(destructive)]
///     VoidInvoice { id: String, reason: String },
/// }
///
/// let tools = ToolSet::new().tool(|action: Billing, call: &Call| match action {
///     Billing::GetInvoice { id } => call.present(&Invoice { id, amount_cents: 4500 }).build(),
///     Billing::VoidInvoice { id, .. } => Ok(fusion_runtime::ResponseBuilder::text(format!("{id} voided.")).build()),
/// })?;
/// let response = tools.call(
///     "billing",
///     Some(serde_json::json!({"action": "get_invoice", "id": "INV-1", "_select": ["id"]})),
/// );
/// assert_eq!(
///     response.blocks(),
///     [
///         "{\n  \"id\": \"INV-1\"\n}",
///         "<domain_rules>\n- amount_cents is in CENTS. Divide by 100.\n</domain_rules>",
///     ]
/// );
/// # Ok::<(), fusion_runtime::tool::DefinitionError>(())
/// ```
pub trait Tool: serde::de::DeserializeOwned + schemars::JsonSchema + 'static {
    /// The declaration of the tool.
    fn spec() -> ToolSpec;

    /// The tool's definition (built from [`Tool::spec`] and the input's JSON Schema).
    fn definition() -> Result<ToolDefinition, DefinitionError> {
        ToolDefinition::of::<Self>()
    }
}
