//! The generated description of a discriminated tool (SPEC §10).
//!
//! TEMPORARY: `fusion-runtime/src/description.rs` (branch `toon`) will hold the pure layout
//! functions and the TOON encoder; until it lands on main, this module writes both layouts
//! itself, with the few TOON quoting rules a table of texts needs. Replace `plain`/`toon` by
//! calls into `crate::description` when it exists.

use std::fmt::Write as _;

use crate::escape;

/// One action as the description lists it.
pub(crate) struct ActionLine<'a> {
    pub(crate) key: &'a str,
    pub(crate) description: &'a str,
    pub(crate) required: &'a [String],
    pub(crate) destructive: bool,
}

/// DESC of SPEC §10.1: the description or the name, ending with a period.
fn lead(description: &str, name: &str) -> String {
    let mut text = if description.is_empty() {
        name.to_owned()
    } else {
        description.to_owned()
    };
    if !text.ends_with('.') {
        text.push('.');
    }
    text
}

/// The plain layout (SPEC §10.3).
pub(crate) fn plain(
    name: &str,
    description: &str,
    discriminator: &str,
    actions: &[ActionLine<'_>],
) -> String {
    let mut out = lead(description, name);
    out.push_str(" Select operation via the `");
    out.push_str(discriminator);
    out.push_str("` parameter. Actions: ");
    let keys: Vec<&str> = actions.iter().map(|a| a.key).collect();
    out.push_str(&keys.join(", "));
    let listed: Vec<&ActionLine<'_>> = actions
        .iter()
        .filter(|a| !a.description.is_empty() || !a.required.is_empty() || a.destructive)
        .collect();
    if listed.is_empty() {
        return out;
    }
    out.push_str("\n\nWorkflow:");
    for action in listed {
        let mut body = match (action.description.is_empty(), action.required.is_empty()) {
            (false, false) => {
                let mut d = action.description.to_owned();
                if !d.ends_with('.') {
                    d.push('.');
                }
                format!("{d} Requires: {}", action.required.join(", "))
            }
            (false, true) => action.description.to_owned(),
            (true, false) => format!("Requires: {}", action.required.join(", ")),
            (true, true) => String::new(),
        };
        if action.destructive {
            if body.is_empty() {
                body.push_str("[DESTRUCTIVE]");
            } else {
                body.push_str(" [DESTRUCTIVE]");
            }
        }
        out.push_str("\n- '");
        out.push_str(action.key);
        out.push_str("': ");
        out.push_str(&body);
    }
    out
}

/// The TOON layout (SPEC §10.2).
pub(crate) fn toon(
    name: &str,
    description: &str,
    discriminator: &str,
    actions: &[ActionLine<'_>],
) -> String {
    let mut out = lead(description, name);
    out.push_str(" Select operation via the `");
    out.push_str(discriminator);
    out.push_str("` parameter.\n\n[");
    out.push_str(&actions.len().to_string());
    out.push_str("|]{action|desc|required}:");
    for action in actions {
        let desc = match (action.destructive, action.description.is_empty()) {
            (true, true) => "[DESTRUCTIVE]".to_owned(),
            (true, false) => format!("[DESTRUCTIVE] {}", action.description),
            (false, _) => action.description.to_owned(),
        };
        out.push_str("\n  ");
        out.push_str(&cell(action.key));
        out.push('|');
        out.push_str(&cell(&desc));
        out.push('|');
        out.push_str(&cell(&action.required.join(",")));
    }
    out
}

/// A TOON string token with delimiter `|` (SPEC §9.3).
fn cell(text: &str) -> String {
    if !needs_quotes(text) {
        return text.to_owned();
    }
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for (at, c) in text.char_indices() {
        match c {
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '<' if escape::is_tag_start_at(text, at) => out.push_str("\\u003c"),
            c if u32::from(c) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", u32::from(c));
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

fn needs_quotes(text: &str) -> bool {
    text.is_empty()
        || text.starts_with([' ', '\t'])
        || text.ends_with([' ', '\t'])
        || matches!(text, "true" | "false" | "null")
        || looks_numeric(text)
        || text.contains([':', '"', '\\', '[', ']', '{', '}', '|'])
        || text.chars().any(|c| u32::from(c) < 0x20)
        || text.starts_with(['-', '#'])
        || escape::contains_tag_start(text)
}

/// Q4 of SPEC §9.3: `^[+-]?[0-9]+(\.[0-9]+)?([eE][+-]?[0-9]+)?$`.
fn looks_numeric(text: &str) -> bool {
    fn digits(s: &str) -> usize {
        s.bytes().take_while(u8::is_ascii_digit).count()
    }
    let s = text.strip_prefix(['+', '-']).unwrap_or(text);
    let n = digits(s);
    if n == 0 {
        return false;
    }
    let mut rest = &s[n..];
    if let Some(fraction) = rest.strip_prefix('.') {
        let n = digits(fraction);
        if n == 0 {
            return false;
        }
        rest = &fraction[n..];
    }
    if let Some(exponent) = rest.strip_prefix(['e', 'E']) {
        let exponent = exponent.strip_prefix(['+', '-']).unwrap_or(exponent);
        let n = digits(exponent);
        if n == 0 {
            return false;
        }
        rest = &exponent[n..];
    }
    rest.is_empty()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line<'a>(
        key: &'a str,
        description: &'a str,
        required: &'a [String],
        destructive: bool,
    ) -> ActionLine<'a> {
        ActionLine {
            key,
            description,
            required,
            destructive,
        }
    }

    #[test]
    fn v52_both_layouts() {
        let title_owner = vec!["title".to_owned(), "owner_id".to_owned()];
        let id = vec!["id".to_owned()];
        let actions = [
            line("list", "List all", &[], false),
            line("create", "Create one", &title_owner, false),
            line("purge", "", &[], true),
            line("ping", "", &[], false),
            line("archive", "", &id, false),
        ];
        assert_eq!(
            plain("projects", "Manage projects.", "action", &actions),
            "Manage projects. Select operation via the `action` parameter. Actions: list, create, purge, ping, archive\n\nWorkflow:\n- 'list': List all\n- 'create': Create one. Requires: title, owner_id\n- 'purge': [DESTRUCTIVE]\n- 'archive': Requires: id"
        );
        assert_eq!(
            toon("projects", "Manage projects.", "action", &actions),
            "Manage projects. Select operation via the `action` parameter.\n\n[5|]{action|desc|required}:\n  list|List all|\"\"\n  create|Create one|title,owner_id\n  purge|\"[DESTRUCTIVE]\"|\"\"\n  ping|\"\"|\"\"\n  archive|\"\"|id"
        );
    }

    #[test]
    fn numeric_texts_are_quoted() {
        assert!(looks_numeric("42"));
        assert!(looks_numeric("-1.5e+3"));
        assert!(!looks_numeric("1."));
        assert!(!looks_numeric("2026-04-21"));
        assert_eq!(cell("a,b"), "a,b");
        assert_eq!(cell("</domain_rules>"), "\"\\u003c/domain_rules>\"");
    }
}
