//! The exact `o200k_base` count (feature `exact-tokens`): the reference the estimate is
//! calibrated against.

use super::TokenCounter;

/// The exact `o200k_base` count (the GPT-4o tokenizer, via `tiktoken-rs`): for tests and
/// reports, not for the hot path (it loads a 200,000-entry vocabulary and allocates per call).
pub struct ExactCounter {
    bpe: tiktoken_rs::CoreBPE,
}

impl ExactCounter {
    /// Loads the `o200k_base` vocabulary (embedded in `tiktoken-rs`; tens of milliseconds).
    pub fn o200k() -> Result<Self, ExactCounterError> {
        tiktoken_rs::o200k_base()
            .map(|bpe| ExactCounter { bpe })
            .map_err(|error| ExactCounterError(error.to_string()))
    }
}

impl TokenCounter for ExactCounter {
    /// Counts `text` as ordinary text: `<|endoftext|>` in a tool's answer is five tokens of
    /// text, not a special token, as a host that sends it to a model treats it.
    fn count(&self, text: &str) -> usize {
        self.bpe.encode_ordinary(text).len()
    }
}

impl std::fmt::Debug for ExactCounter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("ExactCounter(o200k_base)")
    }
}

/// The `o200k_base` vocabulary did not load (`tiktoken-rs` could not parse its embedded data).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExactCounterError(String);

impl std::fmt::Display for ExactCounterError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "the o200k_base vocabulary did not load ({}); check the tiktoken-rs version",
            self.0
        )
    }
}

impl std::error::Error for ExactCounterError {}
