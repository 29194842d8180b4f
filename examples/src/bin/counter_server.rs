//! An existing rmcp server that adopts fusion in one tool, without touching the others.
//!
//! `Counter` is a plain rmcp `#[tool_router]` server. Adding the fusion `billing`
//! tool takes one `fusion_route` line (here with an asynchronous handler, `route_async`), and
//! serving its MCP Apps view one `serve_ui_app!()` line; the
//! rmcp tools stay exactly as they were (`report` shows that a plain rmcp tool may also return
//! fusion's responses and errors).
//!
//! `cargo run -p fusion-examples --bin counter_server` (MCP over stdio, server name `counter`).

use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};

use fusion_examples::{Billing, BillingApp, Store};
use fusion_runtime::rmcp::{FusionRouter, route_async, with_ui_app};
use fusion_runtime::{Call, ResponseBuilder, ToolError, ToolResponse};
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::{ServerHandler, ServiceExt, tool, tool_handler, tool_router};

/// The server as it was before fusion: a counter with two rmcp tools.
#[derive(Clone)]
struct Counter {
    count: Arc<AtomicI64>,
    billing: Arc<BillingApp>,
    tool_router: ToolRouter<Counter>,
}

#[tool_router]
impl Counter {
    /// Increment the counter
    #[tool]
    fn increment(&self) -> String {
        let count = self.count.fetch_add(1, Ordering::SeqCst) + 1;
        count.to_string()
    }

    /// Read the counter
    #[tool]
    fn get(&self) -> String {
        self.count.load(Ordering::SeqCst).to_string()
    }

    /// Report the counter with a rule for the model
    // A plain rmcp tool can return fusion values too: `ToolResponse` and `ToolError` implement
    // rmcp's `IntoCallToolResult`.
    #[tool]
    fn report(&self) -> Result<ToolResponse, ToolError> {
        let count = self.count.load(Ordering::SeqCst);
        if count == 0 {
            return Err(
                ToolError::new("EMPTY", "The counter was never incremented.")
                    .recovery("Call increment first.")
                    .action("increment"),
            );
        }
        Ok(ResponseBuilder::text(format!("The counter is at {count}."))
            .rule("The counter only goes up.")
            .build())
    }
}

impl Counter {
    fn new(billing: Arc<BillingApp>) -> Result<Self, fusion_runtime::tool::DefinitionError> {
        // The only change to the router: one more route, for the fusion tool. Its handler is
        // asynchronous: it takes what its future needs from the server (an `Arc`), and the
        // future answers with validated, typed input in and presented blocks out.
        // `fusion_route` refuses a name the router already has; `with_ui_app` names the MCP
        // Apps view, which `serve_ui_app!` below serves.
        let tool_router = Self::tool_router().fusion_route(with_ui_app(route_async(
            |server: &Self, action: Billing, call: Call| {
                server.billing.clone().answer(action, call)
            },
        )?))?;
        Ok(Counter {
            count: Arc::new(AtomicI64::new(0)),
            billing,
            tool_router,
        })
    }
}

#[tool_handler(router = self.tool_router, name = "counter")]
impl ServerHandler for Counter {
    // The MCP Apps view that the billing tool's entry names: `resources/list`, `resources/read`.
    fusion_runtime::serve_ui_app!();
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    fusion_examples::cli::quiet_on_closed_pipe();
    let server = Counter::new(Arc::new(BillingApp::new(Store::load()?)))?;
    server
        .serve(rmcp::transport::stdio())
        .await?
        .waiting()
        .await?;
    Ok(())
}
