//! CPU per call over Streamable HTTP, fusion against a plain rmcp server (a benchmark, not a
//! test): `billing_server` (fusion, with its HTTP guards) and `plain_rmcp_server` (the same
//! `get_invoice` answers written by hand in an rmcp `#[tool_router]` server, rmcp's HTTP service
//! alone). First every invoice of the mix is asked of both and the answers must be the same
//! bytes; then, in alternating runs, each server gets the same `get_invoice` calls from the same
//! clients, and the CPU its threads spent (`/proc/PID/task/*/schedstat`) is divided by the calls.
//! With `HTTP_CPU_CALLGRIND=DIR` each server runs under valgrind's callgrind and the cost of a
//! call is the instructions it executes (counts zeroed after the warm-up, dumped into DIR after
//! the run): the same on a loaded machine, where CPU time is not.
//! Figures: PERFORMANCE.md ("fusion against a plain rmcp server").
//!
//! `cargo build --release -p fusion-examples --bin billing_server --bin plain_rmcp_server --bin http_cpu`
//! then `target/release/http_cpu [CALLS [CLIENTS [PAIRS]]]` (default 20,000 calls, 8 clients, 3 pairs).

use std::process::ExitCode;
use std::sync::Arc;
use std::time::Instant;

use fusion_examples::load::{Connection, ServerProcess, cpu_ns};

/// Invoices of each status (paid, pending, overdue; one with quotes in a name, one with
/// non-ASCII text): the calls cycle through them.
const INVOICES: [&str; 6] = [
    "INV-0001", "INV-0002", "INV-0017", "INV-0040", "INV-0084", "INV-0118",
];

/// The servers compared: a name for the table, the binary, its arguments.
const SERVERS: [(&str, &str, &[&str]); 2] = [
    (
        "fusion",
        "billing_server",
        &["--http", "127.0.0.1:0", "--max-concurrent", "256"],
    ),
    (
        "plain rmcp",
        "plain_rmcp_server",
        &["--http", "127.0.0.1:0"],
    ),
];

fn body(id: &str) -> String {
    serde_json::json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
        "params": {"name": "billing", "arguments": {"action": "get_invoice", "id": id}}})
    .to_string()
}

/// The answers one server gives to the mix, as sent.
async fn answers(address: &str, bodies: &[String]) -> Result<Vec<Vec<u8>>, String> {
    let mut connection = Connection::open(address).await.map_err(|e| e.to_string())?;
    let mut out = Vec::with_capacity(bodies.len());
    for body in bodies {
        out.push(connection.call_raw(body).await?);
    }
    Ok(out)
}

/// Where `callgrind` writes its counts when the runs are counted in instructions
/// (`HTTP_CPU_CALLGRIND=DIR`): the CPU time of a shared machine varies by tens of percent from
/// run to run, the instructions a call executes do not.
fn callgrind_dir() -> Option<std::path::PathBuf> {
    std::env::var_os("HTTP_CPU_CALLGRIND").map(std::path::PathBuf::from)
}

/// Runs `callgrind_control` with `option` against `pid`.
fn callgrind_control(option: &str, pid: u32) -> Result<(), Box<dyn std::error::Error>> {
    let status = std::process::Command::new("callgrind_control")
        .args([option, &pid.to_string()])
        .stdout(std::process::Stdio::null())
        .status()?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("callgrind_control {option} {pid} failed").into())
    }
}

/// The instructions counted in the last dump of `pid` under `dir` (its `totals:` line).
fn dumped_instructions(dir: &std::path::Path, pid: u32) -> Result<u64, Box<dyn std::error::Error>> {
    let prefix = format!("cg.{pid}.");
    let mut dumps: Vec<(u32, std::path::PathBuf)> = std::fs::read_dir(dir)?
        .filter_map(Result::ok)
        .filter_map(|entry| {
            let name = entry.file_name().into_string().ok()?;
            let number = name.strip_prefix(&prefix)?.parse().ok()?;
            Some((number, entry.path()))
        })
        .collect();
    dumps.sort();
    let (_, last) = dumps.last().ok_or("no callgrind dump")?;
    let text = std::fs::read_to_string(last)?;
    text.lines()
        .find_map(|line| line.strip_prefix("totals:"))
        .and_then(|total| total.split_whitespace().next()?.parse().ok())
        .ok_or_else(|| "no totals in the callgrind dump".into())
}

/// One measured run: the server's cost per call (microseconds of CPU, or instructions under
/// callgrind), and calls per second.
#[allow(
    clippy::cast_precision_loss,
    reason = "nanoseconds, instructions and call counts of a bench"
)]
async fn run(
    server: usize,
    bodies: &Arc<Vec<String>>,
    calls: usize,
    clients: usize,
) -> Result<(f64, f64), Box<dyn std::error::Error>> {
    let (_, binary, args) = SERVERS[server];
    let callgrind = callgrind_dir();
    let (process, address) = match &callgrind {
        None => ServerProcess::start(binary, args)?,
        Some(dir) => {
            let out = dir.join("cg.%p");
            let out = format!("--callgrind-out-file={}", out.display());
            let path = std::env::current_exe()?.with_file_name(binary);
            let before = [
                std::ffi::OsStr::new("--tool=callgrind"),
                std::ffi::OsStr::new(&out),
                path.as_os_str(),
            ];
            ServerProcess::start_program(std::path::Path::new("valgrind"), &before, args)?
        }
    };
    // Warm-up: every client connection once through the mix.
    for _ in 0..4 {
        answers(&address, bodies).await?;
    }
    if callgrind.is_some() {
        callgrind_control("-z", process.pid())?;
    }
    let cpu_before = cpu_ns(process.pid());
    let started = Instant::now();
    let mut tasks = tokio::task::JoinSet::new();
    for client in 0..clients {
        let bodies = bodies.clone();
        let address = address.clone();
        tasks.spawn(async move {
            let mut connection = Connection::open(&address)
                .await
                .map_err(|e| e.to_string())?;
            for index in (client..calls).step_by(clients) {
                connection.call_raw(&bodies[index % bodies.len()]).await?;
            }
            Ok::<_, String>(())
        });
    }
    while let Some(joined) = tasks.join_next().await {
        joined??;
    }
    let elapsed = started.elapsed();
    let cpu = cpu_ns(process.pid()).saturating_sub(cpu_before);
    let cost = match &callgrind {
        None => cpu as f64 / 1000.0,
        Some(dir) => {
            callgrind_control("-d", process.pid())?;
            dumped_instructions(dir, process.pid())? as f64
        }
    };
    drop(process);
    Ok((cost / calls as f64, calls as f64 / elapsed.as_secs_f64()))
}

async fn bench(
    calls: usize,
    clients: usize,
    pairs: usize,
) -> Result<(), Box<dyn std::error::Error>> {
    let bodies: Arc<Vec<String>> = Arc::new(INVOICES.iter().map(|id| body(id)).collect());
    let mut sent = Vec::new();
    for (name, binary, args) in SERVERS {
        let (process, address) = ServerProcess::start(binary, args)?;
        sent.push((name, answers(&address, &bodies).await?));
        drop(process);
    }
    for (index, id) in INVOICES.iter().enumerate() {
        if sent[0].1[index] != sent[1].1[index] {
            return Err(format!(
                "{id}: the answers differ\n{}: {}\n{}: {}",
                sent[0].0,
                String::from_utf8_lossy(&sent[0].1[index]),
                sent[1].0,
                String::from_utf8_lossy(&sent[1].1[index])
            )
            .into());
        }
    }
    println!(
        "the same bytes from both servers for {} invoices; {calls} get_invoice calls, {clients} clients, {pairs} pairs",
        INVOICES.len()
    );
    let mut per_call = [Vec::new(), Vec::new()];
    for pair in 0..pairs {
        // Alternate which server goes first, so a drift of the machine's load hits both.
        let order = if pair % 2 == 0 { [0, 1] } else { [1, 0] };
        for server in order {
            let (cpu, throughput) = run(server, &bodies, calls, clients).await?;
            let unit = if callgrind_dir().is_some() {
                "instructions"
            } else {
                "µs CPU"
            };
            println!(
                "pair {}: {:<10} {cpu:8.2} {unit} per call, {throughput:6.0} calls/s",
                pair + 1,
                SERVERS[server].0
            );
            per_call[server].push(cpu);
        }
    }
    let median = |values: &mut Vec<f64>| {
        values.sort_by(f64::total_cmp);
        values[values.len() / 2]
    };
    let ratios: Vec<String> = per_call[0]
        .iter()
        .zip(&per_call[1])
        .map(|(fusion, plain)| format!("{:.2}", fusion / plain))
        .collect();
    let (fusion, plain) = (median(&mut per_call[0]), median(&mut per_call[1]));
    println!(
        "median: fusion {fusion:.2}, plain rmcp {plain:.2} per call: {:.2}x (pairs: {})",
        fusion / plain,
        ratios.join(", ")
    );
    Ok(())
}

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let mut next = |default: usize| {
        args.next()
            .and_then(|a| a.parse().ok())
            .unwrap_or(default)
            .max(1)
    };
    let (calls, clients, pairs) = (next(20_000), next(8), next(3));
    let runtime = match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(error) => {
            eprintln!("http_cpu: {error}");
            return ExitCode::FAILURE;
        }
    };
    match runtime.block_on(bench(calls, clients, pairs)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("http_cpu: {error}");
            ExitCode::FAILURE
        }
    }
}
