//! The check of suggestion targets (`#[suggest(tool = "billing.remind", ...)]`): each fixed
//! target names a tool of the set, and for `tool.action`, an action of it.
//!
//! A target is `tool` (a flat tool, or a discriminated tool as a whole) or `tool.action`: the
//! tool name, a dot, and the action's key (the discriminator's value). It is checked when the
//! tool that presents the model is added to a [`ToolSet`](crate::ToolSet) (against the tools
//! already there) and again when the tool it names is added; one naming no tool of the set at
//! all is reported by [`ToolSet::check_suggestions`](crate::ToolSet::check_suggestions), which
//! a `FusionServer` runs when it starts.

use super::definition::ToolDefinition;
use super::definition_error::DefinitionError;

/// How a target resolves against the tools in `tools`.
pub(crate) enum Resolution {
    /// It names a tool of the set (and one of its actions, if it names one).
    Found,
    /// It names no tool of the set (yet).
    NoTool(String),
    /// It names a tool of the set with no such action.
    Wrong(String),
}

/// Resolves `target` against `tools`.
pub(crate) fn resolve<'d>(
    target: &str,
    tools: impl Iterator<Item = &'d ToolDefinition> + Clone,
) -> Resolution {
    let (tool, action) = match target.split_once('.') {
        Some((tool, action)) => (tool, Some(action)),
        None => (target, None),
    };
    let Some(definition) = tools.clone().find(|d| d.name() == tool) else {
        let names: Vec<&str> = tools.map(ToolDefinition::name).collect();
        return Resolution::NoTool(format!(
            "no tool `{tool}` is in the set{}",
            did_you_mean(tool, &names)
        ));
    };
    let Some(action) = action else {
        return Resolution::Found;
    };
    let keys: Vec<&str> = definition.action_keys().collect();
    if keys.is_empty() {
        return Resolution::Wrong(format!(
            "`{tool}` is a flat tool, with no actions; write `{tool}`"
        ));
    }
    if keys.contains(&action) {
        return Resolution::Found;
    }
    Resolution::Wrong(format!(
        "`{tool}` has no action `{action}`{}",
        did_you_mean(action, &keys).replace("did you mean `", &format!("did you mean `{tool}."))
    ))
}

/// The error for a wrong target of `model`'s suggestions, on the tool that presents it.
pub(crate) fn error(tool: &str, model: &str, target: &str, why: &str) -> DefinitionError {
    let model = model.rsplit("::").next().unwrap_or(model);
    DefinitionError::new(
        tool,
        format!(
            "`{model}` suggests `{target}`, but {why} (a suggestion target is `tool` or `tool.action`)"
        ),
    )
}

/// `; did you mean `x`?` for the candidate closest to `name`, if one is close.
fn did_you_mean(name: &str, candidates: &[&str]) -> String {
    candidates
        .iter()
        .map(|c| (distance(name, c), *c))
        .filter(|(d, c)| *d <= (c.chars().count().max(name.chars().count()) / 3).max(2))
        .min()
        .map(|(_, c)| format!("; did you mean `{c}`?"))
        .unwrap_or_default()
}

/// The Levenshtein distance of `a` and `b`, in characters.
fn distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut previous = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let here = row[j + 1];
            row[j + 1] = (previous + usize::from(ca != *cb))
                .min(row[j] + 1)
                .min(here + 1);
            previous = here;
        }
    }
    row[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn close_names_are_suggested() {
        assert_eq!(distance("inventroy", "inventory"), 2);
        assert_eq!(
            did_you_mean("adjust_stok", &["get", "adjust_stock"]),
            "; did you mean `adjust_stock`?"
        );
        assert_eq!(did_you_mean("zzz", &["get", "adjust_stock"]), "");
    }
}
