//! `#[derive(Tool)]`: what each `#[fusion(...)]` key does to the generated definition.

use fusion_runtime::{Call, Tool, ToolSet};
use serde::Deserialize;
use serde_json::{Value, json};

/// Manage projects
#[derive(Deserialize, schemars::JsonSchema, fusion_runtime::Tool)]
#[serde(tag = "action", rename_all = "snake_case")]
#[fusion(name = "projects", toon)]
#[allow(dead_code, reason = "read by serde only")]
enum Projects {
    /// List all
    #[fusion(read_only)]
    List { page: Option<u32> },
    /// Create one
    Create { title: String, owner_id: String },
}

#[test]
fn v50_toon_layout_from_doc_comments() {
    let definition = Projects::definition().unwrap();
    assert_eq!(definition.name(), "projects");
    assert_eq!(
        definition.description(),
        "Manage projects. Select operation via the `action` parameter.\n\n[2|]{action|desc|required}:\n  list|List all|\"\"\n  create|Create one|title,owner_id"
    );
    // Not every action is read-only, none is destructive: no annotations.
    assert!(definition.annotations().is_none());
}

#[derive(Deserialize, schemars::JsonSchema, fusion_runtime::Tool)]
#[serde(tag = "action", rename_all = "snake_case")]
#[fusion(name = "projects", description = "Manage projects", toon)]
#[allow(dead_code, reason = "read by serde only")]
enum ProjectsWithDelete {
    #[fusion(description = "List all")]
    List,
    #[fusion(description = "Delete permanently", destructive)]
    Delete { id: String },
}

#[test]
fn v51_toon_layout_with_a_destructive_action() {
    let definition = ProjectsWithDelete::definition().unwrap();
    assert_eq!(
        definition.description(),
        "Manage projects. Select operation via the `action` parameter.\n\n[2|]{action|desc|required}:\n  list|List all|\"\"\n  delete|\"[DESTRUCTIVE] Delete permanently\"|id"
    );
    assert_eq!(
        serde_json::to_string(definition.annotations().unwrap()).unwrap(),
        r#"{"destructiveHint":true}"#
    );
}

/// Manage projects.
#[derive(Deserialize, schemars::JsonSchema, fusion_runtime::Tool)]
#[serde(tag = "action", rename_all = "snake_case")]
#[fusion(name = "projects")]
#[allow(dead_code, reason = "read by serde only")]
enum ProjectsPlain {
    /// List all
    List,
    /// Create one
    Create {
        title: String,
        owner_id: String,
    },
    #[fusion(destructive)]
    Purge,
    Ping,
    Archive {
        id: String,
    },
    /// Not an action: serde never reads it.
    #[serde(skip)]
    Internal,
}

#[test]
fn v52_plain_layout_and_skipped_variants() {
    let definition = ProjectsPlain::definition().unwrap();
    assert_eq!(
        definition.description(),
        "Manage projects. Select operation via the `action` parameter. Actions: list, create, purge, ping, archive\n\nWorkflow:\n- 'list': List all\n- 'create': Create one. Requires: title, owner_id\n- 'purge': [DESTRUCTIVE]\n- 'archive': Requires: id"
    );
}

#[derive(Deserialize, schemars::JsonSchema)]
struct GetArgs {
    /// The record id
    id: String,
}

#[derive(Deserialize, schemars::JsonSchema, fusion_runtime::Tool)]
#[serde(tag = "op")]
#[allow(dead_code, reason = "read by serde only")]
enum Records {
    /// Fetch a record
    #[serde(rename = "get")]
    Get(GetArgs),
    /// Remove it
    #[serde(rename = "remove")]
    Remove(GetArgs),
    #[serde(rename = "count")]
    Count { filter: Option<String> },
}

#[test]
fn newtype_variants_another_discriminator_and_the_default_name() {
    let definition = Records::definition().unwrap();
    assert_eq!(definition.name(), "records");
    assert_eq!(definition.discriminator(), Some("op"));
    assert_eq!(
        serde_json::to_string(definition.input_schema()).unwrap(),
        r#"{"type":"object","properties":{"op":{"type":"string","enum":["get","remove","count"],"description":"Which operation to perform"},"id":{"type":"string","description":"The record id. Required for: get, remove"},"filter":{"type":["string","null"],"description":"For: count"}},"required":["op"]}"#
    );
    let tools = ToolSet::new()
        .tool(|records: Records, call: &Call| match records {
            Records::Get(args) => format!("{} {}", call.reference(), args.id),
            Records::Remove(_) | Records::Count { .. } => String::new(),
        })
        .unwrap();
    let response = tools.call("records", Some(json!({"op": "get", "id": "r1"})));
    assert_eq!(response.blocks(), ["records/get r1"]);
    let response = tools.call("records", Some(json!({"op": "get", "x": 1})));
    assert_eq!(
        response.blocks(),
        [
            "<validation_error action=\"records/get\">\n<field name=\"id\">Missing required field. Expected type: string.</field>\n<field name=\"x\">Unknown field. Valid fields: 'op', 'id'.</field>\n<recovery>Fix the fields above and call the tool again. Do not explain the error.</recovery>\n</validation_error>"
        ]
    );
}

#[derive(serde::Serialize, schemars::JsonSchema)]
struct Totals {
    count: u64,
}

/// Totals per status
#[derive(Deserialize, schemars::JsonSchema, fusion_runtime::Tool)]
#[serde(deny_unknown_fields)]
#[fusion(output = Totals, read_only)]
struct InvoiceTotals {
    /// Count only this status
    status: Option<String>,
}

#[test]
fn flat_tool_output_schema_and_read_only() {
    let definition = InvoiceTotals::definition().unwrap();
    assert_eq!(definition.name(), "invoice_totals");
    assert_eq!(definition.description(), "Totals per status");
    assert_eq!(definition.discriminator(), None);
    assert_eq!(
        definition.to_json(),
        json!({
            "name": "invoice_totals",
            "description": "Totals per status",
            "inputSchema": {"type": "object", "properties": {"status": {"description": "Count only this status", "type": ["string", "null"]}}},
            "outputSchema": {"type": "object", "properties": {"count": {"type": "integer", "format": "uint64", "minimum": 0}}, "required": ["count"]},
            "annotations": {"readOnlyHint": true}
        })
    );
    let tools = ToolSet::new()
        .tool(|input: InvoiceTotals, _: &Call| input.status.unwrap_or_default())
        .unwrap();
    let response = tools.call("invoice_totals", Some(json!([1, 2])));
    assert_eq!(
        response.blocks(),
        [
            "<validation_error action=\"invoice_totals\">\n<field name=\"(root)\">Wrong type. You sent: an array of 2 items. Expected type: object.</field>\n<recovery>Fix the fields above and call the tool again. Do not explain the error.</recovery>\n</validation_error>"
        ]
    );
    assert_eq!(tools.call("invoice_totals", None).blocks(), ["OK"]);
}

mod renamed {
    // The runtime re-exported under another name: `crate = ...` points the expansion at it.
    pub use fusion_runtime as fr;
}

#[derive(Deserialize, schemars::JsonSchema, fusion_runtime::Tool)]
#[fusion(crate = renamed::fr, name = "ping")]
struct Ping {}

#[test]
fn crate_path() {
    use renamed::fr::Tool as _;
    assert_eq!(Ping::spec().name(), "ping");
}

mod hygiene {
    // Shadow the prelude names an expansion could lean on.
    #![allow(dead_code, non_camel_case_types, reason = "shadowing on purpose")]
    struct Option;
    struct Some;
    struct None;
    struct String;
    struct Vec;
    struct Result;
    struct Ok;

    #[derive(serde::Deserialize, schemars::JsonSchema, fusion_runtime::Tool)]
    #[serde(tag = "action")]
    #[fusion(name = "shadowed", select)]
    pub enum Shadowed {
        #[fusion(read_only)]
        Get { id: u8 },
    }
}

#[test]
fn expansion_is_hygienic() {
    let definition = hygiene::Shadowed::definition().unwrap();
    assert_eq!(definition.name(), "shadowed");
    // `select` without any presented model: no `_select` property (wire format §7.2).
    let properties = definition.input_schema()["properties"].as_object().unwrap();
    assert!(!properties.contains_key("_select"));
    assert_eq!(
        definition.annotations().map(|a| Value::Object(a.clone())),
        Some(json!({"readOnlyHint": true}))
    );
}
