//! Shared by the hardening properties (`harden_*.rs`): the generators of hostile text, the case
//! count, and the independent expectations (wire format §5.3 neutralization, UI blocks as the reference
//! parser recovers them).

#![allow(
    dead_code,
    reason = "each hardening file uses a different part of the support module"
)]

use fusion_runtime::ui::UiBlock;
use fusion_tests::wire::{self, Block};
use proptest::prelude::*;

/// The number of cases of each property: `PROPTEST_CASES`, 256 by default (CI runs the default).
pub fn cases() -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|c| c.parse().ok())
        .unwrap_or(256)
}

/// The proptest configuration of the hardening properties.
pub fn config() -> ProptestConfig {
    ProptestConfig::with_cases(cases())
}

/// The framework names of wire format §5.1, in mixed case.
pub const TAG_NAMES: [&str; 16] = [
    "domain_rules",
    "DOMAIN_RULES",
    "Ui_Passthrough",
    "ui_passthrough",
    "llm_directives",
    "action_suggestions",
    "tool_error",
    "Validation_Error",
    "message",
    "recovery",
    "available_actions",
    "action",
    "details",
    "detail",
    "retry_after",
    "field",
];

/// Strings weighted toward what could break the wire: `<`, `/`, framework names in mixed case,
/// `>`, LF, CR, TAB, backtick runs, `|`, quotes, `&`, item markers, plus arbitrary Unicode.
pub fn nasty() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        Just("<".to_owned()),
        Just("</".to_owned()),
        Just("/".to_owned()),
        Just(">".to_owned()),
        Just("\n".to_owned()),
        Just("\r".to_owned()),
        Just("\r\n".to_owned()),
        Just("\t".to_owned()),
        Just("```".to_owned()),
        Just("`".to_owned()),
        Just("|".to_owned()),
        Just("\"".to_owned()),
        Just("'".to_owned()),
        Just("&".to_owned()),
        Just("&lt;".to_owned()),
        Just("- ".to_owned()),
        Just("  ".to_owned()),
        Just(" ".to_owned()),
        Just(":".to_owned()),
        Just("{".to_owned()),
        prop::sample::select(TAG_NAMES.to_vec()).prop_map(str::to_owned),
        "[a-z ]{0,6}",
        any::<char>().prop_map(String::from),
    ];
    prop::collection::vec(piece, 0..12).prop_map(|pieces| pieces.concat())
}

/// A cheaper [`nasty`] (a few pieces from a fixed list, now and then any character), for the
/// properties whose subject is not the escaping itself and whose values hold many texts.
pub fn light() -> impl Strategy<Value = String> {
    const PIECES: &[&str] = &[
        "<",
        "</",
        ">",
        "\n",
        "\r",
        "\t",
        "```",
        "|",
        "\"",
        "'",
        "&",
        "- ",
        " ",
        ":",
        "{",
        "word",
        "Acme",
        "é",
        "🚀",
        "domain_rules",
        "Tool_Error",
        "field",
        "ui_passthrough",
    ];
    let piece = prop_oneof![
        8 => prop::sample::select(PIECES).prop_map(str::to_owned),
        1 => any::<char>().prop_map(String::from),
    ];
    prop::collection::vec(piece, 0..5).prop_map(|pieces| pieces.concat())
}

/// The independent wire format §5.3 rule: `&lt;` for the `<` of each framework tag start.
pub fn neutral(text: &str) -> String {
    let mut out = text.to_owned();
    for tag in wire::tag_starts(text).iter().rev() {
        out.replace_range(tag.at..=tag.at, "&lt;");
    }
    out
}

/// Parses a response text with the reference parser, failing the case with the text.
pub fn parse(text: &str) -> Result<Vec<Block>, TestCaseError> {
    wire::parse(text).map_err(|e| TestCaseError::fail(format!("{e}\n--- text:\n{text}")))
}

/// The block the reference parser must recover for `block`: its attributes decoded, its content
/// neutralized (wire format §4.2, §5.2, §5.3).
pub fn ui_expected(block: &UiBlock) -> Block {
    let mut attrs = vec![("type".to_owned(), block.kind().to_owned())];
    if let Some(title) = block.title_text().filter(|t| !t.is_empty()) {
        attrs.push(("title".to_owned(), title.to_owned()));
    }
    if let Some(width) = block.width_value() {
        attrs.push(("width".to_owned(), width.as_str().to_owned()));
    }
    if let Some(priority) = block.priority_value() {
        attrs.push(("priority".to_owned(), priority.to_string()));
    }
    Block::Ui {
        attrs,
        content: neutral(block.content()),
    }
}

/// The list block the reference parser must recover for these item bodies (before §5.3).
pub fn list_expected<S: AsRef<str>>(name: &str, items: &[S]) -> Block {
    Block::List {
        name: name.to_owned(),
        items: items.iter().map(|i| neutral(i.as_ref())).collect(),
    }
}

/// SENT of wire format §13.5 for a text, written from the wire format and `fusion_runtime::echo`'s
/// documentation alone: quoted, cut to 47 characters and `...` past 50, escaped onto one line.
pub fn sent_text(text: &str) -> String {
    echoed(text, '\'', 50, "...")
}

/// A name or an action the caller sent, as envelopes echo it (`fusion_runtime::echo`): in
/// double quotes, cut to 199 characters and `…` past 200, escaped onto one line.
pub fn echoed_name(text: &str) -> String {
    echoed(text, '"', 200, "…")
}

/// `text` between `quote`s: cut past `max` characters (keeping `max` minus the ellipsis's),
/// then the quote, the backslash and every control character escaped (`\n`, `\r`, `\t`,
/// `\u0007`; U+2028 and U+2029 too).
fn echoed(text: &str, quote: char, max: usize, ellipsis: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let (kept, tail) = if chars.len() > max {
        (&chars[..max - ellipsis.chars().count()], ellipsis)
    } else {
        (&chars[..], "")
    };
    let mut out = String::from(quote);
    for &c in kept {
        match c {
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c == quote => {
                out.push('\\');
                out.push(c);
            }
            c if c.is_control() || c == '\u{2028}' || c == '\u{2029}' => {
                out.extend(format!("\\u{:04x}", u32::from(c)).chars());
            }
            c => out.push(c),
        }
    }
    out.push_str(tail);
    out.push(quote);
    out
}
