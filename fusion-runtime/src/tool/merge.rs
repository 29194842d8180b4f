//! The fields of a discriminated tool merged into one property each (wire format §7.1): a field
//! several actions share is one property when its schemas agree, with `T` in one action and
//! `Option<T>` in another counted as agreeing; every disagreement is a clash, all reported at
//! once, each naming both actions and both types in words.

use serde_json::{Map, Value};

/// A field name that two actions give different types.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Clash {
    /// The field's wire name.
    pub(super) field: String,
    /// The action that declared the field first, and its type in words.
    pub(super) first: (String, String),
    /// The action that declares it differently, and its type in words.
    pub(super) second: (String, String),
    /// What differs when the words of both types are the same (empty otherwise).
    pub(super) note: String,
}

impl Clash {
    /// "the field `id` is a string in action `get` and an integer (`u64`) in action `remove`".
    pub(super) fn sentence(&self) -> String {
        format!(
            "the field `{}` is {} in action `{}` and {} in action `{}`{}",
            self.field, self.first.1, self.first.0, self.second.1, self.second.0, self.note
        )
    }
}

/// The advice that ends every clash report, after `give the field` or `give each field`.
pub(super) const CLASH_ADVICE: &str = "one type in every action (`T` in one action and `Option<T>` in another is fine: it is required only where it is not an `Option`), or rename one of the fields";

/// One property of the flattened input: its name and the schema every action sharing it accepts.
pub(super) struct MergedField<'a> {
    pub(super) name: &'a str,
    pub(super) schema: Value,
}

/// Every field of `actions` (key, properties) once, in order of first appearance, or every clash.
///
/// Where one action takes `T` and another `Option<T>`, the property's schema is the nullable one
/// (the flattened schema describes what some action accepts; each action's own check still
/// refuses `null` where it requires the field), with the description of the first appearance.
pub(super) fn merge_fields<'a, I>(actions: I) -> Result<Vec<MergedField<'a>>, Vec<Clash>>
where
    I: IntoIterator<Item = (&'a str, &'a [(&'a String, &'a Value)])>,
{
    let mut fields: Vec<(MergedField<'a>, &'a str, &'a Value)> = Vec::new();
    let mut clashes = Vec::new();
    for (key, properties) in actions {
        for (name, schema) in properties {
            let Some((field, first_key, first)) =
                fields.iter_mut().find(|(f, _, _)| f.name == name.as_str())
            else {
                fields.push((
                    MergedField {
                        name: name.as_str(),
                        schema: (*schema).clone(),
                    },
                    key,
                    schema,
                ));
                continue;
            };
            if let Some(schema) = merged(&field.schema, schema) {
                field.schema = schema;
                continue;
            }
            let (first_words, second_words) = (type_words(first), type_words(schema));
            let note = if first_words == second_words {
                differing_keywords(first, schema)
            } else {
                String::new()
            };
            clashes.push(Clash {
                field: (*name).clone(),
                first: ((*first_key).to_owned(), first_words),
                second: (key.to_owned(), second_words),
                note,
            });
        }
    }
    if clashes.is_empty() {
        Ok(fields.into_iter().map(|(field, _, _)| field).collect())
    } else {
        Err(clashes)
    }
}

/// The keywords that describe a value without constraining it: they never make two schemas
/// differ, and the property keeps those of the field's first appearance.
const ANNOTATIONS: &[&str] = &[
    "description",
    "title",
    "default",
    "examples",
    "deprecated",
    "readOnly",
    "writeOnly",
];

/// The one schema for a field that is `kept` so far and `other` in the next action, or `None`
/// when the two types differ.
fn merged(kept: &Value, other: &Value) -> Option<Value> {
    let (kept_rules, other_rules) = (constraints(kept), constraints(other));
    if non_null(&kept_rules) != non_null(&other_rules) {
        return None;
    }
    if kept_rules == other_rules || kept_rules != non_null(&kept_rules) {
        // The same type, or `kept` allows `null` already.
        return Some(kept.clone());
    }
    // `kept` is `T` and `other` is `Option<T>`: the nullable schema, the first annotations.
    let mut schema = other_rules;
    if let (Some(map), Some(kept)) = (schema.as_object_mut(), kept.as_object()) {
        for key in ANNOTATIONS {
            if let Some(value) = kept.get(*key) {
                map.insert((*key).to_owned(), value.clone());
            }
        }
    }
    Some(schema)
}

/// The schema without its top-level annotations.
fn constraints(schema: &Value) -> Value {
    let mut schema = schema.clone();
    if let Some(map) = schema.as_object_mut() {
        map.retain(|key, _| !ANNOTATIONS.contains(&key.as_str()));
    }
    schema
}

/// What tells two schemas apart when their words are the same: the keywords whose values differ.
fn differing_keywords(first: &Value, second: &Value) -> String {
    let (first, second) = (constraints(first), constraints(second));
    let (Some(first), Some(second)) = (first.as_object(), second.as_object()) else {
        return String::new();
    };
    let mut keys: Vec<&str> = first
        .keys()
        .chain(second.keys())
        .map(String::as_str)
        .filter(|key| first.get(*key) != second.get(*key))
        .collect();
    keys.sort_unstable();
    keys.dedup();
    let keys: Vec<String> = keys.iter().map(|k| format!("`{k}`")).collect();
    if keys.is_empty() {
        String::new()
    } else {
        format!(
            " (the same words, but their JSON Schemas differ in {})",
            keys.join(", ")
        )
    }
}

/// The schema with `null` taken out again, undoing what schemars does for `Option<T>`: an
/// `anyOf` with a `null` branch, `null` in a `type` list, or `null` in an `enum`.
fn non_null(schema: &Value) -> Value {
    let Some(map) = schema.as_object() else {
        return schema.clone();
    };
    if let Some(branches) = map.get("anyOf").and_then(Value::as_array)
        && map.len() == 1
    {
        let rest: Vec<&Value> = branches.iter().filter(|b| !is_null(b)).collect();
        if let [one] = rest.as_slice()
            && rest.len() < branches.len()
        {
            return (*one).clone();
        }
    }
    let mut map = map.clone();
    if let Some(Value::Array(types)) = map.get_mut("type") {
        types.retain(|t| t.as_str() != Some("null"));
        if let [only] = types.as_slice() {
            let only = only.clone();
            map.insert("type".into(), only);
        }
    }
    let nullable_enum = map
        .get("enum")
        .and_then(Value::as_array)
        .is_some_and(|e| e.contains(&Value::Null));
    if nullable_enum && let Some(Value::Array(values)) = map.get_mut("enum") {
        values.retain(|v| !v.is_null());
        // schemars turns a `const` into a two-value `enum` when it allows null.
        if let [only] = values.as_slice() {
            let only = only.clone();
            super::remove_in_order(&mut map, "enum");
            map.insert("const".into(), only);
        }
    }
    Value::Object(map)
}

fn is_null(schema: &Value) -> bool {
    schema.get("type").and_then(Value::as_str) == Some("null")
}

/// A field's type in words a Rust user recognises ("a string", "an integer (`u64`)", "an
/// optional list of strings"), from its schema.
pub(super) fn type_words(schema: &Value) -> String {
    let plain = constraints(schema);
    let inner = non_null(&plain);
    if inner == plain {
        return words(&plain, 0);
    }
    let words = words(&inner, 0);
    match words
        .strip_prefix("an ")
        .or_else(|| words.strip_prefix("a "))
    {
        Some(noun) => format!("an optional {noun}"),
        None => format!("an `Option` of {words}"),
    }
}

/// The words for a schema without `null`; `depth` bounds nested lists.
fn words(schema: &Value, depth: usize) -> String {
    let Some(map) = schema.as_object() else {
        return "any value".to_owned();
    };
    if depth > 4 {
        return "a nested value".to_owned();
    }
    if let Some(value) = map.get("const") {
        return format!("the constant `{value}`");
    }
    if let Some(values) = map.get("enum").and_then(Value::as_array) {
        return enum_words(values);
    }
    if map.contains_key("oneOf") || map.contains_key("anyOf") {
        return "an enum with data (one of several shapes)".to_owned();
    }
    let format = map.get("format").and_then(Value::as_str);
    match map.get("type").and_then(Value::as_str) {
        Some("string") => string_words(map, format),
        Some("integer") => match format {
            Some(
                rust @ ("int8" | "int16" | "int32" | "int64" | "int128" | "uint8" | "uint16"
                | "uint32" | "uint64" | "uint128"),
            ) => format!("an integer (`{}`)", rust_integer(rust)),
            _ => "an integer".to_owned(),
        },
        Some("number") => match format {
            Some("double") => "a number (`f64`)".to_owned(),
            Some("float") => "a number (`f32`)".to_owned(),
            _ => "a number".to_owned(),
        },
        Some("boolean") => "a boolean (`bool`)".to_owned(),
        Some("array") => match map.get("items") {
            Some(items) => {
                let element = words(&non_null(items), depth + 1);
                let element = element
                    .strip_prefix("an ")
                    .or_else(|| element.strip_prefix("a "))
                    .map_or(element.clone(), plural);
                format!("a list of {element}")
            }
            None => "a tuple".to_owned(),
        },
        Some("object") => object_words(map),
        _ => "any value".to_owned(),
    }
}

fn string_words(map: &Map<String, Value>, format: Option<&str>) -> String {
    let (min, max) = (
        map.get("minLength").and_then(Value::as_u64),
        map.get("maxLength").and_then(Value::as_u64),
    );
    let base = match format {
        Some(format) => format!("a string (format `{format}`)"),
        None => "a string".to_owned(),
    };
    match (min, max) {
        (Some(1), Some(1)) => "a character (`char`)".to_owned(),
        (Some(min), Some(max)) => format!("{base} of {min} to {max} characters"),
        (Some(min), None) => format!("{base} of at least {min} characters"),
        (None, Some(max)) => format!("{base} of at most {max} characters"),
        (None, None) => base,
    }
}

fn object_words(map: &Map<String, Value>) -> String {
    if let Some(properties) = map.get("properties").and_then(Value::as_object) {
        let names: Vec<String> = properties.keys().map(|k| format!("`{k}`")).collect();
        return match names.as_slice() {
            [] => "a struct without fields".to_owned(),
            [one] => format!("a struct with the field {one}"),
            _ => format!("a struct with the fields {}", names.join(", ")),
        };
    }
    match map.get("additionalProperties") {
        Some(values @ Value::Object(_)) => {
            let value = words(&non_null(values), 1);
            let value = value
                .strip_prefix("an ")
                .or_else(|| value.strip_prefix("a "))
                .map_or(value.clone(), plural);
            format!("a map of {value}")
        }
        _ => "an object".to_owned(),
    }
}

/// "an enum of `todo`, `doing`, `done`", cut after eight options.
fn enum_words(values: &[Value]) -> String {
    let shown: Vec<String> = values
        .iter()
        .filter(|v| !v.is_null())
        .take(8)
        .map(|v| match v {
            Value::String(s) => format!("`{s}`"),
            other => format!("`{other}`"),
        })
        .collect();
    let more = if values.len() > shown.len() + usize::from(values.contains(&Value::Null)) {
        ", …"
    } else {
        ""
    };
    format!("an enum of {}{more}", shown.join(", "))
}

/// The Rust integer a schemars `format` stands for.
fn rust_integer(format: &str) -> String {
    match format.strip_prefix("uint") {
        Some(bits) => format!("u{bits}"),
        None => format!("i{}", format.trim_start_matches("int")),
    }
}

/// The plural of the noun phrase that `words` writes after its article.
fn plural(noun: &str) -> String {
    // The head noun comes first ("string of at most 8 characters", "integer (`u64`)").
    let (head, rest) = noun.split_once(' ').unwrap_or((noun, ""));
    let head = match head {
        "optional" => return format!("optional {}", plural(rest)),
        "enum" => "enums".to_owned(),
        "list" => "lists".to_owned(),
        "map" => "maps".to_owned(),
        other => format!("{other}s"),
    };
    if rest.is_empty() {
        head
    } else {
        format!("{head} {rest}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn an_option_and_its_type_merge_into_the_nullable_schema() {
        let plain = json!({"type": "string", "enum": ["todo", "done"]});
        let nullable = json!({"type": ["string", "null"], "enum": ["todo", "done", null], "description": "Filter"});
        assert_eq!(
            merged(&plain, &nullable),
            Some(json!({"type": ["string", "null"], "enum": ["todo", "done", null]}))
        );
        let plain = json!({"type": "string", "description": "Which"});
        let wrapped = json!({"anyOf": [{"type": "string"}, {"type": "null"}]});
        assert_eq!(
            merged(&plain, &wrapped),
            Some(json!({"anyOf": [{"type": "string"}, {"type": "null"}], "description": "Which"}))
        );
        assert_eq!(merged(&wrapped, &plain), Some(wrapped.clone()));
    }

    #[test]
    fn different_types_do_not_merge() {
        let text = json!({"type": "string"});
        let number = json!({"type": ["integer", "null"], "format": "uint64", "minimum": 0});
        assert_eq!(merged(&text, &number), None);
    }

    #[test]
    fn types_read_as_rust_types() {
        let cases = [
            (json!({"type": "string"}), "a string"),
            (
                json!({"type": "integer", "format": "uint64", "minimum": 0}),
                "an integer (`u64`)",
            ),
            (
                json!({"type": ["integer", "null"], "format": "int32"}),
                "an optional integer (`i32`)",
            ),
            (json!({"type": "boolean"}), "a boolean (`bool`)"),
            (
                json!({"type": "array", "items": {"type": "string"}}),
                "a list of strings",
            ),
            (
                json!({"type": "string", "enum": ["todo", "done"]}),
                "an enum of `todo`, `done`",
            ),
            (
                json!({"type": "string", "minLength": 1, "maxLength": 1}),
                "a character (`char`)",
            ),
            (
                json!({"type": "object", "properties": {"a": {}, "b": {}}}),
                "a struct with the fields `a`, `b`",
            ),
        ];
        for (schema, expected) in cases {
            assert_eq!(type_words(&schema), expected, "{schema}");
        }
    }
}
