//! The billing tools over MCP stdio, announcing the server name `billing`.
//!
//! `cargo run -p fusion-examples --bin billing_server`, then speak MCP on stdin/stdout (see
//! `examples/README.md` for a client configuration and MCP Inspector). Handler failures are
//! logged on stderr; stdout carries only the protocol.

use std::process::ExitCode;
use std::sync::Arc;

use fusion_examples::{BillingApp, Store, tools};
use fusion_runtime::rmcp::{FusionServer, serve_stdio_blocking};

fn main() -> ExitCode {
    let run = || -> Result<(), Box<dyn std::error::Error>> {
        let app = Arc::new(BillingApp::new(Store::load()?));
        let server = FusionServer::new("billing", tools(app)?).version(env!("CARGO_PKG_VERSION"));
        serve_stdio_blocking(server)?;
        Ok(())
    };
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("billing_server: {error}");
            ExitCode::FAILURE
        }
    }
}
