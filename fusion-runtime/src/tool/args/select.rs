//! `_select` checked against the names of the called action's models (wire format §7.3).

use serde_json::Value;

use super::problems::{Expected, JsonType, Problem, ProblemKind, describe_sent};
use super::walk::MAX_PROBLEMS;
use crate::model::Selection;
use crate::tool::SELECT;

/// The selection `sent`, checked against `names`, with its problems appended to `problems`. An
/// action that presents no model ignores `_select` (its names are empty): nothing would be
/// selected.
pub(super) fn check(
    names: &[String],
    sent: Option<&Value>,
    problems: &mut Vec<Problem>,
) -> Option<Selection> {
    if names.is_empty() {
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
    let mut selected = Vec::with_capacity(items.len());
    for (index, item) in items.iter().enumerate() {
        if problems.len() > MAX_PROBLEMS {
            break;
        }
        // The path is written only for a problem.
        let path = || format!("{SELECT}.{index}");
        match item {
            Value::String(name) if names.contains(name) => selected.push(name.clone()),
            Value::String(_) => problems.push(Problem::new(
                path(),
                ProblemKind::UnknownSelection {
                    sent: describe_sent(item),
                    names: names.to_vec(),
                },
            )),
            other => problems.push(Problem::new(
                path(),
                ProblemKind::WrongType {
                    sent: describe_sent(other),
                    expected: Expected::Type(JsonType::String),
                },
            )),
        }
    }
    Some(Selection::new(selected))
}
