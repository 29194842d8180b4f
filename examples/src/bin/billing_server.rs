//! The billing tools over MCP, announcing the server name `billing`: stdio by default,
//! Streamable HTTP with `--http 127.0.0.1:PORT` (options in `examples/src/cli.rs`).
//!
//! `cargo run -p fusion-examples --bin billing_server`, then speak MCP on stdin/stdout (see
//! `examples/README.md` for a client configuration and MCP Inspector). Handler failures are
//! logged on stderr; stdout carries only the protocol.
//!
//! `FUSION_STATE_KEYS` (`ID=SECRET,...`, the first key signs) is the keyring that seals the
//! `requestState` of `void_invoice`'s confirmation on the stateless revision; give every
//! replica the same one.

use std::process::ExitCode;
use std::sync::Arc;

use fusion_examples::cli::{Transport, transport};
use fusion_examples::{BillingApp, Store, tools};
use fusion_runtime::http::serve_http_blocking;
use fusion_runtime::rmcp::{
    FusionServer, STATE_KEYS_VAR, serve_stdio_blocking, state_keys_from_env,
};

fn main() -> ExitCode {
    fusion_examples::cli::quiet_on_closed_pipe();
    fusion_examples::cli::init_tracing();
    let run = || -> Result<(), Box<dyn std::error::Error>> {
        let transport = transport(std::env::args().skip(1))?;
        let app = Arc::new(BillingApp::new(Store::load()?));
        let mut server =
            FusionServer::new("billing", tools(app)?).version(env!("CARGO_PKG_VERSION"));
        // The keyring every replica shares: void_invoice's confirmation over stateless HTTP
        // (an input-required result) opens on whichever replica the answer reaches.
        if let Some(keys) = state_keys_from_env(STATE_KEYS_VAR)? {
            server = server.state_keys(keys);
        }
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
