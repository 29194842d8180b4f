//! The declaration of a tool: what its input type's JSON Schema does not say (name, layout,
//! `_select`, output schema, and per action the presented model and the hints).
//!
//! `#[derive(Tool)]` writes a [`ToolSpec`]; a hand-written [`Tool`](crate::Tool) impl builds
//! one with the same methods.

use std::borrow::Cow;

use schemars::JsonSchema;
use serde_json::Value;

use super::description::Layout;
use crate::model::{Model, StaticRules};
use crate::response::Format;

/// The declaration of one tool.
///
/// ```
/// use fusion_runtime::tool::{ActionSpec, ToolSpec};
/// let spec = ToolSpec::new("projects")
///     .description("Manage projects")
///     .toon()
///     .action("delete", ActionSpec::new().destructive());
/// assert_eq!(spec.name(), "projects");
/// ```
#[derive(Debug, Clone)]
#[must_use]
#[allow(
    clippy::struct_excessive_bools,
    reason = "independent switches of a declaration, each with its own builder method"
)]
pub struct ToolSpec {
    pub(crate) name: Cow<'static, str>,
    pub(crate) description: Option<Cow<'static, str>>,
    pub(crate) layout: Layout,
    pub(crate) select: bool,
    pub(crate) output_schema: Option<Value>,
    pub(crate) actions: Vec<(ActionRef, ActionSpec)>,
    pub(crate) ui_app: bool,
    /// The response budget in tokens (wire format §17.1).
    pub(crate) max_tokens: Option<usize>,
    /// Whether `tools/list` tells hosts the budget (wire format §17.7).
    pub(crate) advertise_max_tokens: bool,
    /// The title for people (`title` and `annotations.title`).
    pub(crate) title: Option<Cow<'static, str>>,
    /// `annotations.idempotentHint`.
    pub(crate) idempotent: bool,
    /// `annotations.openWorldHint`, when declared.
    pub(crate) open_world: Option<bool>,
    /// The data block format of what the tool presents (wire format §2.4).
    pub(crate) format: Option<Format>,
    /// Whether the tool is lean (wire format §6.12).
    pub(crate) lean: bool,
}

/// Which action an [`ActionSpec`] is about.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum ActionRef {
    /// The n-th action in declaration order (what the derive writes).
    Position(usize),
    /// The action with this key (what hand-written specs use).
    Key(Cow<'static, str>),
}

impl ToolSpec {
    /// A tool named `name`: the MCP tool name, also the `tool` of `tool/action` references.
    pub fn new(name: impl Into<Cow<'static, str>>) -> Self {
        ToolSpec {
            name: name.into(),
            description: None,
            layout: Layout::Plain,
            select: false,
            output_schema: None,
            actions: Vec::new(),
            ui_app: false,
            max_tokens: None,
            advertise_max_tokens: false,
            title: None,
            idempotent: false,
            open_world: None,
            format: None,
            lean: false,
        }
    }

    /// The tool's title for people: `title` of its `tools/list` entry and `annotations.title`
    /// (what rmcp's `#[tool(title = ...)]` says).
    pub fn title(mut self, title: impl Into<Cow<'static, str>>) -> Self {
        self.title = Some(title.into());
        self
    }

    /// Calls with the same arguments have no further effect: `annotations.idempotentHint`.
    pub fn idempotent(mut self) -> Self {
        self.idempotent = true;
        self
    }

    /// Whether the tool reaches an open world of external entities (`true`: the web, a third
    /// party's API) or stays within the server's own data (`false`): `annotations.openWorldHint`.
    /// Unset, the entry does not say (MCP clients then assume `true`).
    pub fn open_world(mut self, open: bool) -> Self {
        self.open_world = Some(open);
        self
    }

    /// Writes the data block of everything this tool presents through
    /// [`Call::present`](crate::Call::present) in `format` (wire format §2.4): compact JSON or
    /// TOON for fewer tokens. It wins over the presenter's and the tool set's format; a handler's
    /// own [`Presentation::format`](crate::present::Presentation::format) wins over it.
    pub fn format(mut self, format: Format) -> Self {
        self.format = Some(format);
        self
    }

    /// Makes the tool lean (wire format §6.12; so does a model it declares with
    /// `#[presenter(lean)]`), the setup for the fewest tokens: its
    /// description in `tools/list` says the static rules of the models it presents once, and
    /// its answers leave them out; an answer to a `_select` that leaves out a member is that
    /// projection without the presenters' other rules and suggestions; and its data blocks are
    /// compact JSON unless a format is chosen (wire format §2.4). With a host that renders MCP
    /// Apps, whose UI blocks then reach the person only (wire format §4.6), an answer costs about
    /// what the plain JSON of its data costs.
    pub fn lean(mut self) -> Self {
        self.lean = true;
        self
    }

    /// Tells hosts that read one how large this tool's results may be (wire format §17.7):
    /// `_meta["anthropic/maxResultSizeChars"]` on its `tools/list` entry (Claude Code), from
    /// [`ToolSpec::max_tokens`]. Off by default; without a tool budget it adds nothing.
    pub fn advertise_max_tokens(mut self) -> Self {
        self.advertise_max_tokens = true;
        self
    }

    /// Fits every presented response of this tool to `max_tokens` tokens (wire format §17), or
    /// to a tighter budget of the tool set, the presenter or the call.
    pub fn max_tokens(mut self, max_tokens: usize) -> Self {
        self.max_tokens = Some(max_tokens);
        self
    }

    /// The tool name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The tool's description. Without one, the input type's doc comment is used, or the name.
    pub fn description(mut self, description: impl Into<Cow<'static, str>>) -> Self {
        self.description = Some(description.into());
        self
    }

    /// Lists the actions as a TOON table in the description (wire format §10.2).
    pub fn toon(mut self) -> Self {
        self.layout = Layout::Toon;
        self
    }

    /// Sets the description layout.
    pub fn layout(mut self, layout: Layout) -> Self {
        self.layout = layout;
        self
    }

    /// Enables `_select` (wire format §7): each action accepts the wire names of the models it
    /// presents (see [`ActionSpec::returns`]); an action that presents none ignores `_select`.
    pub fn select(mut self) -> Self {
        self.select = true;
        self
    }

    /// Declares that the tool's responses can carry UI blocks, so that its `tools/list` entry
    /// names the MCP Apps view ([`crate::mcp_app`]). Not needed when an action
    /// [`returns`](ActionSpec::returns) a model that [declares UI](Model::DECLARES_UI).
    pub fn ui_app(mut self) -> Self {
        self.ui_app = true;
        self
    }

    /// Declares the output type: its JSON Schema (as the type serializes) becomes the tool's
    /// `outputSchema` (wire format §11.3). The root must be an object.
    pub fn output<T: JsonSchema>(mut self) -> Self {
        self.output_schema = Some(output_schema_of::<T>());
        self
    }

    /// Declares the output schema as a JSON Schema value (root `"type": "object"`).
    pub fn output_schema(mut self, schema: Value) -> Self {
        self.output_schema = Some(schema);
        self
    }

    /// Declares the action whose key is `key`.
    pub fn action(mut self, key: impl Into<Cow<'static, str>>, action: ActionSpec) -> Self {
        self.actions.push((ActionRef::Key(key.into()), action));
        self
    }

    /// Declares the next action in declaration order: the n-th call is about the n-th variant
    /// of the input enum (for a flat tool, the one action). `#[derive(Tool)]` uses this.
    pub fn variant(mut self, action: ActionSpec) -> Self {
        let position = self
            .actions
            .iter()
            .filter(|(r, _)| matches!(r, ActionRef::Position(_)))
            .count();
        self.actions.push((ActionRef::Position(position), action));
        self
    }

    /// Whether the tool is lean (wire format §6.12): declared with [`ToolSpec::lean`], or an
    /// action declares a model that says `#[presenter(lean)]`.
    pub(crate) fn is_lean(&self) -> bool {
        self.lean
            || self
                .actions
                .iter()
                .any(|(_, action)| action.returns.iter().any(|r| r.lean))
    }

    /// The static rules of every model the actions present, each once, in the order of the
    /// actions and their models (wire format §6.12).
    pub(crate) fn static_rules(&self) -> std::sync::Arc<[&'static str]> {
        let mut out = StaticRules::default();
        for (_, action) in &self.actions {
            for returned in &action.returns {
                (returned.static_rules)(&mut out);
            }
        }
        out.into_vec().into()
    }

    /// Whether the tool's responses can carry UI blocks: declared with [`ToolSpec::ui_app`], or
    /// an action returns a model that [declares UI](Model::DECLARES_UI).
    pub(crate) fn renders_ui(&self) -> bool {
        self.ui_app
            || self
                .actions
                .iter()
                .any(|(_, action)| action.returns.iter().any(|r| r.ui))
    }
}

/// The JSON Schema of `T` as it serializes: the `outputSchema` of a tool whose output is `T`.
pub(crate) fn output_schema_of<T: JsonSchema>() -> Value {
    // Inlined like input schemas, so each member's schema stands on its own.
    let generator = schemars::generate::SchemaSettings::draft2020_12()
        .for_serialize()
        .with(|settings| settings.inline_subschemas = true)
        .into_generator();
    generator.into_root_schema_for::<T>().to_value()
}

/// The model of a structured action whose output schema is generated from it: any
/// `schemars::JsonSchema` type.
///
/// `#[derive(Tool)]` declares the output of `#[fusion(returns = M, structured)]` (when the tool
/// declares no `output`) through this trait (`<M as StructuredModel>::output(spec)`), so a model
/// without `JsonSchema` is one error at the `M` the user wrote, saying what to derive.
/// Hand-written specs call [`ToolSpec::output`] directly.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is the model of a structured action, so the output schema is generated from it, and it does not implement `schemars::JsonSchema`",
    label = "the `outputSchema` is generated from this model",
    note = "derive it next to `Presenter`: `#[derive(Presenter, schemars::JsonSchema)]`",
    note = "or declare the output type yourself on the tool: `#[fusion(output = MyOutput)]`"
)]
pub trait StructuredModel {
    /// `spec` with `Self`'s schema as its `outputSchema` ([`ToolSpec::output`]).
    fn output(spec: ToolSpec) -> ToolSpec;
}

#[diagnostic::do_not_recommend]
impl<T: JsonSchema> StructuredModel for T {
    fn output(spec: ToolSpec) -> ToolSpec {
        spec.output::<T>()
    }
}

/// What `#[fusion(returns = M)]` names: a type an action presents, that is, every type that
/// derives `Presenter`.
///
/// `#[derive(Tool)]` declares a returned model through this trait
/// (`<M as Presentable>::returns(spec)`), so a type that is not a presenter is one error at the
/// `M` the user wrote, saying to derive `Presenter`. Hand-written specs call
/// [`ActionSpec::returns`] directly.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a presenter, so an action cannot return it",
    label = "`returns` names a type that derives `Presenter`",
    note = "derive `Presenter` on `{Self}` (`#[derive(Presenter)]` above its definition), or name a type of yours that derives it",
    note = "or remove `returns = ...` from the action: a handler may answer with any value, `returns` only declares a presented model (its fields are the `_select` names)"
)]
pub trait Presentable {
    /// `spec` declaring that the action presents a single `Self` ([`ActionSpec::returns`]).
    fn returns(spec: ActionSpec) -> ActionSpec;

    /// `spec` declaring that the action presents a collection of `Self` ([`ActionSpec::returns_all`]).
    fn returns_all(spec: ActionSpec) -> ActionSpec;
}

#[diagnostic::do_not_recommend]
impl<M: Model> Presentable for M {
    fn returns(spec: ActionSpec) -> ActionSpec {
        spec.returns::<M>()
    }

    fn returns_all(spec: ActionSpec) -> ActionSpec {
        spec.returns_all::<M>()
    }
}

/// The declaration of one action: its presented model and hints.
#[derive(Debug, Clone, Default)]
#[must_use]
pub struct ActionSpec {
    pub(crate) description: Option<Cow<'static, str>>,
    pub(crate) returns: Vec<Returned>,
    pub(crate) structured: bool,
    pub(crate) destructive: bool,
    pub(crate) read_only: bool,
}

/// A model an action presents.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Returned {
    /// Its wire names (the `_select` names it contributes).
    pub(crate) names: &'static [&'static str],
    /// Presented as a collection ([`ActionSpec::returns_all`]).
    pub(crate) collection: bool,
    /// Its presentation can produce UI blocks ([`Model::DECLARES_UI`]).
    pub(crate) ui: bool,
    /// Its type name (`None` for [`ActionSpec::returns_names`]): a handler that presents
    /// another model fails (wire format §13.7).
    pub(crate) model: Option<&'static str>,
    /// The fixed targets of its suggestions ([`Model::SUGGESTS`]), checked by the tool set.
    pub(crate) suggests: &'static [&'static str],
    /// Adds its static rules and those of the models it embeds ([`Model::static_rules`]).
    pub(crate) static_rules: fn(&mut StaticRules),
    /// The model makes the tool lean ([`Model::LEAN`]).
    pub(crate) lean: bool,
}

impl ActionSpec {
    /// An action with no declarations.
    pub fn new() -> Self {
        ActionSpec::default()
    }

    /// The action's description; without one, the variant's doc comment is used.
    pub fn description(mut self, description: impl Into<Cow<'static, str>>) -> Self {
        self.description = Some(description.into());
        self
    }

    /// Declares that the action presents `M`: its wire names join the tool's `_select` names.
    pub fn returns<M: Model>(mut self) -> Self {
        self.returns.push(Returned {
            names: M::WIRE_NAMES,
            collection: false,
            ui: M::DECLARES_UI,
            model: Some(std::any::type_name::<M>()),
            suggests: M::SUGGESTS,
            static_rules: M::static_rules,
            lean: M::LEAN,
        });
        self
    }

    /// Declares that the action presents a collection of `M` (`present_all`): its wire names
    /// join the tool's `_select` names, and the action cannot be [`structured`](Self::structured).
    pub fn returns_all<M: Model>(mut self) -> Self {
        self.returns.push(Returned {
            names: M::WIRE_NAMES,
            collection: true,
            ui: M::DECLARES_UI,
            model: Some(std::any::type_name::<M>()),
            suggests: M::SUGGESTS,
            static_rules: M::static_rules,
            lean: M::LEAN,
        });
        self
    }

    /// Declares that the action presents a model with these wire names.
    pub fn returns_names(mut self, names: &'static [&'static str]) -> Self {
        self.returns.push(Returned {
            names,
            collection: false,
            ui: false,
            model: None,
            suggests: &[],
            static_rules: |_| {},
            lean: false,
        });
        self
    }

    /// Asks for `structuredContent` (wire format §11.2): when the action answers with a JSON or TOON
    /// data value, the response also carries that value, selection and redaction applied, as
    /// `structuredContent`. Meant for an action that presents a single value.
    ///
    /// - The value must be a JSON object. An action declared with
    ///   [`returns_all`](Self::returns_all) is refused when the tool is defined; a handler that
    ///   answers a structured action with a list (or a number, a text in JSON, `null`) ends the
    ///   call with `INTERNAL_ERROR` (wire format §13.7), since a list cannot be `structuredContent`.
    /// - Error responses, text data blocks (`OK`, plain texts) and responses that already carry
    ///   `structuredContent` ([`success_structured`](crate::success_structured)) are sent as
    ///   they are.
    /// - The `outputSchema` comes from the tool's [`output`](ToolSpec::output):
    ///   `#[derive(Tool)]` generates it from the model when every action is
    ///   `#[fusion(returns = Model, structured)]` with the same model and the tool declares no
    ///   `output`; a hand-written spec calls `.output::<Model>()` itself.
    ///
    /// ```
    /// use fusion_runtime::tool::{ActionSpec, ToolSpec};
    /// use fusion_runtime::{Call, Tool, ToolSet};
    /// use fusion_runtime::Presenter;
    ///
    /// #[derive(Presenter)]
    /// struct Invoice {
    ///     id: String,
    ///     #[redact]
    ///     email: String,
    /// }
    ///
    /// #[derive(serde::Deserialize, schemars::JsonSchema)]
    /// struct GetInvoice {
    ///     id: String,
    /// }
    ///
    /// impl Tool for GetInvoice {
    ///     fn spec() -> ToolSpec {
    ///         ToolSpec::new("get_invoice")
    ///             .select()
    ///             .variant(ActionSpec::new().returns::<Invoice>().structured())
    ///     }
    /// }
    ///
    /// let tools = ToolSet::new().tool(|input: GetInvoice, call: &Call| {
    ///     call.present(&Invoice { id: input.id, email: "a@b.c".into() }).build()
    /// })?;
    /// let response = tools.call("get_invoice", Some(serde_json::json!({"id": "INV-1"})));
    /// assert_eq!(
    ///     response.structured_content(),
    ///     Some(&serde_json::json!({"id": "INV-1", "email": "[REDACTED]"}))
    /// );
    /// # Ok::<(), fusion_runtime::tool::DefinitionError>(())
    /// ```
    pub fn structured(mut self) -> Self {
        self.structured = true;
        self
    }

    /// Marks the action destructive (`[DESTRUCTIVE]`, `destructiveHint`).
    pub fn destructive(mut self) -> Self {
        self.destructive = true;
        self
    }

    /// Marks the action read-only (`readOnlyHint` when every action is).
    pub fn read_only(mut self) -> Self {
        self.read_only = true;
        self
    }
}
