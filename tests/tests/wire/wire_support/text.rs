//! Generated texts for the wire properties: arbitrary Unicode weighted toward what could break
//! a block (wire format §5.10): `<` before framework names in mixed case, `/`, `>`, LF, CR, TAB,
//! backtick runs, `|`, quotes, `&`, control and invisible characters.

#![allow(
    dead_code,
    reason = "each test file that includes this uses part of it"
)]

use fusion_runtime::testing::escape;
use proptest::prelude::*;

/// One such text.
pub fn tricky_text() -> BoxedStrategy<String> {
    let name = prop::sample::select(escape::FRAMEWORK_NAMES.to_vec());
    let mixed_case_tag = (name, any::<u64>(), any::<bool>()).prop_map(|(name, mask, slash)| {
        let cased: String = name
            .chars()
            .enumerate()
            .map(|(i, c)| {
                if mask >> (i % 64) & 1 == 1 {
                    c.to_ascii_uppercase()
                } else {
                    c
                }
            })
            .collect();
        format!("<{}{cased}", if slash { "/" } else { "" })
    });
    let piece = prop_oneof![
        4 => mixed_case_tag,
        4 => prop::sample::select(vec![
            "<", "</", "/", ">", " ", "a", "_", "-", "- ", ".", ":", "\n", "\r", "\r\n", "\t",
            "\"", "\\", "'", "&", "`", "```", "````", "|", "\u{0}", "\u{7}", "\u{8}", "\u{c}",
            "\u{1b}", "\u{1f}", "\u{7f}", "\u{a0}", "\u{2028}", "\u{2029}", "\u{feff}", "é",
            "€", "😀",
        ])
        .prop_map(str::to_owned),
        2 => any::<String>().prop_map(|s| s.chars().take(6).collect()),
    ];
    prop::collection::vec(piece, 0..8)
        .prop_map(|pieces| pieces.concat())
        .boxed()
}

/// Texts with none of `<`, CR, LF, backtick, `&`, `>`, `"`, `'`, TAB or `|` (wire format §5.10 P9).
pub fn plain_text() -> BoxedStrategy<String> {
    "[a-zA-Z0-9 .,:;!?()_/é€😀-]{0,24}".boxed()
}
