//! End to end: the real `billing_server` (and `counter_server`) binaries, driven over MCP stdio
//! by rmcp's client. Every call is checked against exact text: the wire format vectors' listings
//! (shared with `billing.rs`) or committed insta snapshots.

use crate::support;

use std::fmt::Write as _;
use std::process::Command as StdCommand;

use rmcp::model::{CallToolRequestParams, CallToolResult, Tool};
use rmcp::service::RunningService;
use rmcp::transport::TokioChildProcess;
use rmcp::{RoleClient, ServiceExt};
use serde_json::{Value, json};
use sha2::{Digest, Sha256};
use tokio::process::Command;

/// A client connected to a fresh server process.
struct Session {
    client: RunningService<RoleClient, ()>,
}

impl Session {
    async fn start(binary: &str) -> Session {
        let transport = TokioChildProcess::new(Command::new(binary)).expect("the server starts");
        let client = ().serve(transport).await.expect("the MCP handshake succeeds");
        Session { client }
    }

    async fn billing() -> Session {
        Session::start(env!("CARGO_BIN_EXE_billing_server")).await
    }

    async fn tools(&self) -> Vec<Tool> {
        self.client
            .list_all_tools()
            .await
            .expect("tools/list answers")
    }

    async fn result(&self, name: &str, arguments: Value) -> CallToolResult {
        let Value::Object(arguments) = arguments else {
            panic!("arguments must be an object");
        };
        let params = CallToolRequestParams::new(name.to_owned()).with_arguments(arguments);
        self.client
            .call_tool(params)
            .await
            .expect("tools/call answers")
    }

    /// The result in the notation of wire format §16 (plus `structuredContent` when present).
    async fn call(&self, name: &str, arguments: Value) -> String {
        let result = self.result(name, arguments).await;
        let mut out = support::listing(result.is_error, &texts(&result));
        if let Some(structured) = &result.structured_content {
            out.push_str("\nstructuredContent: ");
            out.push_str(&serde_json::to_string(structured).unwrap());
        }
        out
    }

    async fn stop(self) {
        self.client.cancel().await.expect("the session closes");
    }
}

fn texts(result: &CallToolResult) -> Vec<String> {
    result
        .content
        .iter()
        .map(|block| {
            block
                .as_text()
                .expect("fusion sends text blocks only")
                .text
                .clone()
        })
        .collect()
}

#[tokio::test(flavor = "current_thread")]
async fn tools_list_definitions_schemas_and_the_toon_description() {
    let session = Session::billing().await;
    let server = session
        .client
        .peer_info()
        .expect("the server introduced itself");
    assert_eq!(
        server.server_info.as_ref().map(|i| i.name.as_str()),
        Some("billing")
    );
    let tools = session.tools().await;
    let names: Vec<&str> = tools.iter().map(|t| &*t.name).collect();
    assert_eq!(names, ["billing", "invoice_stats"]);
    // V53: the TOON description as it ships.
    assert_eq!(
        tools[0].description.as_deref(),
        Some(
            "Manage invoices. Select operation via the `action` parameter.\n\n[5|]{action|desc|required}:\n  get_invoice|Fetch one invoice by id|id\n  list_invoices|List invoices, newest first|\"\"\n  export_invoices|Export invoices as a compact table|\"\"\n  remind|Queue a payment reminder|id\n  void_invoice|\"[DESTRUCTIVE] Void an invoice\"|id,reason"
        )
    );
    insta::assert_snapshot!("tools_list", serde_json::to_string_pretty(&tools).unwrap());
    session.stop().await;
}

#[tokio::test(flavor = "current_thread")]
async fn every_billing_vector_over_mcp() {
    let s = Session::billing().await;
    let call = |arguments| s.call("billing", arguments);
    assert_eq!(
        call(json!({"action":"get_invoice","id":"INV-0001"})).await,
        support::V70
    );
    assert_eq!(
        call(json!({"action":"get_invoice","id":"INV-0001","_select":["id","status"]})).await,
        support::V71
    );
    assert_eq!(
        call(json!({"action":"get_invoice","id":"INV-9999"})).await,
        support::V72
    );
    assert_eq!(call(json!({"action":"get_invoice"})).await, support::V73);
    assert_eq!(
        call(json!({"action":"list_invoices","status":"overdue","customer_id":"CUS-007"})).await,
        support::V74
    );
    assert_eq!(
        call(json!({"action":"export_invoices","status":"overdue"})).await,
        support::V76
    );
    let reminders = format!(
        "response 1: {}\nresponse 2: {}",
        call(json!({"action":"remind","id":"INV-0001"})).await,
        call(json!({"action":"remind","id":"INV-0002"})).await
    );
    assert_eq!(reminders, support::V77);
    assert_eq!(
        call(json!({"action":"list_invoices","limit":5,"status":"archived","customer_id":["a","b"],"_select":["id","email",7]})).await,
        support::V65
    );
    assert_eq!(
        s.call("invoice_stats", json!({})).await,
        format!(
            "{}\nstructuredContent: {}",
            support::V54,
            support::V54_STRUCTURED
        )
    );
    s.stop().await;
}

#[tokio::test(flavor = "current_thread")]
async fn v75_truncated_list_over_mcp() {
    let s = Session::billing().await;
    let result = s.result("billing", json!({"action":"list_invoices"})).await;
    let blocks = texts(&result);
    let (lines, bytes, sha256) = support::V75_DATA;
    assert_eq!(blocks[0].lines().count(), lines);
    assert_eq!(blocks[0].len(), bytes);
    assert_eq!(support::hex(&Sha256::digest(blocks[0].as_bytes())), sha256);
    let mut listing = support::listing(result.is_error, &blocks);
    let start = listing.find("\n[1] ").unwrap();
    listing.replace_range(..start, "isError absent\n[0] (see above)");
    assert_eq!(listing, support::V75);
    s.stop().await;
}

#[tokio::test(flavor = "current_thread")]
async fn error_envelopes_over_mcp() {
    let s = Session::billing().await;
    let cases = [
        ("unknown_action", "billing", json!({"action":"destory"})),
        ("missing_discriminator", "billing", json!({"id":"INV-0001"})),
        (
            "invalid_discriminator",
            "billing",
            json!({"action":["get_invoice"]}),
        ),
        (
            "missing_fields",
            "billing",
            json!({"action":"void_invoice"}),
        ),
        ("wrong_type", "billing", json!({"action":"remind","id":42})),
        (
            "unknown_field",
            "billing",
            json!({"action":"remind","id":"INV-0002","urgent":true}),
        ),
        (
            "unknown_select_name",
            "billing",
            json!({"action":"get_invoice","id":"INV-0001","_select":["id","internal_margin_bps"]}),
        ),
        (
            "select_not_an_array",
            "billing",
            json!({"action":"get_invoice","id":"INV-0001","_select":"id"}),
        ),
        (
            "flat_tool_unknown_field",
            "invoice_stats",
            json!({"status":"paid","year":2026}),
        ),
        (
            "flat_tool_invalid_enum",
            "invoice_stats",
            json!({"status":"PAID"}),
        ),
    ];
    let mut transcript = String::new();
    for (label, tool, arguments) in cases {
        let listing = s.call(tool, arguments.clone()).await;
        write!(transcript, "### {label}: {tool} {arguments}\n{listing}\n\n").unwrap();
    }
    insta::assert_snapshot!("error_envelopes", transcript);
    s.stop().await;
}

/// An unknown tool is a protocol error over MCP (-32602, as the specification lists it; wire
/// format §13.3), whose message says how to recover and whose data lists the tools there are.
#[tokio::test(flavor = "current_thread")]
async fn an_unknown_tool_is_a_protocol_error() {
    let s = Session::billing().await;
    let params = CallToolRequestParams::new("billing_v2".to_owned());
    let error = s
        .client
        .call_tool(params)
        .await
        .expect_err("an unknown tool is not a result");
    let rmcp::ServiceError::McpError(error) = error else {
        panic!("a JSON-RPC error, got {error:?}");
    };
    assert_eq!(error.code.0, -32602);
    assert_eq!(
        error.message,
        "Unknown tool \"billing_v2\": check the available tools via tools/list and call a valid one."
    );
    assert_eq!(
        error.data,
        Some(
            json!({"code": "UNKNOWN_TOOL", "tool": "billing_v2", "available": ["billing", "invoice_stats"]})
        )
    );
    s.stop().await;
}

#[tokio::test(flavor = "current_thread")]
async fn void_is_process_state_and_selection_through_mcp() {
    let s = Session::billing().await;
    let steps = [
        (
            "select",
            "billing",
            json!({"action":"list_invoices","status":"pending","customer_id":"CUS-008","_select":["id","due_at"]}),
        ),
        (
            "void",
            "billing",
            json!({"action":"void_invoice","id":"INV-0002","reason":"Duplicate of INV-0003"}),
        ),
        (
            "get_voided",
            "billing",
            json!({"action":"get_invoice","id":"INV-0002"}),
        ),
        (
            "void_twice",
            "billing",
            json!({"action":"void_invoice","id":"INV-0002","reason":"again"}),
        ),
        (
            "select_after_void",
            "billing",
            json!({"action":"list_invoices","status":"pending","customer_id":"CUS-008","_select":["id","due_at"]}),
        ),
        (
            "stats_pending",
            "invoice_stats",
            json!({"status":"pending"}),
        ),
        (
            "remind_voided",
            "billing",
            json!({"action":"remind","id":"INV-0002"}),
        ),
    ];
    let mut transcript = String::new();
    for (label, tool, arguments) in steps {
        let listing = s.call(tool, arguments.clone()).await;
        write!(transcript, "### {label}: {tool} {arguments}\n{listing}\n\n").unwrap();
    }
    insta::assert_snapshot!("void_and_select", transcript);
    s.stop().await;
}

#[tokio::test(flavor = "current_thread")]
async fn an_rmcp_tool_router_server_adopts_fusion_in_one_tool() {
    let s = Session::start(env!("CARGO_BIN_EXE_counter_server")).await;
    let tools = s.tools().await;
    let mut names: Vec<&str> = tools.iter().map(|t| &*t.name).collect();
    names.sort_unstable();
    assert_eq!(names, ["billing", "get", "increment", "report"]);
    let billing = tools.iter().find(|t| t.name == "billing").unwrap();
    assert!(
        billing
            .description
            .as_deref()
            .unwrap()
            .starts_with("Manage invoices.")
    );
    assert_eq!(
        billing
            .annotations
            .as_ref()
            .and_then(|a| a.destructive_hint),
        Some(true)
    );
    // The rmcp tools answer as before...
    assert_eq!(
        s.call("increment", json!({})).await,
        "isError false\n[0] \"1\""
    );
    assert_eq!(s.call("get", json!({})).await, "isError false\n[0] \"1\"");
    // ...and the fusion tool answers with fusion's blocks and envelopes.
    assert_eq!(
        s.call("billing", json!({"action":"get_invoice","id":"INV-0001"}))
            .await,
        support::V70
    );
    assert_eq!(
        s.call("billing", json!({"action":"get_invoice"})).await,
        support::V73
    );
    let reminders = format!(
        "response 1: {}\nresponse 2: {}",
        s.call("billing", json!({"action":"remind","id":"INV-0001"}))
            .await,
        s.call("billing", json!({"action":"remind","id":"INV-0002"}))
            .await
    );
    assert_eq!(reminders, support::V77);

    // Every resource a tool names is listed and reads (`with_ui_app` + `serve_ui_app!`).
    let listed = s
        .client
        .list_all_resources()
        .await
        .expect("resources/list answers");
    let advertised: Vec<String> = tools
        .iter()
        .filter_map(|t| t.meta.as_ref()?.0.get("ui")?.get("resourceUri")?.as_str())
        .map(str::to_owned)
        .collect();
    assert_eq!(
        advertised,
        ["ui://fusion/blocks"],
        "only the fusion tool names the view"
    );
    for uri in &advertised {
        assert!(listed.iter().any(|r| &r.uri == uri), "{uri} is not listed");
        s.client
            .read_resource(rmcp::model::ReadResourceRequestParams::new(uri.clone()))
            .await
            .expect("an advertised resource reads");
    }
    s.stop().await;
}

/// A closed stdout ends `billing_demo` quietly (`billing_demo | head`): status 0, no panic.
#[test]
fn billing_demo_stops_quietly_when_its_output_is_closed() {
    use std::process::Stdio;
    let mut child = StdCommand::new(env!("CARGO_BIN_EXE_billing_demo"))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("billing_demo runs");
    drop(child.stdout.take());
    let output = child.wait_with_output().expect("billing_demo ends");
    assert!(output.status.success(), "{output:?}");
    assert!(
        output.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
}

#[test]
fn billing_demo_prints_a_transcript_and_exits_0() {
    let output = StdCommand::new(env!("CARGO_BIN_EXE_billing_demo"))
        .output()
        .expect("billing_demo runs");
    assert!(output.status.success(), "{output:?}");
    let stdout = String::from_utf8(output.stdout).unwrap();
    insta::assert_snapshot!("billing_demo", stdout);
}
