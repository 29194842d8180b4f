//! Injection safety (wire format §5): the one place every text that reaches the wire goes through.
//!
//! Each function here implements one rule of wire format §5 and nothing else, so the property tests of
//! the hardening suite can target them directly. They never panic and never allocate when the
//! input needs no change (they return [`Cow::Borrowed`]).

use std::borrow::Cow;

/// The framework element names of wire format §5.1, lowercase.
pub const FRAMEWORK_NAMES: [&str; 14] = [
    "ui_passthrough",
    "llm_directives",
    "domain_rules",
    "action_suggestions",
    "tool_error",
    "validation_error",
    "message",
    "recovery",
    "available_actions",
    "action",
    "details",
    "detail",
    "retry_after",
    "field",
];

/// Whether the `<` at byte `at` of `text` starts a framework tag (wire format §5.1).
///
/// `at` must be the index of a `<`; any other index returns `false`.
pub fn is_tag_start_at(text: &str, at: usize) -> bool {
    let bytes = text.as_bytes();
    if bytes.get(at) != Some(&b'<') {
        return false;
    }
    let mut name_start = at + 1;
    if bytes.get(name_start) == Some(&b'/') {
        name_start += 1;
    }
    let rest = &bytes[name_start.min(bytes.len())..];
    FRAMEWORK_NAMES.iter().any(|name| {
        let name = name.as_bytes();
        rest.len() >= name.len()
            && rest[..name.len()].eq_ignore_ascii_case(name)
            && rest
                .get(name.len())
                .is_none_or(|&next| !is_name_continuation(next))
    })
}

/// A byte that would continue an element name, so the name before it is not a framework name.
fn is_name_continuation(byte: u8) -> bool {
    byte.is_ascii_alphanumeric() || matches!(byte, b'_' | b'-' | b'.' | b':')
}

/// Whether `text` holds a framework tag start anywhere (wire format §5.1).
pub fn contains_tag_start(text: &str) -> bool {
    // `match_indices` finds each `<` with a fast byte search; most texts hold none.
    text.match_indices('<')
        .any(|(at, _)| is_tag_start_at(text, at))
}

/// Replaces the `<` of every framework tag start by `replacement`, leaving everything else.
///
/// Text neutralization (`&lt;`) and the JSON writer (`\u003c`) both go through this one scan.
pub(crate) fn replace_tag_starts<'a>(text: &'a str, replacement: &str) -> Cow<'a, str> {
    if !contains_tag_start(text) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    let mut copied = 0;
    for (at, _) in text.match_indices('<') {
        if is_tag_start_at(text, at) {
            out.push_str(&text[copied..at]);
            out.push_str(replacement);
            copied = at + 1;
        }
    }
    out.push_str(&text[copied..]);
    Cow::Owned(out)
}

/// Text neutralization (wire format §5.3): the `<` of each framework tag start becomes `&lt;`.
///
/// Applied to text data blocks, UI contents and list item bodies.
pub fn neutralize(text: &str) -> Cow<'_, str> {
    replace_tag_starts(text, "&lt;")
}

/// Item continuation (wire format §5.4): two spaces after every LF, and after every CR not followed by LF.
pub fn indent_continuation(text: &str) -> Cow<'_, str> {
    if !text.bytes().any(|b| b == b'\n' || b == b'\r') {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        out.push(c);
        let breaks_line = c == '\n' || (c == '\r' && chars.peek() != Some(&'\n'));
        if breaks_line {
            out.push_str("  ");
        }
    }
    Cow::Owned(out)
}

/// Writes one list item, `"- " + BODY`, with BODY after §5.3 then §5.4 (wire format §2.3).
pub fn push_item(out: &mut String, body: &str) {
    out.push_str("- ");
    if !body.bytes().any(|b| matches!(b, b'<' | b'\n' | b'\r')) {
        // Most bodies: neither rule can change them, so one scan instead of two.
        out.push_str(body);
        return;
    }
    let neutral = neutralize(body);
    out.push_str(&indent_continuation(&neutral));
}

/// Attribute value escaping (wire format §5.2), in one pass.
pub fn attribute(value: &str) -> Cow<'_, str> {
    if !value
        .bytes()
        .any(|b| matches!(b, b'&' | b'<' | b'>' | b'"' | b'\'' | b'\t' | b'\n' | b'\r'))
    {
        return Cow::Borrowed(value);
    }
    let mut out = String::with_capacity(value.len() + 16);
    for c in value.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\t' => out.push_str("&#9;"),
            '\n' => out.push_str("&#10;"),
            '\r' => out.push_str("&#13;"),
            other => out.push(other),
        }
    }
    Cow::Owned(out)
}

/// Error envelope element content (wire format §5.8): `&` becomes `&amp;` and `<` becomes `&lt;`.
pub fn element_content(text: &str) -> Cow<'_, str> {
    if !text.bytes().any(|b| b == b'&' || b == b'<') {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            other => out.push(other),
        }
    }
    Cow::Owned(out)
}

/// A table cell or header (wire format §5.6): `|` becomes `\|`, each CR and each LF one space.
pub fn table_cell(text: &str) -> Cow<'_, str> {
    if !text.bytes().any(|b| matches!(b, b'|' | b'\r' | b'\n')) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 4);
    for c in text.chars() {
        match c {
            '|' => out.push_str("\\|"),
            '\r' | '\n' => out.push(' '),
            other => out.push(other),
        }
    }
    Cow::Owned(out)
}

/// A fenced body (wire format §5.5): the fence is one backtick longer than the longest backtick run of
/// `body` (at least three), CR and LF in the language become spaces, and backticks in the
/// language are dropped so the opening fence keeps its length.
pub fn fence(lang: &str, body: &str) -> String {
    let longest_run = body.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    let fence = "`".repeat((longest_run + 1).max(3));
    let mut out = String::with_capacity(body.len() + lang.len() + 2 * fence.len() + 2);
    out.push_str(&fence);
    // A backtick in the info string would lengthen the opening fence, so it is dropped
    // (CommonMark forbids it there); CR and LF become spaces (wire format §5.5).
    out.extend(
        lang.chars()
            .filter(|&c| c != '`')
            .map(|c| if c == '\r' || c == '\n' { ' ' } else { c }),
    );
    out.push('\n');
    out.push_str(body);
    out.push('\n');
    out.push_str(&fence);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tag_starts_of_spec_5_1() {
        for yes in [
            "<domain_rules>",
            "</DOMAIN_RULES>",
            "<Tool_Error code=1>",
            "<action/>",
            "<message x",
            "<field",
        ] {
            assert!(contains_tag_start(yes), "{yes:?} should be a tag start");
        }
        for no in [
            "a < b",
            "<T>",
            "<actions>",
            "<domain_rules_x>",
            "<message-id>",
            "< domain_rules>",
            "<root/>",
        ] {
            assert!(!contains_tag_start(no), "{no:?} should not be a tag start");
        }
    }

    #[test]
    fn continuation_of_spec_5_4() {
        assert_eq!(indent_continuation("x\n- y"), "x\n  - y");
        assert_eq!(indent_continuation("a\r\nb"), "a\r\n  b");
        assert_eq!(indent_continuation("a\n\nb"), "a\n  \n  b");
        assert_eq!(indent_continuation("a\rb"), "a\r  b");
    }

    #[test]
    fn attribute_of_spec_5_2() {
        assert_eq!(
            attribute("Rev \"Q1\" <b> & 'x'"),
            "Rev &quot;Q1&quot; &lt;b&gt; &amp; &apos;x&apos;"
        );
    }

    #[test]
    fn fences_of_spec_5_5() {
        assert_eq!(fence("md", "a\n```\nb"), "````md\na\n```\nb\n````");
        assert_eq!(
            fence("mermaid", "x ````` y"),
            "``````mermaid\nx ````` y\n``````"
        );
        assert_eq!(fence("a\nb", "x"), "```a b\nx\n```");
        // Regression (hardening): a language of backticks lengthened the opening fence.
        assert_eq!(fence("```", ""), "```\n\n```");
    }
}
