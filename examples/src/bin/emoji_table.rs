//! Writes the estimate's emoji table (`fusion_runtime::tokens`):
//! `fusion-runtime/src/encode/tokens/emoji.in`, the `o200k_base` tokens of each code point from
//! U+1F000 to U+1FFFF (emoji, flags' regional indicators, skin tones, pictographs: every
//! character whose UTF-8 begins `F0 9F`) with a space before it (the space goes into the
//! emoji's first token or takes one of its own; the emoji alone never takes more). Emoji do not
//! merge with the letters around them, so a table prices each exactly where one weight for all
//! was far under on most (two or three tokens) and over on a few (`👍`, one).
//!
//! `cargo run --release -p fusion-examples --features token-report --bin emoji_table`
//! (`-- --check` compares the table with the tokenizer instead of writing it, and fails when
//! they differ; the test `token_calibration` does the same).

use std::process::ExitCode;

use fusion_runtime::tokens::ExactCounter;

/// Where the table is written, from the workspace's root.
const TABLE: &str = "fusion-runtime/src/encode/tokens/emoji.in";

fn main() -> ExitCode {
    fusion_examples::cli::quiet_on_closed_pipe();
    match run() {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(error) => {
            eprintln!("emoji_table: {error}");
            ExitCode::FAILURE
        }
    }
}

fn run() -> Result<bool, Box<dyn std::error::Error>> {
    let text = fusion_examples::token_corpus::emoji_table(&ExactCounter::o200k()?);
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join(TABLE);
    if std::env::args().any(|arg| arg == "--check") {
        let committed = std::fs::read_to_string(&path)?;
        if committed != text {
            eprintln!(
                "emoji_table: {TABLE} differs from the tokenizer's counts; run this without --check"
            );
            return Ok(false);
        }
        println!("{TABLE} matches the tokenizer");
        return Ok(true);
    }
    std::fs::write(&path, text)?;
    println!("wrote {TABLE}");
    Ok(true)
}
