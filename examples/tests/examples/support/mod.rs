//! Shared by the in-process and the MCP tests: the listing notation of wire format §16 and the
//! expected listings of the billing vectors, copied from docs/wire-format.md.

#![allow(dead_code, reason = "each test file uses a different part")]

use std::fmt::Write as _;

/// `isError` and every block, in the notation of wire format §16 (block texts as JSON literals).
pub fn listing<S: AsRef<str>>(is_error: Option<bool>, blocks: &[S]) -> String {
    let is_error = match is_error {
        None => "absent",
        Some(true) => "true",
        Some(false) => "false",
    };
    let mut out = format!("isError {is_error}");
    for (i, block) in blocks.iter().enumerate() {
        write!(
            out,
            "\n[{i}] {}",
            serde_json::to_string(block.as_ref()).unwrap()
        )
        .unwrap();
    }
    out
}

/// Lowercase hex of a digest.
pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().fold(String::new(), |mut out, b| {
        write!(out, "{b:02x}").unwrap();
        out
    })
}

/// V75's block [0]: lines, bytes and SHA-256.
pub const V75_DATA: (usize, usize, &str) = (
    1504,
    32007,
    "8654c7060dacda76f055054044d5b2e9875ad88b568f8805562b9417900ff543",
);

/// wire format §16.11 V65, as listed there.
pub const V65: &str = r#"isError true
[0] "<validation_error action=\"billing/list_invoices\">\n<field name=\"status\">Invalid value. You sent: 'archived'. Valid options: 'paid', 'pending', 'overdue'.</field>\n<field name=\"customer_id\">Wrong type. You sent: an array of 2 items. Expected type: string.</field>\n<field name=\"_select.1\">Unknown field name. You sent: 'email'. Valid names: 'amount_cents', 'currency', 'customer', 'due_at', 'id', 'issued_at', 'lines', 'status'.</field>\n<field name=\"_select.2\">Wrong type. You sent: 7. Expected type: string.</field>\n<field name=\"limit\">Unknown field. Valid fields: 'action', 'status', 'customer_id', '_select'.</field>\n<recovery>Fix the fields above and call the tool again. Do not explain the error.</recovery>\n</validation_error>""#;

/// wire format §16.13 V70, as listed there.
pub const V70: &str = r#"isError absent
[0] "{\n  \"id\": \"INV-0001\",\n  \"customer\": {\n    \"id\": \"CUS-001\",\n    \"name\": \"Acme Corp\",\n    \"email\": \"[REDACTED]\",\n    \"country\": \"DE\"\n  },\n  \"amount_cents\": 826199,\n  \"currency\": \"EUR\",\n  \"status\": \"paid\",\n  \"issued_at\": \"2026-04-21\",\n  \"due_at\": \"2026-05-21\",\n  \"lines\": [\n    {\n      \"sku\": \"SKU-301\",\n      \"description\": \"- refurbished unit\",\n      \"qty\": 5,\n      \"unit_price_cents\": 8900\n    },\n    {\n      \"sku\": \"SKU-101\",\n      \"description\": \"Widget, large | blue\",\n      \"qty\": 1,\n      \"unit_price_cents\": 4999\n    },\n    {\n      \"sku\": \"SKU-201\",\n      \"description\": \"Onboarding (one-off)\",\n      \"qty\": 5,\n      \"unit_price_cents\": 150000\n    },\n    {\n      \"sku\": \"SKU-301\",\n      \"description\": \"- refurbished unit\",\n      \"qty\": 3,\n      \"unit_price_cents\": 8900\n    }\n  ]\n}"
[1] "<ui_passthrough type=\"echarts\" title=\"Amount (EUR)\" width=\"half\" priority=\"1\">\n```echarts\n{\n  \"series\": [\n    {\n      \"type\": \"gauge\",\n      \"data\": [\n        {\n          \"value\": 8261.99\n        }\n      ]\n    }\n  ]\n}\n```\n</ui_passthrough>"
[2] "<domain_rules>\n- customer.email is redacted for privacy; never ask the user for it.\n</domain_rules>"
[3] "<domain_rules>\n- unit_price_cents is in CENTS. Divide by 100.\n</domain_rules>"
[4] "<domain_rules>\n- amount_cents is in CENTS. Divide by 100.\n</domain_rules>""#;

/// wire format §16.13 V71, as listed there.
pub const V71: &str = r#"isError absent
[0] "{\n  \"id\": \"INV-0001\",\n  \"status\": \"paid\"\n}"
[1] "<ui_passthrough type=\"echarts\" title=\"Amount (EUR)\" width=\"half\" priority=\"1\">\n```echarts\n{\n  \"series\": [\n    {\n      \"type\": \"gauge\",\n      \"data\": [\n        {\n          \"value\": 8261.99\n        }\n      ]\n    }\n  ]\n}\n```\n</ui_passthrough>"
[2] "<domain_rules>\n- amount_cents is in CENTS. Divide by 100.\n</domain_rules>""#;

/// wire format §16.13 V72, as listed there.
pub const V72: &str = r#"isError true
[0] "<tool_error code=\"NOT_FOUND\" severity=\"error\">\n<message>Invoice \"INV-9999\" does not exist.</message>\n<recovery>Call billing with action \"list_invoices\" to find valid ids.</recovery>\n<available_actions>\n  <action>list_invoices</action>\n</available_actions>\n</tool_error>""#;

/// wire format §16.13 V73, as listed there.
pub const V73: &str = r#"isError true
[0] "<validation_error action=\"billing/get_invoice\">\n<field name=\"id\">Missing required field. Expected type: string.</field>\n<recovery>Fix the fields above and call the tool again. Do not explain the error.</recovery>\n</validation_error>""#;

/// wire format §16.13 V74, as listed there.
pub const V74: &str = r#"isError absent
[0] "[\n  {\n    \"id\": \"INV-0040\",\n    \"customer\": {\n      \"id\": \"CUS-007\",\n      \"name\": \"Vandelay \\\"Import\\\" Export\",\n      \"email\": \"[REDACTED]\",\n      \"country\": \"US\"\n    },\n    \"amount_cents\": 11250,\n    \"currency\": \"EUR\",\n    \"status\": \"overdue\",\n    \"issued_at\": \"2026-10-09\",\n    \"due_at\": \"2026-11-09\",\n    \"lines\": [\n      {\n        \"sku\": \"SKU-100\",\n        \"description\": \"Widget, small\",\n        \"qty\": 1,\n        \"unit_price_cents\": 1250\n      },\n      {\n        \"sku\": \"SKU-100\",\n        \"description\": \"Widget, small\",\n        \"qty\": 8,\n        \"unit_price_cents\": 1250\n      }\n    ]\n  },\n  {\n    \"id\": \"INV-0047\",\n    \"customer\": {\n      \"id\": \"CUS-007\",\n      \"name\": \"Vandelay \\\"Import\\\" Export\",\n      \"email\": \"[REDACTED]\",\n      \"country\": \"US\"\n    },\n    \"amount_cents\": 63793,\n    \"currency\": \"EUR\",\n    \"status\": \"overdue\",\n    \"issued_at\": \"2026-04-11\",\n    \"due_at\": \"2026-05-11\",\n    \"lines\": [\n      {\n        \"sku\": \"SKU-301\",\n        \"description\": \"- refurbished unit\",\n        \"qty\": 1,\n        \"unit_price_cents\": 8900\n      },\n      {\n        \"sku\": \"SKU-200\",\n        \"description\": \"Support plan: monthly\",\n        \"qty\": 1,\n        \"unit_price_cents\": 19900\n      },\n      {\n        \"sku\": \"SKU-101\",\n        \"description\": \"Widget, large | blue\",\n        \"qty\": 7,\n        \"unit_price_cents\": 4999\n      }\n    ]\n  }\n]"
[1] "<ui_passthrough type=\"summary\">\n📊 **Summary**: 2 invoices: 0 paid, 0 pending, 2 overdue\n</ui_passthrough>"
[2] "<domain_rules>\n- customer.email is redacted for privacy; never ask the user for it.\n</domain_rules>"
[3] "<domain_rules>\n- unit_price_cents is in CENTS. Divide by 100.\n</domain_rules>"
[4] "<domain_rules>\n- amount_cents is in CENTS. Divide by 100.\n- Invoices INV-0040 and INV-0047 are overdue: mention them first.\n</domain_rules>"
[5] "<action_suggestions>\n- billing.remind: Send a payment reminder\n- billing.void_invoice: Void it if it cannot be collected\n</action_suggestions>""#;

/// wire format §16.13 V75, as listed there.
pub const V75: &str = r#"isError absent
[0] (see above)
[1] "<ui_passthrough type=\"summary\">\n📊 **Summary**: ⚠️ Dataset truncated. 50 shown, 70 hidden. Use filters to narrow results.\n</ui_passthrough>"
[2] "<ui_passthrough type=\"summary\">\n📊 **Summary**: 50 invoices: 27 paid, 18 pending, 5 overdue\n</ui_passthrough>"
[3] "<domain_rules>\n- customer.email is redacted for privacy; never ask the user for it.\n</domain_rules>"
[4] "<domain_rules>\n- unit_price_cents is in CENTS. Divide by 100.\n</domain_rules>"
[5] "<domain_rules>\n- amount_cents is in CENTS. Divide by 100.\n- Invoices INV-0118, INV-0040, INV-0052, INV-0100 and INV-0104 are overdue: mention them first.\n</domain_rules>"
[6] "<action_suggestions>\n- billing.remind: Send a payment reminder\n- billing.void_invoice: Void it if it cannot be collected\n</action_suggestions>""#;

/// wire format §16.13 V76, as listed there.
pub const V76: &str = r#"isError absent
[0] "[14|]{id|customer|amount_cents|currency|status|issued_at}:\n  INV-0038|Acme Corp|129097|EUR|overdue|2026-01-13\n  INV-0040|\"Vandelay \\\"Import\\\" Export\"|11250|EUR|overdue|2026-10-09\n  INV-0045|Stark Industries|138100|EUR|overdue|2026-04-22\n  INV-0047|\"Vandelay \\\"Import\\\" Export\"|63793|EUR|overdue|2026-04-11\n  INV-0052|\"Umbrella | Pharma\"|454794|EUR|overdue|2026-09-18\n  INV-0063|\"Umbrella | Pharma\"|99980|EUR|overdue|2026-06-26\n  INV-0080|Café Crème SARL|105189|EUR|overdue|2026-01-24\n  INV-0084|\"Hooli: Cloud\"|1409700|EUR|overdue|2026-04-23\n  INV-0087|Café Crème SARL|311539|EUR|overdue|2026-01-26\n  INV-0100|Café Crème SARL|39992|EUR|overdue|2026-09-18\n  INV-0102|Initech, Inc.|238883|EUR|overdue|2026-05-17\n  INV-0104|\"Hooli: Cloud\"|256600|EUR|overdue|2026-09-10\n  INV-0114|Initech, Inc.|446489|EUR|overdue|2026-04-27\n  INV-0118|Café Crème SARL|1405800|EUR|overdue|2026-10-21""#;

/// wire format §16.13 V77, as listed there.
pub const V77: &str = r#"response 1: isError false
[0] "<tool_error code=\"ALREADY_PAID\" severity=\"warning\">\n<message>Invoice INV-0001 is already paid.</message>\n</tool_error>"
response 2: isError absent
[0] "Reminder queued for INV-0002.""#;

/// wire format §16.10 V54: the listing of `invoice_stats` called with `{}`.
pub const V54: &str = r#"isError absent
[0] "{\n  \"count\": 120,\n  \"total_cents\": 50326715,\n  \"by_status\": {\n    \"paid\": 74,\n    \"pending\": 32,\n    \"overdue\": 14\n  }\n}""#;
/// V54's `structuredContent`, compact JSON.
pub const V54_STRUCTURED: &str =
    r#"{"count":120,"total_cents":50326715,"by_status":{"paid":74,"pending":32,"overdue":14}}"#;
/// V54's whole `CallToolResult`, compact JSON.
pub const V54_RESULT: &str = r#"{"content":[{"type":"text","text":"{\n  \"count\": 120,\n  \"total_cents\": 50326715,\n  \"by_status\": {\n    \"paid\": 74,\n    \"pending\": 32,\n    \"overdue\": 14\n  }\n}"}],"structuredContent":{"count":120,"total_cents":50326715,"by_status":{"paid":74,"pending":32,"overdue":14}}}"#;
