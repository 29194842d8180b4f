//! The exact `o200k_base` count (feature `exact-tokens`): the reference the estimate is
//! calibrated against, and the count of a budget kept exactly.
//!
//! The tokenizer is `bpe-openai`'s: the same counts as `tiktoken`'s (checked on the
//! 882 texts of the token corpus and on 200,000 random strings of mixed scripts, marks and
//! special-token text), in linear time, about twice as fast (PERFORMANCE.md, "Issue #20, round
//! fifteen").

use super::TokenCounter;

/// The exact `o200k_base` count (the GPT-4o tokenizer, via `bpe-openai`): for tests, reports and
/// budgets kept by the exact count, not for the hot path (about 20 MB/s, a fortieth of the
/// speed a response is written at).
#[derive(Clone)]
pub struct ExactCounter {
    bpe: &'static bpe_openai::Tokenizer,
}

impl ExactCounter {
    /// Loads the `o200k_base` vocabulary (embedded in `bpe-openai`; tens of milliseconds, once a
    /// process: every counter shares it).
    ///
    /// # Errors
    ///
    /// [`ExactCounterError`] when the embedded vocabulary does not load (a broken build of
    /// `bpe-openai`); the failure is caught, never a panic of the caller's.
    pub fn o200k() -> Result<Self, ExactCounterError> {
        std::panic::catch_unwind(bpe_openai::o200k_base)
            .map(|bpe| ExactCounter { bpe })
            .map_err(|panic| {
                let reason = panic
                    .downcast_ref::<&str>()
                    .copied()
                    .or_else(|| panic.downcast_ref::<String>().map(String::as_str))
                    .unwrap_or("no reason given");
                ExactCounterError(reason.to_owned())
            })
    }
}

impl TokenCounter for ExactCounter {
    /// Counts `text` as ordinary text: `<|endoftext|>` in a tool's answer is seven tokens of
    /// text, not a special token, as a host that sends it to a model treats it.
    fn count(&self, text: &str) -> usize {
        self.bpe.count(text)
    }
}

impl std::fmt::Debug for ExactCounter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("ExactCounter(o200k_base)")
    }
}

/// The `o200k_base` vocabulary did not load (`bpe-openai` could not read its embedded data).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExactCounterError(String);

impl std::fmt::Display for ExactCounterError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "the o200k_base vocabulary did not load ({}); check the bpe-openai version",
            self.0
        )
    }
}

impl std::error::Error for ExactCounterError {}

#[cfg(test)]
mod tests {
    use super::{ExactCounter, TokenCounter};

    /// Counts known from `tiktoken`'s `o200k_base`: special-token text counts as text, a run of
    /// spaces before a word gives its last space to the word, and a long run of one character
    /// (quadratic in some tokenizers) is counted.
    #[test]
    fn counts_as_o200k_base_does() {
        let exact = ExactCounter::o200k().expect("the vocabulary loads");
        assert_eq!(exact.count(""), 0);
        assert_eq!(exact.count("hello world"), 2);
        assert_eq!(exact.count("<|endoftext|>"), 7);
        assert_eq!(exact.count("a   b"), 3);
        assert!(exact.count(&"x".repeat(100_000)) > 0);
    }
}
