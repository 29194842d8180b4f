//! The block path of [`TokenTally::push`] against counting every character.

use super::*;
use proptest::prelude::*;

/// The tally of `text` one character at a time, by the classes' definition
/// (`classify_multibyte`): what every path must equal.
fn one_at_a_time(tally: &mut TokenTally, text: &str) {
    let bytes = text.as_bytes();
    let mut at = 0;
    while let Some(&lead) = bytes.get(at) {
        let (class, width) = if lead < 0x80 {
            (ASCII_CLASS[usize::from(lead)], 1)
        } else {
            let byte = |index: usize| bytes.get(index).copied().unwrap_or(0);
            classify_multibyte(lead, byte(at + 1), byte(at + 2))
        };
        tally.units += if width == 4 {
            four_byte_units(bytes, at)
        } else {
            u64::from(pair(tally.last, class))
        };
        tally.last = class;
        at += width;
    }
}

/// Long texts of plain ASCII runs (the blocks) with every other kind of byte between them.
fn text() -> impl Strategy<Value = String> {
    proptest::string::string_regex(
        "([a-z]{1,9}|[A-Z]{1,4}|[0-9]{1,5}|[ ]{1,6}|\\n{1,3}|[\"{}:,_\\-\\[\\]|~\\x7f]{1,4}|\\r|\t|\\x0b|\\x00|é|ł|ж|Ω|日|漢|あ|カ|、|（|→|😬|👍|🌲|🦞|🇩🇪|👩\u{200d}💻|\u{1F3FB}|𠀀|𝐀|\u{fe0f}|\u{200d}|ก|한|ㄅ|«|[а-яё]{1,8}|[ぁ-ゖ]{1,6}|[ァ-ヺ]{1,6}|[ゖ-ヿ]{1,4}|ー|ゟ|゠|豈|[一-鿿]{1,5}|[à-ÿ]{1,4}|\\{\\n    \"id\": \"INV-0001\",\\n    \"amount_cents\": 826199\\n  \\}){0,60}",
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

    /// The portable path alone (on x86-64 `push` takes a block path), stopped anywhere, even
    /// inside a character, and taken up where it said the next character starts.
    #[test]
    fn the_portable_path_counts_as_every_character_does(
        before in text(),
        a in text(),
        cut in 0usize..4_000,
    ) {
        let mut start = TokenTally::new();
        one_at_a_time(&mut start, &before);
        let mut slow = start;
        one_at_a_time(&mut slow, &a);
        let bytes = a.as_bytes();
        let mut fast = start;
        let next = fast.push_scalar(bytes, 0, cut.min(bytes.len()));
        prop_assert!(a.is_char_boundary(next) && next >= cut.min(bytes.len()));
        prop_assert_eq!(fast.push_scalar(bytes, next, bytes.len()), bytes.len());
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
fn nothing_weighs_more_after_a_character_than_at_the_start_nor_two_tokens_less() {
    for next in 1..CLASSES {
        let at_start = PAIR_WEIGHTS[usize::from(START)][next];
        for row in &PAIR_WEIGHTS {
            assert!(at_start >= row[next], "{row:?} before {next}");
            assert!(
                u64::from(at_start - row[next]) <= 2 * UNIT,
                "{row:?} before {next}"
            );
        }
    }
}

#[test]
#[cfg(target_arch = "x86_64")]
fn a_block_code_weighs_as_its_classes_before_every_ascii_class() {
    for class in 0..u8::try_from(CLASSES).unwrap() {
        let stand_in = simd::class_of(simd::code(class));
        for next in [VOWEL, CONSONANT, RARE, UPPER, DIGIT, MARK, SPACE, NEWLINE] {
            assert_eq!(
                pair(class, next),
                pair(stand_in, next),
                "{class} before {next}"
            );
        }
    }
}
