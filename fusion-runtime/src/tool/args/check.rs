//! Action checks: values a valid input may still hold and the action refuses (wire format §13.5,
//! "invalid value"), found by a check the tool declares (`#[fusion(check = path)]`,
//! [`Tool::check`](crate::Tool::check)) and sent in one `<validation_error>` before the handler
//! runs.

use serde_json::Value;

use super::problems::{Problem, ProblemKind, describe_sent};

/// The values a check refuses, each at its path with the reason: every one becomes an "invalid
/// value" problem (`Invalid value. You sent: SENT. reason`, wire format §13.5), the SENT written by
/// the toolkit from what the client sent at that path.
///
/// ```
/// use fusion_runtime::tool::Checks;
/// use fusion_runtime::{Call, Tool, ToolSet};
///
/// /// Adjust the stock of a product
/// #[derive(serde::Deserialize, schemars::JsonSchema, Tool)]
/// #[fusion(check = Self::sane)]
/// struct AdjustStock {
///     sku: String,
///     delta: i64,
/// }
///
/// impl AdjustStock {
///     fn sane(&self, checks: &mut Checks) {
///         checks.ensure(self.sku.starts_with("SKU-"), "sku", "Must start with 'SKU-'.");
///         checks.ensure(self.delta != 0, "delta", "Must not be 0: a change of nothing.");
///     }
/// }
///
/// let tools = ToolSet::new().tool(|input: AdjustStock, _: &Call| format!("{} adjusted", input.sku))?;
/// let response = tools.call("adjust_stock", Some(serde_json::json!({"sku": "A1", "delta": 0})));
/// assert_eq!(
///     response.blocks()[0],
///     "<validation_error action=\"adjust_stock\">\n\
///      <field name=\"sku\">Invalid value. You sent: 'A1'. Must start with 'SKU-'.</field>\n\
///      <field name=\"delta\">Invalid value. You sent: 0. Must not be 0: a change of nothing.</field>\n\
///      <recovery>Fix the fields above and call the tool again. Do not explain the error.</recovery>\n\
///      </validation_error>"
/// );
/// # Ok::<(), fusion_runtime::tool::DefinitionError>(())
/// ```
#[derive(Debug, Default)]
pub struct Checks {
    refused: Vec<(String, String)>,
}

impl Checks {
    /// Refuses the value at `path` (member names and element indexes joined by `.`, as sent:
    /// wire names, `lines.0.quantity`; `(root)` for the whole input) for `reason`, a sentence
    /// that says what the value must be.
    pub fn reject(&mut self, path: impl Into<String>, reason: impl Into<String>) -> &mut Self {
        self.refused.push((path.into(), reason.into()));
        self
    }

    /// Refuses the value at `path` for `reason` unless `holds`.
    pub fn ensure(
        &mut self,
        holds: bool,
        path: impl Into<String>,
        reason: impl Into<String>,
    ) -> &mut Self {
        if !holds {
            self.reject(path, reason);
        }
        self
    }

    /// Whether nothing was refused.
    pub fn is_empty(&self) -> bool {
        self.refused.is_empty()
    }

    /// The problems, in the order refused (wire format §13.6 puts them after the schema's, which
    /// already ended any call that had one), each SENT read from `arguments` at its path
    /// (`null` for a path the arguments do not have).
    pub(crate) fn into_problems(self, arguments: &Value) -> Vec<Problem> {
        self.refused
            .into_iter()
            .map(|(path, reason)| {
                let sent = describe_sent(at_path(arguments, &path).unwrap_or(&Value::Null));
                Problem::new(path, ProblemKind::Invalid { sent, reason })
            })
            .collect()
    }
}

/// The value at `path` of `value`: member names and element indexes joined by `.`.
fn at_path<'v>(value: &'v Value, path: &str) -> Option<&'v Value> {
    if path == "(root)" || path.is_empty() {
        return Some(value);
    }
    path.split('.').try_fold(value, |value, step| match value {
        Value::Object(map) => map.get(step),
        Value::Array(items) => items.get(step.parse::<usize>().ok()?),
        _ => None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_reach_members_and_elements() {
        let value = serde_json::json!({"lines": [{"quantity": -3}], "sku": "A"});
        assert_eq!(
            at_path(&value, "lines.0.quantity"),
            Some(&serde_json::json!(-3))
        );
        assert_eq!(at_path(&value, "(root)"), Some(&value));
        assert_eq!(at_path(&value, "lines.7"), None);
        let mut checks = Checks::default();
        checks.reject("lines.0.quantity", "Must be positive.");
        checks.reject("missing", "Must be given.");
        let problems = checks.into_problems(&value);
        assert_eq!(
            problems[0].kind.to_string(),
            "Invalid value. You sent: -3. Must be positive."
        );
        assert_eq!(
            problems[1].kind.to_string(),
            "Invalid value. You sent: null. Must be given."
        );
    }
}
