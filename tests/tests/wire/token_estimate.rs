//! The token estimate (`fusion_runtime::tokens`): a tally fed in chunks equals the
//! estimate of the joined text, estimates of parts add up within the documented bound, and no
//! input panics. Its accuracy against `o200k_base` is asserted by the examples'
//! `token_calibration` test (it needs the tokenizer).

use fusion_runtime::tokens::{Estimator, TokenCounter, TokenTally, estimate};
use proptest::prelude::*;

/// Text made of the pieces responses are made of, so the cut's every state is reached.
fn text() -> impl Strategy<Value = String> {
    let fragment = prop_oneof![
        Just("\"id\": ".to_owned()),
        Just("  ".to_owned()),
        Just("\n".to_owned()),
        Just(",\n    ".to_owned()),
        Just("|".to_owned()),
        Just(" ".to_owned()),
        Just("\t".to_owned()),
        Just("\r\n".to_owned()),
        "[a-zA-Z]{1,12}",
        "[0-9]{1,8}",
        "[!-/:-@\\[-`{-~]{1,4}",
        "[äöüßÄÖÜ]{1,3}",
        "[а-яА-Я]{1,6}",
        "[ぁ-ん一-龥、。]{1,6}",
        "[😀-🙏✅⚠️🇩🇪]{1,3}",
        any::<String>(),
    ];
    proptest::collection::vec(fragment, 0..24).prop_map(|parts| parts.concat())
}

/// `text` cut at a char boundary near `at` (a fraction of its length).
fn cut(text: &str, at: f64) -> (&str, &str) {
    #[allow(
        clippy::cast_possible_truncation,
        clippy::cast_sign_loss,
        clippy::cast_precision_loss,
        reason = "a fraction of a short string's length"
    )]
    let mut index = (text.len() as f64 * at) as usize;
    while !text.is_char_boundary(index) {
        index -= 1;
    }
    text.split_at(index)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn a_tally_in_chunks_is_the_estimate_of_the_whole(
        text in text(),
        cuts in proptest::collection::vec(0.0..1.0f64, 0..6),
    ) {
        let mut tally = TokenTally::new();
        let mut rest = text.as_str();
        for at in cuts {
            let (head, tail) = cut(rest, at);
            tally.push(head);
            rest = tail;
        }
        tally.push(rest);
        prop_assert_eq!(tally.tokens(), estimate(&text));
    }

    #[test]
    fn parts_add_up_to_at_least_the_whole_and_at_most_three_more(
        text in text(),
        at in 0.0..1.0f64,
    ) {
        let (head, tail) = cut(&text, at);
        let whole = estimate(&text);
        let parts = estimate(head) + estimate(tail);
        prop_assert!(parts >= whole, "{head:?} + {tail:?}: {parts} < {whole}");
        prop_assert!(parts <= whole + 3, "{head:?} + {tail:?}: {parts} > {whole} + 3");
    }
}

#[test]
fn empty_text_is_no_token_and_a_lone_character_is_one() {
    assert_eq!(estimate(""), 0);
    assert_eq!(TokenTally::new().tokens(), 0);
    for one in ["a", "7", "{", " ", "\n", "ä", "語", "😀"] {
        assert!(estimate(one) >= 1, "{one:?}");
    }
}

#[test]
fn words_digits_and_random_letters_weigh_as_the_pieces_they_make() {
    // One word is one piece: a token (alone, priced as at the start of a text, where the
    // estimate, an upper bound, weighs a character as much as after anything: a few tokens).
    assert!(
        (1..=4).contains(&estimate("invoice")),
        "{}",
        estimate("invoice")
    );
    // More pieces cost more: a longer run of digits, and an id of random letters against a word
    // as long (o200k: 9 tokens against 1; the rarer consonants in clusters tell them apart).
    assert!(estimate("1234567") > estimate("123"));
    assert!(estimate("xkcdqzvbpwfg") > 2 * estimate("subscriptions"));
}

#[test]
fn the_estimator_counts_as_estimate_does() {
    let text = "{\n  \"id\": \"INV-0001\",\n  \"amount_cents\": 826199\n}";
    assert_eq!(Estimator.count(text), estimate(text));
    assert!(estimate(text) > 10);
}
