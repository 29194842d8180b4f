//! The search for 128-bit integers a discriminated tool could never read (see
//! `Builder::check_wide_integers` in `schema`): serde buffers the content of an internally tagged
//! or untagged enum, and its buffer holds no 128-bit integers.

use serde_json::{Map, Value};

/// The search for a 128-bit integer format that serde would have to read from its content
/// buffer (see `Builder::check_wide_integers`).
pub(super) struct WideIntegerScan<'a> {
    pub(super) defs: Option<&'a Map<String, Value>>,
    /// `$ref`s already followed, so recursive types end the search.
    pub(super) refs: Vec<&'a str>,
    /// Member names from the arguments' root.
    pub(super) path: Vec<String>,
}

impl<'a> WideIntegerScan<'a> {
    /// The path of the first 128-bit integer at or below `schema` read through the buffer
    /// (`buffered`: an enclosing enum is buffered already).
    pub(super) fn find(&mut self, schema: &'a Value, buffered: bool) -> Option<String> {
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
