//! The baseline of the HTTP CPU bench (a benchmark, not an example to copy): the `billing`
//! tool's `get_invoice` written as a plain rmcp server, without fusion. An rmcp
//! `#[tool_router]` server whose one tool reads its arguments with rmcp's `Parameters`, finds
//! the invoice in the same store, and writes by hand the text blocks fusion sends for it (the
//! data block, the gauge, the rules, the suggestions), served over Streamable HTTP by rmcp's
//! own `StreamableHttpService` on hyper (stateless, JSON answers), with no guard in front.
//!
//! `http_cpu` (`examples/src/bin/http_cpu.rs`) checks that its answers are byte for byte the
//! ones `billing_server` sends, then measures the CPU both servers spend per call.
//! Figures: PERFORMANCE.md ("fusion against a plain rmcp server").
//!
//! `cargo run --release -p fusion-examples --bin plain_rmcp_server -- --http 127.0.0.1:0`

use std::fmt::Write as _;
use std::process::ExitCode;
use std::sync::Arc;

use fusion_examples::{Invoice, Status, Store};
use hyper::body::Incoming;
use hyper_util::rt::TokioIo;
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{CallToolResult, ContentBlock};
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use rmcp::{ErrorData, ServerHandler, tool, tool_handler, tool_router};
use serde::{Deserialize, Serialize};
use tokio::net::TcpListener;
use tower_service::Service as _;

/// The arguments of `billing` that this baseline answers: `get_invoice` only.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
struct BillingArgs {
    /// Which operation to perform (only `get_invoice` here).
    action: String,
    /// The invoice id.
    id: String,
}

/// The server: the store and rmcp's router.
#[derive(Clone)]
struct PlainBilling {
    store: Arc<Store>,
    tool_router: ToolRouter<PlainBilling>,
}

#[tool_router]
impl PlainBilling {
    /// Manage invoices
    #[tool(name = "billing")]
    fn billing(
        &self,
        Parameters(args): Parameters<BillingArgs>,
    ) -> Result<CallToolResult, ErrorData> {
        if args.action != "get_invoice" {
            return Err(ErrorData::invalid_params("only get_invoice", None));
        }
        let invoice = self
            .store
            .find(&args.id)
            .map_err(|_| ErrorData::invalid_params("no such invoice", None))?;
        let mut result = CallToolResult::success(
            blocks(invoice)
                .map_err(|e| ErrorData::internal_error(e.to_string(), None))?
                .into_iter()
                .map(ContentBlock::text)
                .collect(),
        );
        // fusion leaves `isError` out of a success (wire format §12).
        result.is_error = None;
        Ok(result)
    }
}

#[tool_handler(router = self.tool_router, name = "billing")]
impl ServerHandler for PlainBilling {}

/// The invoice as the data block shows it: the customer's email redacted, the internal margin
/// left out.
#[derive(Serialize)]
struct InvoiceOut<'a> {
    id: &'a str,
    customer: CustomerOut<'a>,
    amount_cents: u64,
    currency: &'a str,
    status: Status,
    issued_at: &'a str,
    due_at: &'a str,
    lines: &'a [fusion_examples::InvoiceLine],
}

#[derive(Serialize)]
struct CustomerOut<'a> {
    id: &'a str,
    name: &'a str,
    email: &'static str,
    country: &'a str,
}

/// The blocks fusion sends for one invoice, written by hand.
fn blocks(invoice: &Invoice) -> Result<Vec<String>, serde_json::Error> {
    let data = serde_json::to_string_pretty(&InvoiceOut {
        id: &invoice.id,
        customer: CustomerOut {
            id: &invoice.customer.id,
            name: &invoice.customer.name,
            email: "[REDACTED]",
            country: &invoice.customer.country,
        },
        amount_cents: invoice.amount_cents,
        currency: &invoice.currency,
        status: invoice.status,
        issued_at: &invoice.issued_at,
        due_at: &invoice.due_at,
        lines: &invoice.lines,
    })?;
    let mut gauge = String::from(
        "<ui_passthrough type=\"echarts\" title=\"Amount (EUR)\" width=\"half\" priority=\"1\">\n```echarts\n{\n  \"series\": [\n    {\n      \"type\": \"gauge\",\n      \"data\": [\n        {\n          \"value\": ",
    );
    // Whole amounts without a fraction, as JavaScript writes numbers.
    let (euros, cents) = (invoice.amount_cents / 100, invoice.amount_cents % 100);
    let _ = match cents {
        0 => write!(gauge, "{euros}"),
        c if c % 10 == 0 => write!(gauge, "{euros}.{}", c / 10),
        c => write!(gauge, "{euros}.{c:02}"),
    };
    gauge.push_str("\n        }\n      ]\n    }\n  ]\n}\n```\n</ui_passthrough>");
    let mut amount_rules =
        String::from("<domain_rules>\n- amount_cents is in CENTS. Divide by 100.\n");
    if invoice.status == Status::Overdue {
        let _ = writeln!(
            amount_rules,
            "- Invoice {} is overdue since {}: mention it first.",
            invoice.id, invoice.due_at
        );
    }
    amount_rules.push_str("</domain_rules>");
    let mut out = vec![
        data,
        gauge,
        "<domain_rules>\n- customer.email is redacted for privacy; never ask the user for it.\n</domain_rules>".to_owned(),
        "<domain_rules>\n- unit_price_cents is in CENTS. Divide by 100.\n</domain_rules>".to_owned(),
        amount_rules,
    ];
    if matches!(invoice.status, Status::Pending | Status::Overdue) {
        out.push("<action_suggestions>\n- billing.remind: Send a payment reminder\n- billing.void_invoice: Void it if it cannot be collected\n</action_suggestions>".to_owned());
    }
    Ok(out)
}

async fn serve(address: &str) -> Result<(), Box<dyn std::error::Error>> {
    let server = PlainBilling {
        store: Arc::new(Store::load()?),
        tool_router: PlainBilling::tool_router(),
    };
    let config = StreamableHttpServerConfig::default()
        .with_legacy_session_mode(false)
        .with_json_response(true);
    let service = StreamableHttpService::new(
        move || Ok(server.clone()),
        Arc::new(LocalSessionManager::default()),
        config,
    );
    let listener = TcpListener::bind(address).await?;
    eprintln!(
        "plain rmcp: serving MCP over Streamable HTTP at http://{}/mcp (stateless)",
        listener.local_addr()?
    );
    let http1 = hyper::server::conn::http1::Builder::new();
    loop {
        let (stream, _) = listener.accept().await?;
        let service = service.clone();
        let routed = hyper::service::service_fn(move |request: http::Request<Incoming>| {
            let mut service = service.clone();
            async move { service.call(request).await }
        });
        let connection = http1.serve_connection(TokioIo::new(stream), routed);
        tokio::spawn(async move {
            let _ = connection.await;
        });
    }
}

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let (Some("--http"), Some(address)) = (args.next().as_deref(), args.next()) else {
        eprintln!("usage: plain_rmcp_server --http 127.0.0.1:PORT");
        return ExitCode::FAILURE;
    };
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(error) => {
            eprintln!("plain_rmcp_server: {error}");
            return ExitCode::FAILURE;
        }
    };
    match runtime.block_on(serve(&address)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("plain_rmcp_server: {error}");
            ExitCode::FAILURE
        }
    }
}
