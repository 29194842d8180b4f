//! The billing tools over MCP, announcing the server name `billing`: stdio by default,
//! Streamable HTTP with `--http 127.0.0.1:PORT` (options in `examples/src/cli.rs`).
//!
//! `cargo run -p fusion-examples --bin billing_server`, then speak MCP on stdin/stdout (see
//! `examples/README.md` for a client configuration and MCP Inspector). Handler failures are
//! logged on stderr; stdout carries only the protocol.

use std::process::ExitCode;
use std::sync::Arc;

use fusion_examples::cli::{Transport, transport};
use fusion_examples::{BillingApp, Store, tools};
use fusion_runtime::http::serve_http_blocking;
use fusion_runtime::rmcp::{FusionServer, serve_stdio_blocking};

fn main() -> ExitCode {
    fusion_examples::cli::quiet_on_closed_pipe();
    fusion_examples::cli::init_tracing();
    let run = || -> Result<(), Box<dyn std::error::Error>> {
        let transport = transport(std::env::args().skip(1))?;
        let app = Arc::new(BillingApp::new(Store::load()?));
        let server = FusionServer::new("billing", tools(app)?).version(env!("CARGO_PKG_VERSION"));
        match transport {
            Transport::Stdio => serve_stdio_blocking(server)?,
            Transport::Http(config) => serve_http_blocking(server, *config)?,
        }
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
