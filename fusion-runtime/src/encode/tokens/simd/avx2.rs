//! AVX2: a plain block's bytes are classified 32 at a time by range comparisons into their class
//! codes ([`code`](super::code)), and each pair's weight is the character's weight plus
//! its run weight where the byte before is of another group: three 16-entry byte lookups
//! (`vpshufb`) of the code, one of the code before it. The weights, a byte each, are summed
//! eight at a time. About seventy instructions a block.

#![allow(unsafe_code, reason = "unaligned loads, each inside the text")]
#![allow(
    clippy::cast_ptr_alignment,
    reason = "the unaligned loads take a vector pointer of any alignment"
)]

use std::arch::x86_64::{
    __m256i, _mm256_add_epi8, _mm256_add_epi64, _mm256_alignr_epi8, _mm256_andnot_si256,
    _mm256_blendv_epi8, _mm256_cmpeq_epi8, _mm256_cmpgt_epi8, _mm256_extract_epi8,
    _mm256_loadu_si256, _mm256_min_epu8, _mm256_movemask_epi8, _mm256_or_si256,
    _mm256_permute2x128_si256, _mm256_sad_epu8, _mm256_set1_epi8, _mm256_setzero_si256,
    _mm256_shuffle_epi8, _mm256_storeu_si256, _mm256_sub_epi8,
};

use super::super::{
    BLOCK, DIGIT, LOWER, MARK, NEWLINE, SPACE, TokenTally, UPPER, WEIGHTS, group, pair,
};
use super::{class_of, code};

/// What a lookup table holds for a code.
#[derive(Clone, Copy)]
enum Of {
    Character,
    Run,
    Group,
}

/// 16 bytes of `of` for the codes 0 to 7 (0 after), twice: a `vpshufb` table (it looks up
/// within each 128-bit half).
const fn lookup(of: Of) -> [u8; 32] {
    let mut table = [0; 32];
    let mut index = 0;
    while index < 8 {
        #[allow(
            clippy::cast_possible_truncation,
            reason = "the index stays below 8, a valid `u8`"
        )]
        let code = index as u8;
        let units = match of {
            Of::Character => character(code),
            Of::Run => run(code),
            Of::Group => group_of(code),
        };
        assert!(
            units <= 255,
            "a weight before an ASCII character fits a byte"
        );
        #[allow(clippy::cast_possible_truncation, reason = "asserted just above")]
        let byte = units as u8;
        table[index] = byte;
        table[index + 16] = byte;
        index += 1;
    }
    table
}

const fn character(code: u8) -> u16 {
    WEIGHTS.character[class_of(code) as usize]
}

const fn run(code: u8) -> u16 {
    WEIGHTS.run[class_of(code) as usize]
}

const fn group_of(code: u8) -> u16 {
    group(class_of(code)) as u16
}

static CHARACTER: [u8; 32] = lookup(Of::Character);
static RUN: [u8; 32] = lookup(Of::Run);
static GROUP: [u8; 32] = lookup(Of::Group);

// What the lookups add is what `pair` gives before every ASCII character.
const _: () = {
    let mut last = 0;
    while last < 8 {
        let ascii = [LOWER, UPPER, DIGIT, MARK, SPACE, NEWLINE];
        let mut at = 0;
        while at < ascii.len() {
            let next = ascii[at];
            let mut units = character(next);
            if group_of(last) != group_of(next) {
                units += run(next);
            }
            assert!(units == pair(class_of(last), next));
            at += 1;
        }
        last += 1;
    }
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
    let (characters, runs, groups) = (load(&CHARACTER), load(&RUN), load(&GROUP));
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
        let same_group = _mm256_cmpeq_epi8(
            _mm256_shuffle_epi8(groups, codes),
            _mm256_shuffle_epi8(groups, before),
        );
        _mm256_add_epi8(
            _mm256_shuffle_epi8(characters, codes),
            _mm256_andnot_si256(same_group, _mm256_shuffle_epi8(runs, codes)),
        )
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
