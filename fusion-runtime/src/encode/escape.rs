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
    if !has_lt_or_line_break(body.as_bytes()) {
        // Most bodies: neither rule can change them, so one scan instead of two.
        out.push_str(body);
        return;
    }
    let neutral = neutralize(body);
    out.push_str(&indent_continuation(&neutral));
}

/// Whether `bytes` holds a `<`, LF or CR: eight bytes per test (the "has a zero byte" test
/// `(x - 0x01…) & !x & 0x80…` on the word XOR each repeated byte), then the tail one by one.
fn has_lt_or_line_break(bytes: &[u8]) -> bool {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let has_zero = |x: u64| x.wrapping_sub(ONES) & !x & HIGH != 0;
    let mut words = bytes.chunks_exact(8);
    for word in &mut words {
        let Ok(word) = <[u8; 8]>::try_from(word) else {
            break;
        };
        let word = u64::from_le_bytes(word);
        if has_zero(word ^ (ONES * u64::from(b'<')))
            || has_zero(word ^ (ONES * u64::from(b'\n')))
            || has_zero(word ^ (ONES * u64::from(b'\r')))
        {
            return true;
        }
    }
    words
        .remainder()
        .iter()
        .any(|&b| matches!(b, b'<' | b'\n' | b'\r'))
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
    let fence_len = (longest_backtick_run(body) + 1).max(3);
    let mut out = String::with_capacity(body.len() + lang.len() + 2 * fence_len + 2);
    push_backticks(&mut out, fence_len);
    if lang.contains(['`', '\r', '\n']) {
        // A backtick in the info string would lengthen the opening fence, so it is dropped
        // (CommonMark forbids it there); CR and LF become spaces (wire format §5.5).
        out.extend(
            lang.chars()
                .filter(|&c| c != '`')
                .map(|c| if c == '\r' || c == '\n' { ' ' } else { c }),
        );
    } else {
        out.push_str(lang);
    }
    out.push('\n');
    out.push_str(body);
    out.push('\n');
    push_backticks(&mut out, fence_len);
    out
}

/// The length of the longest run of backticks in `text` (0 without any: one fast byte search
/// for most bodies).
fn longest_backtick_run(text: &str) -> usize {
    // `str::find` of one ASCII char is a `memchr`, several bytes per step.
    let Some(first) = text.find('`') else {
        return 0;
    };
    let mut longest = 0;
    let mut run = 0;
    for &byte in &text.as_bytes()[first..] {
        if byte == b'`' {
            run += 1;
            longest = longest.max(run);
        } else {
            run = 0;
        }
    }
    longest
}

/// Appends `count` backticks.
fn push_backticks(out: &mut String, count: usize) {
    const BACKTICKS: &str = "````````````````";
    if let Some(run) = BACKTICKS.get(..count) {
        out.push_str(run);
    } else {
        out.extend(std::iter::repeat_n('`', count));
    }
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
    fn item_bodies_scanned_by_words_as_byte_by_byte() {
        for body in [
            "",
            "plain text of more than eight bytes",
            "1234567<",
            "12345678<",
            "abcdefghijklmnop\r",
            "x\n",
            "\u{e9}\u{e9}\u{e9}\u{e9}\u{e9}<",
            "no breaks here, none at all",
        ] {
            let bytes = body.as_bytes();
            let expected = bytes.iter().any(|&b| matches!(b, b'<' | b'\n' | b'\r'));
            assert_eq!(has_lt_or_line_break(bytes), expected, "{body:?}");
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
        let long = "`".repeat(20);
        assert_eq!(
            fence("x", &long),
            format!("{0}x\n{long}\n{0}", "`".repeat(21))
        );
        assert_eq!(fence("x", "a``b`c"), "```x\na``b`c\n```");
        assert_eq!(fence("x", "a```b"), "````x\na```b\n````");
    }
}
