//! Tool descriptions (wire format §10): the text a discriminated tool announces, in the plain or the
//! TOON layout, built from a list of action descriptors.
//!
//! These are pure functions: the tool layer (or generated code) describes each action once and
//! calls [`describe`] with the layout the tool declares.
//!
//! ```
//! use fusion_runtime::tool::description::{self, ActionDescriptor, Layout};
//!
//! let actions = [
//!     ActionDescriptor::new("list").description("List all"),
//!     ActionDescriptor::new("delete")
//!         .description("Delete permanently")
//!         .required(&["id"])
//!         .destructive(true),
//! ];
//! assert_eq!(
//!     description::describe(Layout::Toon, "projects", "Manage projects", "action", &actions),
//!     "Manage projects. Select operation via the `action` parameter.\n\n\
//!      [2|]{action|desc|required}:\n  list|List all|\"\"\n  delete|\"[DESTRUCTIVE] Delete permanently\"|id",
//! );
//! ```

use crate::encode::toon::value::{Key, Tree, Value};
use crate::encode::toon::{ToonOptions, encode};

/// What a tool description says about one action: its key, description, required input fields
/// (declaration order, never the discriminator or `_select`) and whether it is destructive.
///
/// Built with `const` methods, so generated code can keep descriptors in a `static`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ActionDescriptor<'a> {
    key: &'a str,
    description: &'a str,
    required: &'a [&'a str],
    destructive: bool,
}

impl<'a> ActionDescriptor<'a> {
    /// An action named `key`, with no description, no required field, not destructive.
    pub const fn new(key: &'a str) -> Self {
        ActionDescriptor {
            key,
            description: "",
            required: &[],
            destructive: false,
        }
    }

    /// This action with a description (empty means none).
    #[must_use]
    pub const fn description(mut self, description: &'a str) -> Self {
        self.description = description;
        self
    }

    /// This action with its required input fields, in declaration order.
    #[must_use]
    pub const fn required(mut self, fields: &'a [&'a str]) -> Self {
        self.required = fields;
        self
    }

    /// This action marked destructive (or not).
    #[must_use]
    pub const fn destructive(mut self, destructive: bool) -> Self {
        self.destructive = destructive;
        self
    }

    /// The action key.
    pub const fn key(&self) -> &'a str {
        self.key
    }

    /// The description, empty if none.
    pub const fn description_text(&self) -> &'a str {
        self.description
    }

    /// The required input fields.
    pub const fn required_fields(&self) -> &'a [&'a str] {
        self.required
    }

    /// Whether the action is destructive.
    pub const fn is_destructive(&self) -> bool {
        self.destructive
    }
}

/// The layout of a discriminated tool's description.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Layout {
    /// A sentence listing the actions, then a `Workflow:` list (wire format §10.3).
    #[default]
    Plain,
    /// A TOON table `action|desc|required` (wire format §10.2).
    Toon,
}

/// The description of a discriminated tool in `layout`.
///
/// `description` is the tool's own description; when it is empty the tool `name` stands in.
pub fn describe(
    layout: Layout,
    name: &str,
    description: &str,
    discriminator: &str,
    actions: &[ActionDescriptor<'_>],
) -> String {
    match layout {
        Layout::Plain => plain(name, description, discriminator, actions),
        Layout::Toon => toon(name, description, discriminator, actions),
    }
}

/// The description of a flat tool (one action, no discriminator): its description as written,
/// or its name when the description is empty (wire format §10.1).
pub fn flat<'a>(name: &'a str, description: &'a str) -> &'a str {
    if description.is_empty() {
        name
    } else {
        description
    }
}

/// The TOON layout (wire format §10.2).
pub fn toon(
    name: &str,
    description: &str,
    discriminator: &str,
    actions: &[ActionDescriptor<'_>],
) -> String {
    let mut table = Tree::new();
    let mut desc = String::new();
    let rows = actions
        .iter()
        .map(|action| {
            desc.clear();
            if action.destructive {
                desc.push_str("[DESTRUCTIVE]");
                if !action.description.is_empty() {
                    desc.push(' ');
                }
            }
            desc.push_str(action.description);
            let required = action.required.join(",");
            Value::Object(vec![
                (
                    Key::Static("action"),
                    Value::String(table.push_str(action.key)),
                ),
                (Key::Static("desc"), Value::String(table.push_str(&desc))),
                (
                    Key::Static("required"),
                    Value::String(table.push_str(&required)),
                ),
            ])
        })
        .collect();
    table.root = Value::Array(rows);
    let mut out = lead(name, description, discriminator);
    out.push_str("\n\n");
    out.push_str(&encode::encode_tree(&table, &ToonOptions::pipe()));
    out
}

/// The plain layout (wire format §10.3).
pub fn plain(
    name: &str,
    description: &str,
    discriminator: &str,
    actions: &[ActionDescriptor<'_>],
) -> String {
    let mut out = lead(name, description, discriminator);
    out.push_str(" Actions: ");
    for (i, action) in actions.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        out.push_str(action.key);
    }
    let listed = |a: &&ActionDescriptor<'_>| {
        !a.description.is_empty() || !a.required.is_empty() || a.destructive
    };
    if actions.iter().any(|a| listed(&a)) {
        out.push_str("\n\nWorkflow:");
        for action in actions.iter().filter(listed) {
            out.push_str("\n- '");
            out.push_str(action.key);
            out.push_str("': ");
            let body_start = out.len();
            if !action.description.is_empty() {
                out.push_str(action.description);
                if !action.required.is_empty() && !action.description.ends_with('.') {
                    out.push('.');
                }
            }
            if !action.required.is_empty() {
                if out.len() > body_start {
                    out.push(' ');
                }
                out.push_str("Requires: ");
                out.push_str(&action.required.join(", "));
            }
            if action.destructive {
                if out.len() > body_start {
                    out.push(' ');
                }
                out.push_str("[DESTRUCTIVE]");
            }
        }
    }
    out
}

/// `DESC + " Select operation via the `DISC` parameter."`, DESC ending in exactly one period.
fn lead(name: &str, description: &str, discriminator: &str) -> String {
    let desc = flat(name, description);
    let mut out = String::with_capacity(desc.len() + discriminator.len() + 48);
    out.push_str(desc);
    if !desc.ends_with('.') {
        out.push('.');
    }
    out.push_str(" Select operation via the `");
    out.push_str(discriminator);
    out.push_str("` parameter.");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_description_falls_back_to_the_name() {
        let actions = [ActionDescriptor::new("ping")];
        assert_eq!(
            plain("health", "", "op", &actions),
            "health. Select operation via the `op` parameter. Actions: ping"
        );
        assert_eq!(flat("health", ""), "health");
        assert_eq!(flat("health", "Check."), "Check.");
    }

    #[test]
    fn toon_column_is_named_action_whatever_the_discriminator() {
        let actions = [ActionDescriptor::new("a:b").required(&["x", "y"])];
        assert_eq!(
            toon("t", "T", "op", &actions),
            "T. Select operation via the `op` parameter.\n\n[1|]{action|desc|required}:\n  \"a:b\"|\"\"|x,y"
        );
    }
}
