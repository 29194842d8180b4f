//! AVX-512 with VBMI: a plain block's 64 bytes are looked up in a 128-byte table of their classes
//! (one permute of two registers), the class of the byte before each moved in by another, and
//! each pair's weight looked up in a 128-byte table of [`pair`] (at `before * 9 + code`: ten
//! codes before, eight ASCII classes after, [`super::pair_index`]); the weights, a byte each, are
//! summed eight at a time. About a dozen instructions a block.
//!
//! A block with anything else (multi-byte characters, control characters) is counted whole too
//! ([`mixed`]): each byte's class from two 128-byte tables (ASCII bytes, and the others by their
//! low seven bits: a lead byte's character's class, or "continuation"), the two leads whose class
//! depends on the bytes after them (`E3`, `EF`) corrected by comparing those bytes; a continuation
//! byte then takes its character's class from the byte before it (three times: a character has
//! at most three), so that the byte before every character holds the class of the character
//! before it; and each pair's weight is looked up in two 256-byte tables (its low and its high
//! byte; a continuation byte's 0). About forty instructions a block, at any mix of scripts.

#![allow(
    unsafe_code,
    reason = "unaligned loads, each inside the text or a table"
)]
#![allow(
    clippy::cast_ptr_alignment,
    reason = "the unaligned loads take a vector pointer of any alignment"
)]

use std::arch::x86_64::{
    __m512i, _mm_extract_epi8, _mm512_add_epi8, _mm512_add_epi64, _mm512_castsi512_si128,
    _mm512_cmpeq_epi8_mask, _mm512_cmpge_epu8_mask, _mm512_cmplt_epi8_mask, _mm512_cmplt_epu8_mask,
    _mm512_extracti32x4_epi32, _mm512_loadu_si512, _mm512_mask_blend_epi8, _mm512_mask_mov_epi8,
    _mm512_maskz_loadu_epi8, _mm512_maskz_mov_epi8, _mm512_movepi8_mask, _mm512_permutex2var_epi8,
    _mm512_permutexvar_epi8, _mm512_reduce_add_epi64, _mm512_sad_epu8, _mm512_set1_epi8,
    _mm512_setzero_si512, _mm512_slli_epi16, _mm512_slli_epi64,
};

use super::super::{ASCII_CLASS, BLOCK, HIRAGANA, KATAKANA, SYMBOL, TokenTally};
use super::{CONTINUATION, HIGH_CLASS, PAIR_HIGH, PAIR_LOW, PAIRS, code, four_byte_correction};

/// For moving the byte before each in: byte 63 of the block before, then bytes 0 to 62 of this
/// one (a two-register permute takes 0–63 from the first, 64–127 from the second).
static BEFORE: [u8; 64] = {
    let mut table = [0; 64];
    table[0] = 63;
    let mut index = 1;
    while index < 64 {
        #[allow(
            clippy::cast_possible_truncation,
            reason = "the value stays below 128, a valid `u8`"
        )]
        let byte = (63 + index) as u8;
        table[index] = byte;
        index += 1;
    }
    table
};

/// Loads 64 bytes of a table.
#[inline]
#[target_feature(enable = "avx512bw")]
fn table(bytes: &[u8]) -> __m512i {
    assert!(bytes.len() >= BLOCK);
    // SAFETY: the load reads 64 bytes inside `bytes`, which has at least 64 (asserted above);
    // `_mm512_loadu_si512` takes any alignment.
    unsafe { _mm512_loadu_si512(bytes.as_ptr().cast::<__m512i>()) }
}

/// The blocks of `bytes` up to `end` (see [`super::push`]).
#[target_feature(enable = "avx512bw,avx512vbmi")]
pub(super) fn push(tally: &mut TokenTally, bytes: &[u8], end: usize) -> usize {
    let tables = Tables::load();
    let byte = |b: u8| _mm512_set1_epi8(b.cast_signed());
    let (newline, space, four) = (byte(b'\n'), byte(0x20), byte(0xF0));
    // What the text's 4-byte characters add besides their pairs.
    let mut correction = 0;
    let zero = _mm512_setzero_si512();
    // The codes of the last block (only its byte 63 is read), and whether it was plain.
    let mut last = byte(code(tally.last));
    let mut plain = false;
    // The sums of the weights, eight 64-bit lanes.
    let mut sums = zero;
    let mut at = 0;
    while at + BLOCK <= end {
        let x = table(&bytes[at..at + BLOCK]);
        // Below 0x20 as a signed byte: control characters, and every byte of 0x80 and above.
        let odd = _mm512_cmplt_epi8_mask(x, space) & !_mm512_cmpeq_epi8_mask(x, newline);
        if odd != 0 {
            if plain {
                tally.last = last_code(last);
            }
            // The whole block, whatever it holds; a character that crosses its end is counted
            // here, and its continuation bytes at the start of the next block add nothing.
            let (weights, class) = mixed(&tables, bytes, at, x, tally.last, Own::WHOLE);
            sums = _mm512_add_epi64(sums, weights);
            let leads = _mm512_cmpge_epu8_mask(x, four);
            if leads != 0 {
                correction += four_byte_correction(bytes, at, leads);
            }
            tally.last = class;
            last = byte(code(class));
            plain = false;
            at += BLOCK;
            continue;
        }
        let (weights, codes) = tables.plain.weights(x, last);
        sums = _mm512_add_epi64(sums, _mm512_sad_epu8(weights, zero));
        last = codes;
        plain = true;
        at += BLOCK;
    }
    if plain {
        tally.last = last_code(last);
    }
    tally.units += _mm512_reduce_add_epi64(sums).cast_unsigned();
    tally.units = tally.units.wrapping_add_signed(correction);
    // Past the continuation bytes of a character that crosses the last block's end (counted).
    while bytes.get(at).is_some_and(|&b| b & 0xC0 == 0x80) {
        at += 1;
    }
    at
}

/// Byte 63 of a block's codes or classes (a plain block's: an ASCII class, whose code is its
/// number).
#[inline]
#[target_feature(enable = "avx512bw")]
fn last_code(codes: __m512i) -> u8 {
    let top = _mm512_extracti32x4_epi32::<3>(codes);
    #[allow(
        clippy::cast_possible_truncation,
        clippy::cast_sign_loss,
        reason = "the extracted byte is zero-extended into an i32"
    )]
    let class = _mm_extract_epi8::<15>(top) as u8;
    class
}

/// The tables of a plain block, loaded once per push: the class codes of the ASCII bytes, the
/// weights of the pairs of codes, and the permute that moves the byte before each in.
struct Plain {
    classes: (__m512i, __m512i),
    pairs: (__m512i, __m512i),
    before: __m512i,
}

impl Plain {
    #[inline]
    #[target_feature(enable = "avx512bw")]
    fn load() -> Plain {
        Plain {
            classes: (table(&ASCII_CLASS[..64]), table(&ASCII_CLASS[64..])),
            pairs: (table(&PAIRS[..64]), table(&PAIRS[64..])),
            before: table(&BEFORE),
        }
    }

    /// The weight of each byte of the plain block `x` (a byte each), after the codes `last` of
    /// the block before (only its byte 63 is read); and the block's codes.
    #[inline]
    #[target_feature(enable = "avx512bw,avx512vbmi")]
    fn weights(&self, x: __m512i, last: __m512i) -> (__m512i, __m512i) {
        let codes = _mm512_permutex2var_epi8(self.classes.0, x, self.classes.1);
        let before = _mm512_permutex2var_epi8(last, self.before, codes);
        // Each byte's [`super::pair_index`]: its code before, times nine, plus its own (below
        // 90: no bit crosses into the next byte).
        let index = _mm512_add_epi8(
            _mm512_add_epi8(_mm512_slli_epi16::<3>(before), before),
            codes,
        );
        (
            _mm512_permutex2var_epi8(self.pairs.0, index, self.pairs.1),
            codes,
        )
    }
}

/// Byte `index` of a block's codes or classes.
#[inline]
#[target_feature(enable = "avx512bw,avx512vbmi")]
fn code_at(codes: __m512i, index: u8) -> u8 {
    if index == 63 {
        return last_code(codes);
    }
    let moved = _mm512_permutexvar_epi8(_mm512_set1_epi8(index.cast_signed()), codes);
    #[allow(
        clippy::cast_possible_truncation,
        clippy::cast_sign_loss,
        reason = "the extracted byte is zero-extended into an i32"
    )]
    let class = _mm_extract_epi8::<0>(_mm512_castsi512_si128(moved)) as u8;
    class
}

/// The class of the character that a block's first bytes continue, until it is put in from
/// the block before (no class has this number).
const UNKNOWN: u8 = 0xF0;
const _: () = assert!(super::super::CLASSES <= UNKNOWN as usize);

/// The tables of a push: a plain block's, and those [`mixed`] adds (the classes of the bytes
/// of 0x80 and above, and the weights of the pairs of classes), loaded once.
struct Tables {
    plain: Plain,
    high: (__m512i, __m512i),
    pair_low: [__m512i; 4],
    pair_high: [__m512i; 4],
}

impl Tables {
    #[inline]
    #[target_feature(enable = "avx512bw")]
    fn load() -> Tables {
        Tables {
            plain: Plain::load(),
            high: (table(&HIGH_CLASS[..64]), table(&HIGH_CLASS[64..])),
            pair_low: [
                table(&PAIR_LOW[..64]),
                table(&PAIR_LOW[64..128]),
                table(&PAIR_LOW[128..192]),
                table(&PAIR_LOW[192..]),
            ],
            pair_high: [
                table(&PAIR_HIGH[..64]),
                table(&PAIR_HIGH[64..128]),
                table(&PAIR_HIGH[128..192]),
                table(&PAIR_HIGH[192..]),
            ],
        }
    }
}

/// The weights of the characters that start in the block `x` at `bytes[at..]` (its first byte
/// starts a character or continues one counted before), after a character of class `last`:
/// their sums in eight 64-bit lanes, and the class of the block's last character.
#[inline]
#[target_feature(enable = "avx512bw,avx512vbmi")]
fn mixed(
    tables: &Tables,
    bytes: &[u8],
    at: usize,
    x: __m512i,
    last: u8,
    own: Own,
) -> (__m512i, u8) {
    let byte = |b: u8| _mm512_set1_epi8(b.cast_signed());
    // The byte after each: the block from `at + 1`, without reading past the text.
    let next = following(bytes, at + 1);
    let high = _mm512_movepi8_mask(x);
    let mut classes = _mm512_mask_blend_epi8(
        high,
        _mm512_permutex2var_epi8(tables.plain.classes.0, x, tables.plain.classes.1),
        _mm512_permutex2var_epi8(tables.high.0, x, tables.high.1),
    );
    // The leads whose class the bytes after them decide (classify_multibyte).
    let e3 = _mm512_cmpeq_epi8_mask(x, byte(0xE3));
    let below_81 = _mm512_cmplt_epu8_mask(next, byte(0x81));
    let below_84 = _mm512_cmplt_epu8_mask(next, byte(0x84));
    // `E3 82` is hiragana below a third byte of `A0`, katakana from it: that byte is loaded
    // only for a block that has the pair (Japanese text), which costs the others nothing.
    let e3_82 = e3 & _mm512_cmpeq_epi8_mask(next, byte(0x82));
    let mut hiragana = _mm512_cmpeq_epi8_mask(next, byte(0x81));
    if e3_82 != 0 {
        hiragana |= e3_82 & _mm512_cmplt_epu8_mask(following(bytes, at + 2), byte(0xA0));
    }
    let from_b8 = !_mm512_cmplt_epu8_mask(next, byte(0xB8));
    classes = _mm512_mask_mov_epi8(classes, e3 & !below_81 & below_84, byte(KATAKANA));
    classes = _mm512_mask_mov_epi8(classes, e3 & hiragana, byte(HIRAGANA));
    classes = _mm512_mask_mov_epi8(classes, e3 & below_81, byte(SYMBOL));
    let ef = _mm512_cmpeq_epi8_mask(x, byte(0xEF));
    classes = _mm512_mask_mov_epi8(classes, ef & from_b8, byte(SYMBOL));
    // Each continuation byte takes the class of the byte before it, three times over: then
    // every byte holds the class of the character it belongs to, and those that continue a
    // character begun in the block before hold `UNKNOWN`. Only after that is the class of that
    // character put in: the block's last class does not wait for the last block's, so blocks
    // are counted side by side (twice as fast as one after the other).
    let continuation = _mm512_cmpeq_epi8_mask(classes, byte(CONTINUATION));
    let unknown = byte(UNKNOWN);
    let mut of_character = classes;
    for _ in 0..3 {
        let before = _mm512_permutex2var_epi8(unknown, tables.plain.before, of_character);
        of_character = _mm512_mask_mov_epi8(of_character, continuation, before);
    }
    let before = _mm512_permutex2var_epi8(unknown, tables.plain.before, of_character);
    let before = _mm512_mask_mov_epi8(before, _mm512_cmpeq_epi8_mask(before, unknown), byte(last));
    // Each pair's weight, its low and its high byte, at `before * 16 + class` (below 256: a
    // class before is below 16, so no bit crosses into the next byte); a continuation byte's 0.
    let index = _mm512_add_epi8(_mm512_slli_epi16::<4>(before), classes);
    let upper = _mm512_movepi8_mask(index);
    let look_up = |halves: &[__m512i; 4]| {
        _mm512_mask_blend_epi8(
            upper,
            _mm512_permutex2var_epi8(halves[0], index, halves[1]),
            _mm512_permutex2var_epi8(halves[2], index, halves[3]),
        )
    };
    let zero = _mm512_setzero_si512();
    let weights = |halves| _mm512_maskz_mov_epi8(own.keep, look_up(halves));
    let sums = _mm512_add_epi64(
        _mm512_sad_epu8(weights(&tables.pair_low), zero),
        _mm512_slli_epi64::<8>(_mm512_sad_epu8(weights(&tables.pair_high), zero)),
    );
    (sums, code_at(of_character, own.last))
}

/// The 64 bytes of `bytes` from `from`, zero past the text (a masked-out byte is not read).
#[inline]
#[target_feature(enable = "avx512bw")]
fn following(bytes: &[u8], from: usize) -> __m512i {
    let count = bytes.len().saturating_sub(from).min(BLOCK);
    let keep = if count == BLOCK {
        u64::MAX
    } else {
        (1u64 << count) - 1
    };
    // SAFETY: the load reads only the bytes of `keep`, each inside `bytes` (the first `count`
    // from `from`; with none, nothing is read: a masked-out byte cannot fault).
    unsafe { _mm512_maskz_loadu_epi8(keep, bytes.as_ptr().wrapping_add(from).cast::<i8>()) }
}

/// Which bytes of a block are the text's: a whole block's 64, or the first of the text's last
/// bytes (fewer than 64, loaded with the rest zero).
#[derive(Clone, Copy)]
struct Own {
    /// A bit per byte of the text.
    keep: u64,
    /// The index of the last byte of the text.
    last: u8,
}

impl Own {
    const WHOLE: Own = Own {
        keep: u64::MAX,
        last: 63,
    };
}

/// The text's last bytes from `at` (fewer than 64, at least one, `at` on a character boundary)
/// added to `tally` the way a block is, their block loaded with the bytes past the text zero
/// and those bytes' weights left out: one block's work instead of a loop over characters.
#[target_feature(enable = "avx512bw,avx512vbmi")]
pub(super) fn push_tail(tally: &mut TokenTally, bytes: &[u8], at: usize) {
    let left = bytes.len() - at;
    assert!(left > 0 && left < BLOCK, "a tail is shorter than a block");
    let own = Own {
        keep: (1u64 << left) - 1,
        #[allow(
            clippy::cast_possible_truncation,
            reason = "below 64 (asserted above), a valid `u8`"
        )]
        last: (left - 1) as u8,
    };
    // SAFETY: the load reads only the bytes of `own.keep`, each inside `bytes` (the `left`
    // from `at`); a masked-out byte is not read and cannot fault.
    let x = unsafe { _mm512_maskz_loadu_epi8(own.keep, bytes.as_ptr().add(at).cast::<i8>()) };
    let byte = |b: u8| _mm512_set1_epi8(b.cast_signed());
    let odd = _mm512_cmplt_epi8_mask(x, byte(0x20)) & !_mm512_cmpeq_epi8_mask(x, byte(b'\n'));
    let zero = _mm512_setzero_si512();
    let mut correction = 0;
    let (sums, class) = if odd & own.keep == 0 {
        let (weights, codes) = Plain::load().weights(x, byte(code(tally.last)));
        let weights = _mm512_maskz_mov_epi8(own.keep, weights);
        (_mm512_sad_epu8(weights, zero), code_at(codes, own.last))
    } else {
        let leads = _mm512_cmpge_epu8_mask(x, byte(0xF0)) & own.keep;
        if leads != 0 {
            correction = four_byte_correction(bytes, at, leads);
        }
        mixed(&Tables::load(), bytes, at, x, tally.last, own)
    };
    tally.units += _mm512_reduce_add_epi64(sums).cast_unsigned();
    tally.units = tally.units.wrapping_add_signed(correction);
    tally.last = class;
}
