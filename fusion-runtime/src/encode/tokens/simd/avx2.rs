//! AVX2: a plain block's bytes are classified 32 at a time by range comparisons into their class
//! codes ([`code`](super::code)), and each pair's weight is looked up in a 64-entry table of the
//! pairs of codes: four 16-entry byte lookups (`vpshufb`) of `before * 8 + code`, the right one
//! chosen by the index's bits 4 and 5. The weights, a byte each, are summed eight at a time.
//! About eighty instructions a block.

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

use super::super::{BLOCK, DIGIT, LOWER, MARK, NEWLINE, SPACE, TokenTally, UPPER, pair};
use super::{class_of, code};

/// The weight of each pair of codes before an ASCII character, at `last * 8 + next`, in four
/// `vpshufb` tables of 16 (each twice: it looks up within each 128-bit half); 0 where `next` is
/// not an ASCII class (a plain block has none).
static PAIRS: [[u8; 32]; 4] = {
    let mut tables = [[0; 32]; 4];
    let mut index = 0;
    while index < 64 {
        #[allow(
            clippy::cast_possible_truncation,
            reason = "the index stays below 64, a valid `u8`"
        )]
        let (last, next) = (index as u8 / 8, index as u8 % 8);
        if matches!(next, LOWER | UPPER | DIGIT | MARK | SPACE | NEWLINE) {
            let units = pair(class_of(last), next);
            assert!(
                units <= 255,
                "a weight before an ASCII character fits a byte"
            );
            #[allow(clippy::cast_possible_truncation, reason = "asserted just above")]
            let byte = units as u8;
            tables[index / 16][index % 16] = byte;
            tables[index / 16][index % 16 + 16] = byte;
        }
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
    let pairs = [
        load(&PAIRS[0]),
        load(&PAIRS[1]),
        load(&PAIRS[2]),
        load(&PAIRS[3]),
    ];
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
        codes = _mm256_blendv_epi8(codes, byte(LOWER), within(x, b'a', b'z'));
        codes = _mm256_blendv_epi8(codes, byte(UPPER), within(x, b'A', b'Z'));
        codes = _mm256_blendv_epi8(codes, byte(DIGIT), within(x, b'0', b'9'));
        codes = _mm256_blendv_epi8(codes, byte(SPACE), _mm256_cmpeq_epi8(x, space));
        _mm256_blendv_epi8(codes, byte(NEWLINE), _mm256_cmpeq_epi8(x, newline))
    };
    // The weights of 32 codes after `last` (whose byte 31 is the code before the first).
    let weights = |codes: __m256i, last: __m256i| {
        let before = _mm256_alignr_epi8(codes, _mm256_permute2x128_si256(last, codes, 0x21), 15);
        // last * 8 + next, below 64 (a code is below 8, so no bit crosses into the next byte).
        let index = _mm256_add_epi8(_mm256_slli_epi16::<3>(before), codes);
        // Which table of 16: bits 4 and 5 of the index.
        let table = _mm256_and_si256(_mm256_srli_epi16::<4>(index), byte(3));
        let mut weights = _mm256_shuffle_epi8(pairs[0], index);
        for (number, lookup) in [(1, pairs[1]), (2, pairs[2]), (3, pairs[3])] {
            weights = _mm256_blendv_epi8(
                weights,
                _mm256_shuffle_epi8(lookup, index),
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
