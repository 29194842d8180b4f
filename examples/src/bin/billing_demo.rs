//! The billing demo: a handful of calls of the billing tools and every block of each response,
//! as an MCP client receives them.
//!
//! `cargo run -p fusion-examples --bin billing_demo`

use std::process::ExitCode;
use std::sync::Arc;

use fusion_examples::{BillingApp, Store, tools};
use fusion_runtime::{ToolResponse, ToolSet};
use serde_json::{Value, json};

/// The calls of the transcript: one per action, one with `_select`, and two errors.
fn calls() -> Vec<(&'static str, Value)> {
    vec![
        (
            "billing",
            json!({"action": "get_invoice", "id": "INV-0001"}),
        ),
        (
            "billing",
            json!({"action": "get_invoice", "id": "INV-0047", "_select": ["id", "status", "due_at"]}),
        ),
        (
            "billing",
            json!({"action": "list_invoices", "status": "overdue", "customer_id": "CUS-007"}),
        ),
        (
            "billing",
            json!({"action": "export_invoices", "status": "overdue"}),
        ),
        ("billing", json!({"action": "remind", "id": "INV-0002"})),
        ("billing", json!({"action": "remind", "id": "INV-0001"})),
        (
            "billing",
            json!({"action": "void_invoice", "id": "INV-0002", "reason": "Duplicate of INV-0003"}),
        ),
        (
            "billing",
            json!({"action": "get_invoice", "id": "INV-0002"}),
        ),
        (
            "billing",
            json!({"action": "list_invoices", "status": "archived", "limit": 5}),
        ),
        ("invoice_stats", json!({})),
    ]
}

fn print_tools<S>(tools: &ToolSet<S>) {
    println!("━━━ tools/list");
    for definition in tools.definitions() {
        println!("── {}", definition.name());
        println!("{}", definition.description());
        let arguments: Vec<&String> = definition.input_schema()["properties"]
            .as_object()
            .map(|p| p.keys().collect())
            .unwrap_or_default();
        let arguments: Vec<&str> = arguments.into_iter().map(String::as_str).collect();
        println!("arguments: {}", arguments.join(", "));
        if let Some(annotations) = definition.annotations() {
            println!("annotations: {}", Value::Object(annotations.clone()));
        }
        if definition.output_schema().is_some() {
            println!("outputSchema: yes");
        }
        println!();
    }
}

fn print_response(response: &ToolResponse) {
    let is_error = match response.is_error() {
        None => "absent".to_owned(),
        Some(flag) => flag.to_string(),
    };
    let count = response.blocks().len();
    let plural = if count == 1 { "" } else { "s" };
    println!("isError: {is_error}, {count} block{plural}");
    for (i, block) in response.blocks().iter().enumerate() {
        println!("── [{i}]");
        println!("{block}");
    }
    if let Some(structured) = response.structured_content() {
        println!("── structuredContent");
        println!("{structured}");
    }
    println!();
}

fn main() -> ExitCode {
    fusion_examples::cli::quiet_on_closed_pipe();
    let tools = match Store::load()
        .map_err(|e| e.to_string())
        .and_then(|store| tools(Arc::new(BillingApp::new(store))).map_err(|e| e.to_string()))
    {
        Ok(tools) => tools,
        Err(error) => {
            eprintln!("billing_demo: {error}");
            return ExitCode::FAILURE;
        }
    };
    print_tools(&tools);
    for (name, arguments) in calls() {
        println!("━━━ tools/call {name} {arguments}");
        print_response(&tools.call(name, Some(arguments)));
    }
    ExitCode::SUCCESS
}
