//! The actions of a tool type by name: what a suggestion target `Tool::Action` names
//! (`#[suggest(Billing::Remind, "Send a payment reminder")]`), checked by the compiler.

/// The actions of a tool type, one constant target per action: written by `#[derive(Tool)]`.
///
/// [`ACTIONS`](ToolActions::ACTIONS) is a value of a struct that has one `&'static str` field per
/// action of a discriminated tool, named like its variant and holding the target as the wire
/// format writes it, `tool.action` (`"billing.remind"`). A suggestion target written as a path,
/// `Billing::Remind`, is that field: a type that is no tool, or an action it does not have, does
/// not compile. A flat tool has no actions (its target is the tool's name, written as text).
///
/// ```
/// use fusion_runtime::tool::ToolActions;
/// use fusion_runtime::Tool;
///
/// #[derive(serde::Deserialize, schemars::JsonSchema, Tool)]
/// #[serde(tag = "action", rename_all = "snake_case")]
/// enum Billing {
///     /// Send a payment reminder.
///     Remind { id: String },
///     /// Void an invoice.
///     VoidInvoice { id: String },
/// }
///
/// assert_eq!(<Billing as ToolActions>::ACTIONS.Remind, "billing.remind");
/// assert_eq!(<Billing as ToolActions>::ACTIONS.VoidInvoice, "billing.void_invoice");
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a tool type, so a suggestion cannot name its actions",
    label = "not a type that derives `Tool`",
    note = "a suggestion target `Tool::Action` names a variant of an enum that derives `Tool`; write any other target as text, like `tool = \"billing.remind\"`"
)]
pub trait ToolActions {
    /// The struct with one field per action (generated, unnameable).
    type Actions: 'static;
    /// Every action's target, `tool.action`.
    const ACTIONS: Self::Actions;
}
