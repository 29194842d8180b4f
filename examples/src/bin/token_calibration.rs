//! The calibration of the token estimate (`fusion_runtime::tokens`) against the exact
//! `o200k_base` count, on the corpus of `fusion_examples::token_corpus`: per category, the min /
//! median / max ratio estimate / exact over the items of at least 200 tokens (the table of
//! PERFORMANCE.md, "Token estimate calibration").
//!
//! `cargo run --release -p fusion-examples --features token-report --bin token_calibration`
//! (`-- --items` also lists every item). Fails when an item is outside the bounds.
//!
//! `-- --dump` prints instead one JSON object per line for every item (`category`, `name`,
//! `exact`, `estimate`, `text`): the input of `scripts/fit_token_weights.py`, which refits the
//! estimate's weights.

use std::process::ExitCode;

use fusion_examples::token_corpus::{
    self, HIGHEST_COLUMN_RATIO, HIGHEST_RATIO, HIGHEST_RESPONSE_RATIO, MIN_TOKENS,
};
use fusion_runtime::tokens::ExactCounter;

fn main() -> ExitCode {
    fusion_examples::cli::report_run("token_calibration", run)
}

fn run() -> Result<bool, Box<dyn std::error::Error>> {
    let all_items = std::env::args().any(|arg| arg == "--items");
    let measured = token_corpus::measure(token_corpus::corpus()?, &ExactCounter::o200k()?);
    if std::env::args().any(|arg| arg == "--dump") {
        for m in &measured {
            let line = serde_json::json!({
                "category": m.item.category,
                "name": m.item.name,
                "exact": m.exact,
                "estimate": m.estimate,
                "text": m.item.text,
            });
            println!("{line}");
        }
        return Ok(true);
    }
    let bytes: usize = measured.iter().map(|m| m.item.text.len()).sum();
    println!(
        "{} items, {} bytes; ratio = estimate / exact (o200k_base); never under, and for items \
         of at least {MIN_TOKENS} exact tokens at most {HIGHEST_RESPONSE_RATIO} (the texts of \
         responses), {HIGHEST_COLUMN_RATIO} (columns of one kind of value, random letters) or \
         {HIGHEST_RATIO} (the rest; other scripts: no bound above)\n",
        measured.len(),
        token_corpus::thousands(bytes)
    );
    print!("{}", token_corpus::table(&measured));
    let mut sorted: Vec<_> = measured.iter().collect();
    sorted.sort_by(|a, b| a.ratio().total_cmp(&b.ratio()));
    if all_items {
        println!("\nevery item, lowest ratio first:");
    } else {
        sorted.retain(|m| m.is_sized());
        let ends = 5.min(sorted.len() / 2);
        sorted = [&sorted[..ends], &sorted[sorted.len() - ends..]].concat();
        println!("\nthe 5 lowest and 5 highest items of at least {MIN_TOKENS} tokens:");
    }
    for m in &sorted {
        println!(
            "{:.3}  {:>6} exact {:>6} est  {:<16} {}",
            m.ratio(),
            m.exact,
            m.estimate,
            m.item.category,
            m.item.name
        );
    }
    let outside: Vec<_> = measured.iter().filter(|m| !m.is_within()).collect();
    if outside.is_empty() {
        println!("\nevery item of at least {MIN_TOKENS} tokens is within the bounds");
        Ok(true)
    } else {
        println!("\n{} items outside the bounds", outside.len());
        Ok(false)
    }
}
