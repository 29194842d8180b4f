//! The task tracker of `fusion_examples::tasks` over MCP stdio, announcing the server name
//! `tasks`, with the MCP Apps view for its UI blocks.
//!
//! `cargo run -p fusion-examples --bin tasks_server`, then speak MCP on stdin/stdout.

use std::process::ExitCode;

use fusion_examples::tasks::tasks_tools;
use fusion_runtime::rmcp::{FusionServer, serve_stdio_blocking};

fn main() -> ExitCode {
    fusion_examples::cli::quiet_on_closed_pipe();
    fusion_examples::cli::init_tracing();
    let run = || -> Result<(), Box<dyn std::error::Error>> {
        let server = FusionServer::new("tasks", tasks_tools()?).version(env!("CARGO_PKG_VERSION"));
        serve_stdio_blocking(server)?;
        Ok(())
    };
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("tasks_server: {error}");
            ExitCode::FAILURE
        }
    }
}
