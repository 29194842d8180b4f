//! AVX2: a plain block's bytes are classified 32 at a time by range comparisons into their class
//! codes ([`code`](super::code)), a lower-case letter's by a 16-entry byte lookup (`vpshufb`) of
//! its low four bits, and each pair's weight is looked up in the 96-entry table of the pairs of
//! codes: six 16-entry lookups of `before * 9 + code`, the right one chosen by the index's bits 4
//! to 6. The weights, a byte each, are summed eight at a time. About a hundred and twenty
//! instructions a block.

#![allow(unsafe_code, reason = "unaligned loads, each inside the text")]
#![allow(
    clippy::cast_ptr_alignment,
    reason = "the unaligned loads take a vector pointer of any alignment"
)]

use std::arch::x86_64::{
    __m256i, _mm256_add_epi8, _mm256_add_epi64, _mm256_alignr_epi8, _mm256_and_si256,
    _mm256_andnot_si256, _mm256_blendv_epi8, _mm256_cmpeq_epi8, _mm256_cmpgt_epi8,
    _mm256_extract_epi8, _mm256_loadu_si256, _mm256_min_epu8, _mm256_movemask_epi8,
    _mm256_or_si256, _mm256_permute2x128_si256, _mm256_sad_epu8, _mm256_set1_epi8,
    _mm256_setzero_si256, _mm256_shuffle_epi8, _mm256_slli_epi16, _mm256_srli_epi16,
    _mm256_storeu_si256, _mm256_sub_epi8,
};

use super::super::{ASCII_CLASS, BLOCK, DIGIT, MARK, NEWLINE, SPACE, TokenTally, UPPER};
use super::{PAIRS, code};

/// [`PAIRS`] in `vpshufb` tables of 16 (each twice: it looks up within each 128-bit half): the
/// weight at `last * 9 + next`, below 96, is entry `index % 16` of table `index / 16`.
static PAIR_TABLES: [[u8; 32]; TABLES] = {
    let mut tables = [[0; 32]; TABLES];
    let mut index = 0;
    while index < TABLES * 16 {
        tables[index / 16][index % 16] = PAIRS[index];
        tables[index / 16][index % 16 + 16] = PAIRS[index];
        index += 1;
    }
    tables
};

/// The tables of 16 that hold every `last * 9 + next` of a plain block (below 90).
const TABLES: usize = 6;
const _: () = assert!(super::pair_index(super::OTHER, NEWLINE) < TABLES * 16);

/// The class of each lower-case letter by its low four bits: of `0x60`–`0x6F` (`a`–`o`), and of
/// `0x70`–`0x7F` (`p`–`z`), each twice (`vpshufb` looks up within each 128-bit half); the
/// bytes that are no letters are never read from them.
static LOWER_TABLES: [[u8; 32]; 2] = {
    let mut tables = [[0; 32]; 2];
    let mut index = 0;
    while index < 32 {
        let class = ASCII_CLASS[0x60 + index];
        tables[index / 16][index % 16] = class;
        tables[index / 16][index % 16 + 16] = class;
        index += 1;
    }
    tables
};

/// Loads 32 bytes.
#[inline]
#[target_feature(enable = "avx2")]
fn load(bytes: &[u8]) -> __m256i {
    assert!(bytes.len() >= 32);
    // SAFETY: the load reads 32 bytes inside `bytes`, which has at least 32 (asserted above);
    // `_mm256_loadu_si256` takes any alignment.
    unsafe { _mm256_loadu_si256(bytes.as_ptr().cast::<__m256i>()) }
}

/// The blocks of `bytes` up to `end` (see [`super::push`]).
#[target_feature(enable = "avx2")]
pub(super) fn push(tally: &mut TokenTally, bytes: &[u8], end: usize) -> usize {
    let pairs = PAIR_TABLES.map(|table| load(&table));
    let lower = LOWER_TABLES.map(|table| load(&table));
    let byte = |b: u8| _mm256_set1_epi8(b.cast_signed());
    let (newline, space, below_space) = (byte(b'\n'), byte(b' '), byte(0x20));
    let zero = _mm256_setzero_si256();
    // Below 0x20 as a signed byte: control characters, and every byte of 0x80 and above.
    let odd = |x: __m256i| {
        _mm256_andnot_si256(
            _mm256_cmpeq_epi8(x, newline),
            _mm256_cmpgt_epi8(below_space, x),
        )
    };
    let within = |x: __m256i, first: u8, last: u8| {
        let offset = _mm256_sub_epi8(x, byte(first));
        _mm256_cmpeq_epi8(_mm256_min_epu8(offset, byte(last - first)), offset)
    };
    // The class codes of 32 plain bytes: a mark unless another class says otherwise.
    let codes = |x: __m256i| {
        let mut codes = byte(MARK);
        // A lower-case letter's class by its low four bits, from the table of its high four.
        let letter = _mm256_blendv_epi8(
            _mm256_shuffle_epi8(lower[0], x),
            _mm256_shuffle_epi8(lower[1], x),
            within(x, 0x70, 0x7F),
        );
        codes = _mm256_blendv_epi8(codes, letter, within(x, b'a', b'z'));
        codes = _mm256_blendv_epi8(codes, byte(UPPER), within(x, b'A', b'Z'));
        codes = _mm256_blendv_epi8(codes, byte(DIGIT), within(x, b'0', b'9'));
        codes = _mm256_blendv_epi8(codes, byte(SPACE), _mm256_cmpeq_epi8(x, space));
        _mm256_blendv_epi8(codes, byte(NEWLINE), _mm256_cmpeq_epi8(x, newline))
    };
    // The weights of 32 codes after `last` (whose byte 31 is the code before the first).
    let weights = |codes: __m256i, last: __m256i| {
        let before = _mm256_alignr_epi8(codes, _mm256_permute2x128_si256(last, codes, 0x21), 15);
        // last * 9 + next, below 90 (no bit crosses into the next byte).
        let index = _mm256_add_epi8(
            _mm256_add_epi8(_mm256_slli_epi16::<3>(before), before),
            codes,
        );
        // Which table of 16: the index's bits 4 to 6.
        let table = _mm256_and_si256(_mm256_srli_epi16::<4>(index), byte(7));
        let mut weights = _mm256_shuffle_epi8(pairs[0], index);
        for (number, lookup) in (1u8..).zip(&pairs[1..]) {
            weights = _mm256_blendv_epi8(
                weights,
                _mm256_shuffle_epi8(*lookup, index),
                _mm256_cmpeq_epi8(table, byte(number)),
            );
        }
        weights
    };
    // The codes of the last 32 bytes counted (only byte 31 is read), and whether they were.
    let mut last = byte(code(tally.last));
    let mut plain = false;
    let mut sums = zero;
    let mut at = 0;
    while at + BLOCK <= end {
        let (low, high) = (load(&bytes[at..]), load(&bytes[at + 32..]));
        if _mm256_movemask_epi8(_mm256_or_si256(odd(low), odd(high))) != 0 {
            if plain {
                tally.last = last_code(last);
            }
            // One character at a time to the end of this block (or past it, to the end of a
            // character that crosses it).
            at = tally.push_scalar(bytes, at, at + BLOCK);
            last = byte(code(tally.last));
            plain = false;
            continue;
        }
        let (low, high) = (codes(low), codes(high));
        let weights = _mm256_add_epi64(
            _mm256_sad_epu8(weights(low, last), zero),
            _mm256_sad_epu8(weights(high, low), zero),
        );
        sums = _mm256_add_epi64(sums, weights);
        last = high;
        plain = true;
        at += BLOCK;
    }
    if plain {
        tally.last = last_code(last);
    }
    let mut lanes = [0u64; 4];
    // SAFETY: the store writes 32 bytes into `lanes`, which is 32 bytes long; any alignment.
    unsafe { _mm256_storeu_si256(lanes.as_mut_ptr().cast::<__m256i>(), sums) };
    tally.units += lanes.iter().sum::<u64>();
    at
}

/// The class of byte 31 of a plain block's codes (an ASCII class: its code is its number).
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
