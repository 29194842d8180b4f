//! The block path of [`TokenTally::push`] against counting every character.

use super::*;
use proptest::prelude::*;

/// The tally of `text` one character at a time: what `push` must equal.
fn one_at_a_time(tally: &mut TokenTally, text: &str) {
    tally.push_scalar(text.as_bytes(), 0, text.len());
}

/// Long texts of plain ASCII runs (the blocks) with every other kind of byte between them.
fn text() -> impl Strategy<Value = String> {
    proptest::string::string_regex(
        "([a-z]{1,9}|[A-Z]{1,4}|[0-9]{1,5}|[ ]{1,6}|\\n{1,3}|[\"{}:,_\\-\\[\\]|~\\x7f]{1,4}|\\r|\t|\\x0b|\\x00|é|ж|日|、|（|→|😬|\\{\\n    \"id\": \"INV-0001\",\\n    \"amount_cents\": 826199\\n  \\}){0,60}",
    )
    .expect("a valid pattern")
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    #[test]
    fn blocks_count_as_every_character_does(a in text(), b in text()) {
        let (mut fast, mut slow) = (TokenTally::new(), TokenTally::new());
        fast.push(&a);
        one_at_a_time(&mut slow, &a);
        prop_assert_eq!(fast, slow);
        fast.push(&b);
        one_at_a_time(&mut slow, &b);
        prop_assert_eq!(fast, slow);
    }

    #[test]
    #[cfg(target_arch = "x86_64")]
    fn every_block_path_counts_as_every_character_does(before in text(), a in text()) {
        let mut start = TokenTally::new();
        start.push(&before);
        let mut slow = start;
        one_at_a_time(&mut slow, &a);
        for fast in simd::push_by_each_path(start, a.as_bytes()) {
            prop_assert_eq!(fast, slow);
        }
    }
}

#[test]
fn blocks_count_as_every_character_does_on_a_json_block() {
    let item = "  {\n    \"id\": \"INV-0001\",\n    \"amountCents\": 826199,\n    \"note\": \"Paid |Hooli ABCdef\"\n  },\n";
    let text = format!("[\n{}]", item.repeat(12));
    let (mut fast, mut slow) = (TokenTally::new(), TokenTally::new());
    fast.push(&text);
    one_at_a_time(&mut slow, &text);
    assert_eq!(fast, slow);
    assert!(fast.tokens() > 12 * 20);
}

#[test]
fn a_pair_is_the_weighted_counts_of_its_second_character() {
    let pair = |last: u8, next: u8| PAIR[usize::from(last)][usize::from(next)];
    // A word's first letter: the letter and a run start; the next: the letter only.
    assert_eq!(pair(SPACE, LOWER), WEIGHTS.character[1] + WEIGHTS.run[1]);
    assert_eq!(pair(LOWER, LOWER), WEIGHTS.character[1]);
    // Case does not cut a word; an accented letter after an ASCII one weighs more.
    assert_eq!(pair(LOWER, UPPER), WEIGHTS.character[2]);
    assert_eq!(
        pair(UPPER, ALPHABETIC),
        WEIGHTS.character[usize::from(ALPHABETIC)] + WEIGHTS.mixed
    );
    // The start counts as much as anything before a character, or more (adding parts).
    for row in &PAIR {
        for (after_start, after_last) in PAIR[usize::from(START)].iter().zip(row) {
            assert!(after_start >= after_last);
        }
    }
}

#[test]
#[cfg(target_arch = "x86_64")]
fn a_block_code_weighs_as_its_classes_before_every_ascii_class() {
    for class in 0..u8::try_from(CLASSES).unwrap() {
        let stand_in = simd::class_of(simd::code(class));
        for next in [LOWER, UPPER, DIGIT, MARK, SPACE, NEWLINE] {
            assert_eq!(
                pair(class, next),
                pair(stand_in, next),
                "{class} before {next}"
            );
        }
    }
}
