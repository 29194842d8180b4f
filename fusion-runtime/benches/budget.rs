//! The cost of fitting a response to a token budget (wire format §17): 10,000 distinct billing
//! invoices (no agent limit) fitted to 25,000 tokens, against rendering, without a budget, the
//! invoices the fit keeps. The target: fitting costs at most 1.2x the second.
//!
//! `cargo bench -p fusion-runtime --bench budget` (PERFORMANCE.md explains the method). Not a
//! timed test: nothing here asserts a duration.

use std::sync::LazyLock;

use fusion_runtime::ToolResponse;
use fusion_runtime::tokens::estimate;

#[path = "support/billing.rs"]
mod billing;

use billing::{derived, invoices};

static ALL: LazyLock<Vec<derived::InvoiceAll>> = LazyLock::new(|| invoices(10_000, true));

/// The budget of Claude Code's default `MAX_MCP_OUTPUT_TOKENS`.
const BUDGET: usize = 25_000;

/// How many invoices the fitted response keeps.
static KEPT: LazyLock<usize> = LazyLock::new(|| {
    let fitted = fitted();
    let data: serde_json::Value = serde_json::from_str(&fitted.blocks()[0]).expect("parses");
    data.as_array().expect("a list").len()
});

fn fitted() -> ToolResponse {
    derived::InvoiceAll::present_all(divan::black_box(&ALL))
        .max_tokens(BUDGET)
        .build()
        .expect("writes")
}

fn main() {
    // Before timing: the fitted data block is exactly the unbudgeted data block of the kept
    // invoices, so the two benches write the same data.
    let kept = *KEPT;
    let fitted = fitted();
    let plain = derived::InvoiceAll::present_all(&ALL[..kept])
        .build()
        .expect("writes");
    assert_eq!(fitted.blocks()[0], plain.blocks()[0]);
    let bytes: Vec<usize> = fitted.blocks().iter().map(String::len).collect();
    let tokens: Vec<usize> = fitted.blocks().iter().map(|b| estimate(b)).collect();
    eprintln!(
        "fitted to {BUDGET} tokens: {kept} of {} invoices; blocks of {bytes:?} bytes, {tokens:?} tokens",
        ALL.len(),
    );
    divan::main();
}

/// The whole collection with a budget of 25,000 tokens.
#[divan::bench]
fn fit_10000_to_25000_tokens() -> ToolResponse {
    fitted()
}

/// The kept invoices, without a budget: what the fit is measured against.
#[divan::bench]
fn render_the_kept_invoices() -> ToolResponse {
    derived::InvoiceAll::present_all(divan::black_box(&ALL[..*KEPT]))
        .build()
        .expect("writes")
}
