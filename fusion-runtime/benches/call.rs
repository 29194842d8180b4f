//! One whole tool call through a `ToolSet` (routing, validation, the handler, a presented
//! response of one small model): what the feature `tracing` adds to it.
//!
//! ```sh
//! cargo bench -p fusion-runtime --bench call                      # the feature off
//! cargo bench -p fusion-runtime --bench call --features tracing   # on: no subscriber, and one that formats every call
//! ```
//!
//! PERFORMANCE.md ("Tracing") has the figures.

use fusion_runtime::{Call, Presenter, Tool, ToolSet};

#[derive(Presenter)]
#[rule("quantity counts single units.")]
struct Product {
    sku: String,
    quantity: u32,
}

/// Fetch one product
#[derive(serde::Deserialize, schemars::JsonSchema, Tool)]
struct GetProduct {
    sku: String,
}

fn tools() -> ToolSet {
    ToolSet::new()
        .tool(|input: GetProduct, call: &Call| {
            call.present(&Product {
                sku: input.sku,
                quantity: 12,
            })
            .build()
        })
        .expect("the tool is valid")
}

fn arguments() -> serde_json::Value {
    serde_json::json!({"sku": "SKU-1"})
}

/// The call, with whatever subscriber is current (none: the span is disabled).
#[divan::bench]
fn call(bencher: divan::Bencher<'_, '_>) {
    let tools = tools();
    bencher.bench_local(|| tools.call("get_product", Some(divan::black_box(arguments()))));
}

/// The call with a subscriber that formats every span and event into a sink (feature
/// `tracing` only; without it there is nothing to format).
#[cfg(feature = "tracing")]
#[divan::bench]
fn call_formatted(bencher: divan::Bencher<'_, '_>) {
    let tools = tools();
    let subscriber = tracing_subscriber::fmt()
        .with_writer(std::io::sink)
        .with_ansi(false)
        .finish();
    tracing::subscriber::with_default(subscriber, || {
        bencher.bench_local(|| tools.call("get_product", Some(divan::black_box(arguments()))));
    });
}

fn main() {
    divan::main();
}
