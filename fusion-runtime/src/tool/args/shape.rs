//! The checked form of a JSON Schema: what the validation walker needs to know about a value,
//! compiled once per tool from the schema schemars generates.
//!
//! Only the keywords serde types produce are understood (`type`, `enum`, `const`, `format`,
//! `minimum`/`maximum`, `properties`/`required`/`additionalProperties`, `items`, `oneOf`/`anyOf`
//! for nullable values and tagged unions, `allOf` of objects, local `$ref`s). A keyword the
//! compiler does not know never rejects a value: serde still has the last word after the walk.

use serde_json::{Map, Value};

use super::problems::{Bound, Expected, JsonType};

/// The index of a shape in its [`Shapes`] arena (recursive types point back into it).
pub(crate) type ShapeId = usize;

/// What a value at one place of the arguments must look like.
#[derive(Debug, Clone)]
pub(crate) enum Shape {
    /// Anything goes.
    Any,
    /// `null` only.
    Null,
    /// `true` or `false`.
    Bool,
    /// A text, optionally one of `options`, with optional length bounds in characters.
    Str {
        options: Option<Vec<String>>,
        min_len: Option<u64>,
        max_len: Option<u64>,
    },
    /// An integer within `min..=max` (declared bounds intersected with the `format`'s range).
    Integer {
        min: Option<i128>,
        max: Option<i128>,
    },
    /// Any number within the bounds.
    Number { min: Option<f64>, max: Option<f64> },
    /// One of these JSON values, compared exactly (enumerations that are not all texts).
    Enum(Vec<Value>),
    /// A list whose elements have the shape `items`.
    Array {
        items: ShapeId,
        min_items: Option<u64>,
        max_items: Option<u64>,
    },
    /// An object with declared members.
    Object(ObjectShape),
    /// A tagged union: an object whose member `tag` names the variant.
    Tagged {
        tag: String,
        variants: Vec<(String, ShapeId)>,
    },
    /// `null` or the inner shape.
    Nullable(ShapeId),
    /// Any of these shapes (the first that accepts the value wins).
    Union(Vec<ShapeId>),
}

/// The members an object declares, in declaration order, and what it does with others.
#[derive(Debug, Clone, Default)]
pub(crate) struct ObjectShape {
    pub(crate) members: Vec<Member>,
    pub(crate) extra: Extra,
}

/// One declared member of an object.
#[derive(Debug, Clone)]
pub(crate) struct Member {
    pub(crate) name: String,
    pub(crate) shape: ShapeId,
    pub(crate) required: bool,
}

/// What an object does with members it does not declare.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) enum Extra {
    /// They are accepted unchecked (serde ignores them).
    #[default]
    Allow,
    /// They are unknown fields (`additionalProperties: false`).
    Deny,
    /// They are checked against a shape (maps).
    Check(ShapeId),
}

/// A schema the compiler cannot use.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct SchemaError(pub(crate) String);

/// The arena of compiled shapes of one tool.
#[derive(Debug, Clone, Default)]
pub(crate) struct Shapes {
    nodes: Vec<Shape>,
}

impl Shapes {
    pub(crate) fn get(&self, id: ShapeId) -> &Shape {
        // Ids only come from `push`, so they are always in range; `Any` keeps this total.
        self.nodes.get(id).unwrap_or(&Shape::Any)
    }

    fn push(&mut self, shape: Shape) -> ShapeId {
        self.nodes.push(shape);
        self.nodes.len() - 1
    }

    /// The object shape at `id`, if it is one.
    pub(crate) fn object(&self, id: ShapeId) -> Option<&ObjectShape> {
        match self.get(id) {
            Shape::Object(object) => Some(object),
            _ => None,
        }
    }

    /// What a shape expects, for the EXPECT part of a problem (wire format §13.5).
    pub(crate) fn expected(&self, id: ShapeId) -> Expected {
        self.expected_depth(id, 0)
    }

    fn expected_depth(&self, id: ShapeId, depth: usize) -> Expected {
        // Nullable and union chains are short; the bound only guards against a cycle of
        // `$ref`s that never reaches a concrete shape.
        if depth > 32 {
            return Expected::Type(JsonType::Object);
        }
        match self.get(id) {
            Shape::Str {
                options: Some(options),
                ..
            } => Expected::Options(options.clone()),
            Shape::Str { .. } => Expected::Type(JsonType::String),
            Shape::Bool => Expected::Type(JsonType::Boolean),
            Shape::Integer { .. } => Expected::Type(JsonType::Integer),
            Shape::Number { .. } => Expected::Type(JsonType::Number),
            Shape::Array { .. } => Expected::Type(JsonType::Array),
            Shape::Object(_) | Shape::Tagged { .. } | Shape::Any | Shape::Null => {
                Expected::Type(JsonType::Object)
            }
            Shape::Enum(values) => Expected::Options(values.iter().map(enum_text).collect()),
            Shape::Nullable(inner) => self.expected_depth(*inner, depth + 1),
            Shape::Union(branches) => branches
                .first()
                .map_or(Expected::Type(JsonType::Object), |first| {
                    self.expected_depth(*first, depth + 1)
                }),
        }
    }
}

/// How an enumeration option that is not a text is written in a detail: its JSON text.
pub(crate) fn enum_text(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// Compiles schemas of one tool into one arena, resolving `$ref`s against the root's `$defs`.
pub(crate) struct Compiler<'a> {
    shapes: Shapes,
    defs: Option<&'a Map<String, Value>>,
    /// `$ref` targets already compiled (or being compiled), so recursion terminates.
    refs: Vec<(String, ShapeId)>,
}

impl<'a> Compiler<'a> {
    /// A compiler for schemas whose `$ref`s point into `root`'s `$defs` (or `definitions`).
    pub(crate) fn new(root: &'a Value) -> Self {
        let defs = root
            .get("$defs")
            .or_else(|| root.get("definitions"))
            .and_then(Value::as_object);
        Compiler {
            shapes: Shapes::default(),
            defs,
            refs: Vec::new(),
        }
    }

    /// The arena, once every schema is compiled.
    pub(crate) fn finish(self) -> Shapes {
        self.shapes
    }

    /// Compiles one schema.
    pub(crate) fn compile(&mut self, schema: &Value) -> Result<ShapeId, SchemaError> {
        let shape = match schema {
            Value::Bool(_) => Shape::Any,
            Value::Object(map) => return self.compile_map(map),
            other => {
                return Err(SchemaError(format!(
                    "a schema must be an object, found {other}"
                )));
            }
        };
        Ok(self.shapes.push(shape))
    }

    fn compile_map(&mut self, map: &Map<String, Value>) -> Result<ShapeId, SchemaError> {
        if let Some(reference) = map.get("$ref").and_then(Value::as_str) {
            return self.compile_ref(reference);
        }
        if let Some(branches) = map
            .get("oneOf")
            .or_else(|| map.get("anyOf"))
            .and_then(Value::as_array)
        {
            return self.compile_union(branches);
        }
        if let Some(parts) = map.get("allOf").and_then(Value::as_array) {
            return self.compile_all_of(map, parts);
        }
        if let Some(value) = map.get("const") {
            let shape = match value {
                Value::String(s) => Shape::Str {
                    options: Some(vec![s.clone()]),
                    min_len: None,
                    max_len: None,
                },
                other => Shape::Enum(vec![other.clone()]),
            };
            return Ok(self.shapes.push(shape));
        }
        if let Some(values) = map.get("enum").and_then(Value::as_array) {
            return Ok(self.compile_enum(values));
        }
        match map.get("type") {
            Some(Value::String(t)) => self.compile_type(t, map),
            Some(Value::Array(types)) => {
                let mut ids = Vec::new();
                let mut nullable = false;
                for t in types {
                    match t.as_str() {
                        Some("null") => nullable = true,
                        Some(t) => ids.push(self.compile_type(t, map)?),
                        None => return Err(SchemaError(format!("invalid `type` entry {t}"))),
                    }
                }
                let inner = match ids.as_slice() {
                    [] => self.shapes.push(Shape::Null),
                    [one] => *one,
                    _ => self.shapes.push(Shape::Union(ids)),
                };
                Ok(
                    if nullable && !matches!(self.shapes.get(inner), Shape::Null) {
                        self.shapes.push(Shape::Nullable(inner))
                    } else {
                        inner
                    },
                )
            }
            Some(other) => Err(SchemaError(format!("invalid `type` {other}"))),
            None if map.contains_key("properties") => self.compile_type("object", map),
            None => Ok(self.shapes.push(Shape::Any)),
        }
    }

    fn compile_ref(&mut self, reference: &str) -> Result<ShapeId, SchemaError> {
        if let Some((_, id)) = self.refs.iter().find(|(r, _)| r == reference) {
            return Ok(*id);
        }
        let name = reference
            .strip_prefix("#/$defs/")
            .or_else(|| reference.strip_prefix("#/definitions/"))
            .ok_or_else(|| SchemaError(format!("unsupported `$ref` {reference:?}")))?;
        let target = self
            .defs
            .and_then(|defs| defs.get(name))
            .ok_or_else(|| SchemaError(format!("unresolved `$ref` {reference:?}")))?;
        // Reserve the id first: a recursive type refers to itself while it compiles.
        let id = self.shapes.push(Shape::Any);
        self.refs.push((reference.to_owned(), id));
        let compiled = self.compile(target)?;
        let shape = self.shapes.get(compiled).clone();
        self.shapes.nodes[id] = shape;
        Ok(id)
    }

    fn compile_union(&mut self, branches: &[Value]) -> Result<ShapeId, SchemaError> {
        let mut ids = Vec::with_capacity(branches.len());
        let mut nullable = false;
        for branch in branches {
            let id = self.compile(branch)?;
            if matches!(self.shapes.get(id), Shape::Null) {
                nullable = true;
            } else {
                ids.push(id);
            }
        }
        let inner = if let Some(tagged) = self.tagged(&ids) {
            self.shapes.push(tagged)
        } else {
            match ids.as_slice() {
                [] => self.shapes.push(Shape::Null),
                [one] => *one,
                _ => self.shapes.push(Shape::Union(ids)),
            }
        };
        Ok(
            if nullable && !matches!(self.shapes.get(inner), Shape::Null) {
                self.shapes.push(Shape::Nullable(inner))
            } else {
                inner
            },
        )
    }

    /// The tagged union that `ids` form, if every branch is an object whose first required
    /// member common to all of them holds one constant text.
    fn tagged(&self, ids: &[ShapeId]) -> Option<Shape> {
        let first = self.shapes.object(*ids.first()?)?;
        let tag = first.members.iter().find_map(|member| {
            let all = ids.iter().all(|id| {
                self.shapes.object(*id).is_some_and(|object| {
                    object.members.iter().any(|m| {
                        m.name == member.name && m.required && self.constant(m.shape).is_some()
                    })
                })
            });
            all.then(|| member.name.clone())
        })?;
        let mut variants = Vec::with_capacity(ids.len());
        for id in ids {
            let object = self.shapes.object(*id)?;
            let member = object.members.iter().find(|m| m.name == tag)?;
            variants.push((self.constant(member.shape)?.to_owned(), *id));
        }
        Some(Shape::Tagged { tag, variants })
    }

    /// The one text a shape accepts, if it accepts exactly one.
    fn constant(&self, id: ShapeId) -> Option<&str> {
        match self.shapes.get(id) {
            Shape::Str {
                options: Some(options),
                ..
            } if options.len() == 1 => options.first().map(String::as_str),
            _ => None,
        }
    }

    fn compile_all_of(
        &mut self,
        map: &Map<String, Value>,
        parts: &[Value],
    ) -> Result<ShapeId, SchemaError> {
        // `#[serde(flatten)]` yields an `allOf` of objects: merge their members. Anything else
        // is left to serde.
        let mut merged = ObjectShape::default();
        let mut own = map.clone();
        crate::tool::remove_in_order(&mut own, "allOf");
        let mut all = Vec::with_capacity(parts.len() + 1);
        if own.contains_key("properties") {
            all.push(self.compile_map(&own)?);
        }
        for part in parts {
            all.push(self.compile(part)?);
        }
        if let [one] = all.as_slice() {
            return Ok(*one);
        }
        for id in all {
            match self.shapes.get(id) {
                Shape::Object(object) => {
                    merged.members.extend(object.members.iter().cloned());
                    if matches!(object.extra, Extra::Deny) {
                        merged.extra = Extra::Deny;
                    }
                }
                _ => return Ok(self.shapes.push(Shape::Any)),
            }
        }
        Ok(self.shapes.push(Shape::Object(merged)))
    }

    fn compile_enum(&mut self, values: &[Value]) -> ShapeId {
        let nullable = values.iter().any(Value::is_null);
        let rest: Vec<&Value> = values.iter().filter(|v| !v.is_null()).collect();
        let shape = if rest.iter().all(|v| v.is_string()) && !rest.is_empty() {
            Shape::Str {
                options: Some(
                    rest.iter()
                        .filter_map(|v| v.as_str())
                        .map(str::to_owned)
                        .collect(),
                ),
                min_len: None,
                max_len: None,
            }
        } else if rest.is_empty() {
            Shape::Null
        } else {
            Shape::Enum(rest.into_iter().cloned().collect())
        };
        let id = self.shapes.push(shape);
        if nullable && !matches!(self.shapes.get(id), Shape::Null) {
            self.shapes.push(Shape::Nullable(id))
        } else {
            id
        }
    }

    fn compile_type(&mut self, t: &str, map: &Map<String, Value>) -> Result<ShapeId, SchemaError> {
        let shape = match t {
            "null" => Shape::Null,
            "boolean" => Shape::Bool,
            "string" => Shape::Str {
                options: None,
                min_len: map.get("minLength").and_then(Value::as_u64),
                max_len: map.get("maxLength").and_then(Value::as_u64),
            },
            "integer" => {
                let (format_min, format_max) =
                    format_range(map.get("format").and_then(Value::as_str));
                Shape::Integer {
                    min: tighter(
                        integer_bound(map.get("minimum"), f64::ceil),
                        format_min,
                        i128::max,
                    ),
                    max: tighter(
                        integer_bound(map.get("maximum"), f64::floor),
                        format_max,
                        i128::min,
                    ),
                }
            }
            "number" => Shape::Number {
                min: map.get("minimum").and_then(Value::as_f64),
                max: map.get("maximum").and_then(Value::as_f64),
            },
            "array" => {
                let items = match map.get("items") {
                    Some(items) => self.compile(items)?,
                    None => self.shapes.push(Shape::Any),
                };
                Shape::Array {
                    items,
                    min_items: map.get("minItems").and_then(Value::as_u64),
                    max_items: map.get("maxItems").and_then(Value::as_u64),
                }
            }
            "object" => Shape::Object(self.compile_object(map)?),
            other => return Err(SchemaError(format!("unknown type {other:?}"))),
        };
        Ok(self.shapes.push(shape))
    }

    /// The members of an object schema, in the order of `properties`.
    pub(crate) fn compile_object(
        &mut self,
        map: &Map<String, Value>,
    ) -> Result<ObjectShape, SchemaError> {
        let required: Vec<&str> = map
            .get("required")
            .and_then(Value::as_array)
            .map(|names| names.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        let mut members = Vec::new();
        if let Some(properties) = map.get("properties").and_then(Value::as_object) {
            for (name, schema) in properties {
                members.push(Member {
                    name: name.clone(),
                    shape: self.compile(schema)?,
                    required: required.contains(&name.as_str()),
                });
            }
        }
        let extra = match map.get("additionalProperties") {
            Some(Value::Bool(false)) => Extra::Deny,
            Some(schema @ Value::Object(_)) => Extra::Check(self.compile(schema)?),
            _ => Extra::Allow,
        };
        Ok(ObjectShape { members, extra })
    }
}

/// A declared integer bound; a fractional bound rounds inward with `round`.
fn integer_bound(value: Option<&Value>, round: fn(f64) -> f64) -> Option<i128> {
    let value = value?;
    if let Some(i) = value.as_i64() {
        return Some(i128::from(i));
    }
    if let Some(u) = value.as_u64() {
        return Some(i128::from(u));
    }
    let x = round(value.as_f64()?);
    // Bounds beyond the i128 range cannot bind any integer we read; drop them.
    #[allow(
        clippy::cast_possible_truncation,
        reason = "the range is checked just before"
    )]
    (x.is_finite() && x.abs() < 1.0e38).then_some(x as i128)
}

/// The tighter of two optional bounds.
fn tighter(a: Option<i128>, b: Option<i128>, pick: fn(i128, i128) -> i128) -> Option<i128> {
    match (a, b) {
        (Some(a), Some(b)) => Some(pick(a, b)),
        (a, b) => a.or(b),
    }
}

/// The range of an integer `format` as schemars writes it (`uint32`, `int64`, …).
fn format_range(format: Option<&str>) -> (Option<i128>, Option<i128>) {
    match format {
        Some("int8") => (Some(i8::MIN.into()), Some(i8::MAX.into())),
        Some("int16") => (Some(i16::MIN.into()), Some(i16::MAX.into())),
        Some("int32") => (Some(i32::MIN.into()), Some(i32::MAX.into())),
        Some("int64" | "int") => (Some(i64::MIN.into()), Some(i64::MAX.into())),
        Some("int128") => (Some(i128::MIN), Some(i128::MAX)),
        Some("uint8") => (Some(0), Some(u8::MAX.into())),
        Some("uint16") => (Some(0), Some(u16::MAX.into())),
        Some("uint32") => (Some(0), Some(u32::MAX.into())),
        Some("uint64" | "uint") => (Some(0), Some(u64::MAX.into())),
        Some("uint128") => (Some(0), None),
        _ => (None, None),
    }
}

/// A bound as a detail writes it.
pub(crate) fn float_bound(x: f64) -> Bound {
    #[allow(
        clippy::cast_possible_truncation,
        reason = "only exact integral values take this path"
    )]
    if x.fract() == 0.0 && x.abs() < 9.0e15 {
        Bound::Int(x as i128)
    } else {
        Bound::Float(x)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn format_bounds_tighten_declared_ones() {
        let schema = json!({"type": "integer", "format": "uint32", "minimum": 0});
        let mut compiler = Compiler::new(&schema);
        let id = compiler.compile(&schema).unwrap();
        let shapes = compiler.finish();
        assert!(matches!(
            shapes.get(id),
            Shape::Integer {
                min: Some(0),
                max: Some(4_294_967_295)
            }
        ));
    }

    #[test]
    fn tagged_unions_are_recognised() {
        let schema = json!({"oneOf": [
            {"type": "object", "properties": {"kind": {"type": "string", "const": "card"}}, "required": ["kind"]},
            {"type": "object", "properties": {"kind": {"type": "string", "const": "transfer"}, "iban": {"type": "string"}}, "required": ["kind", "iban"]}
        ]});
        let mut compiler = Compiler::new(&schema);
        let id = compiler.compile(&schema).unwrap();
        let shapes = compiler.finish();
        match shapes.get(id) {
            Shape::Tagged { tag, variants } => {
                assert_eq!(tag, "kind");
                let names: Vec<&str> = variants.iter().map(|(n, _)| n.as_str()).collect();
                assert_eq!(names, ["card", "transfer"]);
            }
            other => panic!("not tagged: {other:?}"),
        }
    }

    #[test]
    fn recursive_refs_terminate() {
        let schema = json!({
            "$ref": "#/$defs/Node",
            "$defs": {"Node": {"type": "object", "properties": {"next": {"anyOf": [{"$ref": "#/$defs/Node"}, {"type": "null"}]}}}}
        });
        let mut compiler = Compiler::new(&schema);
        let id = compiler.compile(&schema).unwrap();
        let shapes = compiler.finish();
        assert!(shapes.object(id).is_some());
    }
}
