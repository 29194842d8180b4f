//! The billing vectors of wire format §16 (V33, V53, V54, V65, V70–V77), called in process on a fresh
//! store. `e2e.rs` checks the same answers over MCP stdio against the real `billing_server`.

use std::sync::Arc;

use crate::support;

use fusion_examples::{Billing, BillingApp, Store, tools};
use fusion_runtime::ToolSet;
use fusion_runtime::tool::description::Layout;
use fusion_runtime::tool::{ToolDefinition, input_schema_of};
use fusion_runtime::{Tool, ToolResponse};
use serde_json::{Value, json};
use sha2::{Digest, Sha256};
use support::hex;

fn fresh() -> ToolSet<BillingApp> {
    tools(Arc::new(BillingApp::new(Store::load().unwrap()))).unwrap()
}

fn billing(tools: &ToolSet<BillingApp>, arguments: Value) -> ToolResponse {
    tools.call("billing", Some(arguments))
}

fn listing(response: &ToolResponse) -> String {
    support::listing(response.is_error(), response.blocks())
}

#[test]
fn v33_select_property_of_the_billing_tool() {
    let definition = Billing::definition().unwrap();
    assert_eq!(
        serde_json::to_string(&definition.input_schema()["properties"]["_select"]).unwrap(),
        r#"{"type":"array","description":"⚡ Context optimization: select only the response fields you need. Omit to receive all fields. For: get_invoice, list_invoices","items":{"type":"string","enum":["amount_cents","currency","customer","due_at","id","issued_at","lines","status"]}}"#
    );
}

#[test]
fn v53_billing_tool_description() {
    let toon = Billing::definition().unwrap();
    assert_eq!(
        serde_json::to_string(toon.description()).unwrap(),
        r#""Manage invoices. Select operation via the `action` parameter.\n\n[5|]{action|desc|required}:\n  get_invoice|Fetch one invoice by id|id\n  list_invoices|List invoices, newest first|\"\"\n  export_invoices|Export invoices as a compact table|\"\"\n  remind|Queue a payment reminder|id\n  void_invoice|\"[DESTRUCTIVE] Void an invoice\"|id,reason""#
    );
    let plain = ToolDefinition::from_schema(
        &Billing::spec().layout(Layout::Plain),
        &input_schema_of::<Billing>(),
    )
    .unwrap();
    assert_eq!(
        serde_json::to_string(plain.description()).unwrap(),
        r#""Manage invoices. Select operation via the `action` parameter. Actions: get_invoice, list_invoices, export_invoices, remind, void_invoice\n\nWorkflow:\n- 'get_invoice': Fetch one invoice by id. Requires: id\n- 'list_invoices': List invoices, newest first\n- 'export_invoices': Export invoices as a compact table\n- 'remind': Queue a payment reminder. Requires: id\n- 'void_invoice': Void an invoice. Requires: id, reason [DESTRUCTIVE]""#
    );
}

#[test]
fn v54_structured_response() {
    let response = fresh().call("invoice_stats", Some(json!({})));
    assert_eq!(listing(&response), support::V54);
    assert_eq!(
        serde_json::to_string(response.structured_content().unwrap()).unwrap(),
        support::V54_STRUCTURED
    );
    assert_eq!(response.to_json(), support::V54_RESULT);
}

#[test]
fn v65_enum_selection_array_hint_unknown_field() {
    let response = billing(
        &fresh(),
        json!({"action":"list_invoices","limit":5,"status":"archived","customer_id":["a","b"],"_select":["id","email",7]}),
    );
    assert_eq!(listing(&response), support::V65);
}

#[test]
fn v70_get_invoice() {
    let response = billing(&fresh(), json!({"action":"get_invoice","id":"INV-0001"}));
    assert_eq!(listing(&response), support::V70);
}

#[test]
fn v71_get_invoice_with_selection() {
    let response = billing(
        &fresh(),
        json!({"action":"get_invoice","id":"INV-0001","_select":["id","status"]}),
    );
    assert_eq!(listing(&response), support::V71);
}

#[test]
fn v72_unknown_invoice() {
    let response = billing(&fresh(), json!({"action":"get_invoice","id":"INV-9999"}));
    assert_eq!(listing(&response), support::V72);
}

#[test]
fn v73_missing_id() {
    let response = billing(&fresh(), json!({"action":"get_invoice"}));
    assert_eq!(listing(&response), support::V73);
}

#[test]
fn v74_filtered_list() {
    let response = billing(
        &fresh(),
        json!({"action":"list_invoices","status":"overdue","customer_id":"CUS-007"}),
    );
    assert_eq!(listing(&response), support::V74);
}

#[test]
fn v75_unfiltered_list_truncated() {
    let response = billing(&fresh(), json!({"action":"list_invoices"}));
    let data = &response.blocks()[0];
    let (lines, bytes, sha256) = support::V75_DATA;
    assert_eq!(data.lines().count(), lines);
    assert_eq!(data.len(), bytes);
    assert_eq!(hex(&Sha256::digest(data.as_bytes())), sha256);
    let view = response.view();
    let wire = view.data();
    let ids: Vec<&str> = wire
        .as_value()
        .unwrap()
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["id"].as_str().unwrap())
        .collect();
    assert_eq!((ids.len(), ids[0], ids[49]), (50, "INV-0046", "INV-0093"));
    let mut rest = listing(&response);
    // Block [0] is checked above; compare the listing from block [1] on.
    let start = rest.find("\n[1] ").unwrap();
    rest.replace_range(..start, "isError absent\n[0] (see above)");
    assert_eq!(rest, support::V75);
}

#[test]
fn v76_toon_export() {
    let response = billing(
        &fresh(),
        json!({"action":"export_invoices","status":"overdue"}),
    );
    assert_eq!(listing(&response), support::V76);
}

#[test]
fn v77_remind() {
    let tools = fresh();
    let first = billing(&tools, json!({"action":"remind","id":"INV-0001"}));
    let second = billing(&tools, json!({"action":"remind","id":"INV-0002"}));
    let both = format!(
        "response 1: {}\nresponse 2: {}",
        listing(&first),
        listing(&second)
    );
    assert_eq!(both, support::V77);
}

#[test]
fn a_voided_invoice_no_longer_exists() {
    let tools = fresh();
    let voided = billing(
        &tools,
        json!({"action":"void_invoice","id":"INV-0002","reason":"duplicate"}),
    );
    assert_eq!(
        listing(&voided),
        r#"isError absent
[0] "Invoice INV-0002 voided.""#
    );
    let not_found = r#"isError true
[0] "<tool_error code=\"NOT_FOUND\" severity=\"error\">\n<message>Invoice \"INV-0002\" does not exist.</message>\n<recovery>Call billing with action \"list_invoices\" to find valid ids.</recovery>\n<available_actions>\n  <action>list_invoices</action>\n</available_actions>\n</tool_error>""#;
    for action in ["get_invoice", "remind"] {
        assert_eq!(
            listing(&billing(
                &tools,
                json!({"action": action, "id": "INV-0002"})
            )),
            not_found
        );
    }
    let again = billing(
        &tools,
        json!({"action":"void_invoice","id":"INV-0002","reason":"twice"}),
    );
    assert_eq!(listing(&again), not_found);
    let stats = tools.call("invoice_stats", Some(json!({})));
    assert_eq!(
        stats.structured_content(),
        Some(
            &json!({"count":119,"total_cents":50_326_715 - 1_355_000,"by_status":{"paid":74,"pending":31,"overdue":14}})
        )
    );
    let exported = billing(
        &tools,
        json!({"action":"export_invoices","status":"pending"}),
    );
    assert!(
        exported.blocks()[0]
            .starts_with("[31|]{id|customer|amount_cents|currency|status|issued_at}:")
    );
    let listed = billing(&tools, json!({"action":"list_invoices","status":"pending"}));
    assert!(!listed.blocks()[0].contains("INV-0002"));
}

#[test]
fn invoice_stats_of_one_status_lists_every_status() {
    let response = fresh().call("invoice_stats", Some(json!({"status": "overdue"})));
    let expected = json!({"count":14,"total_cents":response.structured_content().unwrap()["total_cents"],"by_status":{"paid":0,"pending":0,"overdue":14}});
    assert_eq!(response.structured_content(), Some(&expected));
}
