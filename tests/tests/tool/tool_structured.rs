//! wire format §11.2–§11.3 through the tool layer: an action that asks for `structuredContent` gets
//! its presented single value (selection and redaction applied, the same value as the data
//! block), a collection asking for it is refused, and the output schema is generated from the
//! presented model.

use std::sync::{Arc, Mutex};

use fusion_runtime::tool::ToolDefinition;
use fusion_runtime::tool::{ActionSpec, DefinitionError, ToolSpec};
use fusion_runtime::{Call, Tool, ToolSet};
use fusion_runtime::{Presenter, ToolError, ToolResponse, success_structured};
use serde::Deserialize;
use serde_json::{Value, json};

/// A customer with a redacted email, embedded in every invoice.
#[derive(Clone, Presenter, schemars::JsonSchema)]
#[rule("customer.email is redacted.")]
struct Customer {
    id: String,
    #[redact]
    email: String,
}

/// An invoice: a nested model, a redacted number (described as the text it becomes on the
/// wire), a renamed field and a field that never reaches the wire.
#[derive(Clone, Presenter, schemars::JsonSchema)]
#[rule("amount_cents is in CENTS.")]
struct Invoice {
    id: String,
    #[embed]
    customer: Customer,
    amount_cents: u64,
    #[redact]
    #[schemars(with = "String")]
    tax_id: u64,
    #[serde(rename = "state")]
    status: String,
    #[serde(skip_serializing)]
    #[allow(dead_code, reason = "never serialized, on purpose")]
    margin_bps: u32,
}

fn invoice(id: &str) -> Invoice {
    Invoice {
        id: id.to_owned(),
        customer: Customer {
            id: "CUS-1".into(),
            email: "ada@example.com".into(),
        },
        amount_cents: 4500,
        tax_id: 123_456_789,
        status: "overdue".into(),
        margin_bps: 1200,
    }
}

/// A flat structured tool: the output schema is generated from `Invoice`.
#[derive(Deserialize, schemars::JsonSchema, Tool)]
#[fusion(returns = Invoice, structured, select, read_only)]
#[allow(dead_code, reason = "read by serde only")]
struct GetInvoice {
    id: String,
}

/// A discriminated tool: one structured single value, one presented collection, one text.
#[derive(Deserialize, schemars::JsonSchema, Tool)]
#[serde(tag = "action", rename_all = "snake_case")]
#[fusion(name = "billing", select)]
enum Billing {
    #[fusion(returns = Invoice, structured)]
    Get {
        id: String,
    },
    #[fusion(returns = [Invoice])]
    List,
    Ping,
}

fn billing(
    action: Billing,
    call: &Call,
) -> Result<ToolResponse, Box<dyn std::error::Error + Send + Sync>> {
    match action {
        Billing::Get { id } if id == "missing" => {
            Err(ToolError::not_found("No invoice missing.").into())
        }
        Billing::Get { id } => Ok(call.present(&invoice(&id)).build()?),
        Billing::List => Ok(call
            .present_all(&[invoice("INV-1"), invoice("INV-2")])
            .build()?),
        Billing::Ping => Ok(fusion_runtime::ResponseBuilder::text("pong").build()),
    }
}

#[allow(
    clippy::needless_pass_by_value,
    reason = "a handler takes its input by value"
)]
fn get_invoice(
    input: GetInvoice,
    call: &Call,
) -> Result<ToolResponse, fusion_runtime::EncodeError> {
    call.present(&invoice(&input.id)).build()
}

fn compact(value: &Value) -> String {
    serde_json::to_string(value).unwrap()
}

#[test]
fn a_selected_single_value_with_a_redacted_field_is_its_own_structured_content() {
    let tools = ToolSet::new().tool(get_invoice).unwrap();
    let response = tools.call(
        "get_invoice",
        Some(json!({"id": "INV-1", "_select": ["state", "customer", "id", "tax_id"]})),
    );
    // Selection keeps the model's member order; redaction applies at every depth.
    assert_eq!(
        response.blocks(),
        [
            "{\n  \"id\": \"INV-1\",\n  \"customer\": {\n    \"id\": \"CUS-1\",\n    \"email\": \"[REDACTED]\"\n  },\n  \"tax_id\": \"[REDACTED]\",\n  \"state\": \"overdue\"\n}",
            "<domain_rules>\n- customer.email is redacted.\n</domain_rules>",
            "<domain_rules>\n- amount_cents is in CENTS.\n</domain_rules>",
        ]
    );
    let structured = response.structured_content().expect("structured content");
    assert_eq!(
        compact(structured),
        r#"{"id":"INV-1","customer":{"id":"CUS-1","email":"[REDACTED]"},"tax_id":"[REDACTED]","state":"overdue"}"#
    );
    // The same value as the data block, byte for byte once parsed.
    let block: Value = serde_json::from_str(&response.blocks()[0]).unwrap();
    assert_eq!(structured, &block);
    assert_eq!(response.view().data().as_value(), Some(structured));
    assert_eq!(response.is_error(), None);
    let wire = response.to_json();
    assert!(
        wire.ends_with(r#""structuredContent":{"id":"INV-1","customer":{"id":"CUS-1","email":"[REDACTED]"},"tax_id":"[REDACTED]","state":"overdue"}}"#),
        "{wire}"
    );
    assert!(!wire.contains("ada@") && !wire.contains("123456789") && !wire.contains("margin"));
}

#[test]
fn without_a_selection_the_whole_wire_value_is_structured() {
    let tools = ToolSet::new().tool(get_invoice).unwrap();
    let response = tools.call("get_invoice", Some(json!({"id": "INV-7"})));
    assert_eq!(
        compact(response.structured_content().unwrap()),
        r#"{"id":"INV-7","customer":{"id":"CUS-1","email":"[REDACTED]"},"amount_cents":4500,"tax_id":"[REDACTED]","state":"overdue"}"#
    );
}

#[test]
fn the_output_schema_comes_from_the_model_without_required_under_select() {
    // schemars' bytes (nested doc comments kept), the root's `required` removed since
    // `_select` can drop any member (wire format §11.3), `tax_id` described as the text it is on the
    // wire (`#[schemars(with = "String")]`), `margin_bps` absent like on the wire.
    let definition = GetInvoice::definition().unwrap();
    assert_eq!(
        compact(&Value::Object(definition.output_schema().unwrap().clone())),
        r#"{"type":"object","properties":{"id":{"type":"string"},"customer":{"type":"object","properties":{"id":{"type":"string"},"email":{"type":"string"}},"required":["id","email"],"description":"A customer with a redacted email, embedded in every invoice."},"amount_cents":{"type":"integer","format":"uint64","minimum":0},"tax_id":{"type":"string"},"state":{"type":"string"}}}"#
    );
}

/// The same tool without `_select`: the root keeps `required` (wire format §11.3).
#[derive(Deserialize, schemars::JsonSchema, Tool)]
#[fusion(returns = Invoice, structured)]
#[allow(dead_code, reason = "read by serde only")]
struct FetchInvoice {
    id: String,
}

#[test]
fn without_select_the_generated_output_schema_keeps_required() {
    let definition = FetchInvoice::definition().unwrap();
    let schema = definition.output_schema().unwrap();
    assert_eq!(
        schema.get("required"),
        Some(&json!([
            "id",
            "customer",
            "amount_cents",
            "tax_id",
            "state"
        ]))
    );
}

#[test]
fn only_the_structured_action_carries_structured_content() {
    let tools = ToolSet::new().tool(billing).unwrap();
    let get = tools.call(
        "billing",
        Some(json!({"action": "get", "id": "INV-3", "_select": ["id"]})),
    );
    assert_eq!(get.structured_content(), Some(&json!({"id": "INV-3"})));
    assert_eq!(get.blocks()[0], "{\n  \"id\": \"INV-3\"\n}");

    let list = tools.call(
        "billing",
        Some(json!({"action": "list", "_select": ["id"]})),
    );
    assert_eq!(list.structured_content(), None);
    assert_eq!(
        list.blocks()[0],
        "[\n  {\n    \"id\": \"INV-1\"\n  },\n  {\n    \"id\": \"INV-2\"\n  }\n]"
    );

    let ping = tools.call("billing", Some(json!({"action": "ping"})));
    assert_eq!(ping.structured_content(), None);
    assert_eq!(ping.blocks(), ["pong"]);

    // Errors never carry structuredContent (wire format §1.3).
    let missing = tools.call("billing", Some(json!({"action": "get", "id": "missing"})));
    assert_eq!(missing.is_error(), Some(true));
    assert_eq!(missing.structured_content(), None);
    assert!(missing.blocks()[0].starts_with("<tool_error code=\"NOT_FOUND\""));

    // Not every action is structured, so no one output schema describes the tool.
    assert_eq!(tools.get("billing").unwrap().output_schema(), None);
}

/// The input of the hand-written specs below.
#[derive(Deserialize, schemars::JsonSchema)]
#[serde(tag = "action", rename_all = "snake_case")]
#[allow(dead_code, reason = "read by serde only")]
enum Hand {
    Get { id: String },
    List,
}

fn define(spec: &ToolSpec) -> Result<ToolDefinition, DefinitionError> {
    ToolDefinition::from_schema(spec, &fusion_runtime::tool::input_schema_of::<Hand>())
}

#[test]
fn a_structured_collection_is_refused_when_the_tool_is_defined() {
    let refused = define(
        &ToolSpec::new("hand")
            .action("get", ActionSpec::new().returns::<Invoice>().structured())
            .action(
                "list",
                ActionSpec::new().returns_all::<Invoice>().structured(),
            ),
    )
    .unwrap_err();
    assert_eq!(refused.tool(), "hand");
    assert_eq!(
        refused.to_string(),
        "tool `hand` cannot be defined: the action `list` asks for structured content but presents a collection, and a collection cannot be sent as `structuredContent` (its root is a list, wire format §11.2); remove `structured`, or declare a single value (`returns = Model`, `ActionSpec::returns`) instead of a collection (`returns = [Model]`, `ActionSpec::returns_all`)"
    );
    // A collection that does not ask, and a single value that does, are fine.
    let fine = define(
        &ToolSpec::new("hand")
            .select()
            .action("get", ActionSpec::new().returns::<Invoice>().structured())
            .action("list", ActionSpec::new().returns_all::<Invoice>()),
    )
    .unwrap();
    assert_eq!(
        fine.select_names(),
        ["amount_cents", "customer", "id", "state", "tax_id"]
    );
}

#[derive(Deserialize, schemars::JsonSchema)]
#[allow(dead_code, reason = "read by serde only")]
struct Flat {
    id: String,
}

#[test]
fn a_flat_structured_collection_is_refused_too() {
    let refused = ToolDefinition::from_schema(
        &ToolSpec::new("flat").variant(ActionSpec::new().structured().returns_all::<Invoice>()),
        &fusion_runtime::tool::input_schema_of::<Flat>(),
    )
    .unwrap_err();
    assert!(
        refused
            .to_string()
            .starts_with("tool `flat` cannot be defined: its action asks for structured content but presents a collection"),
        "{refused}"
    );
}

/// A structured action declared as a single value whose handler presents a collection anyway:
/// the layer learns it only from the response, and ends the call with `INTERNAL_ERROR`.
impl Tool for Hand {
    fn spec() -> ToolSpec {
        ToolSpec::new("hand")
            .action("get", ActionSpec::new().returns::<Invoice>().structured())
            .action("list", ActionSpec::new().returns::<Invoice>().structured())
    }
}

#[test]
fn a_collection_answering_a_structured_action_is_an_internal_error() {
    let reported = Arc::new(Mutex::new(Vec::new()));
    let sink = reported.clone();
    let tools = ToolSet::new()
        .on_internal_error(move |failure| sink.lock().unwrap().push(failure.to_string()))
        .tool(|action: Hand, call: &Call| match action {
            Hand::Get { id } => success_structured(&json!({"id": id, "source": "handler"})),
            Hand::List => call
                .present_all(&[invoice("INV-1")])
                .build()
                .map_err(fusion_runtime::StructuredError::Json),
        })
        .unwrap();
    let list = tools.call("hand", Some(json!({"action": "list"})));
    assert_eq!(
        list.blocks(),
        [
            "<tool_error code=\"INTERNAL_ERROR\" severity=\"error\">\n<message>[hand/list] The action failed with an internal error.</message>\n<recovery>This may be a transient failure. Retry the call once; if it fails again, tell the user the action is unavailable.</recovery>\n</tool_error>"
        ]
    );
    assert_eq!(list.structured_content(), None);
    assert_eq!(
        *reported.lock().unwrap(),
        [
            "[hand/list] the action asks for structured content, but its handler answered with an array, and `structuredContent` must be a JSON object (wire format §11.2: a collection cannot be structured content); present a single value, or remove `structured` from the action"
        ]
    );
    // A response that already carries structuredContent is the handler's own.
    let get = tools.call("hand", Some(json!({"action": "get", "id": "x"})));
    assert_eq!(
        get.structured_content(),
        Some(&json!({"id": "x", "source": "handler"}))
    );
}

/// A presenter whose data block is TOON: structuredContent is still the JSON wire value.
#[derive(Presenter, schemars::JsonSchema)]
#[presenter(format = toon)]
struct Row {
    id: String,
    #[redact]
    secret: String,
    tags: Vec<String>,
}

#[derive(Deserialize, schemars::JsonSchema, Tool)]
#[fusion(returns = Row, structured, select)]
struct GetRow {}

#[test]
fn a_toon_data_block_has_the_same_structured_value() {
    let tools = ToolSet::new()
        .tool(|_: GetRow, call: &Call| {
            call.present(&Row {
                id: "r1".into(),
                secret: "s".into(),
                tags: vec!["a".into(), "b".into()],
            })
            .build()
        })
        .unwrap();
    let response = tools.call("get_row", Some(json!({"_select": ["tags", "secret"]})));
    assert_eq!(response.blocks(), ["secret: \"[REDACTED]\"\ntags[2|]: a|b"]);
    assert_eq!(
        compact(response.structured_content().unwrap()),
        r#"{"secret":"[REDACTED]","tags":["a","b"]}"#
    );
}

#[test]
fn a_text_answer_of_a_structured_action_stays_text() {
    let tools = ToolSet::new()
        .tool(|_: GetRow, _: &Call| "nothing to show")
        .unwrap();
    let response = tools.call("get_row", None);
    assert_eq!(response.blocks(), ["nothing to show"]);
    assert_eq!(response.structured_content(), None);
    assert_eq!(
        response.to_json(),
        r#"{"content":[{"type":"text","text":"nothing to show"}]}"#
    );
}

/// Every action structured with the same model: one schema describes every answer.
#[derive(Deserialize, schemars::JsonSchema, Tool)]
#[serde(tag = "action", rename_all = "snake_case")]
#[fusion(name = "rows")]
#[allow(dead_code, reason = "read by serde only")]
enum Rows {
    #[fusion(returns = Row, structured)]
    First,
    #[fusion(returns = Row, structured)]
    Find { id: String },
}

/// The same, but with another model for one action: no schema is generated.
#[derive(Deserialize, schemars::JsonSchema, Tool)]
#[serde(tag = "action", rename_all = "snake_case")]
#[fusion(name = "mixed")]
#[allow(dead_code, reason = "read by serde only")]
enum Mixed {
    #[fusion(returns = Row, structured)]
    Row,
    #[fusion(returns = Invoice, structured)]
    Invoice,
}

#[test]
fn a_discriminated_tool_gets_a_schema_only_when_every_action_shares_the_model() {
    let rows = Rows::definition().unwrap();
    assert_eq!(
        compact(&Value::Object(rows.output_schema().unwrap().clone())),
        r#"{"type":"object","properties":{"id":{"type":"string"},"secret":{"type":"string"},"tags":{"type":"array","items":{"type":"string"}}},"required":["id","secret","tags"]}"#
    );
    assert_eq!(Mixed::definition().unwrap().output_schema(), None);
}
