//! The [`Tool`] trait: a tool's input type, and the definition built from it.

use super::args::Checks;
use super::definition::{ToolDefinition, input_schema_of};
use super::definition_error::DefinitionError;
use super::spec::ToolSpec;

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
/// | enum or struct | `select` | accept `_select`: each action, the names of the model it returns (wire format §7) |
/// | enum | `toon` | describe the actions as a TOON table (wire format §10.2) instead of the plain layout |
/// | enum or struct | `output = Type` | the `outputSchema` (wire format §11.3); not needed when the handler returns [`Structured<Type>`](crate::Structured), which declares it |
/// | enum or struct | `crate = path` | where `fusion_runtime` is, if re-exported under another name |
/// | variant, or struct | `returns = Model` | the action presents a single `Model`: its wire names join `_select` |
/// | variant, or struct | `returns = [Model]` | the action presents a collection of `Model` |
/// | variant, or struct | `structured` | the action's data value is also sent as `structuredContent` (wire format §11.2; see [`ActionSpec::structured`](crate::tool::ActionSpec::structured)) |
/// | variant, or struct | `destructive` / `read_only` | the action's hints (`[DESTRUCTIVE]`, `destructiveHint`, `readOnlyHint`) |
/// | variant | `description = "..."` | the action description (default: the variant's doc comment) |
///
/// Every mistake is reported at once, at the token that caused it.
///
/// # Fields the actions share
///
/// Actions that take a field of the same name share one `inputSchema` property, so the field has
/// one type in all of them; `T` in one action and `Option<T>` in another is the same type,
/// required only for the actions that take `T` (`status: Option<Status>` to filter a list,
/// `status: Status` to update). Two different types stop the definition
/// ([`ToolSet::tool`](crate::ToolSet::tool) returns the [`DefinitionError`]) with every clash
/// listed, each naming the field, both actions and both types in words (wire format §7.1). The
/// rule compares the JSON Schemas serde and schemars make of the fields, which the derive
/// cannot see, so it is checked there and only there.
///
/// # Structured actions
///
/// `#[fusion(returns = Model, structured)]` sends the presented value, selection and redaction
/// applied, as `structuredContent` too. `structured` with `returns = [Model]` is a compile
/// error (a collection's root is a list, never an object). When the tool declares no `output`
/// and *every* action is `structured` with the same single model, the `outputSchema` is
/// generated from that model (the root's `required` dropped under `_select`, wire format §11.3), so the
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
/// use fusion_runtime::{Call, Presenter, Tool, ToolSet};
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

    /// Whether [`Tool::check`] refuses anything (so the arguments are kept to write SENT).
    /// `#[derive(Tool)]` sets it with `check = ...`.
    const CHECKS: bool = false;

    /// The action's own check of a valid input, run before the handler: each value it refuses
    /// is an "invalid value" problem (wire format §13.5), all of them in one `<validation_error>`,
    /// and the handler does not run. `#[derive(Tool)]` writes it from `#[fusion(check = path)]`
    /// on the tool (every action) and on a variant (that action), `path` being a
    /// `fn(&Self, &mut Checks)`.
    fn check(&self, checks: &mut Checks) {
        let _ = checks;
    }
}

impl ToolDefinition {
    /// The definition of the tool `T`.
    pub fn of<T: Tool>() -> Result<Self, DefinitionError> {
        Self::from_schema(&T::spec(), &input_schema_of::<T>())
    }
}
