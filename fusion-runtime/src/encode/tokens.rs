//! Token counts of response text: a fast estimate for the hot path, an exact `o200k_base` count
//! for tests and reports (feature `exact-tokens`), both behind one trait, [`TokenCounter`].
//!
//! # How the estimate works
//!
//! Byte-pair tokenizers of the GPT family first cut a text into *pieces* with a regular
//! expression (words with their leading space, runs of up to three digits, runs of punctuation
//! that take the newlines after them, runs of whitespace), and only then merge bytes within each
//! piece. Most short pieces of the text a tool answers with (JSON keys and punctuation,
//! indentation, English words, ids) are one token each. So the estimate replays `o200k_base`'s
//! cut in one pass over the bytes (as the regular expression cuts ASCII text; other text by
//! code-point ranges) and prices each piece by its kind and length: letters by script, a
//! capitalized word right after a mark as a name (`|Hooli` is `|` `H` `ooli`), ASCII marks by
//! runs, symbols and emoji each. The prices were fitted on a corpus of billing JSON and TOON,
//! whole billing responses, rules, UI blocks, `<tool_error>` envelopes, wide synthetic rows and
//! German, Russian, Japanese and emoji text (`fusion_examples::token_corpus`), and are checked
//! against it by `cargo run --release -p fusion-examples --features token-report --bin
//! token_calibration` (the table is in PERFORMANCE.md, "Token estimate calibration").
//!
//! Accuracy, per corpus item of at least 200 exact tokens: never more than 5% under the exact
//! count, never more than 15% over it (measured: 4.3% under to 14.5% over, median 5.6% over).
//! Text unlike the corpus can fall outside: random identifiers, base64 and hex digests cost
//! more tokens per byte than words do, and scripts outside the corpus (Arabic, Hindi, Thai...)
//! are priced like the nearest script in it.
//!
//! # Adding parts
//!
//! [`TokenTally`] takes text in chunks and keeps the cut's state between them: the tally of
//! chunks `a` then `b` is exactly the estimate of `a + b`, and a tally is `Copy`, so a fitting
//! loop can keep the tally of the items it has kept and try the next one on a copy, without
//! counting anything twice.
//!
//! Estimating parts separately and adding the results never gives less than the estimate of
//! the joined text, and at most three tokens more per part (a cut inside a piece makes two
//! pieces, a cut after a space or mark can make the next word a name, and each part rounds up):
//!
//! ```text
//! estimate(a + b) <= estimate(a) + estimate(b) <= estimate(a + b) + 3
//! ```
//!
//! so a sum of per-item estimates is a safe (upper) estimate of the joined items.

#[cfg(feature = "exact-tokens")]
mod exact;
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
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct TokenTally {
    /// The price of the pieces already closed, in [`UNIT`]ths of a token.
    units: u64,
    /// The piece still open at the end of the text so far.
    open: Open,
}

impl TokenTally {
    /// An empty tally (0 tokens).
    pub fn new() -> Self {
        TokenTally::default()
    }

    /// Adds `text` after the text pushed so far.
    ///
    /// Most characters only lengthen the open piece (the letters of a word, an indentation),
    /// so those runs are counted in tight loops over ASCII kinds (`extend`); only
    /// the character that ends a run goes through `step`, which decides the cut.
    /// The result is the same as stepping through every character (a test checks it).
    pub fn push(&mut self, text: &str) {
        let bytes = text.as_bytes();
        // Worked on in a local, which the compiler can keep in registers.
        let mut tally = *self;
        let mut at = 0;
        loop {
            at = tally.extend(bytes, at);
            let Some(&lead) = bytes.get(at) else {
                break;
            };
            if lead < 0x80 {
                tally.cut_before(KIND[usize::from(lead)]);
                at += 1;
            } else {
                let (class, width) =
                    classify_multibyte(lead, bytes.get(at + 1).copied().unwrap_or(0));
                tally.step(class);
                at += width;
            }
        }
        *self = tally;
    }

    /// [`TokenTally::step`] for an ASCII character of `kind` that does not lengthen the open
    /// piece (what [`TokenTally::extend`] stops at): the open piece closes and the character
    /// starts the next one. The same cut as `step`, without its general matching.
    #[inline]
    fn cut_before(&mut self, kind: u8) {
        let unspaced = match self.open {
            Open::Nothing => true,
            Open::Word(word) => {
                self.pay(Piece::Word(word));
                false
            }
            Open::Digits(count) => {
                self.pay(Piece::Digits(count));
                false
            }
            Open::Punct(punct) => {
                self.pay(Piece::Punct(punct));
                true
            }
            Open::Spaces(count) => {
                self.open = self.after_spaces(count, kind);
                return;
            }
            Open::Newlines { piece, spaces } => {
                self.pay(Piece::Newlines(piece));
                if spaces > 0 {
                    self.open = self.after_spaces(spaces, kind);
                    return;
                }
                true
            }
        };
        self.open = Open::starting(ASCII_CLASS[usize::from(kind)], unspaced);
    }

    /// The piece an ASCII character of `kind` (not a space) opens after `count` spaces, the
    /// spaces before it paid (the arms of [`TokenTally::step`] for spaces).
    #[inline]
    fn after_spaces(&mut self, count: u64, kind: u8) -> Open {
        match kind {
            KIND_LOWER | KIND_UPPER => {
                self.pay(Piece::Spaces(count - 1));
                Open::Word(Word::starting(letter_of(kind), false))
            }
            KIND_MARK => {
                self.pay(Piece::Spaces(count - 1));
                Open::Punct(Punct::starting(Mark::Ascii))
            }
            KIND_NEWLINE => Open::Newlines {
                piece: count + 1,
                spaces: 0,
            },
            _ => {
                self.pay(Piece::Spaces(count));
                Open::Digits(1)
            }
        }
    }

    /// Lengthens the open piece by the ASCII characters from `at` on that `step` would only add
    /// to it, and returns where the first other character starts.
    #[inline]
    fn extend(&mut self, bytes: &[u8], mut at: usize) -> usize {
        let run = |at: usize, kind: u8| {
            bytes[at..]
                .iter()
                .position(|&b| KIND[usize::from(b)] != kind)
                .map_or(bytes.len(), |len| at + len)
        };
        let count = |from: usize, to: usize| (to - from) as u64;
        match &mut self.open {
            Open::Nothing => {}
            Open::Word(word) => loop {
                // Upper-case letters continue a word until a lower-case one (`ID`, `Hooli`);
                // lower-case ones continue it always.
                if !word.last_lower {
                    let end = run(at, KIND_UPPER);
                    word.ascii += count(at, end);
                    at = end;
                }
                let end = run(at, KIND_LOWER);
                if end == at {
                    break;
                }
                word.ascii += count(at, end);
                word.last_lower = true;
                at = end;
            },
            Open::Digits(digits) => {
                let end = run(at, KIND_DIGIT);
                *digits += count(at, end);
                at = end;
            }
            Open::Punct(punct) => {
                if punct.newlines == 0 {
                    let end = run(at, KIND_MARK);
                    punct.ascii += count(at, end);
                    at = end;
                }
                let end = run(at, KIND_NEWLINE);
                punct.newlines += count(at, end);
                at = end;
            }
            Open::Spaces(spaces) => {
                let end = run(at, KIND_SPACE);
                *spaces += count(at, end);
                at = end;
            }
            Open::Newlines { piece, spaces } => loop {
                let end = run(at, KIND_SPACE);
                *spaces += count(at, end);
                at = end;
                let end = run(at, KIND_NEWLINE);
                if end == at {
                    break;
                }
                // A newline takes the spaces before it into the piece.
                *piece += *spaces + count(at, end);
                *spaces = 0;
                at = end;
            },
        }
        at
    }

    /// The estimated tokens of all the text pushed so far.
    pub fn tokens(&self) -> usize {
        let mut closed = *self;
        closed.close();
        usize::try_from(closed.units.div_ceil(UNIT)).unwrap_or(usize::MAX)
    }

    /// Closes the open piece (end of text).
    #[inline]
    fn close(&mut self) {
        match self.open {
            Open::Nothing => {}
            Open::Word(word) => self.pay(Piece::Word(word)),
            Open::Digits(count) => self.pay(Piece::Digits(count)),
            Open::Punct(punct) => self.pay(Piece::Punct(punct)),
            Open::Spaces(count) => self.pay(Piece::Spaces(count)),
            Open::Newlines { piece, spaces } => {
                self.pay(Piece::Newlines(piece));
                self.pay(Piece::Spaces(spaces));
            }
        }
        self.open = Open::Nothing;
    }

    #[inline]
    fn pay(&mut self, piece: Piece) {
        self.units = self.units.saturating_add(price(piece));
    }

    /// One character of class `class` after the text so far.
    fn step(&mut self, class: Class) {
        self.open = match (self.open, class) {
            // Inside a word: letters continue it, except an upper-case letter after a
            // lower-case one (`amountCents` is cut as `amount` + `Cents`).
            (Open::Word(mut word), Class::Letter(letter)) => {
                if word.last_lower && letter == Letter::Upper {
                    self.pay(Piece::Word(word));
                    Open::Word(Word::starting(letter, false))
                } else {
                    word.add(letter);
                    Open::Word(word)
                }
            }
            (Open::Digits(count), Class::Digit) => Open::Digits(count + 1),
            (Open::Punct(mut punct), Class::Punct(mark)) if punct.newlines == 0 => {
                punct.add(mark);
                Open::Punct(punct)
            }
            // `[\r\n]*` after a punctuation run belongs to it (`",\n` is one piece).
            (Open::Punct(mut punct), Class::Newline) => {
                punct.newlines += 1;
                Open::Punct(punct)
            }
            (Open::Spaces(count), Class::Space) => Open::Spaces(count + 1),
            (Open::Spaces(count), Class::Newline) => Open::Newlines {
                piece: count + 1,
                spaces: 0,
            },
            // Spaces before a letter or a mark: the last one leads the next piece (` name`, ` "`).
            (Open::Spaces(count), Class::Letter(letter)) => {
                self.pay(Piece::Spaces(count - 1));
                Open::Word(Word::starting(letter, false))
            }
            (Open::Spaces(count), Class::Punct(mark)) => {
                self.pay(Piece::Spaces(count - 1));
                Open::Punct(Punct::starting(mark))
            }
            // Before a digit the last space is a piece of its own (` 5` is ` ` + `5`, and
            // `   5` is `  ` + ` ` + `5`); the run is priced as one piece all the same, so that
            // estimates of parts never add up to less than the estimate of the whole.
            (Open::Spaces(count), Class::Digit) => {
                self.pay(Piece::Spaces(count));
                Open::Digits(1)
            }
            // A whitespace run with newlines is one piece up to its last newline.
            (Open::Newlines { piece, spaces }, Class::Newline) => Open::Newlines {
                piece: piece + spaces + 1,
                spaces: 0,
            },
            (Open::Newlines { piece, spaces }, Class::Space) => Open::Newlines {
                piece,
                spaces: spaces + 1,
            },
            (Open::Newlines { piece, spaces }, next) => {
                self.pay(Piece::Newlines(piece));
                self.open = if spaces == 0 {
                    Open::Nothing
                } else {
                    Open::Spaces(spaces)
                };
                self.step(next);
                return;
            }
            // Anything else closes the open piece and starts a new one.
            (open, next) => {
                let unspaced = matches!(open, Open::Nothing | Open::Punct(_));
                if open != Open::Nothing {
                    self.close();
                }
                Open::starting(next, unspaced)
            }
        };
    }
}

/// Prices are in `1/UNIT` tokens, so fractional prices add up without rounding until the end.
const UNIT: u64 = 64;

/// A letter, by what decides the cut and the price.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Letter {
    /// `a`–`z`.
    Lower,
    /// `A`–`Z`.
    Upper,
    /// A letter of a 2-byte script: accented Latin, Greek, Cyrillic, Hebrew, Arabic...
    Alphabetic,
    /// A letter of a 3-byte script: kana, CJK ideographs, Hangul, Indic scripts...
    Syllabic,
}

/// A character that is neither a letter, a digit nor whitespace, by price.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mark {
    /// ASCII punctuation or control.
    Ascii,
    /// A 2- or 3-byte symbol: typographic punctuation, arrows, box drawing, CJK punctuation.
    Symbol,
    /// A 4-byte character: emoji, mostly.
    Emoji,
}

/// What one character is to the cut.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Class {
    Letter(Letter),
    Digit,
    Punct(Mark),
    /// Whitespace other than newlines.
    Space,
    /// `\n` or `\r`.
    Newline,
}

/// The piece still open at the end of the text so far.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
enum Open {
    #[default]
    Nothing,
    Word(Word),
    Digits(u64),
    Punct(Punct),
    Spaces(u64),
    /// A whitespace run with newlines: `piece` characters up to its last newline, then
    /// `spaces` spaces.
    Newlines {
        piece: u64,
        spaces: u64,
    },
}

impl Open {
    /// The piece a character starts after a closed piece (`unspaced`: a mark, a newline or
    /// nothing before it).
    #[inline]
    fn starting(class: Class, unspaced: bool) -> Open {
        match class {
            Class::Letter(letter) => Open::Word(Word::starting(letter, unspaced)),
            Class::Digit => Open::Digits(1),
            Class::Punct(mark) => Open::Punct(Punct::starting(mark)),
            Class::Space => Open::Spaces(1),
            Class::Newline => Open::Newlines {
                piece: 1,
                spaces: 0,
            },
        }
    }
}

/// A word piece: its letters by kind (a space that leads it costs nothing: ` name` is
/// mostly one token, as `name` is).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Word {
    ascii: u64,
    alphabetic: u64,
    syllabic: u64,
    /// Capitalized, right after a mark or a newline or at the start: mostly a name, which
    /// costs more (`|Hooli` is `|` `H` `ooli`; ` Cloud` is one token).
    name: bool,
    last_lower: bool,
}

impl Word {
    #[inline]
    fn starting(letter: Letter, unspaced: bool) -> Word {
        let mut word = Word {
            ascii: 0,
            alphabetic: 0,
            syllabic: 0,
            name: unspaced && letter == Letter::Upper,
            last_lower: false,
        };
        word.add(letter);
        word
    }

    #[inline]
    fn add(&mut self, letter: Letter) {
        match letter {
            Letter::Lower | Letter::Upper => self.ascii += 1,
            Letter::Alphabetic => self.alphabetic += 1,
            Letter::Syllabic => self.syllabic += 1,
        }
        self.last_lower = letter == Letter::Lower;
    }
}

/// A punctuation piece: its marks by kind and the newlines it took (a space that leads it costs
/// nothing: ` "` is one token).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Punct {
    ascii: u64,
    symbols: u64,
    emoji: u64,
    newlines: u64,
}

impl Punct {
    #[inline]
    fn starting(mark: Mark) -> Punct {
        let mut punct = Punct {
            ascii: 0,
            symbols: 0,
            emoji: 0,
            newlines: 0,
        };
        punct.add(mark);
        punct
    }

    #[inline]
    fn add(&mut self, mark: Mark) {
        match mark {
            Mark::Ascii => self.ascii += 1,
            Mark::Symbol => self.symbols += 1,
            Mark::Emoji => self.emoji += 1,
        }
    }
}

/// A closed piece, to be priced.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Piece {
    Word(Word),
    Digits(u64),
    Punct(Punct),
    Spaces(u64),
    Newlines(u64),
}

/// The prices of the pieces, in `1/UNIT` tokens, fitted on the calibration corpus.
struct Prices {
    /// A letter of `a`–`z`, `A`–`Z`.
    ascii_letter: u64,
    /// A letter of a 2-byte script.
    alphabetic_letter: u64,
    /// A letter of a 3-byte script.
    syllabic_letter: u64,
    /// The letter weight a word's first token covers.
    word_free: u64,
    /// The extra for a name ([`Word::name`]).
    name: u64,
    /// ASCII marks one token covers (`",`, `}]`, ` "` are one token; a long rule of `=` is not).
    ascii_marks_per_token: u64,
    /// A symbol mark.
    symbol_mark: u64,
    /// An emoji.
    emoji_mark: u64,
    /// A newline taken by a punctuation piece.
    punct_newline: u64,
    /// Spaces one token covers.
    spaces_per_token: u64,
    /// Whitespace characters one token covers in a piece with newlines.
    newlines_per_token: u64,
}

const PRICES: Prices = Prices {
    ascii_letter: 11,
    alphabetic_letter: 19,
    syllabic_letter: 43,
    word_free: 64,
    name: 42,
    ascii_marks_per_token: 8,
    symbol_mark: 104,
    emoji_mark: 95,
    punct_newline: 0,
    spaces_per_token: 9,
    newlines_per_token: 16,
};

/// The price of a piece in `1/UNIT` tokens. Each price is at most one token more than the prices
/// of the two pieces a cut anywhere inside it would make, and never more than their sum (the
/// bound of "Adding parts").
#[inline]
fn price(piece: Piece) -> u64 {
    match piece {
        Piece::Word(word) => {
            let weight = word.ascii * PRICES.ascii_letter
                + word.alphabetic * PRICES.alphabetic_letter
                + word.syllabic * PRICES.syllabic_letter;
            let name = if word.name { PRICES.name } else { 0 };
            UNIT + weight.saturating_sub(PRICES.word_free) + name
        }
        // `\p{N}{1,3}`: every run of one to three digits is one token.
        Piece::Digits(count) => count.div_ceil(3) * UNIT,
        Piece::Punct(punct) => {
            let ascii = punct.ascii.div_ceil(PRICES.ascii_marks_per_token);
            ascii.max(1) * UNIT
                + punct.symbols * PRICES.symbol_mark
                + punct.emoji * PRICES.emoji_mark
                + punct.newlines * PRICES.punct_newline
        }
        Piece::Spaces(count) => count.div_ceil(PRICES.spaces_per_token) * UNIT,
        Piece::Newlines(count) => count.div_ceil(PRICES.newlines_per_token) * UNIT,
    }
}

/// The class of each ASCII byte.
#[allow(
    clippy::cast_possible_truncation,
    reason = "the index stays below 128, a valid `u8`"
)]
static ASCII: [Class; 128] = {
    let mut table = [Class::Punct(Mark::Ascii); 128];
    let mut byte = 0;
    while byte < 128 {
        table[byte] = match byte as u8 {
            b'a'..=b'z' => Class::Letter(Letter::Lower),
            b'A'..=b'Z' => Class::Letter(Letter::Upper),
            b'0'..=b'9' => Class::Digit,
            b'\n' | b'\r' => Class::Newline,
            b' ' | b'\t' | 0x0b | 0x0c => Class::Space,
            _ => Class::Punct(Mark::Ascii),
        };
        byte += 1;
    }
    table
};

/// The ASCII kinds [`TokenTally::extend`] runs over (a byte of 0x80 and above is none of them).
const KIND_LOWER: u8 = 0;
const KIND_UPPER: u8 = 1;
const KIND_DIGIT: u8 = 2;
const KIND_MARK: u8 = 3;
const KIND_SPACE: u8 = 4;
const KIND_NEWLINE: u8 = 5;
const KIND_NOT_ASCII: u8 = 6;

/// The kind of every byte, as [`ASCII`] classes them.
static KIND: [u8; 256] = {
    let mut table = [KIND_NOT_ASCII; 256];
    let mut byte = 0;
    while byte < 128 {
        table[byte] = match ASCII[byte] {
            Class::Letter(Letter::Lower) => KIND_LOWER,
            Class::Letter(Letter::Upper) => KIND_UPPER,
            Class::Digit => KIND_DIGIT,
            Class::Space => KIND_SPACE,
            Class::Newline => KIND_NEWLINE,
            _ => KIND_MARK,
        };
        byte += 1;
    }
    table
};

/// The class of each ASCII kind.
const ASCII_CLASS: [Class; 7] = [
    Class::Letter(Letter::Lower),
    Class::Letter(Letter::Upper),
    Class::Digit,
    Class::Punct(Mark::Ascii),
    Class::Space,
    Class::Newline,
    // Not ASCII: never looked up.
    Class::Punct(Mark::Symbol),
];

/// The letter of an ASCII letter kind.
fn letter_of(kind: u8) -> Letter {
    if kind == KIND_LOWER {
        Letter::Lower
    } else {
        Letter::Upper
    }
}

/// The class and byte width of the character that starts with `lead`, followed by `second`.
#[cfg(test)]
fn classify(lead: u8, second: u8) -> (Class, usize) {
    if lead < 0x80 {
        (ASCII[usize::from(lead)], 1)
    } else {
        classify_multibyte(lead, second)
    }
}

/// The class and byte width of the character that starts with `lead` (not ASCII) followed by
/// `second`, by code-point range.
fn classify_multibyte(lead: u8, second: u8) -> (Class, usize) {
    match lead {
        // U+0080–U+00BF: Latin-1 punctuation and symbols (no-break space, `©`, `«`, `°`).
        0xC2 => (Class::Punct(Mark::Symbol), 2),
        // U+00C0–U+07FF: accented Latin, combining marks, Greek, Cyrillic, Hebrew, Arabic.
        0xC3..=0xDF => (Class::Letter(Letter::Alphabetic), 2),
        // U+2000–U+2FFF: punctuation, arrows, math, box drawing, dingbats.
        0xE2 => (Class::Punct(Mark::Symbol), 3),
        // U+3000–U+303F: CJK punctuation (`、`, `。`, `「`).
        0xE3 if second < 0x81 => (Class::Punct(Mark::Symbol), 3),
        // U+FF00–U+FFFF: full-width punctuation and forms (`（`, `！`, `：`).
        0xEF if second >= 0xBC => (Class::Punct(Mark::Symbol), 3),
        // The rest of the 3-byte range: Indic scripts, kana, CJK ideographs, Hangul.
        0xE0..=0xEF => (Class::Letter(Letter::Syllabic), 3),
        // U+10000 and above: emoji, historic scripts, rare ideographs.
        _ => (Class::Punct(Mark::Emoji), 4),
    }
}
