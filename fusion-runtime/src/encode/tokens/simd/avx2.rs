//! AVX2: a plain block's bytes are classified 32 at a time by range comparisons into their class
//! codes ([`code`](super::code)), a lower-case letter's by a 16-entry byte lookup (`vpshufb`) of
//! its low four bits, and each pair's weight is looked up in the 96-entry table of the pairs of
//! codes: six 16-entry lookups of `before * 9 + code`, the right one chosen by the index's bits 4
//! to 6. The weights, a byte each, are summed eight at a time. About a hundred and twenty
//! instructions a block. Any other block is counted whole by [`mixed`].

#![allow(unsafe_code, reason = "unaligned loads, each inside the text")]
#![allow(
    clippy::cast_ptr_alignment,
    reason = "the unaligned loads take a vector pointer of any alignment"
)]

mod mixed;

use std::arch::x86_64::{
    __m256i, _mm256_add_epi8, _mm256_add_epi64, _mm256_alignr_epi8, _mm256_and_si256,
    _mm256_andnot_si256, _mm256_blendv_epi8, _mm256_cmpeq_epi8, _mm256_cmpgt_epi8,
    _mm256_extract_epi8, _mm256_loadu_si256, _mm256_max_epu8, _mm256_min_epu8,
    _mm256_movemask_epi8, _mm256_or_si256, _mm256_permute2x128_si256, _mm256_sad_epu8,
    _mm256_set1_epi8, _mm256_setzero_si256, _mm256_shuffle_epi8, _mm256_slli_epi16,
    _mm256_srli_epi16, _mm256_storeu_si256, _mm256_sub_epi8,
};

use super::super::{ASCII_CLASS, BLOCK, DIGIT, MARK, NEWLINE, SPACE, TokenTally, UPPER};
use super::{PAIRS, code, four_byte_correction};

/// `bytes` in `N` `vpshufb` tables of 16, each twice (it looks up within each 128-bit half):
/// byte `index` is entry `index % 16` of table `index / 16`.
const fn doubled<const N: usize>(bytes: &[u8]) -> [[u8; 32]; N] {
    let mut tables = [[0; 32]; N];
    let mut index = 0;
    while index < N * 16 {
        tables[index / 16][index % 16] = bytes[index];
        tables[index / 16][index % 16 + 16] = bytes[index];
        index += 1;
    }
    tables
}

/// [`PAIRS`] as tables of 16: the weight at `last * 9 + next`, below 96.
static PAIR_TABLES: [[u8; 32]; TABLES] = doubled(&PAIRS);

/// The tables of 16 that hold every `last * 9 + next` of a plain block (below 90).
const TABLES: usize = 6;
const _: () = assert!(super::pair_index(super::OTHER, NEWLINE) < TABLES * 16);

/// The class of each lower-case letter by its low four bits: of `0x60`–`0x6F` (`a`–`o`), and of
/// `0x70`–`0x7F` (`p`–`z`); the bytes that are no letters are never read from them.
static LOWER_TABLES: [[u8; 32]; 2] = doubled(ASCII_CLASS.split_at(0x60).1);

/// Loads 32 bytes.
#[inline]
#[target_feature(enable = "avx2")]
fn load(bytes: &[u8]) -> __m256i {
    assert!(bytes.len() >= 32);
    // SAFETY: the load reads 32 bytes inside `bytes`, which has at least 32 (asserted above);
    // `_mm256_loadu_si256` takes any alignment.
    unsafe { _mm256_loadu_si256(bytes.as_ptr().cast::<__m256i>()) }
}

/// Each byte `b`.
#[inline]
#[target_feature(enable = "avx2")]
fn splat(b: u8) -> __m256i {
    _mm256_set1_epi8(b.cast_signed())
}

/// Where `x`'s bytes are within `first..=last`.
#[inline]
#[target_feature(enable = "avx2")]
fn within(x: __m256i, first: u8, last: u8) -> __m256i {
    let offset = _mm256_sub_epi8(x, splat(first));
    _mm256_cmpeq_epi8(_mm256_min_epu8(offset, splat(last - first)), offset)
}

/// A plain block's lookups, loaded once a push: a lower-case letter's class, and the weight of
/// a pair of codes before an ASCII class.
struct Plain {
    lower: [__m256i; 2],
    pairs: [__m256i; TABLES],
}

impl Plain {
    #[inline]
    #[target_feature(enable = "avx2")]
    fn load() -> Plain {
        Plain {
            lower: LOWER_TABLES.map(|table| load(&table)),
            pairs: PAIR_TABLES.map(|table| load(&table)),
        }
    }

    /// The class codes of 32 plain bytes: a mark unless another class says otherwise (a
    /// tab, a carriage return or a control character is left a mark: a block with one is not
    /// plain).
    #[inline]
    #[target_feature(enable = "avx2")]
    fn codes(&self, x: __m256i) -> __m256i {
        let mut codes = splat(MARK);
        // A lower-case letter's class by its low four bits, from the table of its high four.
        let letter = _mm256_blendv_epi8(
            _mm256_shuffle_epi8(self.lower[0], x),
            _mm256_shuffle_epi8(self.lower[1], x),
            within(x, 0x70, 0x7F),
        );
        codes = _mm256_blendv_epi8(codes, letter, within(x, b'a', b'z'));
        codes = _mm256_blendv_epi8(codes, splat(UPPER), within(x, b'A', b'Z'));
        codes = _mm256_blendv_epi8(codes, splat(DIGIT), within(x, b'0', b'9'));
        codes = _mm256_blendv_epi8(codes, splat(SPACE), _mm256_cmpeq_epi8(x, splat(b' ')));
        _mm256_blendv_epi8(codes, splat(NEWLINE), _mm256_cmpeq_epi8(x, splat(b'\n')))
    }

    /// The weight of each ASCII class of `codes` after the code `before` it (0 to 9), a byte
    /// each.
    #[inline]
    #[target_feature(enable = "avx2")]
    fn weights(&self, before: __m256i, codes: __m256i) -> __m256i {
        // before * 9 + next, below 96 (no bit crosses into the next byte).
        let index = _mm256_add_epi8(
            _mm256_add_epi8(_mm256_slli_epi16::<3>(before), before),
            codes,
        );
        // Which table of 16: the index's bits 4 to 6.
        let table = _mm256_and_si256(_mm256_srli_epi16::<4>(index), splat(7));
        let mut weights = _mm256_shuffle_epi8(self.pairs[0], index);
        for (number, lookup) in (1u8..).zip(&self.pairs[1..]) {
            weights = _mm256_blendv_epi8(
                weights,
                _mm256_shuffle_epi8(*lookup, index),
                _mm256_cmpeq_epi8(table, splat(number)),
            );
        }
        weights
    }
}

/// Each byte's value moved up one place, the first taking byte 31 of `before` (the 32 bytes
/// before these).
#[inline]
#[target_feature(enable = "avx2")]
fn byte_before(before: __m256i, x: __m256i) -> __m256i {
    _mm256_alignr_epi8::<15>(x, _mm256_permute2x128_si256::<0x21>(before, x))
}

/// The blocks of `bytes` up to `end` (see [`super::push`]): a plain block (ASCII but control
/// characters) by its codes, any other whole by [`mixed::mixed`].
#[target_feature(enable = "avx2")]
pub(super) fn push(tally: &mut TokenTally, bytes: &[u8], end: usize) -> usize {
    let plain_tables = Plain::load();
    let zero = _mm256_setzero_si256();
    // Below 0x20 as a signed byte: control characters, and every byte of 0x80 and above.
    let odd = |x: __m256i| {
        _mm256_andnot_si256(
            _mm256_cmpeq_epi8(x, splat(b'\n')),
            _mm256_cmpgt_epi8(splat(0x20), x),
        )
    };
    // The class of the last character counted, and the codes of the last 32 bytes counted
    // (only byte 31 is read) when they were plain and are newer.
    let mut class = tally.last;
    let mut last = splat(code(class));
    // What the text's 4-byte characters add besides their pairs.
    let mut correction = 0;
    let leads = |x: __m256i| {
        let at_least = _mm256_cmpeq_epi8(_mm256_max_epu8(x, splat(0xF0)), x);
        u64::from(_mm256_movemask_epi8(at_least).cast_unsigned())
    };
    let mut plain = false;
    let mut sums = zero;
    let mut at = 0;
    while at + BLOCK <= end {
        let (low, high) = (load(&bytes[at..]), load(&bytes[at + 32..]));
        if _mm256_movemask_epi8(_mm256_or_si256(odd(low), odd(high))) != 0 {
            if plain {
                class = last_code(last);
            }
            // The whole block, whatever it holds; a character that crosses its end is counted
            // here, and its continuation bytes at the start of the next block add nothing.
            let (weights, last_class) = mixed::mixed(&plain_tables, bytes, at, (low, high), class);
            sums = _mm256_add_epi64(sums, weights);
            let four = leads(low) | leads(high) << 32;
            if four != 0 {
                correction += four_byte_correction(bytes, at, four);
            }
            class = last_class;
            last = splat(code(class));
            plain = false;
            at += BLOCK;
            continue;
        }
        let (low, high) = (plain_tables.codes(low), plain_tables.codes(high));
        let weights = _mm256_add_epi64(
            _mm256_sad_epu8(plain_tables.weights(byte_before(last, low), low), zero),
            _mm256_sad_epu8(plain_tables.weights(byte_before(low, high), high), zero),
        );
        sums = _mm256_add_epi64(sums, weights);
        last = high;
        plain = true;
        at += BLOCK;
    }
    tally.last = if plain { last_code(last) } else { class };
    let mut lanes = [0u64; 4];
    // SAFETY: the store writes 32 bytes into `lanes`, which is 32 bytes long; any alignment.
    unsafe { _mm256_storeu_si256(lanes.as_mut_ptr().cast::<__m256i>(), sums) };
    tally.units += lanes.iter().sum::<u64>();
    tally.units = tally.units.wrapping_add_signed(correction);
    // Past the continuation bytes of a character that crosses the last block's end (counted).
    while bytes.get(at).is_some_and(|&b| b & 0xC0 == 0x80) {
        at += 1;
    }
    at
}

/// Byte 31 of a block's codes or classes (a plain block's: an ASCII class, whose code is its
/// number).
#[inline]
#[target_feature(enable = "avx2")]
fn last_code(codes: __m256i) -> u8 {
    #[allow(
        clippy::cast_possible_truncation,
        clippy::cast_sign_loss,
        reason = "the extracted byte is zero-extended into an i32"
    )]
    let class = _mm256_extract_epi8::<31>(codes) as u8;
    class
}
