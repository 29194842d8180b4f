//! The billing vectors of SPEC §16 (V33, V53, V54, V65, V70–V77), called in process on a fresh
//! store. `e2e.rs` checks the same answers over MCP stdio against the real `billing_server`.

use std::fmt::Write as _;
use std::sync::Arc;

use fusion_examples::{Billing, BillingApp, Store, tools};
use fusion_runtime::description::Layout;
use fusion_runtime::tool::{ToolDefinition, ToolSet, input_schema_of};
use fusion_runtime::{Tool, ToolResponse};
use serde_json::{Value, json};
use sha2::{Digest, Sha256};

fn fresh() -> ToolSet {
    tools(Arc::new(BillingApp::new(Store::load().unwrap()))).unwrap()
}

fn billing(tools: &ToolSet, arguments: Value) -> ToolResponse {
    tools.call("billing", Some(arguments))
}

/// `isError` and every block, in the notation of SPEC §16 (block texts as JSON literals).
fn listing(response: &ToolResponse) -> String {
    let is_error = match response.is_error() {
        None => "absent",
        Some(true) => "true",
        Some(false) => "false",
    };
    let mut out = format!("isError {is_error}");
    for (i, block) in response.blocks().iter().enumerate() {
        write!(out, "\n[{i}] {}", serde_json::to_string(block).unwrap()).unwrap();
    }
    out
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().fold(String::new(), |mut out, b| {
        write!(out, "{b:02x}").unwrap();
        out
    })
}

#[test]
fn v33_select_property_of_the_billing_tool() {
    let definition = Billing::definition().unwrap();
    assert_eq!(
        serde_json::to_string(&definition.input_schema()["properties"]["_select"]).unwrap(),
        r##"{"type":"array","description":"⚡ Context optimization: select only the response fields you need. Omit to receive all fields.","items":{"type":"string","enum":["amount_cents","currency","customer","due_at","id","issued_at","lines","status"]}}"##
    );
}

#[test]
fn v53_billing_tool_description() {
    let toon = Billing::definition().unwrap();
    assert_eq!(
        serde_json::to_string(toon.description()).unwrap(),
        r##""Manage invoices. Select operation via the `action` parameter.\n\n[5|]{action|desc|required}:\n  get_invoice|Fetch one invoice by id|id\n  list_invoices|List invoices, newest first|\"\"\n  export_invoices|Export invoices as a compact table|\"\"\n  remind|Queue a payment reminder|id\n  void_invoice|\"[DESTRUCTIVE] Void an invoice\"|id,reason""##
    );
    let plain = ToolDefinition::from_schema(
        &Billing::spec().layout(Layout::Plain),
        &input_schema_of::<Billing>(),
    )
    .unwrap();
    assert_eq!(
        serde_json::to_string(plain.description()).unwrap(),
        r##""Manage invoices. Select operation via the `action` parameter. Actions: get_invoice, list_invoices, export_invoices, remind, void_invoice\n\nWorkflow:\n- 'get_invoice': Fetch one invoice by id. Requires: id\n- 'list_invoices': List invoices, newest first\n- 'export_invoices': Export invoices as a compact table\n- 'remind': Queue a payment reminder. Requires: id\n- 'void_invoice': Void an invoice. Requires: id, reason [DESTRUCTIVE]""##
    );
}

#[test]
fn v54_structured_response() {
    let response = fresh().call("invoice_stats", Some(json!({})));
    assert_eq!(
        listing(&response),
        r##"isError absent
[0] "{\n  \"count\": 120,\n  \"total_cents\": 50326715,\n  \"by_status\": {\n    \"paid\": 74,\n    \"pending\": 32,\n    \"overdue\": 14\n  }\n}""##
    );
    assert_eq!(
        format!(
            "structuredContent: {}",
            serde_json::to_string(response.structured_content().unwrap()).unwrap()
        ),
        r##"structuredContent: {"count":120,"total_cents":50326715,"by_status":{"paid":74,"pending":32,"overdue":14}}"##
    );
    assert_eq!(
        format!("CallToolResult: {}", response.to_json()),
        r##"CallToolResult: {"content":[{"type":"text","text":"{\n  \"count\": 120,\n  \"total_cents\": 50326715,\n  \"by_status\": {\n    \"paid\": 74,\n    \"pending\": 32,\n    \"overdue\": 14\n  }\n}"}],"structuredContent":{"count":120,"total_cents":50326715,"by_status":{"paid":74,"pending":32,"overdue":14}}}"##
    );
}

#[test]
fn v65_enum_selection_array_hint_unknown_field() {
    let response = billing(
        &fresh(),
        json!({"action":"list_invoices","limit":5,"status":"archived","customer_id":["a","b"],"_select":["id","email",7]}),
    );
    assert_eq!(
        listing(&response),
        r##"isError true
[0] "<validation_error action=\"billing/list_invoices\">\n<field name=\"status\">Invalid value. You sent: 'archived'. Valid options: 'paid', 'pending', 'overdue'.</field>\n<field name=\"customer_id\">Wrong type. You sent: an array of 2 items. Expected type: string.</field>\n<field name=\"_select.1\">Unknown field name. You sent: 'email'. Valid names: 'amount_cents', 'currency', 'customer', 'due_at', 'id', 'issued_at', 'lines', 'status'.</field>\n<field name=\"_select.2\">Wrong type. You sent: 7. Expected type: string.</field>\n<field name=\"limit\">Unknown field. Valid fields: 'action', 'status', 'customer_id', '_select'.</field>\n<recovery>Fix the fields above and call the tool again. Do not explain the error.</recovery>\n</validation_error>""##
    );
}

#[test]
fn v70_get_invoice() {
    let response = billing(&fresh(), json!({"action":"get_invoice","id":"INV-0001"}));
    assert_eq!(
        listing(&response),
        r##"isError absent
[0] "{\n  \"id\": \"INV-0001\",\n  \"customer\": {\n    \"id\": \"CUS-001\",\n    \"name\": \"Acme Corp\",\n    \"email\": \"[REDACTED]\",\n    \"country\": \"DE\"\n  },\n  \"amount_cents\": 826199,\n  \"currency\": \"EUR\",\n  \"status\": \"paid\",\n  \"issued_at\": \"2026-04-21\",\n  \"due_at\": \"2026-05-21\",\n  \"lines\": [\n    {\n      \"sku\": \"SKU-301\",\n      \"description\": \"- refurbished unit\",\n      \"qty\": 5,\n      \"unit_price_cents\": 8900\n    },\n    {\n      \"sku\": \"SKU-101\",\n      \"description\": \"Widget, large | blue\",\n      \"qty\": 1,\n      \"unit_price_cents\": 4999\n    },\n    {\n      \"sku\": \"SKU-201\",\n      \"description\": \"Onboarding (one-off)\",\n      \"qty\": 5,\n      \"unit_price_cents\": 150000\n    },\n    {\n      \"sku\": \"SKU-301\",\n      \"description\": \"- refurbished unit\",\n      \"qty\": 3,\n      \"unit_price_cents\": 8900\n    }\n  ]\n}"
[1] "<ui_passthrough type=\"echarts\" title=\"Amount (EUR)\" width=\"half\" priority=\"1\">\n```echarts\n{\n  \"series\": [\n    {\n      \"type\": \"gauge\",\n      \"data\": [\n        {\n          \"value\": 8261.99\n        }\n      ]\n    }\n  ]\n}\n```\n</ui_passthrough>"
[2] "<domain_rules>\n- customer.email is redacted for privacy; never ask the user for it.\n</domain_rules>"
[3] "<domain_rules>\n- unit_price_cents is in CENTS. Divide by 100.\n</domain_rules>"
[4] "<domain_rules>\n- amount_cents is in CENTS. Divide by 100.\n</domain_rules>""##
    );
}

#[test]
fn v71_get_invoice_with_selection() {
    let response = billing(
        &fresh(),
        json!({"action":"get_invoice","id":"INV-0001","_select":["id","status"]}),
    );
    assert_eq!(
        listing(&response),
        r##"isError absent
[0] "{\n  \"id\": \"INV-0001\",\n  \"status\": \"paid\"\n}"
[1] "<ui_passthrough type=\"echarts\" title=\"Amount (EUR)\" width=\"half\" priority=\"1\">\n```echarts\n{\n  \"series\": [\n    {\n      \"type\": \"gauge\",\n      \"data\": [\n        {\n          \"value\": 8261.99\n        }\n      ]\n    }\n  ]\n}\n```\n</ui_passthrough>"
[2] "<domain_rules>\n- customer.email is redacted for privacy; never ask the user for it.\n</domain_rules>"
[3] "<domain_rules>\n- unit_price_cents is in CENTS. Divide by 100.\n</domain_rules>"
[4] "<domain_rules>\n- amount_cents is in CENTS. Divide by 100.\n</domain_rules>""##
    );
}

#[test]
fn v72_unknown_invoice() {
    let response = billing(&fresh(), json!({"action":"get_invoice","id":"INV-9999"}));
    assert_eq!(
        listing(&response),
        r##"isError true
[0] "<tool_error code=\"NOT_FOUND\" severity=\"error\">\n<message>Invoice \"INV-9999\" does not exist.</message>\n<recovery>Call billing with action \"list_invoices\" to find valid ids.</recovery>\n<available_actions>\n  <action>list_invoices</action>\n</available_actions>\n</tool_error>""##
    );
}

#[test]
fn v73_missing_id() {
    let response = billing(&fresh(), json!({"action":"get_invoice"}));
    assert_eq!(
        listing(&response),
        r##"isError true
[0] "<validation_error action=\"billing/get_invoice\">\n<field name=\"id\">Missing required field. Expected type: string.</field>\n<recovery>Fix the fields above and call the tool again. Do not explain the error.</recovery>\n</validation_error>""##
    );
}

#[test]
fn v74_filtered_list() {
    let response = billing(
        &fresh(),
        json!({"action":"list_invoices","status":"overdue","customer_id":"CUS-007"}),
    );
    assert_eq!(
        listing(&response),
        r##"isError absent
[0] "[\n  {\n    \"id\": \"INV-0040\",\n    \"customer\": {\n      \"id\": \"CUS-007\",\n      \"name\": \"Vandelay \\\"Import\\\" Export\",\n      \"email\": \"[REDACTED]\",\n      \"country\": \"US\"\n    },\n    \"amount_cents\": 11250,\n    \"currency\": \"EUR\",\n    \"status\": \"overdue\",\n    \"issued_at\": \"2026-10-09\",\n    \"due_at\": \"2026-11-09\",\n    \"lines\": [\n      {\n        \"sku\": \"SKU-100\",\n        \"description\": \"Widget, small\",\n        \"qty\": 1,\n        \"unit_price_cents\": 1250\n      },\n      {\n        \"sku\": \"SKU-100\",\n        \"description\": \"Widget, small\",\n        \"qty\": 8,\n        \"unit_price_cents\": 1250\n      }\n    ]\n  },\n  {\n    \"id\": \"INV-0047\",\n    \"customer\": {\n      \"id\": \"CUS-007\",\n      \"name\": \"Vandelay \\\"Import\\\" Export\",\n      \"email\": \"[REDACTED]\",\n      \"country\": \"US\"\n    },\n    \"amount_cents\": 63793,\n    \"currency\": \"EUR\",\n    \"status\": \"overdue\",\n    \"issued_at\": \"2026-04-11\",\n    \"due_at\": \"2026-05-11\",\n    \"lines\": [\n      {\n        \"sku\": \"SKU-301\",\n        \"description\": \"- refurbished unit\",\n        \"qty\": 1,\n        \"unit_price_cents\": 8900\n      },\n      {\n        \"sku\": \"SKU-200\",\n        \"description\": \"Support plan: monthly\",\n        \"qty\": 1,\n        \"unit_price_cents\": 19900\n      },\n      {\n        \"sku\": \"SKU-101\",\n        \"description\": \"Widget, large | blue\",\n        \"qty\": 7,\n        \"unit_price_cents\": 4999\n      }\n    ]\n  }\n]"
[1] "<ui_passthrough type=\"summary\">\n📊 **Summary**: 2 invoices: 0 paid, 0 pending, 2 overdue\n</ui_passthrough>"
[2] "<domain_rules>\n- customer.email is redacted for privacy; never ask the user for it.\n</domain_rules>"
[3] "<domain_rules>\n- unit_price_cents is in CENTS. Divide by 100.\n</domain_rules>"
[4] "<domain_rules>\n- amount_cents is in CENTS. Divide by 100.\n- Invoice INV-0040 is overdue since 2026-11-09: mention it first.\n- Invoice INV-0047 is overdue since 2026-05-11: mention it first.\n</domain_rules>"
[5] "<action_suggestions>\n- billing.remind: Send a payment reminder\n- billing.void_invoice: Void it if it cannot be collected\n</action_suggestions>""##
    );
}

#[test]
fn v75_unfiltered_list_truncated() {
    let response = billing(&fresh(), json!({"action":"list_invoices"}));
    let data = &response.blocks()[0];
    assert_eq!(data.lines().count(), 1504);
    assert_eq!(data.len(), 32007);
    assert_eq!(
        hex(&Sha256::digest(data.as_bytes())),
        "8654c7060dacda76f055054044d5b2e9875ad88b568f8805562b9417900ff543"
    );
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
    assert_eq!(
        rest,
        r##"isError absent
[0] (see above)
[1] "<ui_passthrough type=\"summary\">\n📊 **Summary**: ⚠️ Dataset truncated. 50 shown, 70 hidden. Use filters to narrow results.\n</ui_passthrough>"
[2] "<ui_passthrough type=\"summary\">\n📊 **Summary**: 50 invoices: 27 paid, 18 pending, 5 overdue\n</ui_passthrough>"
[3] "<domain_rules>\n- customer.email is redacted for privacy; never ask the user for it.\n</domain_rules>"
[4] "<domain_rules>\n- unit_price_cents is in CENTS. Divide by 100.\n</domain_rules>"
[5] "<domain_rules>\n- amount_cents is in CENTS. Divide by 100.\n- Invoice INV-0118 is overdue since 2026-11-21: mention it first.\n- Invoice INV-0040 is overdue since 2026-11-09: mention it first.\n- Invoice INV-0052 is overdue since 2026-10-18: mention it first.\n- Invoice INV-0100 is overdue since 2026-10-18: mention it first.\n- Invoice INV-0104 is overdue since 2026-10-10: mention it first.\n</domain_rules>"
[6] "<action_suggestions>\n- billing.remind: Send a payment reminder\n- billing.void_invoice: Void it if it cannot be collected\n</action_suggestions>""##
    );
}

#[test]
fn v76_toon_export() {
    let response = billing(
        &fresh(),
        json!({"action":"export_invoices","status":"overdue"}),
    );
    assert_eq!(
        listing(&response),
        r##"isError absent
[0] "[14|]{id|customer|amount_cents|currency|status|issued_at}:\n  INV-0038|Acme Corp|129097|EUR|overdue|2026-01-13\n  INV-0040|\"Vandelay \\\"Import\\\" Export\"|11250|EUR|overdue|2026-10-09\n  INV-0045|Stark Industries|138100|EUR|overdue|2026-04-22\n  INV-0047|\"Vandelay \\\"Import\\\" Export\"|63793|EUR|overdue|2026-04-11\n  INV-0052|\"Umbrella | Pharma\"|454794|EUR|overdue|2026-09-18\n  INV-0063|\"Umbrella | Pharma\"|99980|EUR|overdue|2026-06-26\n  INV-0080|Café Crème SARL|105189|EUR|overdue|2026-01-24\n  INV-0084|\"Hooli: Cloud\"|1409700|EUR|overdue|2026-04-23\n  INV-0087|Café Crème SARL|311539|EUR|overdue|2026-01-26\n  INV-0100|Café Crème SARL|39992|EUR|overdue|2026-09-18\n  INV-0102|Initech, Inc.|238883|EUR|overdue|2026-05-17\n  INV-0104|\"Hooli: Cloud\"|256600|EUR|overdue|2026-09-10\n  INV-0114|Initech, Inc.|446489|EUR|overdue|2026-04-27\n  INV-0118|Café Crème SARL|1405800|EUR|overdue|2026-10-21""##
    );
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
    assert_eq!(
        both,
        r##"response 1: isError false
[0] "<tool_error code=\"ALREADY_PAID\" severity=\"warning\">\n<message>Invoice INV-0001 is already paid.</message>\n</tool_error>"
response 2: isError absent
[0] "Reminder queued for INV-0002.""##
    );
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
        r##"isError absent
[0] "Invoice INV-0002 voided.""##
    );
    let not_found = r##"isError true
[0] "<tool_error code=\"NOT_FOUND\" severity=\"error\">\n<message>Invoice \"INV-0002\" does not exist.</message>\n<recovery>Call billing with action \"list_invoices\" to find valid ids.</recovery>\n<available_actions>\n  <action>list_invoices</action>\n</available_actions>\n</tool_error>""##;
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
            &json!({"count":119,"total_cents":50326715 - 1355000,"by_status":{"paid":74,"pending":31,"overdue":14}})
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
