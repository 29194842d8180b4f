//! The MCP tool definition (wire format §7.1–§7.2, §10, §11.3): what `tools/list` shows of a tool, and
//! the compiled checks of its input.
//!
//! The definition is built in `schema` ([`ToolDefinition::from_schema`]) and `input`
//! ([`ToolDefinition::of`]); `routing` routes and validates a call against it. Each of those
//! files adds the methods of its job.

use std::sync::Arc;

use schemars::JsonSchema;
use serde::Serialize;
use serde::ser::SerializeStruct;
use serde_json::{Map, Value};

use super::args::shape::{ObjectShape, Shapes};
use super::spec::Returned;
use crate::response::Presented;

/// The names a [`Call`](super::call::Call) of one action carries, made once when the tool is
/// defined and shared by every call.
#[derive(Debug, Clone)]
pub(crate) struct CallNames {
    pub(crate) tool: Arc<str>,
    /// The action key; `None` for a flat tool.
    pub(crate) action: Option<Arc<str>>,
    /// `tool/action`, or the tool name of a flat tool (wire format §13.4).
    pub(crate) reference: Arc<str>,
}

/// One action of a defined tool.
#[derive(Debug, Clone)]
pub(crate) struct ActionDef {
    pub(crate) key: String,
    pub(super) names: CallNames,
    /// The `_select` names of the models this action presents, sorted (wire format §7.3); empty
    /// when it presents none or the tool has no `_select`.
    pub(super) select_names: Vec<String>,
    pub(super) description: String,
    /// REQ(a): the required fields in declaration order.
    pub(super) required: Vec<String>,
    /// The root object of the arguments, discriminator excluded, unknown members denied.
    pub(super) root: ObjectShape,
    pub(super) destructive: bool,
    pub(super) read_only: bool,
    /// The action asks for `structuredContent` (wire format §11.2).
    pub(super) structured: bool,
    /// The models it declares it presents (`returns`), by type: a handler that presents another
    /// one fails (wire format §13.7). Empty: any, or none.
    pub(super) presents: Arc<[Presented]>,
}

impl ActionDef {
    /// The models an action declares by type; empty when one of them is declared by its names only
    /// (then the handler's model is not checked).
    pub(super) fn declared_models(returns: &[Returned]) -> Arc<[Presented]> {
        returns
            .iter()
            .map(|r| {
                r.model.map(|model| Presented {
                    model,
                    collection: r.collection,
                })
            })
            .collect::<Option<Vec<_>>>()
            .unwrap_or_default()
            .into()
    }
}

/// A tool ready to list and to call: its MCP definition, and the compiled checks of its input.
///
/// Build one with [`ToolDefinition::of`] (from a [`Tool`](crate::Tool)) or
/// [`ToolDefinition::from_schema`].
#[derive(Debug, Clone)]
pub struct ToolDefinition {
    pub(super) name: String,
    pub(super) description: String,
    pub(super) discriminator: Option<String>,
    pub(super) actions: Vec<ActionDef>,
    pub(super) select_names: Vec<String>,
    pub(super) input_schema: Map<String, Value>,
    pub(super) output_schema: Option<Map<String, Value>>,
    pub(super) annotations: Option<Map<String, Value>>,
    pub(super) shapes: Shapes,
    /// The responses can carry UI blocks: the `tools/list` entry names the MCP Apps view.
    pub(super) ui_app: bool,
    /// The tool's response budget ([`ToolSpec::max_tokens`](super::ToolSpec::max_tokens)).
    pub(super) max_tokens: Option<usize>,
    /// Whether `tools/list` advertises it ([`ToolSpec::advertise_max_tokens`](super::ToolSpec::advertise_max_tokens)).
    pub(super) advertise_max_tokens: bool,
    /// The fixed suggestion targets of the models it presents: (model type name, target).
    pub(super) suggests: Vec<(&'static str, &'static str)>,
    /// The tool's data block format ([`ToolSpec::format`](super::ToolSpec::format)).
    pub(super) format: Option<crate::response::Format>,
    /// The static rules of the models it presents (wire format §6.12), each once.
    pub(super) static_rules: Arc<[&'static str]>,
    /// Whether it is lean ([`ToolSpec::lean`](super::ToolSpec::lean)): its description then
    /// ends with those rules, and its answers leave them out.
    pub(super) lean: bool,
}

/// The JSON Schema of an input type as the tool layer reads it: draft 2020-12, what the type
/// What the `_select` description of a lean tool adds (wire format §7.2, §6.12): a selection
/// that leaves members out is a projection.
const LEAN_SELECT_NOTE: &str = " Leaving fields out also leaves out the per-item rules and suggestions; omit `_select` for them.";
/// The `_meta` key Claude Code reads for a tool's result size (wire format §17.7).
const RESULT_SIZE_KEY: &str = "anthropic/maxResultSizeChars";
/// Characters advertised per token of the budget: a token of response text is rarely more than
/// four characters, and indentation runs at most a few more.
const CHARS_PER_TOKEN: usize = 8;
/// The largest value Claude Code accepts.
const MAX_RESULT_SIZE_CHARS: usize = 500_000;

/// accepts, with subschemas inlined so that each field's schema stands on its own.
pub fn input_schema_of<T: JsonSchema>() -> Value {
    schemars::generate::SchemaSettings::draft2020_12()
        .for_deserialize()
        .with(|settings| settings.inline_subschemas = true)
        .into_generator()
        .into_root_schema_for::<T>()
        .to_value()
}

impl ToolDefinition {
    /// The tool name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The generated description (wire format §10).
    pub fn description(&self) -> &str {
        &self.description
    }

    /// The discriminator's name, for a discriminated tool.
    pub fn discriminator(&self) -> Option<&str> {
        self.discriminator.as_deref()
    }

    /// The action keys in registration order (empty for a flat tool).
    pub fn action_keys(&self) -> impl Iterator<Item = &str> {
        self.discriminator
            .is_some()
            .then_some(self.actions.iter().map(|a| a.key.as_str()))
            .into_iter()
            .flatten()
    }

    /// The `_select` names (wire format §7.2), sorted; empty when the tool has no `_select`.
    pub fn select_names(&self) -> &[String] {
        &self.select_names
    }

    /// The `inputSchema` (wire format §7.1).
    pub fn input_schema(&self) -> &Map<String, Value> {
        &self.input_schema
    }

    /// The `outputSchema` (wire format §11.3), if the tool declares one.
    pub fn output_schema(&self) -> Option<&Map<String, Value>> {
        self.output_schema.as_ref()
    }

    /// The MCP `annotations` (`title`, `readOnlyHint`, `destructiveHint`, `idempotentHint`,
    /// `openWorldHint`), if any applies.
    pub fn annotations(&self) -> Option<&Map<String, Value>> {
        self.annotations.as_ref()
    }

    /// Whether the tool's responses can carry UI blocks
    /// ([`ToolSpec::ui_app`](super::ToolSpec::ui_app),
    /// [`Model::DECLARES_UI`](crate::present::Model::DECLARES_UI),
    /// [`ToolSet::ui_app`](crate::ToolSet::ui_app)): its `tools/list` entry then names the MCP
    /// Apps view ([`crate::mcp_app`]).
    pub fn ui_app(&self) -> bool {
        self.ui_app
    }

    /// Whether the tool is lean ([`ToolSpec::lean`](super::ToolSpec::lean), wire format §6.12).
    pub fn is_lean(&self) -> bool {
        self.lean
    }

    /// The static rules of the models this tool presents, each once (wire format §6.12): what
    /// a lean tool's description says and its answers leave out.
    pub fn static_rules(&self) -> &[&'static str] {
        &self.static_rules
    }

    /// This definition, made lean when `lean` ([`ToolDefinition::make_lean`]).
    pub(super) fn lean_if(mut self, lean: bool) -> Self {
        if lean {
            self.make_lean();
        }
        self
    }

    /// Makes the tool lean (wire format §6.12): its description ends with the rules block of
    /// its static rules, when it has any, and its `_select` description says what a projection
    /// leaves out. Doing it twice changes nothing.
    pub(crate) fn make_lean(&mut self) {
        if self.lean {
            return;
        }
        self.lean = true;
        if !self.static_rules.is_empty() {
            self.description.push_str("\n\n");
            self.description
                .push_str(&crate::response::rules_block(&self.static_rules));
        }
        let select = self
            .input_schema
            .get_mut("properties")
            .and_then(|properties| properties.get_mut("_select"))
            .and_then(|select| select.get_mut("description"));
        if let Some(Value::String(description)) = select {
            if !description.ends_with('.') {
                description.push('.');
            }
            description.push_str(LEAN_SELECT_NOTE);
        }
    }

    /// The tool's response budget in tokens (wire format §17.1), if it declares one.
    pub fn max_tokens(&self) -> Option<usize> {
        self.max_tokens
    }

    /// The `_meta` this entry tells hosts about its results (wire format §17.7):
    /// `{"anthropic/maxResultSizeChars": N}` when the tool advertises its budget, N eight
    /// characters per token of the budget (more than any text of that many tokens holds),
    /// at most 500,000 (Claude Code's ceiling).
    pub fn result_size_meta(&self) -> Option<Map<String, Value>> {
        let budget = self.max_tokens.filter(|_| self.advertise_max_tokens)?;
        let chars = budget
            .saturating_mul(CHARS_PER_TOKEN)
            .min(MAX_RESULT_SIZE_CHARS);
        let mut meta = Map::new();
        meta.insert(RESULT_SIZE_KEY.to_owned(), Value::from(chars));
        Some(meta)
    }

    /// The definition as the JSON object of a `tools/list` entry.
    pub fn to_json(&self) -> Value {
        serde_json::to_value(self).unwrap_or(Value::Null)
    }

    /// The fixed suggestion targets (`tool` or `tool.action`) of the models this tool presents,
    /// each with the model's type name.
    pub(crate) fn suggestion_targets(&self) -> &[(&'static str, &'static str)] {
        &self.suggests
    }

    pub(super) fn keys(&self) -> Vec<String> {
        self.actions.iter().map(|a| a.key.clone()).collect()
    }
}

impl Serialize for ToolDefinition {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let meta = self.result_size_meta();
        let title = self
            .annotations
            .as_ref()
            .and_then(|annotations| annotations.get("title"));
        let len = 3
            + usize::from(title.is_some())
            + usize::from(self.output_schema.is_some())
            + usize::from(self.annotations.is_some())
            + usize::from(meta.is_some());
        let mut tool = serializer.serialize_struct("Tool", len)?;
        tool.serialize_field("name", &self.name)?;
        if let Some(title) = title {
            tool.serialize_field("title", title)?;
        }
        tool.serialize_field("description", &self.description)?;
        tool.serialize_field("inputSchema", &self.input_schema)?;
        if let Some(output) = &self.output_schema {
            tool.serialize_field("outputSchema", output)?;
        }
        if let Some(annotations) = &self.annotations {
            tool.serialize_field("annotations", annotations)?;
        }
        if let Some(meta) = &meta {
            tool.serialize_field("_meta", meta)?;
        }
        tool.end()
    }
}
