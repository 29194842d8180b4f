//! AVX2: a plain block is classified into one bit mask per class (two 32-byte comparisons and
//! their byte masks), and every count of the estimate is a population count of masks, weighted
//! at the end as [`PAIR`](super::super::PAIR) weighs each character.

#![allow(unsafe_code, reason = "unaligned loads, each inside the text")]
#![allow(
    clippy::cast_ptr_alignment,
    reason = "the unaligned loads take a vector pointer of any alignment"
)]

use std::arch::x86_64::{
    __m256i, _mm256_andnot_si256, _mm256_cmpeq_epi8, _mm256_cmpgt_epi8, _mm256_loadu_si256,
    _mm256_min_epu8, _mm256_movemask_epi8, _mm256_or_si256, _mm256_set1_epi8, _mm256_sub_epi8,
};

use super::super::{BLOCK, DIGIT, LOWER, MARK, NEWLINE, SPACE, TokenTally, UPPER, WEIGHTS, group};

// The block counts letter runs without their case: the weights must agree.
const _: () = assert!(WEIGHTS.run[LOWER as usize] == WEIGHTS.run[UPPER as usize]);

/// The counts of plain blocks, folded into the tally's units at the end.
#[derive(Default)]
struct Counts {
    lower: u64,
    upper: u64,
    digit: u64,
    mark: u64,
    space: u64,
    newline: u64,
    letter_runs: u64,
    digit_runs: u64,
    mark_runs: u64,
    space_runs: u64,
}

impl Counts {
    /// The counts in `1/UNIT` tokens, weighted as [`super::PAIR`] weighs each character.
    fn units(&self) -> u64 {
        let character = |class: u8| u64::from(WEIGHTS.character[usize::from(class)]);
        let run = |class: u8| u64::from(WEIGHTS.run[usize::from(class)]);
        self.lower * character(LOWER)
            + self.upper * character(UPPER)
            + self.digit * character(DIGIT)
            + self.mark * character(MARK)
            + self.space * character(SPACE)
            + self.newline * character(NEWLINE)
            + self.letter_runs * run(LOWER)
            + self.digit_runs * run(DIGIT)
            + self.mark_runs * run(MARK)
            + self.space_runs * run(SPACE)
    }
}

/// A plain block as one bit per byte and class (bit `i` is byte `i`); marks are the rest.
struct Masks {
    lower: u64,
    upper: u64,
    digit: u64,
    space: u64,
    newline: u64,
}

/// The blocks of `bytes` up to `end` (see [`super::push`]).
#[target_feature(enable = "avx2,popcnt")]
pub(super) fn push(tally: &mut TokenTally, bytes: &[u8], end: usize) -> usize {
    let mut counts = Counts::default();
    let mut carry = Carry::after(tally.last);
    // The last plain block, whose last byte's class the tally takes when the blocks stop.
    let mut last: Option<Masks> = None;
    let mut at = 0;
    while at + BLOCK <= end {
        if let Some(masks) = masks(&bytes[at..at + BLOCK]) {
            carry = count(&masks, carry, &mut counts);
            last = Some(masks);
            at += BLOCK;
        } else {
            if let Some(masks) = last.take() {
                tally.last = last_class(&masks);
            }
            // One character at a time to the end of this block (or past it, to the end of a
            // character that crosses it).
            at = tally.push_scalar(bytes, at, at + BLOCK);
            carry = Carry::after(tally.last);
        }
    }
    if let Some(masks) = last {
        tally.last = last_class(&masks);
    }
    tally.units += counts.units();
    at
}

/// The masks of a block, or `None` when it holds a byte that is not plain ASCII.
#[inline]
#[target_feature(enable = "avx2")]
fn masks(block: &[u8]) -> Option<Masks> {
    assert!(block.len() >= BLOCK);
    // SAFETY: both loads read 32 bytes inside `block`, which has at least 64 (asserted above);
    // `_mm256_loadu_si256` takes any alignment.
    let (low, high) = unsafe {
        (
            _mm256_loadu_si256(block.as_ptr().cast::<__m256i>()),
            _mm256_loadu_si256(block.as_ptr().add(32).cast::<__m256i>()),
        )
    };
    let newline = _mm256_set1_epi8(b'\n'.cast_signed());
    // Below 0x20 as a signed byte: control characters, and every byte of 0x80 and above.
    let below_space = _mm256_set1_epi8(0x20);
    let odd = |x: __m256i| {
        _mm256_andnot_si256(
            _mm256_cmpeq_epi8(x, newline),
            _mm256_cmpgt_epi8(below_space, x),
        )
    };
    if _mm256_movemask_epi8(_mm256_or_si256(odd(low), odd(high))) != 0 {
        return None;
    }
    let within = |x: __m256i, first: u8, last: u8| {
        let offset = _mm256_sub_epi8(x, _mm256_set1_epi8(first.cast_signed()));
        let top = _mm256_set1_epi8((last - first).cast_signed());
        _mm256_cmpeq_epi8(_mm256_min_epu8(offset, top), offset)
    };
    let equal = |x: __m256i, byte: u8| _mm256_cmpeq_epi8(x, _mm256_set1_epi8(byte.cast_signed()));
    let bits = |low: __m256i, high: __m256i| {
        let low = _mm256_movemask_epi8(low).cast_unsigned();
        let high = _mm256_movemask_epi8(high).cast_unsigned();
        u64::from(low) | (u64::from(high) << 32)
    };
    Some(Masks {
        lower: bits(within(low, b'a', b'z'), within(high, b'a', b'z')),
        upper: bits(within(low, b'A', b'Z'), within(high, b'A', b'Z')),
        digit: bits(within(low, b'0', b'9'), within(high, b'0', b'9')),
        space: bits(equal(low, b' '), equal(high, b' ')),
        newline: bits(equal(low, b'\n'), equal(high, b'\n')),
    })
}

/// What of the byte before a block its counts need: one bit (0 or 1) per mask, the bit that
/// goes in front of the mask shifted by one byte.
#[derive(Clone, Copy)]
struct Carry {
    letter: u64,
    digit: u64,
    mark: u64,
    space: u64,
}

impl Carry {
    /// After a character of class `last`.
    #[inline]
    fn after(last: u8) -> Carry {
        Carry {
            letter: u64::from(group(last) == LOWER),
            digit: u64::from(last == DIGIT),
            mark: u64::from(last == MARK),
            space: u64::from(last == SPACE),
        }
    }
}

/// Adds the counts of a plain block after `carry`: the counts [`super::PAIR`] adds character
/// by character, as population counts of masks; returns the carry after the block.
#[inline]
fn count(masks: &Masks, carry: Carry, counts: &mut Counts) -> Carry {
    let Masks {
        lower,
        upper,
        digit,
        space,
        newline,
    } = *masks;
    let letter = lower | upper;
    let mark = !(letter | digit | space | newline);
    // The mask of the byte before each byte: shifted by one, the carried bit in front.
    let before = |mask: u64, carried: u64| (mask << 1) | carried;
    let ones = |mask: u64| u64::from(mask.count_ones());
    counts.lower += ones(lower);
    counts.upper += ones(upper);
    counts.digit += ones(digit);
    counts.mark += ones(mark);
    counts.space += ones(space);
    counts.newline += ones(newline);
    counts.letter_runs += ones(letter & !before(letter, carry.letter));
    counts.digit_runs += ones(digit & !before(digit, carry.digit));
    counts.mark_runs += ones(mark & !before(mark, carry.mark));
    counts.space_runs += ones(space & !before(space, carry.space));
    Carry {
        letter: letter >> 63,
        digit: digit >> 63,
        mark: mark >> 63,
        space: space >> 63,
    }
}

/// The class of a plain block's last byte.
#[inline]
fn last_class(masks: &Masks) -> u8 {
    let top = |mask: u64| mask >> 63 != 0;
    if top(masks.lower) {
        LOWER
    } else if top(masks.upper) {
        UPPER
    } else if top(masks.digit) {
        DIGIT
    } else if top(masks.space) {
        SPACE
    } else if top(masks.newline) {
        NEWLINE
    } else {
        MARK
    }
}
