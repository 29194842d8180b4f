//! The token estimate against the exact `o200k_base` count on the calibration corpus
//! (`fusion_examples::token_corpus`): the estimate is never under the exact count, and every
//! item of at least 200 exact tokens is at most 6% over it (the kinds of text a fitted response
//! is made of), 40% (columns of one kind of value: UUIDs, hashes, codes, and ids of random
//! letters) or 25% (the rest; scripts without a class of their own have no bound above).
//! An accuracy assertion, deterministic.
//!
//! `cargo test -p fusion-examples --features token-report --test token_calibration`

use fusion_examples::token_corpus::{
    self, HIGHEST_COLUMN_RATIO, HIGHEST_RATIO, HIGHEST_RESPONSE_RATIO, LOWEST_RATIO, MIN_TOKENS,
};
use fusion_runtime::tokens::ExactCounter;

#[test]
fn every_sized_corpus_item_is_within_the_bounds() {
    let exact = ExactCounter::o200k().expect("the o200k_base vocabulary loads");
    let measured =
        token_corpus::measure(token_corpus::corpus().expect("the corpus builds"), &exact);
    let sized = measured.iter().filter(|m| m.is_sized()).count();
    assert!(
        sized >= 100,
        "only {sized} corpus items of at least {MIN_TOKENS} tokens: the corpus lost its data"
    );
    let outside: Vec<String> = measured
        .iter()
        .filter(|m| !m.is_within())
        .map(|m| {
            format!(
                "{} / {}: exact {}, estimate {} (ratio {:.3})",
                m.item.category,
                m.item.name,
                m.exact,
                m.estimate,
                m.ratio()
            )
        })
        .collect();
    assert!(
        outside.is_empty(),
        "estimates outside {LOWEST_RATIO}..{HIGHEST_RESPONSE_RATIO} (responses), \
         {LOWEST_RATIO}..{HIGHEST_COLUMN_RATIO} (columns) or {LOWEST_RATIO}..{HIGHEST_RATIO} \
         (the rest):\n{}",
        outside.join("\n")
    );
}

/// The estimate's emoji table (`fusion-runtime/src/encode/tokens/emoji.in`) holds the exact
/// `o200k_base` counts: written by the `emoji_table` binary, it must be written again when the
/// tokenizer or the table's form changes.
#[test]
fn the_emoji_table_holds_the_tokenizers_counts() {
    let exact = ExactCounter::o200k().expect("the o200k_base vocabulary loads");
    let path = token_corpus::emoji_table_path();
    let committed = std::fs::read_to_string(&path).expect("the emoji table is in the repository");
    assert!(
        committed == token_corpus::emoji_table(&exact),
        "{} differs from the tokenizer's counts: run \
         `cargo run --release -p fusion-examples --features token-report --bin emoji_table`",
        path.display()
    );
}
