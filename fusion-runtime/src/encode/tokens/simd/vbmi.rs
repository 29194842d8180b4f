//! AVX-512 with VBMI: a plain block's 64 bytes are looked up in a 128-byte table of their classes
//! (one permute of two registers), the class of the byte before each moved in by another, and
//! each pair's weight looked up in a 64-byte table of [`pair`] (a class is 3 bits, a pair 6);
//! the weights, a byte each, are summed eight at a time. About a dozen instructions a block.

#![allow(
    unsafe_code,
    reason = "unaligned loads, each inside the text or a table"
)]
#![allow(
    clippy::cast_ptr_alignment,
    reason = "the unaligned loads take a vector pointer of any alignment"
)]

use std::arch::x86_64::{
    __m512i, _mm_extract_epi8, _mm512_add_epi8, _mm512_add_epi64, _mm512_cmpeq_epi8_mask,
    _mm512_cmplt_epi8_mask, _mm512_extracti32x4_epi32, _mm512_loadu_si512,
    _mm512_permutex2var_epi8, _mm512_permutexvar_epi8, _mm512_reduce_add_epi64, _mm512_sad_epu8,
    _mm512_set1_epi8, _mm512_setzero_si512, _mm512_slli_epi16,
};

use super::super::{ASCII_CLASS, BLOCK, TokenTally, pair};
use super::{class_of, code};

/// The weight of each pair of codes, at `last * 8 + next`, one byte each (the weights are
/// fitted so that every pair before an ASCII character fits one).
static PAIRS: [u8; 64] = {
    let mut table = [0; 64];
    let mut index = 0;
    while index < 64 {
        #[allow(
            clippy::cast_possible_truncation,
            reason = "the index stays below 64, a valid `u8`"
        )]
        let (last, next) = (index as u8 / 8, index as u8 % 8);
        let units = pair(class_of(last), class_of(next));
        assert!(units <= 255, "a pair's weight fits a byte");
        #[allow(clippy::cast_possible_truncation, reason = "asserted just above")]
        let byte = units as u8;
        table[index] = byte;
        index += 1;
    }
    table
};

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
    let (classes_low, classes_high) = (table(&ASCII_CLASS[..64]), table(&ASCII_CLASS[64..]));
    let (pairs, before_index) = (table(&PAIRS), table(&BEFORE));
    let byte = |b: u8| _mm512_set1_epi8(b.cast_signed());
    let (newline, space) = (byte(b'\n'), byte(0x20));
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
            // One character at a time to the end of this block (or past it, to the end of a
            // character that crosses it).
            at = tally.push_scalar(bytes, at, at + BLOCK);
            last = byte(code(tally.last));
            plain = false;
            continue;
        }
        let codes = _mm512_permutex2var_epi8(classes_low, x, classes_high);
        let before = _mm512_permutex2var_epi8(last, before_index, codes);
        let pair_index = _mm512_add_epi8(_mm512_slli_epi16::<3>(before), codes);
        let weights = _mm512_permutexvar_epi8(pair_index, pairs);
        sums = _mm512_add_epi64(sums, _mm512_sad_epu8(weights, zero));
        last = codes;
        plain = true;
        at += BLOCK;
    }
    if plain {
        tally.last = last_code(last);
    }
    tally.units += _mm512_reduce_add_epi64(sums).cast_unsigned();
    at
}

/// The class of byte 63 of a plain block's codes (an ASCII class: its code is its number).
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
