//! AVX2: a block with anything but plain ASCII (multi-byte characters, control characters),
//! counted whole as `vbmi` counts one, 32 bytes at a time, with 16-entry lookups (`vpshufb`)
//! where VBMI has 128-entry ones:
//!
//! - each byte's class: an ASCII byte's by the plain block's codes, with the whitespace they
//!   leave out; a lead byte's by a lookup of its low four bits in the table of its high four;
//!   the leads `E3` and `EF` corrected by comparing the bytes after them; a byte that continues
//!   a character `CONTINUATION`, which weighs nothing after any class;
//! - each continuation byte then takes its character's class from the byte before it (three
//!   times: a character has at most three), so that the byte before every character holds the
//!   class of the character before it;
//! - each pair's weight, its low and its high byte, from sixteen tables of 16 (one per class
//!   before, looked up by the class after), the right one chosen by comparing the class before.
//!
//! At any mix of scripts, 1.7x to 1.9x the speed of counting such a block a character at a time
//! (PERFORMANCE.md, "Issue #20, round six").

use std::arch::x86_64::{
    __m256i, _mm256_add_epi64, _mm256_and_si256, _mm256_andnot_si256, _mm256_blendv_epi8,
    _mm256_cmpeq_epi8, _mm256_max_epu8, _mm256_min_epu8, _mm256_movemask_epi8, _mm256_or_si256,
    _mm256_sad_epu8, _mm256_setzero_si256, _mm256_shuffle_epi8, _mm256_slli_epi64,
    _mm256_srli_epi16,
};

use super::super::super::{BLOCK, CLASSES, EMOJI, HIRAGANA, KATAKANA, NEWLINE, SPACE, SYMBOL};
use super::super::{CONTINUATION, HIGH_CLASS, PAIR_HIGH, PAIR_LOW};
use super::{Plain, byte_before, doubled, last_code, load, splat, within};

/// The class of a lead byte by its low four bits, for the high four bits `C`, `D` and `E`
/// (`HIGH_CLASS` from `0xC0`): `E3` and `EF` with a second byte of `0x84`, to be corrected.
/// Every lead from `F0` on is an emoji's.
static LEADS: [[u8; 32]; 3] = doubled(HIGH_CLASS.split_at(0x40).1);

/// `PAIR_LOW` and `PAIR_HIGH` as sixteen tables of 16: table `last`, entry `next`.
static PAIR_TABLES_LOW: [[u8; 32]; CLASSES] = doubled(&PAIR_LOW);
static PAIR_TABLES_HIGH: [[u8; 32]; CLASSES] = doubled(&PAIR_HIGH);

/// The weights of the characters that start in the block at `bytes[at..]` (its first byte
/// starts a character or continues one counted before; `low` and `high` its two halves), after
/// a character of class `last`: their sums in four 64-bit lanes, and the class of the block's
/// last character.
#[inline]
#[target_feature(enable = "avx2")]
pub(super) fn mixed(
    plain: &Plain,
    bytes: &[u8],
    at: usize,
    (low, high): (__m256i, __m256i),
    last: u8,
) -> (__m256i, u8) {
    // The byte after each: the block from `at + 1`. And the one after that, from `at + 2`, only
    // for a block with an `E3 82` pair (hiragana below a third byte of `A0`, katakana from
    // it), which costs blocks of other text nothing; elsewhere it is never read.
    let next = following(bytes, at + 1);
    let e3_82 = |x: __m256i, next: __m256i| {
        _mm256_movemask_epi8(_mm256_and_si256(
            _mm256_cmpeq_epi8(x, splat(0xE3)),
            _mm256_cmpeq_epi8(next, splat(0x82)),
        )) != 0
    };
    let third = if e3_82(low, next.0) || e3_82(high, next.1) {
        following(bytes, at + 2)
    } else {
        (_mm256_setzero_si256(), _mm256_setzero_si256())
    };
    let classes_low = classes(plain, low, next.0, third.0);
    let classes_high = classes(plain, high, next.1, third.1);
    // Each byte's character's class, the block before's last class carried in.
    let carry = splat(last);
    let of_low = of_character(carry, classes_low);
    let of_high = of_character(of_low, classes_high);
    let before_low = byte_before(carry, of_low);
    let sums = _mm256_add_epi64(
        weights(before_low, classes_low),
        weights(byte_before(of_low, of_high), classes_high),
    );
    (sums, last_code(of_high))
}

/// The 64 bytes of `bytes` from `from` in two halves, zero past the text.
#[inline]
#[target_feature(enable = "avx2")]
fn following(bytes: &[u8], from: usize) -> (__m256i, __m256i) {
    if bytes.len() >= from + BLOCK {
        (load(&bytes[from..]), load(&bytes[from + 32..]))
    } else {
        let mut after = [0; BLOCK];
        let rest = bytes.get(from..).unwrap_or_default();
        after[..rest.len()].copy_from_slice(rest);
        (load(&after), load(&after[32..]))
    }
}

/// The class of each of 32 bytes `x` (`next`: the byte after each, `third` the one after
/// that), or `CONTINUATION`.
#[inline]
#[target_feature(enable = "avx2")]
fn classes(plain: &Plain, x: __m256i, next: __m256i, third: __m256i) -> __m256i {
    // ASCII: the plain block's codes (its classes), and the whitespace they leave out: tab,
    // vertical tab and form feed are spaces, a carriage return a line break.
    let mut ascii = plain.codes(x);
    let whitespace = _mm256_andnot_si256(_mm256_cmpeq_epi8(x, splat(b'\n')), within(x, 0x09, 0x0C));
    ascii = _mm256_blendv_epi8(ascii, splat(SPACE), whitespace);
    ascii = _mm256_blendv_epi8(ascii, splat(NEWLINE), _mm256_cmpeq_epi8(x, splat(b'\r')));
    // 0x80 and above: a lead's class by its low four bits from the table of its high four.
    let low_bits = _mm256_and_si256(x, splat(0x0F));
    let high_bits = _mm256_and_si256(_mm256_srli_epi16::<4>(x), splat(0x0F));
    let mut other = splat(CONTINUATION);
    for (table, bits) in LEADS.iter().zip(0xCu8..) {
        other = _mm256_blendv_epi8(
            other,
            _mm256_shuffle_epi8(load(table), low_bits),
            _mm256_cmpeq_epi8(high_bits, splat(bits)),
        );
    }
    other = _mm256_blendv_epi8(
        other,
        splat(EMOJI),
        _mm256_cmpeq_epi8(high_bits, splat(0x0F)),
    );
    // `blendv` takes the second where the mask byte's top bit is set: the bytes of 0x80 and up.
    let mut classes = _mm256_blendv_epi8(ascii, other, x);
    // The leads whose class the bytes after them decide (classify_multibyte): `E3` below
    // `0x84` is katakana, but hiragana at `0x81` and at `0x82` below a third byte of `0xA0`,
    // and a symbol below `0x81`; `EF` from `0xB8` on a symbol.
    let at_most = |limit: u8| _mm256_cmpeq_epi8(_mm256_min_epu8(next, splat(limit)), next);
    let e3 = _mm256_cmpeq_epi8(x, splat(0xE3));
    let hiragana = _mm256_or_si256(
        _mm256_cmpeq_epi8(next, splat(0x81)),
        _mm256_andnot_si256(
            _mm256_cmpeq_epi8(_mm256_max_epu8(third, splat(0xA0)), third),
            _mm256_cmpeq_epi8(next, splat(0x82)),
        ),
    );
    classes = _mm256_blendv_epi8(
        classes,
        splat(KATAKANA),
        _mm256_and_si256(e3, at_most(0x83)),
    );
    classes = _mm256_blendv_epi8(classes, splat(HIRAGANA), _mm256_and_si256(e3, hiragana));
    classes = _mm256_blendv_epi8(classes, splat(SYMBOL), _mm256_and_si256(e3, at_most(0x80)));
    let from_b8 = _mm256_cmpeq_epi8(_mm256_max_epu8(next, splat(0xB8)), next);
    let ef = _mm256_cmpeq_epi8(x, splat(0xEF));
    _mm256_blendv_epi8(classes, splat(SYMBOL), _mm256_and_si256(ef, from_b8))
}

/// The class of the character each byte belongs to: a continuation byte takes the class of
/// the byte before it, three times over (`before`: the 32 bytes before these, done already).
#[inline]
#[target_feature(enable = "avx2")]
fn of_character(before: __m256i, classes: __m256i) -> __m256i {
    let continuation = _mm256_cmpeq_epi8(classes, splat(CONTINUATION));
    let mut of = classes;
    for _ in 0..3 {
        of = _mm256_blendv_epi8(of, byte_before(before, of), continuation);
    }
    of
}

/// The sums of the weights of `classes` after `before` (the class before each byte), in four
/// 64-bit lanes: each weight's low and high byte from the tables of its class before.
#[inline]
#[target_feature(enable = "avx2")]
fn weights(before: __m256i, classes: __m256i) -> __m256i {
    let (mut low, mut high) = (_mm256_setzero_si256(), _mm256_setzero_si256());
    for ((table_low, table_high), last) in PAIR_TABLES_LOW.iter().zip(&PAIR_TABLES_HIGH).zip(0u8..)
    {
        let here = _mm256_cmpeq_epi8(before, splat(last));
        let pick =
            |table: &[u8; 32]| _mm256_and_si256(here, _mm256_shuffle_epi8(load(table), classes));
        low = _mm256_or_si256(low, pick(table_low));
        high = _mm256_or_si256(high, pick(table_high));
    }
    let zero = _mm256_setzero_si256();
    _mm256_add_epi64(
        _mm256_sad_epu8(low, zero),
        _mm256_slli_epi64::<8>(_mm256_sad_epu8(high, zero)),
    )
}
