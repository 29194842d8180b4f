//! The `_select` input property (wire format §7.2) and the names each action's selection is
//! checked against (§7.3): what a definition needs to know about selection.

use serde_json::{Map, Value};

use super::definition::ActionDef;
use super::spec::ActionSpec;

/// The description of the `_select` property (wire format §7.2).
const SELECT_DESCRIPTION: &str = "\u{26A1} Context optimization: select only the response fields you need. Omit to receive all fields.";

/// wire format §7.2: the wire names of every presented model, once each, in code-unit order.
pub(super) fn names_of(specs: &[ActionSpec]) -> Vec<String> {
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

/// wire format §7.2: the `_select` property, or none when no action presents a model. When only
/// some actions do, the description names them, as a field's annotation would (§7.1).
pub(super) fn select_property(names: &[String], actions: &[ActionDef]) -> Option<Value> {
    if names.is_empty() {
        return None;
    }
    let taking: Vec<&str> = actions
        .iter()
        .filter(|a| !a.select_names.is_empty())
        .map(|a| a.key.as_str())
        .collect();
    let description = if taking.len() == actions.len() {
        SELECT_DESCRIPTION.to_owned()
    } else {
        format!("{SELECT_DESCRIPTION} For: {}", taking.join(", "))
    };
    let mut items = Map::new();
    items.insert("type".into(), "string".into());
    items.insert(
        "enum".into(),
        Value::Array(names.iter().cloned().map(Value::String).collect()),
    );
    let mut property = Map::new();
    property.insert("type".into(), "array".into());
    property.insert("description".into(), description.into());
    property.insert("items".into(), Value::Object(items));
    Some(Value::Object(property))
}
