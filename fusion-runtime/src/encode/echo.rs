//! Caller input as the envelopes repeat it: quoted, on one line, and short.
//!
//! An envelope that tells the model what went wrong often repeats what the caller sent (an
//! unknown tool name, an unknown action, a rejected value). Repeated raw, that input could
//! make the answer as large as the request (a 15 MB tool name, a 75 MB answer), and its line
//! breaks and quotes could close the quoted text and write lines that read like the
//! framework's own instructions. [`Echo::quote`] is the one way caller input reaches an
//! envelope's text:
//!
//! - between quotes, with the quote and the backslash escaped (`\"`, `\\`);
//! - on one line: line breaks and every other control character written visibly (`\n`,
//!   `\r`, `\t`, and `\u0007` style for the rest, U+2028 and U+2029 included);
//! - cut: a text of more than the echo's `max_chars` characters (Unicode scalar values, counted
//!   before escaping) keeps as many as fit before the ellipsis, so at most `max_chars` of the
//!   caller's characters reach the wire, each at most 6 bytes once escaped.
//!
//! So an envelope is at most a bounded multiple of what the framework writes itself.

use std::borrow::Cow;
use std::fmt::Write as _;

/// The most characters of a name or an action the caller sent that an envelope repeats.
pub const ECHO_MAX_CHARS: usize = 200;

/// How one kind of caller input is quoted: the quote character, the length past which it is
/// cut, and the ellipsis that marks the cut.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Echo {
    quote: char,
    max_chars: usize,
    ellipsis: &'static str,
}

impl Echo {
    /// A name or an action the caller sent (an unknown tool, an unknown action): in double
    /// quotes, cut past [`ECHO_MAX_CHARS`] characters with `…`.
    pub const NAME: Echo = Echo {
        quote: '"',
        max_chars: ECHO_MAX_CHARS,
        ellipsis: "…",
    };

    /// A text value in a "You sent" detail (wire format §13.5): in single quotes, cut past 50
    /// characters to its first 47 and `...`.
    pub const SENT: Echo = Echo {
        quote: '\'',
        max_chars: 50,
        ellipsis: "...",
    };

    /// `text` quoted, escaped onto one line, and cut (see the module documentation).
    pub fn quote(self, text: &str) -> String {
        let count = text.chars().count();
        let (kept, ellipsis) = if count > self.max_chars {
            let room = self.max_chars.saturating_sub(self.ellipsis.chars().count());
            (room, self.ellipsis)
        } else {
            (count, "")
        };
        let mut out = String::with_capacity(text.len().min(kept * 4) + 2 + ellipsis.len());
        out.push(self.quote);
        for c in text.chars().take(kept) {
            match c {
                '\\' => out.push_str("\\\\"),
                '\n' => out.push_str("\\n"),
                '\r' => out.push_str("\\r"),
                '\t' => out.push_str("\\t"),
                c if c == self.quote => {
                    out.push('\\');
                    out.push(c);
                }
                c if c.is_control() || matches!(c, '\u{2028}' | '\u{2029}') => {
                    // Writing to a String cannot fail.
                    let _ = write!(out, "\\u{:04x}", u32::from(c));
                }
                c => out.push(c),
            }
        }
        out.push_str(ellipsis);
        out.push(self.quote);
        out
    }
}

/// `text` cut to at most `max_chars` characters, the last of them `…` when it was longer: for
/// texts that are not envelopes (a JSON-RPC error message quoting a parser).
pub fn cut(text: &str, max_chars: usize) -> Cow<'_, str> {
    if text.char_indices().nth(max_chars).is_none() {
        return Cow::Borrowed(text);
    }
    let kept = max_chars.saturating_sub(1);
    let end = text
        .char_indices()
        .nth(kept)
        .map_or(text.len(), |(at, _)| at);
    Cow::Owned(format!("{}…", &text[..end]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_quoted_on_one_line_with_visible_escapes() {
        assert_eq!(Echo::NAME.quote("billing"), "\"billing\"");
        assert_eq!(
            Echo::NAME.quote("a\"b\\c\nd\re\tf\u{7}g\u{2028}h\u{85}"),
            r#""a\"b\\c\nd\re\tf\u0007g\u2028h\u0085""#
        );
        assert_eq!(Echo::SENT.quote("it's"), r"'it\'s'");
        assert_eq!(Echo::SENT.quote("say \"hi\""), "'say \"hi\"'");
    }

    #[test]
    fn long_input_is_cut_to_the_documented_length() {
        let exact = "é".repeat(ECHO_MAX_CHARS);
        assert_eq!(Echo::NAME.quote(&exact), format!("\"{exact}\""));
        let long = "&".repeat(15_000_000);
        let quoted = Echo::NAME.quote(&long);
        assert_eq!(quoted, format!("\"{}…\"", "&".repeat(ECHO_MAX_CHARS - 1)));
        // The wire format §13.5 rule for SENT: more than 50 characters keep 47 and `...`.
        assert_eq!(
            Echo::SENT.quote(&"x".repeat(51)),
            format!("'{}...'", "x".repeat(47))
        );
        assert_eq!(
            Echo::SENT.quote(&"x".repeat(50)),
            format!("'{}'", "x".repeat(50))
        );
        // Escaping comes after the cut: at most 6 bytes per kept character.
        let bells = Echo::NAME.quote(&"\u{7}".repeat(1000));
        assert_eq!(bells.len(), 2 + 6 * (ECHO_MAX_CHARS - 1) + "…".len());
    }

    #[test]
    fn cut_keeps_short_texts_and_marks_long_ones() {
        assert_eq!(cut("short", 10), "short");
        assert_eq!(cut("0123456789", 10), "0123456789");
        assert_eq!(cut("0123456789a", 10), "012345678…");
        assert_eq!(cut("ééééé", 3), "éé…");
    }
}
