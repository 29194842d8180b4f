//! The MCP tool definition generated from a [`ToolSpec`] and the input type's JSON Schema
//! (SPEC §7.1–§7.2, §10, §11.3), and the routing and validation of a call's arguments
//! (SPEC §13.3–§13.6, §13.8).

use std::fmt;

use schemars::JsonSchema;
use serde::Serialize;
use serde::ser::SerializeStruct;
use serde_json::{Map, Value};

use super::shape::{Compiler, Extra, ObjectShape, SchemaError, Shapes};
use super::spec::{ActionRef, ActionSpec, ToolSpec};
use super::validate::{MAX_PROBLEMS, Path, Walker};
use super::{SELECT, Tool};
use crate::description::{self, ActionDescriptor};
use crate::error::{
    Expected, JsonType, Problem, ProblemKind, ToolError, ValidationError, describe_sent,
};
use crate::response::ToolResponse;
use crate::select::Selection;

/// The description of the discriminator property (SPEC §7.1).
const DISCRIMINATOR_DESCRIPTION: &str = "Which operation to perform";
/// The description of the `_select` property (SPEC §7.2).
const SELECT_DESCRIPTION: &str = "\u{26A1} Context optimization: select only the response fields you need. Omit to receive all fields.";

/// Why a tool cannot be defined. Its text says what to change.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DefinitionError {
    tool: String,
    message: String,
}

impl DefinitionError {
    pub(crate) fn new(tool: &str, message: impl Into<String>) -> Self {
        DefinitionError {
            tool: tool.to_owned(),
            message: message.into(),
        }
    }

    /// The tool's name.
    pub fn tool(&self) -> &str {
        &self.tool
    }
}

impl fmt::Display for DefinitionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "tool `{}` cannot be defined: {}",
            self.tool, self.message
        )
    }
}

impl std::error::Error for DefinitionError {}

/// One action of a defined tool.
#[derive(Debug, Clone)]
pub(crate) struct ActionDef {
    pub(crate) key: String,
    description: String,
    /// REQ(a): the required fields in declaration order.
    required: Vec<String>,
    /// The root object of the arguments, discriminator excluded, unknown members denied.
    root: ObjectShape,
    destructive: bool,
    read_only: bool,
    /// The action asks for `structuredContent` (SPEC §11.2).
    structured: bool,
}

/// A tool ready to list and to call: its MCP definition, and the compiled checks of its input.
///
/// Build one with [`ToolDefinition::of`] (from a [`Tool`]) or [`ToolDefinition::from_schema`].
#[derive(Debug, Clone)]
pub struct ToolDefinition {
    name: String,
    description: String,
    discriminator: Option<String>,
    actions: Vec<ActionDef>,
    select_names: Vec<String>,
    input_schema: Map<String, Value>,
    output_schema: Option<Map<String, Value>>,
    annotations: Option<Map<String, Value>>,
    shapes: Shapes,
    pub(super) ui_app: bool,
}

/// The JSON Schema of an input type as the tool layer reads it: draft 2020-12, what the type
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
    /// The definition of the tool `T`.
    pub fn of<T: Tool>() -> Result<Self, DefinitionError> {
        Self::from_schema(&T::spec(), &input_schema_of::<T>())
    }

    /// The definition of a tool declared by `spec` whose input has the JSON Schema `schema`:
    /// an internally tagged union of objects (a discriminated tool; the tag is the
    /// discriminator) or one object (a flat tool).
    pub fn from_schema(spec: &ToolSpec, schema: &Value) -> Result<Self, DefinitionError> {
        Builder::new(spec, schema)?.build()
    }

    /// The tool name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The generated description (SPEC §10).
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

    /// The `_select` names (SPEC §7.2), sorted; empty when the tool has no `_select`.
    pub fn select_names(&self) -> &[String] {
        &self.select_names
    }

    /// The `inputSchema` (SPEC §7.1).
    pub fn input_schema(&self) -> &Map<String, Value> {
        &self.input_schema
    }

    /// The `outputSchema` (SPEC §11.3), if the tool declares one.
    pub fn output_schema(&self) -> Option<&Map<String, Value>> {
        self.output_schema.as_ref()
    }

    /// The MCP `annotations` (`destructiveHint`, `readOnlyHint`), if any applies.
    pub fn annotations(&self) -> Option<&Map<String, Value>> {
        self.annotations.as_ref()
    }

    /// Whether the tool's responses can carry UI blocks ([`ToolSpec::ui_app`],
    /// [`Model::DECLARES_UI`](crate::Model::DECLARES_UI), [`ToolSet::ui_app`](super::ToolSet::ui_app)):
    /// its `tools/list` entry then names the MCP Apps view ([`crate::mcp_app`]).
    pub fn ui_app(&self) -> bool {
        self.ui_app
    }

    /// The definition as the JSON object of a `tools/list` entry.
    pub fn to_json(&self) -> Value {
        serde_json::to_value(self).unwrap_or(Value::Null)
    }

    /// `tool/action` of an action, or the tool name of a flat tool (SPEC §13.4).
    fn reference(&self, action: &ActionDef) -> String {
        if self.discriminator.is_some() {
            format!("{}/{}", self.name, action.key)
        } else {
            self.name.clone()
        }
    }

    fn keys(&self) -> Vec<String> {
        self.actions.iter().map(|a| a.key.clone()).collect()
    }

    /// Routes and validates a call's arguments (SPEC §13.8 steps 2–3): the action, the checked
    /// `_select`, and the arguments serde will read; or the error response to send.
    ///
    /// Absent arguments count as an empty object.
    #[allow(
        clippy::result_large_err,
        reason = "the error is the response to send, moved once"
    )]
    pub fn parse(&self, arguments: Option<Value>) -> Result<ParsedCall, ToolResponse> {
        let mut arguments = arguments.unwrap_or_else(|| Value::Object(Map::new()));
        let index = self.route(&arguments)?;
        // `route` returns an index into `actions`, and a definition always has an action.
        let Some(action) = self.actions.get(index) else {
            return Err(ToolError::internal(&self.name).into_response());
        };
        let reference = self.reference(action);
        let Some(map) = arguments.as_object_mut() else {
            // Only flat tools get here: routing rejects a non-object for discriminated ones.
            let problem = Problem::new(
                "(root)",
                ProblemKind::WrongType {
                    sent: describe_sent(&arguments),
                    expected: Expected::Type(JsonType::Object),
                },
            );
            return Err(validation_failure(reference, vec![problem]));
        };
        let walker = Walker {
            shapes: &self.shapes,
        };
        let root = Path::default();
        let mut problems = Vec::new();
        walker.check_members(&action.root, map, &root, &mut problems);
        let selection = self.check_select(map.get(SELECT), &mut problems);
        let mut also_valid: Vec<&str> = Vec::with_capacity(2);
        if let Some(discriminator) = &self.discriminator {
            also_valid.push(discriminator);
        }
        if !self.select_names.is_empty() {
            also_valid.push(SELECT);
        }
        walker.check_unknown(&action.root, map, &root, &also_valid, &mut problems);
        if !problems.is_empty() {
            return Err(validation_failure(reference, problems));
        }
        if !self.select_names.is_empty() {
            map.shift_remove(SELECT);
        }
        Ok(ParsedCall {
            tool: self.name.clone(),
            action: self.discriminator.is_some().then(|| action.key.clone()),
            reference,
            arguments,
            selection: selection.unwrap_or_default(),
            structured: action.structured,
        })
    }

    /// SPEC §13.3: the action a call names, or the routing error.
    #[allow(
        clippy::result_large_err,
        reason = "the error is the response to send, moved once"
    )]
    fn route(&self, arguments: &Value) -> Result<usize, ToolResponse> {
        let Some(discriminator) = &self.discriminator else {
            return Ok(0);
        };
        let sent = match arguments {
            Value::Object(map) => map.get(discriminator.as_str()),
            _ => None,
        };
        let key = match sent {
            None | Some(Value::Null) => None,
            Some(Value::String(key)) if key.is_empty() => None,
            Some(Value::String(key)) => Some(key),
            Some(other) => {
                let json_type = match other {
                    Value::Number(_) => "number",
                    Value::Bool(_) => "boolean",
                    Value::Array(_) => "array",
                    _ => "object",
                };
                return Err(ToolError::invalid_discriminator(
                    discriminator,
                    json_type,
                    self.keys(),
                )
                .into_response());
            }
        };
        let Some(key) = key else {
            return Err(
                ToolError::missing_discriminator(discriminator, self.keys()).into_response()
            );
        };
        self.actions
            .iter()
            .position(|a| &a.key == key)
            .ok_or_else(|| {
                ToolError::unknown_action(discriminator, key, self.keys()).into_response()
            })
    }

    /// SPEC §7.3: the checked selection, with its problems appended to `problems`.
    fn check_select(&self, sent: Option<&Value>, problems: &mut Vec<Problem>) -> Option<Selection> {
        if self.select_names.is_empty() {
            return None;
        }
        let items = match sent? {
            Value::Array(items) => items,
            other => {
                problems.push(Problem::new(
                    SELECT,
                    ProblemKind::WrongType {
                        sent: describe_sent(other),
                        expected: Expected::Type(JsonType::Array),
                    },
                ));
                return None;
            }
        };
        let mut names = Vec::with_capacity(items.len());
        for (index, item) in items.iter().enumerate() {
            if problems.len() > MAX_PROBLEMS {
                break;
            }
            let path = format!("{SELECT}.{index}");
            match item {
                Value::String(name) if self.select_names.contains(name) => names.push(name.clone()),
                Value::String(_) => problems.push(Problem::new(
                    path,
                    ProblemKind::UnknownSelection {
                        sent: describe_sent(item),
                        names: self.select_names.clone(),
                    },
                )),
                other => problems.push(Problem::new(
                    path,
                    ProblemKind::WrongType {
                        sent: describe_sent(other),
                        expected: Expected::Type(JsonType::String),
                    },
                )),
            }
        }
        Some(Selection::new(names))
    }
}

fn validation_failure(reference: String, mut problems: Vec<Problem>) -> ToolResponse {
    if problems.len() > MAX_PROBLEMS {
        problems.truncate(MAX_PROBLEMS);
        problems.push(Problem::new(
            "(root)",
            ProblemKind::TooMany {
                listed: MAX_PROBLEMS,
            },
        ));
    }
    match ValidationError::new(reference, problems) {
        Some(error) => error.into_response(),
        // Callers only get here with at least one problem.
        None => ToolResponse::error_block(String::new(), true),
    }
}

impl Serialize for ToolDefinition {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let len =
            3 + usize::from(self.output_schema.is_some()) + usize::from(self.annotations.is_some());
        let mut tool = serializer.serialize_struct("Tool", len)?;
        tool.serialize_field("name", &self.name)?;
        tool.serialize_field("description", &self.description)?;
        tool.serialize_field("inputSchema", &self.input_schema)?;
        if let Some(output) = &self.output_schema {
            tool.serialize_field("outputSchema", output)?;
        }
        if let Some(annotations) = &self.annotations {
            tool.serialize_field("annotations", annotations)?;
        }
        tool.end()
    }
}

/// A routed, validated call: what the handler's typed input is read from.
#[derive(Debug, Clone)]
pub struct ParsedCall {
    tool: String,
    action: Option<String>,
    reference: String,
    arguments: Value,
    selection: Selection,
    structured: bool,
}

impl ParsedCall {
    /// The tool's name.
    pub fn tool(&self) -> &str {
        &self.tool
    }

    /// The action key (`None` for a flat tool).
    pub fn action(&self) -> Option<&str> {
        self.action.as_deref()
    }

    /// `tool/action`, or the tool name of a flat tool.
    pub fn reference(&self) -> &str {
        &self.reference
    }

    /// The arguments without `_select` (the discriminator kept, as serde's tagged enums need it).
    pub fn arguments(&self) -> &Value {
        &self.arguments
    }

    /// The checked selection (empty when the call sent none).
    pub fn selection(&self) -> &Selection {
        &self.selection
    }

    /// Whether the action asks for `structuredContent` (SPEC §11.2).
    pub fn is_structured(&self) -> bool {
        self.structured
    }

    /// The arguments and the call context, without copying the arguments.
    pub(crate) fn into_parts(self) -> (Value, super::Call) {
        let call = super::Call {
            tool: self.tool,
            action: self.action,
            reference: self.reference,
            selection: self.selection,
            structured: self.structured,
        };
        (self.arguments, call)
    }

    /// Reads the typed input and the call context; a value serde still refuses (a check of its
    /// own, such as a `TryFrom` conversion) becomes a `<validation_error>`.
    #[allow(
        clippy::result_large_err,
        reason = "the error is the response to send, moved once"
    )]
    pub fn into_typed<T: serde::de::DeserializeOwned>(
        self,
    ) -> Result<(T, super::Call), ToolResponse> {
        let ParsedCall {
            tool,
            action,
            reference,
            arguments,
            selection,
            structured,
        } = self;
        let input = read_typed::<T>(arguments, &reference)?;
        Ok((
            input,
            super::Call {
                tool,
                action,
                reference,
                selection,
                structured,
            },
        ))
    }
}

/// Reads the typed input from validated arguments; a value serde still refuses (a check of the
/// type's own, such as a `TryFrom` conversion) becomes a `<validation_error>` at `(root)`.
#[allow(
    clippy::result_large_err,
    reason = "the error is the response to send, moved once"
)]
pub(crate) fn read_typed<T: serde::de::DeserializeOwned>(
    arguments: Value,
    reference: &str,
) -> Result<T, ToolResponse> {
    let sent = describe_sent(&arguments);
    serde_json::from_value::<T>(arguments).map_err(|error| {
        let mut reason = error.to_string();
        if let Some(first) = reason.chars().next() {
            reason = first.to_uppercase().chain(reason.chars().skip(1)).collect();
        }
        if !reason.ends_with('.') {
            reason.push('.');
        }
        let problem = Problem::new("(root)", ProblemKind::Invalid { sent, reason });
        validation_failure(reference.to_owned(), vec![problem])
    })
}

/// Builds a definition: one pass over the schema, one over the spec.
struct Builder<'a> {
    spec: &'a ToolSpec,
    schema: &'a Value,
    root: &'a Map<String, Value>,
}

/// One action as read from the schema.
struct SchemaAction<'a> {
    key: String,
    object: &'a Map<String, Value>,
    properties: Vec<(&'a String, &'a Value)>,
    required: Vec<&'a str>,
}

impl<'a> Builder<'a> {
    fn new(spec: &'a ToolSpec, schema: &'a Value) -> Result<Self, DefinitionError> {
        let root = schema
            .as_object()
            .ok_or_else(|| DefinitionError::new(&spec.name, "the input schema is not an object"))?;
        Ok(Builder { spec, schema, root })
    }

    fn error(&self, message: impl Into<String>) -> DefinitionError {
        DefinitionError::new(&self.spec.name, message)
    }

    fn schema_error(&self, error: &SchemaError) -> DefinitionError {
        self.error(format!("its input schema is not supported: {}", error.0))
    }

    /// The actions of the schema, and the discriminator of a discriminated tool.
    fn actions(&self) -> Result<(Option<String>, Vec<SchemaAction<'a>>), DefinitionError> {
        let branches = self
            .root
            .get("oneOf")
            .or_else(|| self.root.get("anyOf"))
            .and_then(Value::as_array);
        let Some(branches) = branches else {
            if self.root.get("type").and_then(Value::as_str) != Some("object") {
                return Err(self.error(
                    "the input type must be a struct with named fields (a flat tool) or an internally tagged enum (`#[serde(tag = \"action\")]`)",
                ));
            }
            let action = schema_action(String::new(), self.root);
            return Ok((None, vec![action]));
        };
        if branches.is_empty() {
            return Err(
                self.error("the input enum has no action: every variant is skipped by serde")
            );
        }
        let mut objects = Vec::with_capacity(branches.len());
        for branch in branches {
            let object = branch
                .as_object()
                .filter(|o| o.get("type").and_then(Value::as_str) == Some("object"))
                .ok_or_else(|| {
                    self.error("every variant of the input enum must be a struct or unit variant; newtype and tuple variants have no named fields")
                })?;
            objects.push(object);
        }
        let tag = Self::tag(&objects).ok_or_else(|| {
            self.error("the input enum must be internally tagged: add `#[serde(tag = \"action\")]`")
        })?;
        let mut actions = Vec::with_capacity(objects.len());
        for object in objects {
            let key = constant(object, &tag).unwrap_or_default().to_owned();
            if actions.iter().any(|a: &SchemaAction<'_>| a.key == key) {
                return Err(self.error(format!("two actions share the key `{key}`")));
            }
            let mut action = schema_action(key, object);
            action.properties.retain(|(name, _)| **name != tag);
            action.required.retain(|name| *name != tag);
            actions.push(action);
        }
        Ok((Some(tag), actions))
    }

    /// The member every variant requires and fixes to one text.
    fn tag(objects: &[&Map<String, Value>]) -> Option<String> {
        let first = objects.first()?;
        let properties = first.get("properties")?.as_object()?;
        properties
            .keys()
            .find(|name| {
                objects.iter().all(|object| {
                    constant(object, name).is_some()
                        && object
                            .get("required")
                            .and_then(Value::as_array)
                            .is_some_and(|r| r.iter().any(|n| n.as_str() == Some(name.as_str())))
                })
            })
            .cloned()
    }

    /// The declarations of the spec, one per action (default when the spec says nothing).
    fn specs(&self, keys: &[String]) -> Result<Vec<ActionSpec>, DefinitionError> {
        let mut specs = vec![None; keys.len()];
        for (reference, spec) in &self.spec.actions {
            let index = match reference {
                ActionRef::Position(n) => {
                    if *n >= keys.len() {
                        return Err(self.error(format!(
                            "the declaration names {} actions but the input schema has {}; is a variant skipped by serde?",
                            n + 1,
                            keys.len()
                        )));
                    }
                    *n
                }
                ActionRef::Key(key) => keys.iter().position(|k| k == key).ok_or_else(|| {
                    self.error(format!(
                        "there is no action `{key}`; the actions are {}",
                        quoted(keys)
                    ))
                })?,
            };
            if specs[index].is_some() {
                return Err(self.error(format!("the action `{}` is declared twice", keys[index])));
            }
            specs[index] = Some(spec.clone());
        }
        Ok(specs.into_iter().map(Option::unwrap_or_default).collect())
    }

    fn build(self) -> Result<ToolDefinition, DefinitionError> {
        let (discriminator, schema_actions) = self.actions()?;
        let keys: Vec<String> = schema_actions.iter().map(|a| a.key.clone()).collect();
        if discriminator.is_none()
            && self
                .spec
                .actions
                .iter()
                .any(|(r, _)| matches!(r, ActionRef::Key(_)))
        {
            return Err(
                self.error("a flat tool has no action keys; declare its action with `variant`")
            );
        }
        let specs = self.specs(&keys)?;
        self.check_specs(&keys, &specs, discriminator.is_some())?;
        let select_names = if self.spec.select {
            select_names(&specs)
        } else {
            Vec::new()
        };
        for action in &schema_actions {
            for (name, _) in &action.properties {
                if name.as_str() == SELECT && self.spec.select {
                    return Err(self.error(format!(
                        "the field name `{SELECT}` is reserved for selection"
                    )));
                }
            }
        }

        self.check_wide_integers(discriminator.is_some(), &schema_actions)?;

        let mut compiler = Compiler::new(self.schema);
        let mut actions = Vec::with_capacity(schema_actions.len());
        for (schema_action, spec) in schema_actions.iter().zip(&specs) {
            let mut root = compiler
                .compile_object(schema_action.object)
                .map_err(|e| self.schema_error(&e))?;
            if let Some(tag) = &discriminator {
                root.members.retain(|m| &m.name != tag);
            }
            // The arguments' root always rejects unknown members (SPEC §13.5).
            root.extra = Extra::Deny;
            let description = spec
                .description
                .as_deref()
                .or_else(|| {
                    schema_action
                        .object
                        .get("description")
                        .and_then(Value::as_str)
                })
                .unwrap_or_default()
                .to_owned();
            let required = schema_action
                .properties
                .iter()
                .filter(|(n, _)| schema_action.required.contains(&n.as_str()))
                .map(|(n, _)| (*n).clone())
                .collect();
            actions.push(ActionDef {
                key: schema_action.key.clone(),
                description,
                required,
                root,
                destructive: spec.destructive,
                read_only: spec.read_only,
                structured: spec.structured,
            });
        }
        let shapes = compiler.finish();

        let input_schema = match &discriminator {
            Some(discriminator) => {
                self.discriminated_schema(discriminator, &schema_actions, &select_names)?
            }
            None => match schema_actions.first() {
                Some(action) => self.flat_schema(action, &select_names),
                None => return Err(self.error("a flat tool needs its one action")),
            },
        };
        let description = self.description(discriminator.as_deref(), &actions);
        let output_schema = self.output_schema(!select_names.is_empty())?;
        let annotations = annotations(&actions);
        Ok(ToolDefinition {
            name: self.spec.name.to_string(),
            description,
            discriminator,
            actions,
            select_names,
            input_schema,
            output_schema,
            annotations,
            shapes,
            ui_app: self.spec.ui_app
                || self
                    .spec
                    .actions
                    .iter()
                    .any(|(_, a)| a.returns.iter().any(|r| r.ui)),
        })
    }

    /// The rules that span one action's declarations.
    fn check_specs(
        &self,
        keys: &[String],
        specs: &[ActionSpec],
        discriminated: bool,
    ) -> Result<(), DefinitionError> {
        for (key, spec) in keys.iter().zip(specs) {
            if spec.destructive && spec.read_only {
                return Err(self.error(format!(
                    "the action `{key}` cannot be both destructive and read-only"
                )));
            }
            if spec.structured && spec.returns.iter().any(|r| r.collection) {
                let action = if discriminated {
                    format!("the action `{key}`")
                } else {
                    "its action".to_owned()
                };
                return Err(self.error(format!(
                    "{action} asks for structured content but presents a collection, and a collection cannot be sent as `structuredContent` (its root is a list, SPEC §11.2); remove `structured`, or declare a single value (`returns = Model`, `ActionSpec::returns`) instead of a collection (`returns = [Model]`, `ActionSpec::returns_all`)"
                )));
            }
        }
        Ok(())
    }

    /// Refuses 128-bit integers that serde cannot read: serde buffers the content of an
    /// internally tagged (or untagged) enum before choosing the variant, and its buffer holds no
    /// 128-bit integers, so every call of such an action would fail. The actions of a
    /// discriminated tool are variants of such an enum; a tagged-union field is one too.
    fn check_wide_integers(
        &self,
        discriminated: bool,
        actions: &[SchemaAction<'_>],
    ) -> Result<(), DefinitionError> {
        let defs = self.root.get("$defs").and_then(Value::as_object);
        for action in actions {
            let mut scan = WideIntegerScan {
                defs,
                refs: Vec::new(),
                path: Vec::new(),
            };
            for (name, schema) in &action.properties {
                scan.path.push((*name).clone());
                if let Some(path) = scan.find(schema, discriminated) {
                    let place = if discriminated {
                        format!("the field `{path}` of the action `{}`", action.key)
                    } else {
                        format!("the field `{path}`")
                    };
                    return Err(self.error(format!(
                        "{place} is a 128-bit integer inside an enum that serde reads through its content buffer (an internally tagged or untagged enum), which cannot hold 128-bit integers, so no call could succeed; use `i64` or `u64`, or a `String` that you parse"
                    )));
                }
                scan.path.pop();
            }
        }
        Ok(())
    }

    /// SPEC §10: the flat tool's own text, or a layout of the actions.
    fn description(&self, discriminator: Option<&str>, actions: &[ActionDef]) -> String {
        let own = self
            .spec
            .description
            .as_deref()
            .or_else(|| self.root.get("description").and_then(Value::as_str))
            .filter(|d| !d.is_empty())
            .unwrap_or(&self.spec.name);
        let Some(discriminator) = discriminator else {
            return description::flat(&self.spec.name, own).to_owned();
        };
        let required: Vec<Vec<&str>> = actions
            .iter()
            .map(|a| a.required.iter().map(String::as_str).collect())
            .collect();
        let descriptors: Vec<ActionDescriptor<'_>> = actions
            .iter()
            .zip(&required)
            .map(|(a, required)| {
                ActionDescriptor::new(&a.key)
                    .description(&a.description)
                    .required(required)
                    .destructive(a.destructive)
            })
            .collect();
        description::describe(
            self.spec.layout,
            &self.spec.name,
            own,
            discriminator,
            &descriptors,
        )
    }

    /// SPEC §7.1, flat tool.
    fn flat_schema(
        &self,
        action: &SchemaAction<'_>,
        select_names: &[String],
    ) -> Map<String, Value> {
        let mut properties = Map::new();
        for (name, schema) in &action.properties {
            properties.insert((*name).clone(), (*schema).clone());
        }
        let required: Vec<Value> = action
            .properties
            .iter()
            .filter(|(n, _)| action.required.contains(&n.as_str()))
            .map(|(n, _)| Value::String((*n).clone()))
            .collect();
        self.object_schema(properties, required, select_names)
    }

    /// SPEC §7.1, discriminated tool: one object, the discriminator enum first, every field
    /// once with the actions that take it.
    fn discriminated_schema(
        &self,
        discriminator: &str,
        actions: &[SchemaAction<'_>],
        select_names: &[String],
    ) -> Result<Map<String, Value>, DefinitionError> {
        let keys: Vec<Value> = actions
            .iter()
            .map(|a| Value::String(a.key.clone()))
            .collect();
        let mut properties = Map::new();
        let mut discriminator_schema = Map::new();
        discriminator_schema.insert("type".into(), "string".into());
        discriminator_schema.insert("enum".into(), Value::Array(keys));
        discriminator_schema.insert("description".into(), DISCRIMINATOR_DESCRIPTION.into());
        properties.insert(
            discriminator.to_owned(),
            Value::Object(discriminator_schema),
        );

        // Fields in order of first appearance, each with the action that introduced it.
        let mut fields: Vec<(&str, &Value, &str)> = Vec::new();
        for action in actions {
            for (name, schema) in &action.properties {
                match fields.iter().find(|(n, _, _)| *n == name.as_str()) {
                    Some((_, first, first_key)) => {
                        if without_description(first) != without_description(schema) {
                            return Err(self.error(format!(
                                "the field `{name}` has one schema in action `{first_key}` and another in action `{}`; give both the same type or rename one",
                                action.key
                            )));
                        }
                    }
                    None => fields.push((name.as_str(), *schema, &action.key)),
                }
            }
        }
        let mut always = Vec::new();
        for (name, schema, _) in &fields {
            if *name == discriminator {
                continue;
            }
            let requiring: Vec<&str> = actions
                .iter()
                .filter(|a| a.required.contains(name))
                .map(|a| a.key.as_str())
                .collect();
            let optional: Vec<&str> = actions
                .iter()
                .filter(|a| {
                    !a.required.contains(name)
                        && a.properties.iter().any(|(n, _)| n.as_str() == *name)
                })
                .map(|a| a.key.as_str())
                .collect();
            let annotation = if requiring.len() == actions.len() {
                always.push(Value::String((*name).to_owned()));
                "(always required)".to_owned()
            } else if optional.is_empty() {
                format!("Required for: {}", requiring.join(", "))
            } else if requiring.is_empty() {
                format!("For: {}", optional.join(", "))
            } else {
                format!(
                    "Required for: {}. For: {}",
                    requiring.join(", "),
                    optional.join(", ")
                )
            };
            properties.insert((*name).to_owned(), annotate(schema, &annotation));
        }
        let mut required = vec![Value::String(discriminator.to_owned())];
        required.extend(always);
        Ok(self.object_schema(properties, required, select_names))
    }

    /// `{"type":"object","properties":…,"required":…}` with `_select` last, and the `$defs`
    /// that recursive types still point into.
    fn object_schema(
        &self,
        mut properties: Map<String, Value>,
        required: Vec<Value>,
        select_names: &[String],
    ) -> Map<String, Value> {
        if !select_names.is_empty() {
            properties.insert(SELECT.to_owned(), select_property(select_names));
        }
        let mut schema = Map::new();
        schema.insert("type".into(), "object".into());
        schema.insert("properties".into(), Value::Object(properties));
        if !required.is_empty() {
            schema.insert("required".into(), Value::Array(required));
        }
        if let Some(defs) = self.root.get("$defs") {
            schema.insert("$defs".into(), defs.clone());
        }
        schema
    }

    /// SPEC §11.3: the declared schema, `$schema`, `title` and `description` removed, and the
    /// root's `required` removed when `_select` can drop members.
    fn output_schema(
        &self,
        selectable: bool,
    ) -> Result<Option<Map<String, Value>>, DefinitionError> {
        let Some(schema) = &self.spec.output_schema else {
            return Ok(None);
        };
        let mut schema = schema
            .as_object()
            .filter(|s| s.get("type").and_then(Value::as_str) == Some("object"))
            .cloned()
            .ok_or_else(|| {
                self.error(
                    "the output schema's root must be `\"type\": \"object\"`: return a struct",
                )
            })?;
        for member in ["$schema", "title", "description"] {
            schema.shift_remove(member);
        }
        if selectable {
            schema.shift_remove("required");
        }
        Ok(Some(schema))
    }
}

/// The search for a 128-bit integer format that serde would have to read from its content
/// buffer (see `Builder::check_wide_integers`).
struct WideIntegerScan<'a> {
    defs: Option<&'a Map<String, Value>>,
    /// `$ref`s already followed, so recursive types end the search.
    refs: Vec<&'a str>,
    /// Member names from the arguments' root.
    path: Vec<String>,
}

impl<'a> WideIntegerScan<'a> {
    /// The path of the first 128-bit integer at or below `schema` read through the buffer
    /// (`buffered`: an enclosing enum is buffered already).
    fn find(&mut self, schema: &'a Value, buffered: bool) -> Option<String> {
        let map = schema.as_object()?;
        if buffered
            && matches!(
                map.get("format").and_then(Value::as_str),
                Some("int128" | "uint128")
            )
        {
            return Some(self.path.join("."));
        }
        if let Some(reference) = map.get("$ref").and_then(Value::as_str)
            && !self.refs.contains(&reference)
        {
            self.refs.push(reference);
            let target = reference
                .strip_prefix("#/$defs/")
                .and_then(|name| self.defs?.get(name));
            if let Some(found) = target.and_then(|t| self.find(t, buffered)) {
                return Some(found);
            }
        }
        for key in ["oneOf", "anyOf", "allOf"] {
            let Some(branches) = map.get(key).and_then(Value::as_array) else {
                continue;
            };
            // A nullable value (one branch besides `null`) is read directly; two or more
            // branches are an enum, and a flattened part (`allOf`) is buffered as well.
            let not_null = branches
                .iter()
                .filter(|b| b.get("type").and_then(Value::as_str) != Some("null"))
                .count();
            let inner = buffered || key == "allOf" || not_null > 1;
            for branch in branches {
                if let Some(found) = self.find(branch, inner) {
                    return Some(found);
                }
            }
        }
        if let Some(properties) = map.get("properties").and_then(Value::as_object) {
            for (name, property) in properties {
                self.path.push(name.clone());
                let found = self.find(property, buffered);
                self.path.pop();
                if found.is_some() {
                    return found;
                }
            }
        }
        for key in ["items", "additionalProperties"] {
            if let Some(found) = map.get(key).and_then(|s| self.find(s, buffered)) {
                return Some(found);
            }
        }
        if let Some(items) = map.get("prefixItems").and_then(Value::as_array) {
            for item in items {
                if let Some(found) = self.find(item, buffered) {
                    return Some(found);
                }
            }
        }
        None
    }
}

fn schema_action(key: String, object: &Map<String, Value>) -> SchemaAction<'_> {
    let properties = object
        .get("properties")
        .and_then(Value::as_object)
        .map(|p| p.iter().collect())
        .unwrap_or_default();
    let required = object
        .get("required")
        .and_then(Value::as_array)
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    SchemaAction {
        key,
        object,
        properties,
        required,
    }
}

/// The text `object`'s property `name` is fixed to (`const`, or a one-text `enum`).
fn constant<'a>(object: &'a Map<String, Value>, name: &str) -> Option<&'a str> {
    let property = object.get("properties")?.get(name)?;
    if let Some(value) = property.get("const") {
        return value.as_str();
    }
    match property.get("enum")?.as_array()?.as_slice() {
        [Value::String(only)] => Some(only),
        _ => None,
    }
}

fn without_description(schema: &Value) -> Value {
    let mut schema = schema.clone();
    if let Some(map) = schema.as_object_mut() {
        map.shift_remove("description");
    }
    schema
}

/// SPEC §7.1: the field's description followed by the action annotation.
fn annotate(schema: &Value, annotation: &str) -> Value {
    let mut schema = schema.clone();
    if let Some(map) = schema.as_object_mut() {
        let text = match map.get("description").and_then(Value::as_str) {
            Some(desc) if desc.ends_with('.') => format!("{desc} {annotation}"),
            Some(desc) if !desc.is_empty() => format!("{desc}. {annotation}"),
            _ => annotation.to_owned(),
        };
        map.insert("description".into(), Value::String(text));
    }
    schema
}

/// SPEC §7.2: the wire names of every presented model, once each, in code-unit order.
fn select_names(specs: &[ActionSpec]) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    for spec in specs {
        for model in &spec.returns {
            for name in model.names {
                if !names.iter().any(|n| n == name) {
                    names.push((*name).to_owned());
                }
            }
        }
    }
    names.sort_by(|a, b| a.encode_utf16().cmp(b.encode_utf16()));
    names
}

fn select_property(names: &[String]) -> Value {
    let mut items = Map::new();
    items.insert("type".into(), "string".into());
    items.insert(
        "enum".into(),
        Value::Array(names.iter().cloned().map(Value::String).collect()),
    );
    let mut property = Map::new();
    property.insert("type".into(), "array".into());
    property.insert("description".into(), SELECT_DESCRIPTION.into());
    property.insert("items".into(), Value::Object(items));
    Value::Object(property)
}

/// SPEC §7.1: `destructiveHint` when an action is destructive, `readOnlyHint` when all are
/// read-only.
fn annotations(actions: &[ActionDef]) -> Option<Map<String, Value>> {
    let mut map = Map::new();
    if actions.iter().any(|a| a.destructive) {
        map.insert("destructiveHint".into(), Value::Bool(true));
    }
    if !actions.is_empty() && actions.iter().all(|a| a.read_only) {
        map.insert("readOnlyHint".into(), Value::Bool(true));
    }
    (!map.is_empty()).then_some(map)
}

fn quoted(keys: &[String]) -> String {
    keys.iter()
        .map(|k| format!("`{k}`"))
        .collect::<Vec<_>>()
        .join(", ")
}
