//! Building a [`ToolDefinition`] from a [`ToolSpec`] and the input type's JSON Schema
//! (wire format §7.1–§7.2, §10, §11.3): the flattened `inputSchema`, `_select`, the description, the
//! `outputSchema`, the annotations and the compiled checks.

use std::sync::Arc;

use serde_json::{Map, Value};

use super::SELECT;
use super::args::shape::{Compiler, Extra, SchemaError};
use super::definition::{ActionDef, CallNames, ToolDefinition};
use super::definition_error::DefinitionError;
use super::description::{self, ActionDescriptor};
use super::merge::{self, CLASH_ADVICE, Clash, MergedField};
use super::select_schema::{names_of, select_property};
use super::spec::{ActionRef, ActionSpec, ToolSpec};
use super::wide_integers::WideIntegerScan;

/// The description of the discriminator property (wire format §7.1).
const DISCRIMINATOR_DESCRIPTION: &str = "Which operation to perform";

impl ToolDefinition {
    /// The definition of a tool declared by `spec` whose input has the JSON Schema `schema`:
    /// an internally tagged union of objects (a discriminated tool; the tag is the
    /// discriminator) or one object (a flat tool).
    pub fn from_schema(spec: &ToolSpec, schema: &Value) -> Result<Self, DefinitionError> {
        Builder::new(spec, schema)?.build()
    }
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

    /// One error for every clash of field types (wire format §7.1).
    fn clash_error(&self, clashes: &[Clash]) -> DefinitionError {
        if let [one] = clashes {
            return self.error(format!("{}; give the field {CLASH_ADVICE}", one.sentence()));
        }
        let mut message = format!(
            "fields have different types in different actions ({} clashes); give each field {CLASH_ADVICE}:",
            clashes.len()
        );
        for clash in clashes {
            message.push_str("\n  - ");
            message.push_str(&clash.sentence());
        }
        self.error(message)
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
            names_of(&specs)
        } else {
            Vec::new()
        };
        self.check_reserved(&schema_actions)?;
        self.check_wide_integers(discriminator.is_some(), &schema_actions)?;

        let tool_name: Arc<str> = Arc::from(&*self.spec.name);
        let mut compiler = Compiler::new(self.schema);
        let mut actions = Vec::with_capacity(schema_actions.len());
        for (schema_action, spec) in schema_actions.iter().zip(&specs) {
            let mut root = compiler
                .compile_object(schema_action.object)
                .map_err(|e| self.schema_error(&e))?;
            if let Some(tag) = &discriminator {
                root.members.retain(|m| &m.name != tag);
            }
            // The arguments' root always rejects unknown members (wire format §13.5).
            root.extra = Extra::Deny;
            let description = action_description(spec, schema_action.object);
            let required = schema_action
                .properties
                .iter()
                .filter(|(n, _)| schema_action.required.contains(&n.as_str()))
                .map(|(n, _)| (*n).clone())
                .collect();
            let select_names = if self.spec.select {
                names_of(std::slice::from_ref(spec))
            } else {
                Vec::new()
            };
            actions.push(ActionDef {
                key: schema_action.key.clone(),
                names: call_names(&tool_name, discriminator.is_some(), &schema_action.key),
                select_names,
                description,
                required,
                root,
                destructive: spec.destructive,
                read_only: spec.read_only,
                structured: spec.structured,
                presents: ActionDef::declared_models(&spec.returns),
            });
        }
        let shapes = compiler.finish();

        let select = select_property(&select_names, &actions);
        let input_schema = match &discriminator {
            Some(discriminator) => {
                self.discriminated_schema(discriminator, &schema_actions, select)?
            }
            None => match schema_actions.first() {
                Some(action) => self.flat_schema(action, select),
                None => return Err(self.error("a flat tool needs its one action")),
            },
        };
        let description = self.description(discriminator.as_deref(), &actions);
        let output_schema = self.output_schema(!select_names.is_empty())?;
        let annotations = annotations(self.spec, &actions);
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
            ui_app: self.spec.renders_ui(),
            max_tokens: self.spec.max_tokens,
            advertise_max_tokens: self.spec.advertise_max_tokens,
            suggests: self.suggests(),
            format: self.spec.format,
            static_rules: self.spec.static_rules(),
            lean: false,
        }
        .lean_if(self.spec.is_lean()))
    }

    /// The fixed suggestion targets of every model the actions present, once each.
    fn suggests(&self) -> Vec<(&'static str, &'static str)> {
        let mut out: Vec<(&'static str, &'static str)> = Vec::new();
        for (_, action) in &self.spec.actions {
            for returned in &action.returns {
                let model = returned.model.unwrap_or("a model");
                for &target in returned.suggests {
                    if !out.iter().any(|(_, t)| *t == target) {
                        out.push((model, target));
                    }
                }
            }
        }
        out
    }

    /// With `_select` enabled, no action may have a field of that name.
    fn check_reserved(&self, schema_actions: &[SchemaAction<'_>]) -> Result<(), DefinitionError> {
        let reserved = schema_actions
            .iter()
            .flat_map(|action| &action.properties)
            .any(|(name, _)| name.as_str() == SELECT);
        if reserved && self.spec.select {
            return Err(self.error(format!(
                "the field name `{SELECT}` is reserved for selection"
            )));
        }
        Ok(())
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
                    "{action} asks for structured content but presents a collection, and a collection cannot be sent as `structuredContent` (its root is a list, wire format §11.2); remove `structured`, or declare a single value (`returns = Model`, `ActionSpec::returns`) instead of a collection (`returns = [Model]`, `ActionSpec::returns_all`)"
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

    /// wire format §10: the flat tool's own text, or a layout of the actions.
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

    /// wire format §7.1, flat tool.
    fn flat_schema(&self, action: &SchemaAction<'_>, select: Option<Value>) -> Map<String, Value> {
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
        self.object_schema(properties, required, select)
    }

    /// wire format §7.1, discriminated tool: one object, the discriminator enum first, every field
    /// once with the actions that take it.
    fn discriminated_schema(
        &self,
        discriminator: &str,
        actions: &[SchemaAction<'_>],
        select: Option<Value>,
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

        // Fields in order of first appearance, `T` and `Option<T>` merged; every clash at once.
        let fields = merge::merge_fields(
            actions
                .iter()
                .map(|a| (a.key.as_str(), a.properties.as_slice())),
        )
        .map_err(|clashes| self.clash_error(&clashes))?;
        let mut always = Vec::new();
        for MergedField { name, schema } in &fields {
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
        Ok(self.object_schema(properties, required, select))
    }

    /// `{"type":"object","properties":…,"required":…}` with `_select` last, and the `$defs`
    /// that recursive types still point into.
    fn object_schema(
        &self,
        mut properties: Map<String, Value>,
        required: Vec<Value>,
        select: Option<Value>,
    ) -> Map<String, Value> {
        if let Some(select) = select {
            properties.insert(SELECT.to_owned(), select);
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

    /// wire format §11.3: the declared schema, `$schema`, `title` and `description` removed, and the
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
            super::remove_in_order(&mut schema, member);
        }
        if selectable {
            super::remove_in_order(&mut schema, "required");
        }
        Ok(Some(schema))
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

/// The names every call of the action `key` carries (`key` is empty for a flat tool).
fn call_names(tool: &Arc<str>, discriminated: bool, key: &str) -> CallNames {
    let (action, reference) = if discriminated {
        (Some(Arc::from(key)), Arc::from(format!("{tool}/{key}")))
    } else {
        (None, Arc::clone(tool))
    };
    CallNames {
        tool: Arc::clone(tool),
        action,
        reference,
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

/// wire format §7.1: the field's description followed by the action annotation.
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

/// wire format §7.1: `destructiveHint` when an action is destructive, `readOnlyHint` when all are
/// read-only; and what the tool declares of itself: `title`, `idempotentHint`, `openWorldHint`.
fn annotations(spec: &ToolSpec, actions: &[ActionDef]) -> Option<Map<String, Value>> {
    let mut map = Map::new();
    if let Some(title) = &spec.title {
        map.insert("title".into(), Value::String(title.to_string()));
    }
    if !actions.is_empty() && actions.iter().all(|a| a.read_only) {
        map.insert("readOnlyHint".into(), Value::Bool(true));
    }
    if actions.iter().any(|a| a.destructive) {
        map.insert("destructiveHint".into(), Value::Bool(true));
    }
    if spec.idempotent {
        map.insert("idempotentHint".into(), Value::Bool(true));
    }
    if let Some(open) = spec.open_world {
        map.insert("openWorldHint".into(), Value::Bool(open));
    }
    (!map.is_empty()).then_some(map)
}

fn quoted(keys: &[String]) -> String {
    keys.iter()
        .map(|k| format!("`{k}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// An action's description: its spec's, else its schema's (the doc comment of its variant).
fn action_description(spec: &ActionSpec, object: &Map<String, Value>) -> String {
    spec.description
        .as_deref()
        .or_else(|| object.get("description").and_then(Value::as_str))
        .unwrap_or_default()
        .to_owned()
}
