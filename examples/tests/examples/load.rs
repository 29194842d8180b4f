//! Load: one `billing_server` process, one MCP stdio session driven by rmcp's client. After a
//! warm-up, 10,000 sequential calls, then 10,000 calls kept 64 in flight at once, then 10,000
//! sequential calls again. Every response is compared with the response the same call gets
//! in-process (blocks, `isError`, `structuredContent`), and the server's resident memory
//! (`VmRSS` in `/proc/<pid>/status`) must not grow once warmed up. The figures (calls per second,
//! `VmRSS` and `VmHWM` after each phase) are printed; run with `--nocapture` to see them.
//!
//! The calls cycle through a fixed mix: every read action of `billing` with and without `_select`
//! (the unfiltered list is the wire format V75 response of 32 KB), `remind` on paid and open invoices,
//! `invoice_stats`, and routing and validation errors. No call voids an invoice, so every
//! response is the same on every cycle.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Instant;

use fusion_examples::{BillingApp, Store, tools};
use fusion_runtime::ToolResponse;
use rmcp::model::{CallToolRequestParams, CallToolResult};
use rmcp::service::{Peer, RunningService};
use rmcp::transport::TokioChildProcess;
use rmcp::{RoleClient, ServiceExt};
use serde_json::{Value, json};
use tokio::process::Command;
use tokio::task::JoinSet;

/// Calls per phase.
const CALLS: usize = 10_000;
/// Calls of the warm-up: every call of the mix several times.
const WARM_UP: usize = 1_000;
/// Calls in flight at once in the concurrent phase.
const IN_FLIGHT: usize = 64;
/// How much resident memory may grow after warm-up, in KiB. The server keeps no per-call state
/// (no void in the mix), so growth can only be the allocator keeping pages: measured at about
/// 0.6 MiB over the three phases, most of it when 64 responses were in flight (the largest is the
/// 32 KB V75 list). 4 MiB is several times that, and a leak of 140 bytes per call over the 30,000
/// calls after warm-up would exceed it.
const MARGIN_KIB: u64 = 4 * 1024;

/// The mix of calls: tool name and arguments.
fn mix() -> Vec<(&'static str, Value)> {
    let mut calls = Vec::new();
    for n in [1, 2, 3, 17, 40, 47, 84, 118] {
        let id = format!("INV-{n:04}");
        calls.push(("billing", json!({"action": "get_invoice", "id": id})));
        calls.push((
            "billing",
            json!({"action": "get_invoice", "id": id, "_select": ["id", "status", "customer"]}),
        ));
        calls.push(("billing", json!({"action": "remind", "id": id})));
    }
    calls.push(("billing", json!({"action": "list_invoices"})));
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
    calls.push((
        "billing",
        json!({"action": "list_invoices", "status": "overdue", "customer_id": "CUS-007"}),
    ));
    calls.push(("invoice_stats", json!({})));
    calls.push((
        "billing",
        json!({"action": "get_invoice", "id": "INV-9999"}),
    ));
    calls.push(("billing", json!({"action": "destory"})));
    calls.push(("billing", json!({"id": "INV-0001"})));
    calls.push(("billing", json!({"action": ["get_invoice"]})));
    calls.push((
        "billing",
        json!({"action": "list_invoices", "limit": 5, "status": "archived", "customer_id": ["a", "b"], "_select": ["id", "email", 7]}),
    ));
    calls.push((
        "billing",
        json!({"action": "remind", "id": "INV-0002", "urgent": true}),
    ));
    calls.push(("invoice_stats", json!({"status": "PAID", "year": 2026})));
    // (An unknown tool is a protocol error over MCP, not a result: e2e and hostile_table pin it.)
    calls
}

/// What a call must answer: its blocks, `isError` and `structuredContent`.
#[derive(Debug, Clone, PartialEq)]
struct Answer {
    blocks: Vec<String>,
    is_error: Option<bool>,
    structured: Option<Value>,
}

impl From<&ToolResponse> for Answer {
    fn from(response: &ToolResponse) -> Self {
        Answer {
            blocks: response.blocks().to_vec(),
            is_error: response.is_error(),
            structured: response.structured_content().cloned(),
        }
    }
}

impl From<&CallToolResult> for Answer {
    fn from(result: &CallToolResult) -> Self {
        Answer {
            blocks: result
                .content
                .iter()
                .map(|block| {
                    block
                        .as_text()
                        .expect("fusion sends text blocks only")
                        .text
                        .clone()
                })
                .collect(),
            is_error: result.is_error,
            structured: result.structured_content.clone(),
        }
    }
}

/// The expected answer of every call of the mix, from the same tools in this process (awaited:
/// the billing handler is asynchronous and yields to this runtime).
async fn expected(calls: &[(&'static str, Value)]) -> Vec<Answer> {
    let tools = tools(Arc::new(BillingApp::new(Store::load().unwrap()))).unwrap();
    let mut answers = Vec::with_capacity(calls.len());
    for (name, arguments) in calls {
        answers.push(Answer::from(
            &tools.call_async(name, Some(arguments.clone())).await,
        ));
    }
    answers
}

/// `VmRSS` and `VmHWM` of a process, in KiB.
fn memory(pid: u32) -> (u64, u64) {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).expect("procfs");
    let field = |name: &str| {
        status
            .lines()
            .find_map(|line| line.strip_prefix(name))
            .and_then(|rest| rest.trim().trim_end_matches("kB").trim().parse().ok())
            .unwrap_or_else(|| panic!("{name} in /proc/{pid}/status"))
    };
    (field("VmRSS:"), field("VmHWM:"))
}

async fn call(peer: &Peer<RoleClient>, name: &str, arguments: &Value) -> Answer {
    let Value::Object(arguments) = arguments.clone() else {
        panic!("arguments are objects");
    };
    let params = CallToolRequestParams::new(name.to_owned()).with_arguments(arguments);
    let result = peer.call_tool(params).await.expect("tools/call answers");
    Answer::from(&result)
}

/// `count` sequential calls cycling through the mix from `start`, each checked.
async fn sequential(
    peer: &Peer<RoleClient>,
    calls: &[(&'static str, Value)],
    answers: &[Answer],
    start: usize,
    count: usize,
) {
    for i in start..start + count {
        let k = i % calls.len();
        let (name, arguments) = &calls[k];
        let answer = call(peer, name, arguments).await;
        assert_eq!(answer, answers[k], "call {i}: {name} {arguments}");
    }
}

/// `count` calls cycling through the mix, `IN_FLIGHT` at a time, each checked.
async fn concurrent(
    peer: &Peer<RoleClient>,
    calls: &Arc<Vec<(&'static str, Value)>>,
    answers: &Arc<Vec<Answer>>,
    count: usize,
) -> usize {
    let mut tasks = JoinSet::new();
    let mut most_in_flight = 0;
    let mut done = 0;
    for i in 0..count {
        while tasks.len() >= IN_FLIGHT {
            tasks.join_next().await.expect("a task").expect("no panic");
            done += 1;
        }
        let (peer, calls, answers) = (peer.clone(), calls.clone(), answers.clone());
        tasks.spawn(async move {
            let k = i % calls.len();
            let (name, arguments) = &calls[k];
            let answer = call(&peer, name, arguments).await;
            assert_eq!(answer, answers[k], "call {i}: {name} {arguments}");
        });
        most_in_flight = most_in_flight.max(tasks.len());
    }
    while let Some(task) = tasks.join_next().await {
        task.expect("no panic");
        done += 1;
    }
    assert_eq!(done, count);
    most_in_flight
}

#[tokio::test(flavor = "current_thread")]
async fn billing_server_under_load_answers_every_call_and_keeps_its_memory() {
    let calls = Arc::new(mix());
    let answers = Arc::new(expected(&calls).await);
    // Each answer of the mix is distinct enough to catch a response sent to the wrong call.
    let distinct: HashMap<String, usize> = answers
        .iter()
        .enumerate()
        .map(|(i, a)| (format!("{:?}", a.blocks), i))
        .collect();
    assert!(
        distinct.len() * 10 >= answers.len() * 9,
        "the mix repeats itself"
    );

    let transport = TokioChildProcess::new(Command::new(env!("CARGO_BIN_EXE_billing_server")))
        .expect("the server starts");
    let pid = transport.id().expect("the server has a pid");
    let client: RunningService<RoleClient, ()> =
        ().serve(transport)
            .await
            .expect("the MCP handshake succeeds");
    let peer = client.peer().clone();
    let start = memory(pid);

    sequential(&peer, &calls, &answers, 0, WARM_UP).await;
    let warm = memory(pid);

    let clock = Instant::now();
    sequential(&peer, &calls, &answers, WARM_UP, CALLS).await;
    let sequential_secs = clock.elapsed().as_secs_f64();
    let after_sequential = memory(pid);

    let clock = Instant::now();
    let most_in_flight = concurrent(&peer, &calls, &answers, CALLS).await;
    let concurrent_secs = clock.elapsed().as_secs_f64();
    let after_concurrent = memory(pid);
    assert_eq!(most_in_flight, IN_FLIGHT);

    sequential(&peer, &calls, &answers, WARM_UP + CALLS, CALLS).await;
    let after_second_sequential = memory(pid);

    #[allow(clippy::cast_precision_loss, reason = "a printed rate")]
    let rate = |secs: f64| CALLS as f64 / secs;
    println!(
        "billing_server load ({} calls in the mix):\n  \
         start:                 VmRSS {} KiB, VmHWM {} KiB\n  \
         after {WARM_UP} warm-up calls: VmRSS {} KiB, VmHWM {} KiB\n  \
         {CALLS} sequential:      {:.0} calls/s; VmRSS {} KiB, VmHWM {} KiB\n  \
         {CALLS} with {IN_FLIGHT} in flight: {:.0} calls/s; VmRSS {} KiB, VmHWM {} KiB\n  \
         {CALLS} sequential again: VmRSS {} KiB, VmHWM {} KiB",
        calls.len(),
        start.0,
        start.1,
        warm.0,
        warm.1,
        rate(sequential_secs),
        after_sequential.0,
        after_sequential.1,
        rate(concurrent_secs),
        after_concurrent.0,
        after_concurrent.1,
        after_second_sequential.0,
        after_second_sequential.1,
    );
    for (phase, rss) in [
        ("sequential", after_sequential.0),
        ("concurrent", after_concurrent.0),
        ("second sequential", after_second_sequential.0),
    ] {
        assert!(
            rss <= warm.0 + MARGIN_KIB,
            "VmRSS grew from {} KiB after warm-up to {rss} KiB after the {phase} phase",
            warm.0
        );
    }
    // The high-water mark of the last phase stays where the concurrent phase left it: no call of
    // the second sequential phase needed more memory than the server already had.
    assert!(
        after_second_sequential.1 <= after_concurrent.1 + MARGIN_KIB / 4,
        "VmHWM grew from {} KiB to {} KiB in the second sequential phase",
        after_concurrent.1,
        after_second_sequential.1
    );
    client.cancel().await.expect("the session closes");
}
