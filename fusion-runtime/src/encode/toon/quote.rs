//! TOON tokens (wire format §9.3): when a string is quoted, how it is escaped, how keys and numbers are
//! written. Every function appends to a `String` and allocates nothing else.

use super::Delimiter;
use crate::encode::escape;

/// Appends the token of a string value: bare, or quoted when one of Q1–Q9 holds.
pub(crate) fn push_string(out: &mut String, text: &str, delimiter: u8) {
    if needs_quotes(text, delimiter) {
        push_quoted(out, text);
    } else {
        out.push_str(text);
    }
}

/// Appends the token of a string that is the whole document: Q10 applies on top of Q1–Q9.
pub(crate) fn push_root_string(out: &mut String, text: &str, delimiter: u8) {
    if text.starts_with('\u{feff}') {
        push_quoted(out, text);
    } else {
        push_string(out, text, delimiter);
    }
}

/// Appends an encoded key: bare when it matches `^[A-Za-z_][A-Za-z0-9_.]*$`, quoted otherwise.
pub(crate) fn push_key(out: &mut String, key: &str) {
    if is_bare_key(key) {
        out.push_str(key);
    } else {
        push_quoted(out, key);
    }
}

/// Whether `key` may be written without quotes.
pub(crate) fn is_bare_key(key: &str) -> bool {
    let mut bytes = key.bytes();
    bytes
        .next()
        .is_some_and(|b| b.is_ascii_alphabetic() || b == b'_')
        && bytes.all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'.')
}

/// Whether a string value must be quoted (wire format §9.3, Q1–Q9).
pub(crate) fn needs_quotes(text: &str, delimiter: u8) -> bool {
    let bytes = text.as_bytes();
    let (Some(&first), Some(&last)) = (bytes.first(), bytes.last()) else {
        return true; // Q1
    };
    if matches!(first, b' ' | b'\t' | b'-' | b'#') || matches!(last, b' ' | b'\t') {
        return true; // Q2, Q8
    }
    if matches!(text, "true" | "false" | "null") || looks_numeric(bytes) {
        return true; // Q3, Q4
    }
    has_notable(text, delimiter)
}

/// Whether a byte of `text` forces quotes wherever it is (Q5–Q7, Q9), eight bytes at a time:
/// a word with no candidate byte, the common case in ordinary text, costs a few arithmetic
/// operations instead of eight table lookups; a word with one is checked byte by byte.
fn has_notable(text: &str, delimiter: u8) -> bool {
    let mut words = text.as_bytes().chunks_exact(8);
    let mut offset = 0;
    for word in &mut words {
        let candidates = word.try_into().map_or(true, |word| {
            may_be_notable(u64::from_le_bytes(word), delimiter)
        });
        if candidates && has_notable_byte(text, offset, word, delimiter) {
            return true;
        }
        offset += 8;
    }
    has_notable_byte(text, offset, words.remainder(), delimiter)
}

/// The byte-by-byte check of `bytes`, which sit at `offset` in `text`.
fn has_notable_byte(text: &str, offset: usize, bytes: &[u8], delimiter: u8) -> bool {
    bytes.iter().enumerate().any(|(i, &b)| {
        (NOTABLE[usize::from(b)] || b == delimiter)
            && (b != b'<' || escape::is_tag_start_at(text, offset + i))
    })
}

/// Whether one of the eight bytes of `word` may be a [`NOTABLE`] byte or the delimiter: never
/// false when one is (a false "may" only costs the byte-by-byte check).
///
/// The zero-byte test `(v - 0x01…) & !v & 0x80…` is non-zero exactly when some byte of `v` is
/// zero, and with `0x20…` in place of `0x01…` when some byte is below 0x20 (Q6's control
/// characters); `v = word ^ c…` finds the byte `c`. Clearing bit 5 (`& 0xdf`) folds `{` `|` `}`
/// onto `[` `\` `]`, so three tests find those six bytes.
fn may_be_notable(word: u64, delimiter: u8) -> bool {
    const fn splat(b: u8) -> u64 {
        u64::from_ne_bytes([b; 8])
    }
    const ONES: u64 = splat(0x01);
    const HIGH: u64 = splat(0x80);
    let zero_bytes = |v: u64| v.wrapping_sub(ONES) & !v;
    let folded = word & splat(0xdf);
    let found = (word.wrapping_sub(splat(0x20)) & !word)
        | zero_bytes(word ^ splat(b'"'))
        | zero_bytes(word ^ splat(b':'))
        | zero_bytes(word ^ splat(b'<'))
        | zero_bytes(word ^ splat(delimiter))
        | zero_bytes(folded ^ splat(b'['))
        | zero_bytes(folded ^ splat(b'\\'))
        | zero_bytes(folded ^ splat(b']'));
    found & HIGH != 0
}

/// The bytes that force quotes wherever they are: Q5's punctuation and Q6's control
/// characters; plus `<`, which does when it starts a framework tag (Q9). One table lookup per
/// byte keeps the scan of ordinary text short.
const NOTABLE: [bool; 256] = {
    let mut table = [false; 256];
    let mut b = 0;
    while b < 0x20 {
        table[b] = true;
        b += 1;
    }
    let punctuation = *b":\"\\[]{}<";
    let mut i = 0;
    while i < punctuation.len() {
        table[punctuation[i] as usize] = true;
        i += 1;
    }
    table
};

/// Whether `bytes` matches `^[+-]?[0-9]+(\.[0-9]+)?([eE][+-]?[0-9]+)?$` (Q4).
fn looks_numeric(bytes: &[u8]) -> bool {
    /// The length of the run of ASCII digits at the start of `bytes`.
    fn digits(bytes: &[u8]) -> usize {
        bytes.iter().take_while(|b| b.is_ascii_digit()).count()
    }
    let mut rest = bytes;
    if let [b'+' | b'-', tail @ ..] = rest {
        rest = tail;
    }
    let n = digits(rest);
    if n == 0 {
        return false;
    }
    rest = &rest[n..];
    if let [b'.', tail @ ..] = rest {
        let n = digits(tail);
        if n == 0 {
            return false;
        }
        rest = &tail[n..];
    }
    if let [b'e' | b'E', tail @ ..] = rest {
        let tail = match tail {
            [b'+' | b'-', signed @ ..] => signed,
            _ => tail,
        };
        let n = digits(tail);
        if n == 0 {
            return false;
        }
        rest = &tail[n..];
    }
    rest.is_empty()
}

/// Appends `"` + escaped text + `"`: `\\`, `\"`, `\n`, `\r`, `\t`, `\u00XX` for the other
/// control characters, `\u003c` for the `<` of a framework tag start; everything else as itself.
pub(crate) fn push_quoted(out: &mut String, text: &str) {
    out.reserve(text.len() + 2);
    out.push('"');
    let mut copied = 0;
    for (at, &b) in text.as_bytes().iter().enumerate() {
        let escaped: &str = match b {
            b'\\' => "\\\\",
            b'"' => "\\\"",
            b'\n' => "\\n",
            b'\r' => "\\r",
            b'\t' => "\\t",
            b'<' if escape::is_tag_start_at(text, at) => "\\u003c",
            0..=0x1f => {
                out.push_str(&text[copied..at]);
                push_control_escape(out, b);
                copied = at + 1;
                continue;
            }
            _ => continue,
        };
        // Every byte matched above is ASCII, so `at` and `at + 1` are character boundaries.
        out.push_str(&text[copied..at]);
        out.push_str(escaped);
        copied = at + 1;
    }
    out.push_str(&text[copied..]);
    out.push('"');
}

/// `\u00` + two lowercase hex digits.
fn push_control_escape(out: &mut String, b: u8) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    out.push_str("\\u00");
    out.push(char::from(HEX[usize::from(b >> 4)]));
    out.push(char::from(HEX[usize::from(b & 0xf)]));
}

/// Appends a float (wire format §9.3): `null` for NaN and infinities, `0` for both zeros, otherwise
/// the shortest round-trip digits written positionally, never with an exponent.
pub(crate) fn push_float(out: &mut String, value: f64) {
    if !value.is_finite() {
        out.push_str("null");
        return;
    }
    if value == 0.0 {
        out.push('0');
        return;
    }
    let mut buffer = ryu_js::Buffer::new();
    let text = buffer.format_finite(value);
    // ECMAScript text is already positional for 1e-7 < |x| < 1e21; only the exponent form
    // needs its digits laid out again.
    let Some((mantissa, exponent)) = text.split_once('e') else {
        out.push_str(text);
        return;
    };
    let (negative, mantissa) = match mantissa.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, mantissa),
    };
    // The mantissa is `D` or `D.DDD` with a non-zero first digit and no trailing zero.
    let (int_part, frac_part) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let Ok(exponent) = exponent.parse::<i32>() else {
        // Unreachable for ryu-js output; keeping its text is still a valid TOON number.
        out.push_str(text);
        return;
    };
    if negative {
        out.push('-');
    }
    // s = the digits, k = their count, n = the position of the decimal point after the first
    // digit moved by the exponent (wire format §3.6 notation).
    let k = i32::try_from(int_part.len() + frac_part.len()).unwrap_or(i32::MAX);
    let n = exponent + i32::try_from(int_part.len()).unwrap_or(i32::MAX);
    let digits = || int_part.chars().chain(frac_part.chars());
    if n >= k {
        out.extend(digits());
        push_zeros(out, n - k);
    } else if n > 0 {
        let split = usize::try_from(n).unwrap_or(0);
        for (i, digit) in digits().enumerate() {
            if i == split {
                out.push('.');
            }
            out.push(digit);
        }
    } else {
        out.push_str("0.");
        push_zeros(out, -n);
        out.extend(digits());
    }
}

fn push_zeros(out: &mut String, count: i32) {
    for _ in 0..count {
        out.push('0');
    }
}

/// Appends an integer's exact decimal digits.
pub(crate) fn push_integer<I: itoa::Integer>(out: &mut String, value: I) {
    out.push_str(itoa::Buffer::new().format(value));
}

/// Appends the bracket of a list or table header (wire format §9.5): `[N]`, `[N|]`, `[N<TAB>]`,
/// or with `keyed` `[N:]`, `[N:|]`: the delimiter is shown when it is not a comma.
pub(crate) fn push_count(out: &mut String, len: usize, keyed: bool, delimiter: Delimiter) {
    out.push('[');
    push_integer(out, len);
    if keyed {
        out.push(':');
    }
    match delimiter {
        Delimiter::Comma => {}
        Delimiter::Tab => out.push('\t'),
        Delimiter::Pipe => out.push('|'),
    }
    out.push(']');
}

#[cfg(test)]
mod tests {
    use super::*;

    fn float(x: f64) -> String {
        let mut out = String::new();
        push_float(&mut out, x);
        out
    }

    fn value(text: &str, delimiter: u8) -> String {
        let mut out = String::new();
        push_string(&mut out, text, delimiter);
        out
    }

    fn key(text: &str) -> String {
        let mut out = String::new();
        push_key(&mut out, text);
        out
    }

    #[test]
    fn floats_are_positional() {
        assert_eq!(float(1e21), "1000000000000000000000");
        assert_eq!(float(1e-7), "0.0000001");
        assert_eq!(float(1.5e-10), "0.00000000015");
        assert_eq!(float(-1.5e-10), "-0.00000000015");
        assert_eq!(float(100.0), "100");
        assert_eq!(float(-0.0), "0");
        assert_eq!(float(f64::NAN), "null");
        assert_eq!(float(f64::NEG_INFINITY), "null");
        assert_eq!(float(1.234_5e25), "12345000000000000000000000");
        assert_eq!(float(5e-324), format!("0.{}5", "0".repeat(323)));
        assert_eq!(float(1.797_693_134_862_315_7e308).len(), 309);
        assert_eq!(float(0.1 + 0.2), "0.30000000000000004");
        assert_eq!(float(8261.99), "8261.99");
    }

    #[test]
    fn spec_quoting_examples() {
        assert_eq!(value("a,b", b'|'), "a,b");
        assert_eq!(value("a|b", b'|'), "\"a|b\"");
        assert_eq!(value("a,b", b','), "\"a,b\"");
        assert_eq!(value("- refurbished unit", b'|'), "\"- refurbished unit\"");
        assert_eq!(value("2026-04-21", b'|'), "2026-04-21");
        assert_eq!(value("42", b'|'), "\"42\"");
        assert_eq!(value("[REDACTED]", b'|'), "\"[REDACTED]\"");
        assert_eq!(value("Hooli: Cloud", b'|'), "\"Hooli: Cloud\"");
        assert_eq!(value("Café Crème SARL", b'|'), "Café Crème SARL");
        assert_eq!(value("</domain_rules>", b'|'), "\"\\u003c/domain_rules>\"");
        assert_eq!(value("a < b <T>", b'|'), "a < b <T>");
        assert_eq!(key("a.b"), "a.b");
        assert_eq!(key("full name"), "\"full name\"");
        assert_eq!(key("_x9"), "_x9");
        assert_eq!(key("9x"), "\"9x\"");
        assert_eq!(key(""), "\"\"");
    }

    #[test]
    fn numeric_looking_strings() {
        for quoted in ["0", "-1", "+1", "1.5", "1e5", "1E-5", "05", "-3.14e+2"] {
            assert!(looks_numeric(quoted.as_bytes()), "{quoted}");
        }
        for bare in ["1.", ".5", "1e", "1e+", "+", "1.2.3", "0x10", "1_000", "e5"] {
            assert!(!looks_numeric(bare.as_bytes()), "{bare}");
        }
    }

    #[test]
    fn escapes() {
        let mut out = String::new();
        push_quoted(
            &mut out,
            "a\"b\\c\nd\re\tf\u{1}g\u{1f}h\u{7f}<tool_error><x>",
        );
        assert_eq!(
            out,
            "\"a\\\"b\\\\c\\nd\\re\\tf\\u0001g\\u001fh\u{7f}\\u003ctool_error><x>\""
        );
    }

    /// The word-at-a-time scan finds what the byte-by-byte check finds: every ASCII byte and
    /// some multi-byte characters at every position of both words and of the tail.
    #[test]
    fn the_word_scan_agrees_with_the_byte_scan() {
        let mut specials: Vec<String> = (0..=0x7f_u8).map(|b| char::from(b).to_string()).collect();
        specials.extend(
            ["é", "日", "🚀", "\u{7f}", "\u{a0}", "<tool_error>", "</x"].map(str::to_owned),
        );
        for special in &specials {
            for at in 0..=17 {
                let text = format!("{}{special}{}", "a".repeat(at), "b".repeat(17 - at));
                for delimiter in [b',', b'\t', b'|'] {
                    assert_eq!(
                        has_notable(&text, delimiter),
                        has_notable_byte(&text, 0, text.as_bytes(), delimiter),
                        "{text:?} with {delimiter}"
                    );
                }
            }
        }
    }

    proptest::proptest! {
        #[test]
        fn the_word_scan_agrees_on_any_text(text in "\\PC{0,40}", extra in "[|,:<\\[\\]{}\"\\\\\t\n]{0,2}") {
            let text = format!("{text}{extra}{text}");
            for delimiter in [b',', b'\t', b'|'] {
                proptest::prop_assert_eq!(
                    has_notable(&text, delimiter),
                    has_notable_byte(&text, 0, text.as_bytes(), delimiter)
                );
            }
        }
    }

    #[test]
    fn byte_order_mark_at_the_root() {
        let mut out = String::new();
        push_root_string(&mut out, "\u{feff}x", b',');
        assert_eq!(out, "\"\u{feff}x\"");
        assert_eq!(value("\u{feff}x", b','), "\u{feff}x");
    }
}
