//! Writes the estimate's emoji table (`fusion_runtime::tokens`):
//! `fusion-runtime/src/encode/tokens/emoji.in`, the `o200k_base` tokens of each code point from
//! U+1F000 to U+1FFFF (emoji, flags' regional indicators, skin tones, pictographs: every
//! character whose UTF-8 begins `F0 9F`) with a space before it (the space goes into the
//! emoji's first token or takes one of its own; the emoji alone never takes more). Emoji do not
//! merge with the letters around them, so a table prices each exactly where one weight for all
//! was far under on most (two or three tokens) and over on a few (`👍`, one).
//!
//! `cargo run --release -p fusion-examples --features token-report --bin emoji_table` (the test
//! `token_calibration` checks the table against the tokenizer).

use std::process::ExitCode;

use fusion_runtime::tokens::ExactCounter;

fn main() -> ExitCode {
    fusion_examples::cli::report_run("emoji_table", run)
}

fn run() -> Result<bool, Box<dyn std::error::Error>> {
    let text = fusion_examples::token_corpus::emoji_table(&ExactCounter::o200k()?);
    let path = fusion_examples::token_corpus::emoji_table_path();
    std::fs::write(&path, text)?;
    println!("wrote {}", path.display());
    Ok(true)
}
