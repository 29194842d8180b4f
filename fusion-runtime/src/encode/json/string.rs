//! The inside of a JSON string (wire format §3.4): escapes and the neutralization of framework
//! tag starts (wire format §5.1) in one scan that copies runs of plain bytes in bulk.

use crate::encode::escape;

/// How each byte is written inside a string: 0 as itself, `u` as `\u00XX`, `<` as itself unless
/// it starts a framework tag (wire format §5.1), any other as a backslash and that byte (wire format §3.4).
static ESCAPE: [u8; 256] = {
    let mut table = [0_u8; 256];
    let mut byte = 0;
    while byte < 0x20 {
        table[byte] = b'u';
        byte += 1;
    }
    table[0x08] = b'b';
    table[0x09] = b't';
    table[0x0A] = b'n';
    table[0x0C] = b'f';
    table[0x0D] = b'r';
    table[b'"' as usize] = b'"';
    table[b'\\' as usize] = b'\\';
    table[b'<' as usize] = b'<';
    table
};

/// Whether any of the eight bytes of `word` is one the [`ESCAPE`] table does not pass as it is
/// (a control byte, `"`, `\\` or `<`): the scan of a string skips eight plain bytes with one test.
///
/// Each term is the classic "has a byte below n" test, `(x - n·0x01…) & !x & 0x80…`, which is
/// exact for the question "is there such a byte" (a borrow only ever marks bytes above a true
/// hit), applied to `word` for the control bytes and to `word` XOR the repeated character for
/// the three others (a byte equal to it becomes zero).
#[inline]
const fn word_needs_escape_check(word: u64) -> bool {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    const fn has_zero(x: u64) -> u64 {
        x.wrapping_sub(ONES) & !x
    }
    let control = word.wrapping_sub(ONES * 0x20) & !word;
    let quote = has_zero(word ^ (ONES * b'"' as u64));
    let backslash = has_zero(word ^ (ONES * b'\\' as u64));
    let angle = has_zero(word ^ (ONES * b'<' as u64));
    (control | quote | backslash | angle) & HIGH != 0
}

const HEX: &[u8; 16] = b"0123456789abcdef";

/// Appends the inside of a JSON string (wire format §3.4, §5.1) to `out`: runs of plain bytes
/// are copied in one piece. They are found eight bytes at a time while eight remain, then byte
/// by byte in [`ESCAPE`] up to the next byte that needs a look (within those eight, or to the
/// end of a short tail).
pub(super) fn escape_into(out: &mut String, text: &str) {
    let bytes = text.as_bytes();
    let mut copied = 0;
    let mut at = 0;
    loop {
        while let Some(word) = bytes.get(at..at + 8)
            && let Ok(word) = <[u8; 8]>::try_from(word)
            && !word_needs_escape_check(u64::from_le_bytes(word))
        {
            at += 8;
        }
        while let Some(&byte) = bytes.get(at)
            && ESCAPE[usize::from(byte)] == 0
        {
            at += 1;
        }
        let Some(&byte) = bytes.get(at) else {
            break;
        };
        let kind = ESCAPE[usize::from(byte)];
        if kind != b'<' || escape::is_tag_start_at(text, at) {
            // `at` is the index of an ASCII byte, so both ends are character boundaries.
            out.push_str(&text[copied..at]);
            match kind {
                b'<' => out.push_str("\\u003c"),
                b'u' => {
                    out.push_str("\\u00");
                    out.push(char::from(HEX[usize::from(byte >> 4)]));
                    out.push(char::from(HEX[usize::from(byte & 0xF)]));
                }
                other => {
                    out.push('\\');
                    out.push(char::from(other));
                }
            }
            copied = at + 1;
        }
        at += 1;
    }
    out.push_str(&text[copied..]);
}
