//! wire format §16 vectors of the tool layer on tool T (V33, V36, V38, V59–V64, V67, V68), the
//! payments tool (V66) and the output schema (V55).

use std::fmt::Write as _;

use fusion_runtime::ToolResponse;
use fusion_runtime::tool::{ActionSpec, ToolSpec};
use fusion_runtime::{Call, Tool, ToolSet};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

/// Model Inv2 of tool T: `{id: text, status: text}`, static rule `cents`.
#[derive(fusion_runtime::Presenter)]
#[rule("cents")]
struct Inv2 {
    id: String,
    status: String,
}

/// Tool T (wire format §16.6).
#[derive(Deserialize, schemars::JsonSchema)]
#[allow(dead_code, reason = "`limit` is read by serde only")]
#[serde(tag = "action", rename_all = "snake_case")]
enum T {
    Get {
        id: String,
        #[schemars(range(min = 0, max = 10))]
        limit: Option<u32>,
    },
    List,
}

impl Tool for T {
    fn spec() -> ToolSpec {
        ToolSpec::new("billing")
            .select()
            .action("get", ActionSpec::new().returns::<Inv2>())
    }
}

#[derive(Debug)]
struct Boom;

impl std::fmt::Display for Boom {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("the invoice store is on fire")
    }
}

impl std::error::Error for Boom {}

fn handle_t(
    action: T,
    call: &Call,
) -> Result<ToolResponse, Box<dyn std::error::Error + Send + Sync>> {
    match action {
        T::Get { id, .. } => {
            if id == "boom" {
                return Err(Boom.into());
            }
            let invoice = Inv2 {
                id,
                status: "paid".to_owned(),
            };
            Ok(call.present(&invoice).build()?)
        }
        T::List => Ok(fusion_runtime::ResponseBuilder::text("none").build()),
    }
}

fn tool_t() -> ToolSet {
    ToolSet::new()
        .on_internal_error(|_| {})
        .tool(handle_t)
        .expect("tool T is valid")
}

fn call_t(arguments: Value) -> ToolResponse {
    tool_t().call("billing", Some(arguments))
}

/// `isError` and every block, as the vectors list them (the other tool tests list them so too).
pub(crate) fn listing(response: &ToolResponse) -> String {
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

#[test]
fn v33_select_input_property() {
    let tools = tool_t();
    let schema = tools.get("billing").unwrap().input_schema();
    assert_eq!(
        serde_json::to_string(&schema["properties"]["_select"]).unwrap(),
        r#"{"type":"array","description":"⚡ Context optimization: select only the response fields you need. Omit to receive all fields. For: get","items":{"type":"string","enum":["id","status"]}}"#
    );
}

#[test]
fn tool_t_input_schema_is_flat_with_the_action_enum_first() {
    let tools = tool_t();
    let schema = Value::Object(tools.get("billing").unwrap().input_schema().clone());
    assert_eq!(
        schema,
        json!({
            "type": "object",
            "properties": {
                "action": {"type": "string", "enum": ["get", "list"], "description": "Which operation to perform"},
                "id": {"type": "string", "description": "Required for: get"},
                "limit": {"type": ["integer", "null"], "format": "uint32", "minimum": 0, "maximum": 10, "description": "For: get"},
                "_select": {"type": "array", "description": "⚡ Context optimization: select only the response fields you need. Omit to receive all fields. For: get", "items": {"type": "string", "enum": ["id", "status"]}}
            },
            "required": ["action"]
        })
    );
    // Member order matters (wire format §7.1): compare the text too.
    let keys: Vec<&String> = schema["properties"].as_object().unwrap().keys().collect();
    assert_eq!(keys, ["action", "id", "limit", "_select"]);
}

#[test]
fn v36_unknown_selection_name() {
    let response = call_t(json!({"action": "get", "id": "INV-1", "_select": ["status", "bogus"]}));
    assert_eq!(
        listing(&response),
        r#"isError true
[0] "<validation_error action=\"billing/get\">\n<field name=\"_select.1\">Unknown field name. You sent: 'bogus'. Valid names: 'id', 'status'.</field>\n<recovery>Fix the fields above and call the tool again. Do not explain the error.</recovery>\n</validation_error>""#
    );
}

#[test]
fn v38_selection_through_a_tool() {
    let response = call_t(json!({"action": "get", "id": "INV-1", "_select": ["status"]}));
    assert_eq!(
        listing(&response),
        r#"isError absent
[0] "{\n  \"status\": \"paid\"\n}"
[1] "<domain_rules>\n- cents\n</domain_rules>""#
    );
}

#[test]
fn v59_missing_discriminator() {
    let response = call_t(json!({"id": "x"}));
    assert_eq!(
        listing(&response),
        r#"isError true
[0] "<tool_error code=\"MISSING_DISCRIMINATOR\" severity=\"error\">\n<message>The required field \"action\" is missing.</message>\n<recovery>Add the \"action\" field as a string and call the tool again.</recovery>\n<available_actions>\n  <action>get</action>\n  <action>list</action>\n</available_actions>\n</tool_error>""#
    );
}

#[test]
fn v59_missing_discriminator_variants() {
    let expected = listing(&call_t(json!({"id": "x"})));
    for arguments in [
        json!({"action": null}),
        json!({"action": ""}),
        json!([1]),
        json!("get"),
    ] {
        assert_eq!(listing(&call_t(arguments)), expected);
    }
    assert_eq!(listing(&tool_t().call("billing", None)), expected);
}

#[test]
fn v60_discriminator_of_the_wrong_type() {
    let response = call_t(json!({"action": 5}));
    assert_eq!(
        listing(&response),
        r#"isError true
[0] "<tool_error code=\"INVALID_DISCRIMINATOR\" severity=\"error\">\n<message>Discriminator field \"action\" must be a string, got number.</message>\n<recovery>Set \"action\" to one of the available actions as a string.</recovery>\n<available_actions>\n  <action>get</action>\n  <action>list</action>\n</available_actions>\n</tool_error>""#
    );
    for (sent, name) in [
        (json!(true), "boolean"),
        (json!([]), "array"),
        (json!({}), "object"),
    ] {
        let text = call_t(json!({"action": sent})).blocks()[0].clone();
        assert!(
            text.contains(&format!("must be a string, got {name}.")),
            "{text}"
        );
    }
}

#[test]
fn v61_unknown_action() {
    let response = call_t(json!({"action": "destory"}));
    assert_eq!(
        listing(&response),
        r#"isError true
[0] "<tool_error code=\"UNKNOWN_ACTION\" severity=\"error\">\n<message>The action \"destory\" does not exist.</message>\n<recovery>Choose a valid action from available_actions and call the tool again.</recovery>\n<available_actions>\n  <action>get</action>\n  <action>list</action>\n</available_actions>\n</tool_error>""#
    );
}

#[test]
fn v62_unknown_tool() {
    let response = tool_t().call("nope", Some(json!({})));
    assert_eq!(
        listing(&response),
        r#"isError true
[0] "<tool_error code=\"UNKNOWN_TOOL\" severity=\"error\">\n<message>Tool \"nope\" does not exist.</message>\n<recovery>Check the available tools via tools/list and call a valid one.</recovery>\n</tool_error>""#
    );
}

#[test]
fn v63_wrong_type_out_of_range_unknown_field() {
    let response = call_t(json!({"action": "get", "id": 5, "limit": 99, "extra": 1}));
    assert_eq!(
        listing(&response),
        r#"isError true
[0] "<validation_error action=\"billing/get\">\n<field name=\"id\">Wrong type. You sent: 5. Expected type: string.</field>\n<field name=\"limit\">Out of range. You sent: 99. Must be between 0 and 10.</field>\n<field name=\"extra\">Unknown field. Valid fields: 'action', 'id', 'limit', '_select'.</field>\n<recovery>Fix the fields above and call the tool again. Do not explain the error.</recovery>\n</validation_error>""#
    );
}

#[test]
fn v64_missing_field() {
    let response = call_t(json!({"action": "get"}));
    assert_eq!(
        listing(&response),
        r#"isError true
[0] "<validation_error action=\"billing/get\">\n<field name=\"id\">Missing required field. Expected type: string.</field>\n<recovery>Fix the fields above and call the tool again. Do not explain the error.</recovery>\n</validation_error>""#
    );
}

/// The payments tool of V66: no selection, a 32-bit amount, a tagged union, an integer.
#[derive(Deserialize, schemars::JsonSchema)]
#[serde(tag = "action", rename_all = "snake_case")]
#[allow(dead_code, reason = "read by serde only")]
enum Payments {
    Charge {
        amount_cents: u32,
        method: Method,
        quantity: Option<i64>,
    },
}

#[derive(Deserialize, schemars::JsonSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
#[allow(dead_code, reason = "read by serde only")]
enum Method {
    Card { last4: String },
    Transfer { iban: String },
}

impl Tool for Payments {
    fn spec() -> ToolSpec {
        ToolSpec::new("payments")
    }
}

#[test]
fn v66_variant_tag_long_text_type_range() {
    let tools = ToolSet::new()
        .tool(|_: Payments, _: &Call| "charged")
        .unwrap();
    let quantity = "x".repeat(60);
    let response = tools.call(
        "payments",
        Some(json!({"action": "charge", "quantity": quantity, "method": {"kind": "cash"}, "amount_cents": -5})),
    );
    assert_eq!(
        listing(&response),
        r#"isError true
[0] "<validation_error action=\"payments/charge\">\n<field name=\"amount_cents\">Out of range. You sent: -5. Must be between 0 and 4294967295.</field>\n<field name=\"method.kind\">Unknown variant. You sent: 'cash'. Valid options: 'card', 'transfer'.</field>\n<field name=\"quantity\">Wrong type. You sent: 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx...'. Expected type: integer.</field>\n<recovery>Fix the fields above and call the tool again. Do not explain the error.</recovery>\n</validation_error>""#
    );
    // No `_select` on this tool: it is an ordinary unknown field (wire format §7.3).
    let response = tools.call(
        "payments",
        Some(json!({"action": "charge", "amount_cents": 5, "method": {"kind": "card", "last4": "4242"}, "_select": []})),
    );
    assert!(
        response.blocks()[0].contains("<field name=\"_select\">Unknown field. Valid fields: 'action', 'amount_cents', 'method', 'quantity'.</field>"),
        "{}",
        response.blocks()[0]
    );
    let response = tools.call(
        "payments",
        Some(json!({"action": "charge", "amount_cents": 5.0, "method": {"last4": "4242"}})),
    );
    assert!(
        response.blocks()[0].contains("<field name=\"method.kind\">Missing required field. Valid options: 'card', 'transfer'.</field>"),
        "{}",
        response.blocks()[0]
    );
    let response = tools.call(
        "payments",
        Some(json!({"action": "charge", "amount_cents": 5.0, "method": {"kind": "card", "last4": "4242"}, "quantity": null})),
    );
    assert_eq!(listing(&response), "isError absent\n[0] \"charged\"");
}

#[test]
fn v67_handler_failure() {
    let response = call_t(json!({"action": "get", "id": "boom"}));
    assert_eq!(
        listing(&response),
        r#"isError true
[0] "<tool_error code=\"INTERNAL_ERROR\" severity=\"error\">\n<message>[billing/get] The action failed with an internal error.</message>\n<recovery>This may be a transient failure. Retry the call once; if it fails again, tell the user the action is unavailable.</recovery>\n</tool_error>""#
    );
}

#[test]
fn v67_a_panic_is_an_internal_error_too_and_is_reported() {
    let reported = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    let sink = reported.clone();
    let tools = ToolSet::new()
        .on_internal_error(move |failure| sink.lock().unwrap().push(failure.to_string()))
        .tool(|action: T, _: &Call| -> String {
            match action {
                T::Get { .. } => panic!("secret detail"),
                T::List => "none".to_owned(),
            }
        })
        .unwrap();
    let response = tools.call("billing", Some(json!({"action": "get", "id": "x"})));
    let text = &response.blocks()[0];
    assert!(
        text.starts_with("<tool_error code=\"INTERNAL_ERROR\""),
        "{text}"
    );
    assert!(!text.contains("secret"));
    assert_eq!(
        *reported.lock().unwrap(),
        ["[billing/get] the handler panicked: secret detail"]
    );
}

#[test]
fn v68_view_of_a_selected_call() {
    let response = call_t(json!({"action": "get", "id": "INV-9", "_select": ["id"]}));
    assert_eq!(
        serde_json::to_string(&response.view().to_json()).unwrap(),
        r#"{"data":{"id":"INV-9"},"format":"json","ui":[],"hints":[],"rules":["cents"],"suggestions":[],"structured_content":null,"is_error":null}"#
    );
}

#[test]
fn list_returns_text_and_ignores_the_selection() {
    let response = call_t(json!({"action": "list", "_select": ["id"]}));
    assert_eq!(listing(&response), "isError absent\n[0] \"none\"");
}

#[derive(Serialize, schemars::JsonSchema)]
#[allow(dead_code, reason = "only its schema is read")]
struct S {
    id: String,
    status: String,
}

// A flat tool with an output type (no doc comment: its description is its name).
#[derive(Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
#[allow(dead_code, reason = "read by serde only")]
struct Lookup {
    id: String,
}

#[test]
fn v55_output_schema_under_selection() {
    let plain = fusion_runtime::tool::ToolDefinition::from_schema(
        &ToolSpec::new("lookup").output::<S>(),
        &fusion_runtime::tool::input_schema_of::<Lookup>(),
    )
    .unwrap();
    let selected = fusion_runtime::tool::ToolDefinition::from_schema(
        &ToolSpec::new("lookup")
            .output::<S>()
            .select()
            .variant(ActionSpec::new().returns::<Inv2>()),
        &fusion_runtime::tool::input_schema_of::<Lookup>(),
    )
    .unwrap();
    assert_eq!(
        serde_json::to_string(plain.output_schema().unwrap()).unwrap(),
        r#"{"type":"object","properties":{"id":{"type":"string"},"status":{"type":"string"}},"required":["id","status"]}"#
    );
    assert_eq!(
        serde_json::to_string(selected.output_schema().unwrap()).unwrap(),
        r#"{"type":"object","properties":{"id":{"type":"string"},"status":{"type":"string"}}}"#
    );
    // A flat tool: its own fields, `required` in declaration order, `_select` last.
    assert_eq!(
        serde_json::to_string(selected.input_schema()).unwrap(),
        r#"{"type":"object","properties":{"id":{"type":"string"},"_select":{"type":"array","description":"⚡ Context optimization: select only the response fields you need. Omit to receive all fields.","items":{"type":"string","enum":["id","status"]}}},"required":["id"]}"#
    );
    assert_eq!(selected.description(), "lookup");
}

/// A documented output type: its doc comment is not part of the output schema.
#[derive(Serialize, schemars::JsonSchema)]
#[allow(dead_code, reason = "only its schema is read")]
struct Documented {
    /// The id
    id: String,
    nested: Nested,
}

#[derive(Serialize, schemars::JsonSchema)]
#[allow(dead_code, reason = "only its schema is read")]
struct Nested {
    n: u8,
}

#[test]
fn v55_output_schema_member_order_is_kept() {
    let definition = fusion_runtime::tool::ToolDefinition::from_schema(
        &ToolSpec::new("lookup")
            .output::<Documented>()
            .select()
            .variant(ActionSpec::new().returns::<Inv2>()),
        &fusion_runtime::tool::input_schema_of::<Lookup>(),
    )
    .unwrap();
    // Root `required` removed under selection, nested `required` kept, subschemas inlined.
    assert_eq!(
        serde_json::to_string(definition.output_schema().unwrap()).unwrap(),
        r#"{"type":"object","properties":{"id":{"type":"string","description":"The id"},"nested":{"type":"object","properties":{"n":{"type":"integer","format":"uint8","minimum":0,"maximum":255}},"required":["n"]}}}"#
    );
}
