//! Token counts of response text: a fast estimate for the hot path, an exact `o200k_base` count
//! for tests and reports (feature `exact-tokens`), both behind one trait, [`TokenCounter`].
//!
//! # How the estimate works
//!
//! Byte-pair tokenizers of the GPT family first cut a text into *pieces* with a regular
//! expression (words with their leading space, runs of up to three digits, runs of punctuation,
//! runs of whitespace), and only then merge bytes within each piece. Most short pieces of what a
//! tool answers with (JSON keys and punctuation, indentation, English words, ids) are one token.
//! So the estimate counts what makes pieces: each character is priced by its class (a
//! lower-case ASCII vowel, common consonant or other letter, an upper-case ASCII letter, a
//! digit, an ASCII mark, a space, a line break, an accented Latin letter, a Cyrillic letter, a
//! symbol, hiragana, katakana, an ideograph or a letter of another 3-byte script, an emoji or a
//! combining mark) *and the class of the character before it*: a letter after a space starts
//! a word, a letter after a letter continues one, an accented letter after an ASCII one
//! (`Müller`) starts another piece, a rare consonant after another (`xk`, `qz`, common in
//! ids of random letters, scarce in words) most likely starts another token, and katakana
//! (the kana of loanwords, `デジタルカメラ`) merges far less than hiragana. The estimate is the
//! sum of those pair weights, a 16 × 16 table (`PAIR`), but for a 4-byte character (an emoji,
//! mostly): emoji do not merge with the letters around them, and each takes its own number of
//! tokens (most two or three, a few one: `👍`), so each is priced by a table of its exact
//! count with a space before it (`EMOJI_TOKENS`, U+1F000–U+1FFFF), and any other 4-byte
//! character at five tokens (no more than a token a byte, and one for a space).
//!
//! The weights were fitted by an integer linear program (whole 128ths of a token) to make the
//! estimate a tight *upper bound* of the exact count: every corpus item, of any size, estimated at
//! no less than its exact count; of the items of at least 200 tokens, the kinds of text a fitted
//! response is made of (billing JSON and TOON, whole responses, rules, UI blocks, the wide rows of
//! non-ASCII text as JSON and TOON and their other blocks) at most 5.5% over (6% once rounded),
//! columns of one kind of value and ids of random letters at most 40%, every other item at most 25%
//! over, the prose and rows of other scripts at least 5% over (slack for text of those scripts
//! unlike the corpus's) and the other items outside the responses' kinds at least 2% over (slack
//! for word soups unlike the corpus's); and the least total excess inside that. The corpus
//! (`fusion_examples::token_corpus`): billing JSON (pretty and compact, whole and under a
//! `_select`) and TOON, whole billing responses, rules, UI blocks, `<tool_error>` envelopes, wide
//! synthetic rows, German, Russian, Japanese and emoji text, a Japanese shop's catalog and listings
//! (product names of katakana loanwords), German in decomposed form (NFD), wide rows of Japanese,
//! Chinese, Russian, accented Latin and emoji text (mixed, and one script each; JSON, compact JSON
//! and TOON) with their tables and rules, columns of one kind of value alone (UUIDs, hashes,
//! base64, codes, short codes with a number such as `O-12`, digits, timestamps, URLs) and of random
//! letters (lower-case ids, upper-case codes, e-mail addresses, camelCase names), rules and
//! invoices in Greek, Arabic, Hebrew, Korean, Hindi and Thai, and synthetic word soups, CSV, deep
//! JSON, number lists, prose, long and compound words, identifiers and notes in JSON rows. The fit
//! is `scripts/fit_token_weights.py` (it writes `tokens/pairs.in`); `cargo run --release -p
//! fusion-examples --features token-report --bin token_calibration` checks it (the table is in
//! PERFORMANCE.md, "Token estimate calibration").
//!
//! A sum of pair weights needs no state but the class of the last character, so the estimate
//! runs at memory speed: on x86-64 with AVX-512 VBMI or AVX2, 64 bytes of any text at a time
//! (`simd`); elsewhere, eight ASCII bytes after one test, the rest one character at a time.
//! Every way gives the same count (a property test checks it).
//!
//! Accuracy, per corpus item: fitted never to be under the exact count, on every item of any
//! size; for items of at least 200 exact tokens, at most 6% over on the texts of responses
//! (measured: 0.0% to 5.9%, median about 3%), 2% to 40% over on columns of one kind of value
//! and ids of random letters (measured: 2.0% to 34.9%), 5% to 25% over on the prose and rows of
//! other scripts (measured: up to 24.5%) and 2% to 25% over on the rest, but for Hindi and Thai
//! (priced as ideographs: safe, up to 2.4 times over). Text unlike the corpus can fall outside:
//! random word soups in JSON rows were found up to 5% under at a few hundred tokens (a fit's
//! room keeps 2⌈√B⌉ + 4 tokens free for that), and characters drawn at random from a whole
//! script are far under: random Cyrillic letters at about three quarters of their count, random
//! ideographs at 0.4 to 0.6 (their classes have no subclasses of frequent and rare characters as
//! the ASCII letters do; `Presentation::exact_tokens` keeps a budget on them). So are some real
//! texts the corpus cannot hold as an upper bound without being far over on the rest: Korean in
//! decomposed form (NFD jamo, U+1100–U+11FF, about a third of their count: the tokenizer spends a
//! token a byte on them), letters run together without a space or mark (`nullnull…`, about 0.4: a
//! pair of letters knows nothing of how long its word has run), and short values alone under a
//! narrow `_select` (a Russian name or tag, an accented product name, a status, a code such as
//! `O-12`: 0.72 to 0.95 of their count in compact JSON, 0.85 to 0.95 in TOON): the pairs price a
//! word's first letter after a quote, and the JSON around a value, by their average over the longer
//! fields of the corpus, and a list of short values has nothing to average them with. Holding such
//! lists as an upper bound too leaves no weights within 5.5% of the responses' texts (the fit is
//! infeasible). A user's probe with models of its own fitted 46,511 responses: 141 went over their
//! budget by the exact count, by up to 8% (500 Russian product names under a one-field `_select`,
//! compact JSON), all but 6 of them under a `_select` of one to three short fields. A fit on such
//! text can go over its budget by the exact count; keep the budget by the exact count there
//! (`Presentation::exact_tokens`). (Katakana, once priced as hiragana at 0.55 of its count, and
//! accented letters in decomposed form, at 0.7, have classes of their own since: the corpus holds
//! them.)
//! Scripts outside the corpus are priced like the nearest class.
//!
//! # Adding parts
//!
//! [`TokenTally`] takes text in chunks and keeps the class of the last character between them:
//! the tally of chunks `a` then `b` is exactly the estimate of `a + b`, and a tally is `Copy`,
//! so a fitting loop can keep the tally of the items it has kept and try the next one on a copy,
//! without counting anything twice.
//!
//! Estimating parts separately and adding the results never gives less than the estimate of
//! the joined text, and at most three tokens more per part (the first character of a part is
//! priced as at the start of a text, which weighs as much as after any character and at most two
//! tokens more, and each part rounds up):
//!
//! ```text
//! estimate(a + b) <= estimate(a) + estimate(b) <= estimate(a + b) + 3
//! ```
//!
//! so a sum of per-item estimates is a safe (upper) estimate of the joined items.

#[cfg(feature = "exact-tokens")]
mod exact;
#[cfg(target_arch = "x86_64")]
mod simd;
#[cfg(test)]
mod tests;

#[cfg(feature = "exact-tokens")]
pub use exact::{ExactCounter, ExactCounterError};

/// Something that counts the tokens of a text: the [`Estimator`] (fast, approximate) or
/// `ExactCounter` (feature `exact-tokens`, the `o200k_base` tokenizer itself).
pub trait TokenCounter {
    /// The number of tokens of `text`.
    fn count(&self, text: &str) -> usize;
}

/// The fast token estimate (module docs): one pass over the bytes, no tokenizer, no allocation.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Estimator;

impl TokenCounter for Estimator {
    fn count(&self, text: &str) -> usize {
        estimate(text)
    }
}

/// The estimated `o200k_base` token count of `text` (module docs: accuracy, adding parts).
pub fn estimate(text: &str) -> usize {
    let mut tally = TokenTally::new();
    tally.push(text);
    tally.tokens()
}

/// A running token estimate of text given in chunks: the tally of chunks is the [`estimate`] of
/// their concatenation, exactly, wherever the chunks are cut.
///
/// ```
/// # use fusion_runtime::tokens::{TokenTally, estimate};
/// let mut tally = TokenTally::new();
/// tally.push("{\n  \"id\": \"INV-0001\",\n");
/// tally.push("  \"amount_cents\": 826199\n}");
/// assert_eq!(
///     tally.tokens(),
///     estimate("{\n  \"id\": \"INV-0001\",\n  \"amount_cents\": 826199\n}")
/// );
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TokenTally {
    /// The estimate so far, in [`UNIT`]ths of a token.
    units: u64,
    /// The class of the last character (`START` before any).
    last: u8,
}

impl Default for TokenTally {
    fn default() -> Self {
        TokenTally::new()
    }
}

impl TokenTally {
    /// An empty tally (0 tokens).
    pub fn new() -> Self {
        TokenTally {
            units: 0,
            last: START,
        }
    }

    /// Adds `text` after the text pushed so far.
    #[inline]
    pub fn push(&mut self, text: &str) {
        let at = self.push_blocks(text);
        if at < text.len() {
            // A few bytes are counted faster one at a time than by a block's work.
            #[cfg(target_arch = "x86_64")]
            if text.len() - at >= SHORT_TAIL && simd::push_tail(self, text.as_bytes(), at) {
                return;
            }
            self.push_scalar(text.as_bytes(), at, text.len());
        }
    }

    /// The bytes a writer that tallies as it goes may leave uncounted between counts: a count
    /// has a cost of its own besides its bytes' (the block paths load their tables and add
    /// their lanes up), so text written in short pieces is counted in fewer, longer pushes;
    /// what is left is counted when the tally of a piece's end is asked for. Only where the
    /// last bytes of a text are counted in one block's work (AVX-512 VBMI): elsewhere they are
    /// counted a character at a time, and counting them again for every end asked for costs
    /// more than the pushes spared (PERFORMANCE.md, "Issue #20, round eight").
    pub(crate) fn uncounted_bytes() -> usize {
        #[cfg(target_arch = "x86_64")]
        if simd::tails_whole() {
            return 512;
        }
        0
    }

    /// Adds the text of `text`'s whole blocks of 64 bytes (a little more when a character
    /// crosses the end of the last one) and returns how much that is: the rest, under 64 bytes,
    /// is for a later push. A writer that tallies what it writes as it goes counts every byte
    /// in blocks this way, however its pieces are cut.
    #[inline]
    pub(crate) fn push_blocks(&mut self, text: &str) -> usize {
        let bytes = text.as_bytes();
        let end = bytes.len() - bytes.len() % BLOCK;
        #[cfg(target_arch = "x86_64")]
        let at = if end > 0 {
            simd::push(self, bytes, end)
        } else {
            0
        };
        #[cfg(not(target_arch = "x86_64"))]
        let at = 0;
        if at < end {
            self.push_scalar(bytes, at, end)
        } else {
            at
        }
    }

    /// Adds the characters that start in `bytes[at..end]` (`at` on a character boundary), one
    /// at a time, and returns where the next character starts (`end`, or past it when the last
    /// character crosses it).
    ///
    /// The portable path, and the block paths' way with what they leave. Eight ASCII bytes in
    /// a row (one test of a word) are counted without a test each: two table loads a byte
    /// and no branch, which the CPU overlaps (PERFORMANCE.md, "Issue #20, round six").
    #[inline]
    fn push_scalar(&mut self, bytes: &[u8], mut at: usize, end: usize) -> usize {
        // Worked on in locals, which the compiler can keep in registers.
        let (mut units, mut last) = (self.units, self.last);
        let end = end.min(bytes.len());
        while at < end {
            if let Some(word) = bytes.get(at..at + 8).filter(|_| at + 8 <= end) {
                let word: [u8; 8] = word.try_into().unwrap_or([0x80; 8]);
                if u64::from_ne_bytes(word) & 0x8080_8080_8080_8080 == 0 {
                    for byte in word {
                        let class = ASCII_CLASS[usize::from(byte & 0x7F)];
                        units += u64::from(PAIR[usize::from(last << 4 | class)]);
                        last = class;
                    }
                    at += 8;
                    continue;
                }
            }
            let lead = bytes[at];
            let (class, width) = if lead < 0x80 {
                (ASCII_CLASS[usize::from(lead)], 1)
            } else {
                let byte = |index: usize| bytes.get(index).copied().unwrap_or(0);
                classify_multibyte(lead, byte(at + 1), byte(at + 2))
            };
            units += if width == 4 {
                four_byte_units(bytes, at)
            } else {
                u64::from(PAIR[usize::from(last << 4 | class)])
            };
            last = class;
            at += width;
        }
        self.units = units;
        self.last = last;
        at
    }

    /// A tally of no text yet that continues after `text`: the tally of what follows a text
    /// that ends as `text` does, for [`TokenTally::then`] to add to that text's tally (a text
    /// whose beginning varies, as a TOON table's header with its row count, and whose end does
    /// not).
    pub(crate) fn after(text: &str) -> TokenTally {
        let mut before = TokenTally::new();
        before.push(text);
        TokenTally {
            units: 0,
            last: before.last,
        }
    }

    /// This tally's text followed by the text of `rest`, a tally begun [`after`](TokenTally::after)
    /// a text whose last character is of the class this one's is (each character's weight
    /// depends on the one before it only, so that is exactly the tally of the joined text).
    pub(crate) fn then(self, rest: TokenTally) -> TokenTally {
        TokenTally {
            units: self.units + rest.units,
            last: rest.last,
        }
    }

    /// The estimated tokens of all the text pushed so far.
    pub fn tokens(&self) -> usize {
        usize::try_from(self.units.div_ceil(UNIT)).unwrap_or(usize::MAX)
    }
}

/// The bytes the block path counts at a time.
const BLOCK: usize = 64;

/// A text's last bytes, fewer than a block, are counted as one masked block from this many on
/// (fewer are counted faster one at a time).
#[cfg(target_arch = "x86_64")]
const SHORT_TAIL: usize = 16;

/// Weights are in `1/UNIT` tokens, so fractional weights add up without rounding until the end.
const UNIT: u64 = 128;

// The classes of characters. `START` is the class "before" the first character (a row of
// `PAIR` only; its column is that of a byte that continues a character, which weighs nothing).
const START: u8 = 0;
/// `a`, `e`, `i`, `o`, `u`.
const VOWEL: u8 = 1;
/// The common consonants of words: `n`, `r`, `s`, `t`, `l`, `d`, `c`, `m`, `h`.
const CONSONANT: u8 = 2;
/// The other lower-case letters (`b`, `f`, `g`, `j`, `k`, `p`, `q`, `v`, `w`, `x`, `y`, `z`):
/// words have few of them, and fewer in clusters; letters drawn at random are half of them,
/// in clusters. So the estimate tells an id of random letters (a token for two or three
/// letters) from a word (a token for five or more).
const RARE: u8 = 3;
/// `A`–`Z`.
const UPPER: u8 = 4;
/// `0`–`9`.
const DIGIT: u8 = 5;
/// ASCII punctuation, `DEL` and control characters other than whitespace.
const MARK: u8 = 6;
/// Space, tab, vertical tab, form feed.
const SPACE: u8 = 7;
/// `\n` and `\r`.
const NEWLINE: u8 = 8;
/// An accented Latin letter (U+00C0–U+02FF: `é`, `ü`, `ñ`, `ł`), or a letter of the other
/// 2-byte scripts whose words take more tokens than Cyrillic ones: Greek, Armenian, Hebrew,
/// Arabic, Syriac, Thaana, N'Ko.
const ACCENTED: u8 = 9;
/// A Cyrillic letter (U+0400–U+04FF).
const ALPHABETIC: u8 = 10;
/// A 2- or 3-byte symbol: Latin-1 signs, typographic punctuation, arrows, CJK punctuation,
/// variation selectors, full-width forms.
const SYMBOL: u8 = 11;
/// Hiragana (U+3040–U+309F): the kana of Japanese words and endings, which merge into few
/// tokens (`ありがとうございます` is one).
const HIRAGANA: u8 = 12;
/// CJK ideographs (and the rest of U+3100–U+9FFF), and the letters of the other 3-byte
/// scripts (Indic scripts, Thai, Hangul...), which the corpus prices alike.
const HAN: u8 = 13;
/// Katakana (U+30A0–U+30FF, with the prolonged sound mark `ー`): the kana of loanwords and
/// names (`デジタルカメラ`), which merge far less than hiragana: seven characters, seven tokens.
const KATAKANA: u8 = 14;
/// A 4-byte character (emoji, mostly: priced by [`EMOJI_TOKENS`], not by a pair), or a combining
/// mark (U+0300–U+036F): the accents of text in decomposed form (NFD, as macOS stores file
/// names), which merge with their letter far less than a precomposed letter does; a combining
/// mark weighs the same after any class ([`EMOJI_PAIR`]).
const EMOJI: u8 = 15;
/// The classes and `START`: a class fits four bits, a pair of them a byte.
const CLASSES: usize = 16;

/// What a character of class `next` adds after one of class `last`, in `1/UNIT` tokens.
const fn pair(last: u8, next: u8) -> u16 {
    PAIR_WEIGHTS[last as usize][next as usize]
}

/// [`pair`] as a table, for the loop over characters: flat, at `last * 16 + next`, so that an
/// index of a byte needs no bounds check.
static PAIR: [u16; CLASSES * CLASSES] = {
    let mut flat = [0; CLASSES * CLASSES];
    let mut index = 0;
    while index < CLASSES * CLASSES {
        flat[index] = PAIR_WEIGHTS[index / CLASSES][index % CLASSES];
        index += 1;
    }
    flat
};

/// The weight of each pair of classes (row: the last character's class, `START` first; column:
/// this character's), in `1/UNIT` tokens, fitted on the calibration corpus by
/// `scripts/fit_token_weights.py` (module docs), which prints this table. Before an ASCII
/// character, every 2-byte letter weighs as a lower-case letter and every other non-ASCII class
/// as a symbol (the block paths know them by those codes), and each such weight fits a byte;
/// nothing weighs more after a character than at the start, and at most two tokens less (the
/// bounds of "Adding parts"). Tests check all three.
#[rustfmt::skip]
const PAIR_WEIGHTS: [[u16; CLASSES]; CLASSES] = include!("tokens/pairs.in");

/// The tokens of each code point from U+1F000 to U+1FFFF (emoji, the regional indicators of
/// flags, skin tones, pictographs: every character whose UTF-8 begins `F0 9F`), by the
/// `o200k_base` tokenizer, with a space before it (that space goes into the emoji's first token
/// or takes one of its own; an emoji alone never takes more). Emoji do not merge with the letters
/// around them, and most take two or three tokens, a few one (`👍`): one weight for all was
/// under on the many and over on the few (PERFORMANCE.md, "Issue #20, round thirteen"). Written
/// by the `emoji_table` binary of `fusion-examples`, which checks it against the tokenizer.
static EMOJI_TOKENS: [u8; 0x1000] = include!("tokens/emoji.in");

/// What any other 4-byte character takes (historic scripts, rare ideographs, characters not
/// yet assigned: the tokenizer has no merges for most of them): no more than a token a byte,
/// and a token for a space before it.
const FAR_TOKENS: u8 = 5;

/// The weight, in units, of the 4-byte character whose lead byte is at `bytes[at]`: its tokens
/// by [`EMOJI_TOKENS`] (or [`FAR_TOKENS`]), whatever comes before it (every other character is
/// priced by its pair). No branch on the text: the block paths call it for every emoji.
#[inline]
fn four_byte_units(bytes: &[u8], at: usize) -> u64 {
    let byte = |index: usize| bytes.get(index).copied().unwrap_or(0);
    let (lead, second) = (byte(at), byte(at + 1));
    let index = usize::from(byte(at + 2) & 0x3F) << 6 | usize::from(byte(at + 3) & 0x3F);
    let tokens = if lead == 0xF0 && second == 0x9F {
        EMOJI_TOKENS[index]
    } else {
        FAR_TOKENS
    };
    u64::from(tokens) * UNIT
}

/// What the pairs give a character of class [`EMOJI`] after any class: the same weight after
/// every class (a combining mark's, the one other character of the class), so that a block
/// path, which counts a 4-byte character by its pair as any other, needs only to replace that
/// weight by [`four_byte_units`], whatever came before.
const EMOJI_PAIR: u16 = PAIR_WEIGHTS[START as usize][EMOJI as usize];
const _: () = {
    let mut last = 0;
    while last < CLASSES {
        assert!(
            PAIR_WEIGHTS[last][EMOJI as usize] == EMOJI_PAIR,
            "the weights of the pairs before an emoji are all the same"
        );
        last += 1;
    }
};

/// The class of each ASCII byte.
static ASCII_CLASS: [u8; 128] = {
    let mut table = [MARK; 128];
    let mut byte = 0;
    while byte < 128 {
        #[allow(
            clippy::cast_possible_truncation,
            reason = "the index stays below 128, a valid `u8`"
        )]
        let b = byte as u8;
        table[byte] = match b {
            b'a' | b'e' | b'i' | b'o' | b'u' => VOWEL,
            b'n' | b'r' | b's' | b't' | b'l' | b'd' | b'c' | b'm' | b'h' => CONSONANT,
            b'a'..=b'z' => RARE,
            b'A'..=b'Z' => UPPER,
            b'0'..=b'9' => DIGIT,
            b'\n' | b'\r' => NEWLINE,
            b' ' | b'\t' | 0x0b | 0x0c => SPACE,
            _ => MARK,
        };
        byte += 1;
    }
    table
};

/// The class and byte width of the character that starts with `lead` (not ASCII) followed by
/// `second` and `third` (0 past the text), by code-point range: the definition the byte
/// tables below are made from (and the character-at-a-time count of the tests). Only `E3 82`
/// needs its third byte: hiragana end and katakana begin within it.
const fn classify_multibyte(lead: u8, second: u8, third: u8) -> (u8, usize) {
    match lead {
        // U+0080–U+00BF: Latin-1 punctuation and symbols (no-break space, `©`, `«`, `°`).
        0xC2 => (SYMBOL, 2),
        // U+00C0–U+02FF: accented Latin, IPA, spacing modifiers; U+0370–U+03FF and
        // U+0500–U+07FF: Greek, Armenian, Hebrew, Arabic, Syriac, Thaana, N'Ko (priced like
        // accented letters: their words take more tokens than Cyrillic ones).
        0xC3..=0xCB | 0xCE..=0xCF | 0xD4..=0xDF => (ACCENTED, 2),
        // U+0300–U+036F: combining marks (the class `EMOJI`, see there).
        0xCC..=0xCD => (EMOJI, 2),
        // U+0400–U+04FF: Cyrillic.
        0xD0..=0xD3 => (ALPHABETIC, 2),
        // U+2000–U+2FFF: punctuation, arrows, math, box drawing, dingbats.
        0xE2 => (SYMBOL, 3),
        // U+3000–U+303F: CJK punctuation (`、`, `。`, `「`).
        0xE3 if second < 0x81 => (SYMBOL, 3),
        // U+3040–U+309F: hiragana; U+30A0–U+30FF: katakana (E3 82 A0 on).
        0xE3 if second == 0x81 || (second == 0x82 && third < 0xA0) => (HIRAGANA, 3),
        0xE3 if second <= 0x83 => (KATAKANA, 3),
        // U+FE00–U+FFFF: variation selectors, CJK compatibility and full-width forms (`（`, `！`).
        0xEF if second >= 0xB8 => (SYMBOL, 3),
        // The rest of the 3-byte range: bopomofo, CJK strokes and ideographs (U+3100–U+9FFF),
        // Indic scripts, Thai, Hangul, Yi.
        0xE0..=0xEF => (HAN, 3),
        // U+10000 and above: emoji, historic scripts, rare ideographs (priced by
        // `four_byte_units`, not by a pair).
        _ => (EMOJI, 4),
    }
}
