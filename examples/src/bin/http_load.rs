//! Load over Streamable HTTP (a benchmark, not a test): starts `billing_server --http` on a
//! free loopback port (stateless), then sends 10,000 `tools/call` requests from 64 clients at
//! once, each on its own keep-alive connection, and prints throughput, p50/p99 latency and the
//! server's resident memory before and after. Every answer is checked against the answer the
//! same call gets in-process; one wrong answer fails the run. Figures: PERFORMANCE.md.
//!
//! `cargo run --release -p fusion-examples --bin http_load [-- CALLS CLIENTS]`

use std::process::ExitCode;
use std::sync::Arc;
use std::time::{Duration, Instant};

use fusion_examples::load::{Connection, ServerProcess, rss_kib};
use fusion_examples::{BillingApp, Store, tools};
use rmcp::model::CallToolResult;
use serde_json::{Value, json};

/// The calls, cycled: every read action with and without `_select`, `remind`,
/// `invoice_stats`, and routing and validation errors. Nothing voids an invoice, so every
/// answer is the same each time.
fn mix() -> Vec<(&'static str, Value)> {
    let mut calls = Vec::new();
    for n in [1, 2, 17, 40, 84, 118] {
        let id = format!("INV-{n:04}");
        calls.push(("billing", json!({"action": "get_invoice", "id": id})));
        calls.push((
            "billing",
            json!({"action": "get_invoice", "id": id, "_select": ["id", "status"]}),
        ));
        calls.push(("billing", json!({"action": "remind", "id": id})));
    }
    for status in ["paid", "pending", "overdue"] {
        calls.push((
            "billing",
            json!({"action": "list_invoices", "status": status, "_select": ["id", "amount_cents"]}),
        ));
        calls.push((
            "billing",
            json!({"action": "export_invoices", "status": status}),
        ));
        calls.push(("invoice_stats", json!({"status": status})));
    }
    calls.push(("billing", json!({"action": "list_invoices"})));
    calls.push((
        "billing",
        json!({"action": "get_invoice", "id": "INV-9999"}),
    ));
    calls.push(("billing", json!({"action": "destory"})));
    calls.push(("invoice_stats", json!({})));
    calls
}

/// The members of a result that a client reads.
fn comparable(result: &Value) -> Value {
    let mut kept = serde_json::Map::new();
    for key in ["content", "isError", "structuredContent"] {
        if let Some(value) = result.get(key) {
            kept.insert(key.to_owned(), value.clone());
        }
    }
    Value::Object(kept)
}

/// A request body and the result expected for it.
struct Case {
    body: String,
    expected: Value,
}

fn cases() -> Result<Vec<Case>, Box<dyn std::error::Error>> {
    let tools = tools(Arc::new(BillingApp::new(Store::load()?)))?;
    mix()
        .into_iter()
        .map(|(name, arguments)| {
            let expected = serde_json::to_value(CallToolResult::from(
                tools.call(name, Some(arguments.clone())),
            ))?;
            let body = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                "params": {"name": name, "arguments": arguments}})
            .to_string();
            Ok(Case {
                body,
                expected: comparable(&expected),
            })
        })
        .collect()
}

fn start_server() -> Result<(ServerProcess, String), Box<dyn std::error::Error>> {
    ServerProcess::start(
        "billing_server",
        &["--http", "127.0.0.1:0", "--max-concurrent", "256"],
    )
}

fn percentile(sorted: &[Duration], fraction: f64) -> Duration {
    #[allow(
        clippy::cast_possible_truncation,
        clippy::cast_sign_loss,
        clippy::cast_precision_loss,
        reason = "an index into a few thousand latencies"
    )]
    let index = ((sorted.len() as f64 - 1.0) * fraction).round() as usize;
    sorted.get(index).copied().unwrap_or_default()
}

async fn run(
    cases: Vec<Case>,
    calls: usize,
    clients: usize,
) -> Result<(), Box<dyn std::error::Error>> {
    let cases = Arc::new(cases);
    let (server, address) = start_server()?;
    let pid = server.pid();
    let before = rss_kib(pid);
    // Warm-up: every case once per client connection.
    let mut warm = Connection::open(&address).await?;
    for case in cases.iter() {
        warm.call(&case.body).await?;
    }
    let warmed = rss_kib(pid);
    let started = Instant::now();
    let mut tasks = tokio::task::JoinSet::new();
    for client in 0..clients {
        let cases = cases.clone();
        let address = address.clone();
        // Calls spread evenly: client k makes calls k, k + clients, k + 2·clients, …
        let mine: Vec<usize> = (client..calls).step_by(clients).collect();
        tasks.spawn(async move {
            let mut connection = Connection::open(&address)
                .await
                .map_err(|e| e.to_string())?;
            let mut latencies = Vec::with_capacity(mine.len());
            for index in mine {
                let case = &cases[index % cases.len()];
                let sent = Instant::now();
                let answer = connection.call(&case.body).await?;
                latencies.push(sent.elapsed());
                if comparable(&answer["result"]) != case.expected {
                    return Err(format!("call {index}: wrong answer {answer}"));
                }
            }
            Ok::<_, String>(latencies)
        });
    }
    let mut latencies = Vec::with_capacity(calls);
    while let Some(joined) = tasks.join_next().await {
        latencies.extend(joined??);
    }
    let elapsed = started.elapsed();
    let after = rss_kib(pid);
    latencies.sort_unstable();
    #[allow(clippy::cast_precision_loss, reason = "a call count")]
    let throughput = latencies.len() as f64 / elapsed.as_secs_f64();
    println!(
        "{} tools/call over HTTP, {clients} clients: {elapsed:.2?}, {throughput:.0} calls/s, \
         p50 {:.2?}, p99 {:.2?}, max {:.2?}; every answer checked",
        latencies.len(),
        percentile(&latencies, 0.50),
        percentile(&latencies, 0.99),
        latencies.last().copied().unwrap_or_default(),
    );
    println!(
        "server VmRSS: {before} KiB at start, {warmed} KiB after warm-up, {after} KiB after the run"
    );
    drop(server);
    Ok(())
}

fn main() -> ExitCode {
    fusion_examples::cli::quiet_on_closed_pipe();
    let mut args = std::env::args().skip(1);
    let calls = args.next().and_then(|a| a.parse().ok()).unwrap_or(10_000);
    let clients = args
        .next()
        .and_then(|a| a.parse().ok())
        .unwrap_or(64_usize)
        .max(1);
    // Outside the runtime: `ToolSet::call` drives an asynchronous handler on a runtime of its own.
    let cases = match cases() {
        Ok(cases) => cases,
        Err(error) => {
            eprintln!("http_load: {error}");
            return ExitCode::FAILURE;
        }
    };
    let runtime = match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(error) => {
            eprintln!("http_load: {error}");
            return ExitCode::FAILURE;
        }
    };
    match runtime.block_on(run(cases, calls, clients)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("http_load: {error}");
            ExitCode::FAILURE
        }
    }
}
