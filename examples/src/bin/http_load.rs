//! Load over Streamable HTTP (a benchmark, not a test): starts `billing_server --http` on a
//! free loopback port (stateless), then sends 10,000 `tools/call` requests from 64 clients at
//! once, each on its own keep-alive connection, and prints throughput, p50/p99 latency and the
//! server's resident memory before and after. Every answer is checked against the answer the
//! same call gets in-process; one wrong answer fails the run. Figures: PERFORMANCE.md.
//!
//! `cargo run --release -p fusion-examples --bin http_load [-- CALLS CLIENTS]`

use std::process::{Child, Command, ExitCode, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use fusion_examples::{BillingApp, Store, tools};
use rmcp::model::CallToolResult;
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpStream;

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

/// `VmRSS` of `pid`, in KiB.
fn rss_kib(pid: u32) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .ok()
        .and_then(|status| {
            status
                .lines()
                .find_map(|line| line.strip_prefix("VmRSS:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        })
        .unwrap_or(0)
}

/// One keep-alive connection: sends a request, reads one response (a JSON body with a
/// `Content-Length`), and returns the body.
struct Connection {
    stream: BufReader<TcpStream>,
    head: String,
}

impl Connection {
    async fn open(address: &str) -> std::io::Result<Connection> {
        let stream = TcpStream::connect(address).await?;
        stream.set_nodelay(true)?;
        let head = format!(
            "POST /mcp HTTP/1.1\r\nHost: {address}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nMCP-Protocol-Version: 2025-11-25\r\n"
        );
        Ok(Connection {
            stream: BufReader::new(stream),
            head,
        })
    }

    async fn call(&mut self, body: &str) -> Result<Value, String> {
        let request = format!("{}Content-Length: {}\r\n\r\n{body}", self.head, body.len());
        let io = |e: std::io::Error| e.to_string();
        self.stream
            .get_mut()
            .write_all(request.as_bytes())
            .await
            .map_err(io)?;
        let mut line = String::new();
        self.stream.read_line(&mut line).await.map_err(io)?;
        if !line.starts_with("HTTP/1.1 200") {
            return Err(format!("status line {line:?}"));
        }
        let mut length = None;
        loop {
            line.clear();
            self.stream.read_line(&mut line).await.map_err(io)?;
            if line == "\r\n" || line.is_empty() {
                break;
            }
            if let Some((name, value)) = line.split_once(':')
                && name.eq_ignore_ascii_case("content-length")
            {
                length = value.trim().parse::<usize>().ok();
            }
        }
        let length = length.ok_or("no Content-Length (an SSE answer?)")?;
        let mut body = vec![0; length];
        self.stream.read_exact(&mut body).await.map_err(io)?;
        serde_json::from_slice(&body).map_err(|e| e.to_string())
    }
}

struct ServerProcess(Child);

impl Drop for ServerProcess {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn start_server() -> Result<(ServerProcess, String), Box<dyn std::error::Error>> {
    let binary = std::env::current_exe()?.with_file_name("billing_server");
    let mut child = Command::new(&binary)
        .args(["--http", "127.0.0.1:0", "--max-concurrent", "256"])
        .stdin(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot start {}: {e} (build it first)", binary.display()))?;
    let stderr = child.stderr.take().ok_or("no stderr")?;
    let server = ServerProcess(child);
    let mut lines = std::io::BufRead::lines(std::io::BufReader::new(stderr));
    let line = lines.next().ok_or("billing_server exited")??;
    let url = line
        .split(" at ")
        .nth(1)
        .and_then(|rest| rest.split_whitespace().next())
        .ok_or_else(|| format!("billing_server did not start: {line}"))?;
    let address = url
        .trim_start_matches("http://")
        .trim_end_matches("/mcp")
        .to_owned();
    // Drain the rest of stderr so the server never blocks on it.
    std::thread::spawn(move || lines.for_each(drop));
    Ok((server, address))
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
    let pid = server.0.id();
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
