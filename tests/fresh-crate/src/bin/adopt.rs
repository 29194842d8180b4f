//! An rmcp `#[tool_router]` server, as it was before fusion, that adopts fusion in one tool:
//! `stats` returns JSON through rmcp and must answer exactly as before; `adjust_stock_rmcp` is
//! the tool as rmcp declared it, kept to compare its annotations with the converted
//! `adjust_stock`; the MCP Apps view the converted tool names is served.

use fusion_runtime::rmcp::{FusionRouter, route, with_ui_app};
use fusion_runtime::{Call, Tool, ToolError, ToolResponse};
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::wrapper::Json;
use rmcp::{ServerHandler, ServiceExt, tool, tool_handler, tool_router};

/// Stock figures, members declared out of alphabetical order.
#[derive(serde::Serialize, schemars::JsonSchema)]
struct Stats {
    zeta: u32,
    alpha: u32,
    middle: f64,
}

#[derive(Clone)]
struct Shop {
    tool_router: ToolRouter<Shop>,
}

#[tool_router]
impl Shop {
    /// Stock statistics
    #[tool]
    fn stats(&self) -> Json<Stats> {
        Json(Stats {
            zeta: 1,
            alpha: 2,
            middle: 0.1,
        })
    }

    /// Adjust the stock (the tool as rmcp declared it)
    #[tool(annotations(
        title = "Adjust stock",
        destructive_hint = true,
        idempotent_hint = true,
        open_world_hint = false
    ))]
    fn adjust_stock_rmcp(&self) -> String {
        "adjusted".into()
    }
}

/// Adjust the stock (the tool converted to fusion)
#[derive(serde::Deserialize, schemars::JsonSchema, Tool)]
#[fusion(title = "Adjust stock", destructive, idempotent, closed_world)]
struct AdjustStock {
    delta: i64,
}

impl Shop {
    fn adjust_stock(&self, input: AdjustStock, _: &Call) -> Result<ToolResponse, ToolError> {
        Ok(fusion_runtime::ResponseBuilder::text(format!("adjusted by {}", input.delta)).build())
    }

    fn new() -> Result<Self, fusion_runtime::tool::DefinitionError> {
        let tool_router = Self::tool_router().fusion_route(with_ui_app(route(Self::adjust_stock)?))?;
        Ok(Shop { tool_router })
    }
}

#[tool_handler(router = self.tool_router, name = "shop")]
impl ServerHandler for Shop {
    fusion_runtime::serve_ui_app!();
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    if std::env::args().nth(1).as_deref() == Some("--duplicate") {
        // `fusion_route` refuses a name the router already has.
        let error = Shop::tool_router()
            .fusion_route(route(Shop::adjust_stock)?)?
            .fusion_route(route(Shop::adjust_stock)?)
            .err()
            .ok_or("a second adjust_stock was accepted")?;
        println!("{error}");
        return Ok(());
    }
    Shop::new()?
        .serve(rmcp::transport::stdio())
        .await?
        .waiting()
        .await?;
    Ok(())
}
