//! The estimate 64 bytes at a time (x86-64, the instructions detected at run time): a block of
//! plain ASCII (printable characters and `\n`) is counted at once, and so is any other block.
//! Two ways, each giving what
//! [`PAIR`](super::PAIR) gives character by character (a property test runs every way this CPU
//! has against it):
//!
//! - [`vbmi`], AVX-512 with VBMI (Ice Lake, Zen 4 and later): the pairs' weights looked up and
//!   summed in vector registers, about a dozen instructions a plain block; a block with anything
//!   else (multi-byte characters of every script, control characters) is counted at once too,
//!   in about forty;
//!   The text's last bytes, fewer than a block, are counted the same way in one masked block
//!   ([`vbmi::push_tail`]);
//! - [`avx2`]: the classes by range comparisons, the weights by 16-entry byte lookups, about
//!   seventy instructions a plain block; a block with anything else whole too (`avx2::mixed`,
//!   1.7x to 1.9x faster than a character at a time on rows of mixed scripts).
//!
//! The `unsafe` of the crate is here and in those two: the calls into code compiled for an
//! instruction set, made only after the CPU said it has it, and the unaligned and masked loads,
//! each inside the text.

#![allow(unsafe_code, reason = "SIMD intrinsics: see the module docs")]

mod avx2;
mod vbmi;

use super::{
    ACCENTED, ALPHABETIC, CLASSES, CONSONANT, EMOJI, EMOJI_PAIR, HAN, HIRAGANA, KATAKANA, NEWLINE,
    START, SYMBOL, TokenTally, VOWEL, classify_multibyte, four_byte_units,
};

/// The code of a class in a block: the ASCII classes (and `START`) are their own numbers, 1 to 8;
/// a 2-byte letter counts as a common consonant before ASCII, and the other non-ASCII classes as
/// `OTHER`: before an ASCII character each weighs as its classes do (a test checks it). Both
/// block paths count in codes.
pub(super) const OTHER: u8 = 9;

/// The code of the class of the character before a block.
pub(super) const fn code(class: u8) -> u8 {
    match class {
        ACCENTED | ALPHABETIC => CONSONANT,
        SYMBOL | HIRAGANA | HAN | KATAKANA | EMOJI => OTHER,
        other => other,
    }
}

/// The class a code stands for, to look its pair up.
pub(super) const fn class_of(code: u8) -> u8 {
    if code == OTHER { SYMBOL } else { code }
}

/// Where the weight of a pair of codes is, in the block paths' tables: `last * 9 + next`, for
/// any code before (0 to 9) and any ASCII class after (1 to 8), below 90.
pub(super) const fn pair_index(last: u8, next: u8) -> usize {
    last as usize * 9 + next as usize
}

/// The weight of each pair of codes before an ASCII character, at [`pair_index`], a byte each
/// (the weights are fitted so that every pair before an ASCII character fits one); 0 at the
/// indexes of no such pair.
pub(super) static PAIRS: [u8; 128] = {
    let mut table = [0; 128];
    let mut last = 0;
    while last <= OTHER {
        let mut next = VOWEL;
        while next <= NEWLINE {
            let units = super::pair(class_of(last), next);
            assert!(units <= 255, "a pair's weight before ASCII fits a byte");
            #[allow(clippy::cast_possible_truncation, reason = "asserted just above")]
            let byte = units as u8;
            table[pair_index(last, next)] = byte;
            next += 1;
        }
        last += 1;
    }
    table
};

/// A byte's class in a mixed block when it continues a character: it adds nothing, after any
/// class (the column of `START`, which is never a character's class, is all 0).
pub(super) const CONTINUATION: u8 = START;

// The two leads both paths classify with a second byte of `0x84`, and then correct by the bytes
// after them (`E3`: a symbol, hiragana or katakana below `0x84`; `EF`: a symbol from `0xB8`).
const _: () = assert!(
    classify_multibyte(0xE3, 0x84, 0).0 == HAN && classify_multibyte(0xEF, 0x84, 0).0 == HAN
);

// How both block paths correct an `E3` lead below `0x84`: a symbol below `0x81`, hiragana at
// `0x81` and at `0x82` below a third byte of `0xA0`, katakana from there.
const _: () = {
    assert!(classify_multibyte(0xE3, 0x81, 0x80).0 == HIRAGANA);
    assert!(classify_multibyte(0xE3, 0x82, 0x9F).0 == HIRAGANA);
    assert!(classify_multibyte(0xE3, 0x82, 0xA0).0 == KATAKANA);
    assert!(classify_multibyte(0xE3, 0x83, 0x80).0 == KATAKANA);
    assert!(classify_multibyte(0xE3, 0x80, 0x80).0 == SYMBOL);
};

/// The class of each byte of 0x80 and above, at its low seven bits: a continuation byte's is
/// [`CONTINUATION`], a lead byte's its character's (for `E3` and `EF`, with a second byte of
/// `0x84`, to be corrected): a mixed block's classes of the bytes that are not ASCII.
pub(super) static HIGH_CLASS: [u8; 128] = {
    let mut table = [0; 128];
    let mut index = 0;
    while index < 128 {
        #[allow(
            clippy::cast_possible_truncation,
            reason = "the value stays below 256, a valid `u8`"
        )]
        let lead = (index + 128) as u8;
        table[index] = if lead < 0xC0 {
            CONTINUATION
        } else {
            classify_multibyte(lead, 0x84, 0).0
        };
        index += 1;
    }
    table
};

/// One byte of the weight of each pair of classes, at `last * 16 + next` (`pair`'s low byte with
/// `high = false`, its high byte with `true`; 0 for a continuation byte): a mixed block's
/// lookups.
const fn pair_bytes(high: bool) -> [u8; 256] {
    let mut table = [0; 256];
    let mut last = 0;
    while last < CLASSES {
        let mut next = 0;
        while next < CLASSES {
            #[allow(
                clippy::cast_possible_truncation,
                reason = "both stay below CLASSES, valid `u8`s; a byte of a `u16`"
            )]
            let byte = {
                let units = super::pair(last as u8, next as u8);
                if high {
                    (units >> 8) as u8
                } else {
                    units as u8
                }
            };
            table[last * 16 + next] = byte;
            next += 1;
        }
        last += 1;
    }
    table
}

pub(super) static PAIR_LOW: [u8; 256] = pair_bytes(false);
pub(super) static PAIR_HIGH: [u8; 256] = pair_bytes(true);

/// What the 4-byte characters whose leads are at the set bits of `leads` (bit i: `bytes[at + i]`)
/// weigh besides what a block path counted for them: it counted each by its pair,
/// [`EMOJI_PAIR`] after any class, and each weighs [`four_byte_units`] (the emoji table). Emoji
/// are rare in most text, so a block without a 4-byte character pays one comparison for them.
#[inline]
pub(super) fn four_byte_correction(bytes: &[u8], at: usize, mut leads: u64) -> i64 {
    let mut correction = 0;
    while leads != 0 {
        let lead = at + leads.trailing_zeros() as usize;
        leads &= leads - 1;
        // At most 5 tokens, 640 units: no overflow.
        correction += four_byte_units(bytes, lead).cast_signed() - i64::from(EMOJI_PAIR);
    }
    correction
}

/// Adds the blocks of `bytes` that end by `end` to `tally` and returns where it stopped (a
/// multiple of [`BLOCK`](super::BLOCK), or a little past one when a character crossed it); 0
/// without AVX2.
#[inline]
pub(super) fn push(tally: &mut TokenTally, bytes: &[u8], end: usize) -> usize {
    if std::is_x86_feature_detected!("avx512vbmi") && std::is_x86_feature_detected!("avx512bw") {
        // SAFETY: the CPU has AVX-512BW and VBMI (checked above), all that `vbmi::push` requires.
        unsafe { vbmi::push(tally, bytes, end) }
    } else if std::is_x86_feature_detected!("avx2") {
        // SAFETY: the CPU has AVX2 (checked above), all that `avx2::push` requires.
        unsafe { avx2::push(tally, bytes, end) }
    } else {
        0
    }
}

/// Adds the text's last bytes from `at` (fewer than a block, at least one) to `tally` in one
/// block's work and says so (`true`); `false` without AVX-512 VBMI, whose masked loads this
/// needs (the caller then counts them one character at a time).
#[inline]
pub(super) fn push_tail(tally: &mut TokenTally, bytes: &[u8], at: usize) -> bool {
    if tails_whole() {
        // SAFETY: the CPU has AVX-512BW and VBMI (`tails_whole` checks), all that
        // `vbmi::push_tail` requires.
        unsafe { vbmi::push_tail(tally, bytes, at) };
        true
    } else {
        false
    }
}

/// Whether [`push_tail`] counts a text's last bytes in one block's work on this CPU (it has
/// AVX-512BW and VBMI).
#[inline]
pub(super) fn tails_whole() -> bool {
    std::is_x86_feature_detected!("avx512vbmi") && std::is_x86_feature_detected!("avx512bw")
}

/// The tally after `bytes` by each block path this CPU has, for tests: each must count as
/// every character does.
#[cfg(test)]
pub(super) fn push_by_each_path(tally: TokenTally, bytes: &[u8]) -> Vec<TokenTally> {
    let end = bytes.len() - bytes.len() % super::BLOCK;
    let mut tallies = Vec::new();
    let mut finish = |mut tally: TokenTally, at: usize| {
        tally.push_scalar(bytes, at, bytes.len());
        tallies.push(tally);
    };
    if std::is_x86_feature_detected!("avx512vbmi") && std::is_x86_feature_detected!("avx512bw") {
        let mut wide = tally;
        // SAFETY: the CPU has AVX-512BW and VBMI (checked above).
        let at = unsafe { vbmi::push(&mut wide, bytes, end) };
        finish(wide, at);
        // And the text's last bytes in one masked block, as `TokenTally::push` counts them.
        let mut tailed = tally;
        // SAFETY: as above.
        let at = unsafe { vbmi::push(&mut tailed, bytes, end) };
        if at < bytes.len() {
            // SAFETY: as above.
            unsafe { vbmi::push_tail(&mut tailed, bytes, at) };
        }
        finish(tailed, bytes.len());
    }
    if std::is_x86_feature_detected!("avx2") {
        let mut narrow = tally;
        // SAFETY: the CPU has AVX2 (checked above).
        let at = unsafe { avx2::push(&mut narrow, bytes, end) };
        finish(narrow, at);
    }
    tallies
}
