//! The "use fusion in your crate" main of the README, as a user's crate builds it: its own
//! `Cargo.toml` (written by `tests/tests/repository/fresh_crate.rs`), no workspace, no path but
//! fusion's. Keep it equal to the README's listing (the test checks it).

use fusion_runtime::http::{HttpConfig, serve_http_blocking};
use fusion_runtime::rmcp::{FusionServer, serve_stdio_blocking};
use fusion_runtime::{Call, Presenter, Tool, ToolSet};

#[derive(Presenter)]
#[rule("quantity counts single units, never boxes.")]
struct Product {
    sku: String,
    quantity: u32,
}

#[derive(serde::Deserialize, schemars::JsonSchema, Tool)]
#[serde(tag = "action", rename_all = "snake_case")]
#[fusion(name = "inventory", description = "Warehouse inventory")]
enum Inventory {
    /// Fetch one product by its SKU
    #[fusion(returns = Product, read_only)]
    GetProduct { sku: String },
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let tools = ToolSet::new().tool(|action: Inventory, call: &Call| match action {
        Inventory::GetProduct { sku } => call.present(&Product { sku, quantity: 12 }).build(),
    })?;
    let server = FusionServer::try_new("inventory", tools)?.version(env!("CARGO_PKG_VERSION"));
    match std::env::args().nth(1).as_deref() {
        Some("--http") => serve_http_blocking(server, HttpConfig::new())?,
        _ => serve_stdio_blocking(server)?,
    }
    Ok(())
}
