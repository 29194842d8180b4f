//! Tool definitions that are rejected when the tool is defined (wire format §7.1, §11.2–§11.3), each
//! with a message that says what to change; and the argument normalisations serde relies on.

use fusion_runtime::tool::{ActionSpec, ToolDefinition, ToolSpec, input_schema_of};
use fusion_runtime::{Call, Tool, ToolSet};
use serde::Deserialize;
use serde_json::json;

fn define<T: schemars::JsonSchema>(spec: &ToolSpec) -> String {
    match ToolDefinition::from_schema(spec, &input_schema_of::<T>()) {
        Ok(_) => "defined".to_owned(),
        Err(error) => error.to_string(),
    }
}

#[derive(Deserialize, schemars::JsonSchema)]
#[serde(tag = "action", rename_all = "snake_case")]
#[allow(dead_code, reason = "only the schema is read")]
enum Clash {
    Get { id: String },
    Remove { id: u64 },
}

#[test]
fn a_field_with_two_schemas_is_rejected() {
    assert_eq!(
        define::<Clash>(&ToolSpec::new("clash")),
        "tool `clash` cannot be defined: the field `id` is a string in action `get` and an integer (`u64`) in action `remove`; give the field one type in every action (`T` in one action and `Option<T>` in another is fine: it is required only where it is not an `Option`), or rename one of the fields"
    );
}

#[derive(Deserialize, schemars::JsonSchema)]
#[serde(tag = "action", rename_all = "snake_case")]
#[allow(dead_code, reason = "only the schema is read")]
enum Two {
    Get { id: String },
    Remove { id: String },
}

#[test]
fn declarations_must_name_existing_actions_once() {
    assert_eq!(
        define::<Two>(&ToolSpec::new("two").action("delete", ActionSpec::new())),
        "tool `two` cannot be defined: there is no action `delete`; the actions are `get`, `remove`"
    );
    assert_eq!(
        define::<Two>(
            &ToolSpec::new("two")
                .action("get", ActionSpec::new())
                .variant(ActionSpec::new().read_only())
        ),
        "tool `two` cannot be defined: the action `get` is declared twice"
    );
    assert_eq!(
        define::<Two>(
            &ToolSpec::new("two")
                .variant(ActionSpec::new())
                .variant(ActionSpec::new())
                .variant(ActionSpec::new())
        ),
        "tool `two` cannot be defined: the declaration names 3 actions but the input schema has 2; is a variant skipped by serde?"
    );
    assert_eq!(
        define::<Two>(
            &ToolSpec::new("two").action("remove", ActionSpec::new().destructive().read_only())
        ),
        "tool `two` cannot be defined: the action `remove` cannot be both destructive and read-only"
    );
}

#[derive(Deserialize, schemars::JsonSchema)]
#[allow(dead_code, reason = "only the schema is read")]
enum External {
    Get { id: String },
}

#[derive(Deserialize, schemars::JsonSchema)]
#[allow(dead_code, reason = "only the schema is read")]
struct Tuple(String, u8);

#[test]
fn only_tagged_enums_and_structs_are_tools() {
    assert_eq!(
        define::<External>(&ToolSpec::new("ext")),
        "tool `ext` cannot be defined: the input enum must be internally tagged: add `#[serde(tag = \"action\")]`"
    );
    assert_eq!(
        define::<Tuple>(&ToolSpec::new("tuple")),
        "tool `tuple` cannot be defined: the input type must be a struct with named fields (a flat tool) or an internally tagged enum (`#[serde(tag = \"action\")]`)"
    );
}

#[derive(Deserialize, schemars::JsonSchema)]
#[allow(dead_code, reason = "only the schema is read")]
struct Flat {
    id: String,
}

#[test]
fn output_schemas_must_be_objects_and_flat_tools_have_no_keys() {
    assert_eq!(
        define::<Flat>(&ToolSpec::new("flat").output::<Vec<String>>()),
        "tool `flat` cannot be defined: the output schema's root must be `\"type\": \"object\"`: return a struct"
    );
    assert_eq!(
        define::<Flat>(&ToolSpec::new("flat").action("get", ActionSpec::new())),
        "tool `flat` cannot be defined: a flat tool has no action keys; declare its action with `variant`"
    );
}

#[derive(Deserialize, schemars::JsonSchema, Tool)]
#[fusion(name = "same")]
struct First {}

#[derive(Deserialize, schemars::JsonSchema, Tool)]
#[fusion(name = "same")]
struct Second {}

#[test]
fn tool_names_are_unique_in_a_set() {
    let error = ToolSet::new()
        .tool(|_: First, _: &Call| "a")
        .unwrap()
        .tool(|_: Second, _: &Call| "b")
        .unwrap_err();
    assert_eq!(
        error.to_string(),
        "tool `same` cannot be defined: a tool of this name is already in the set"
    );
}

#[derive(Debug, PartialEq, Deserialize, schemars::JsonSchema, Tool)]
#[serde(deny_unknown_fields)]
struct Order {
    lines: Vec<Line>,
    #[serde(default)]
    rush: bool,
    note: Option<String>,
}

#[derive(Debug, PartialEq, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
struct Line {
    sku: String,
    qty: u16,
}

#[test]
fn the_handler_gets_normalised_typed_input_or_every_problem() {
    let tools = ToolSet::new()
        .tool(|order: Order, _: &Call| format!("{order:?}"))
        .unwrap();
    // `null` for optional members means absent; an integral float is an integer.
    let response = tools.call(
        "order",
        Some(json!({"lines": [{"sku": "A", "qty": 2.0}], "rush": null, "note": null})),
    );
    assert_eq!(
        response.blocks(),
        ["Order { lines: [Line { sku: \"A\", qty: 2 }], rush: false, note: None }"]
    );
    let response = tools.call(
        "order",
        Some(json!({"lines": [{"sku": 1, "qty": 70000, "colour": "red"}, "x"], "rush": "yes", "extra": []})),
    );
    assert_eq!(
        response.blocks(),
        [
            "<validation_error action=\"order\">\n<field name=\"lines.0.sku\">Wrong type. You sent: 1. Expected type: string.</field>\n<field name=\"lines.0.qty\">Out of range. You sent: 70000. Must be between 0 and 65535.</field>\n<field name=\"lines.0.colour\">Unknown field. Valid fields: 'sku', 'qty'.</field>\n<field name=\"lines.1\">Wrong type. You sent: 'x'. Expected type: object.</field>\n<field name=\"rush\">Wrong type. You sent: 'yes'. Expected type: boolean.</field>\n<field name=\"extra\">Unknown field. Valid fields: 'lines', 'rush', 'note'.</field>\n<recovery>Fix the fields above and call the tool again. Do not explain the error.</recovery>\n</validation_error>"
        ]
    );
}

/// A value the schema accepts but the type refuses on its own.
#[derive(Debug, schemars::JsonSchema, Tool)]
struct Even {
    #[allow(dead_code, reason = "read by the test through Debug")]
    n: u32,
}

impl<'de> Deserialize<'de> for Even {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        struct Raw {
            n: u32,
        }
        let raw = Raw::deserialize(deserializer)?;
        if raw.n % 2 == 1 {
            return Err(serde::de::Error::custom("n must be even"));
        }
        Ok(Even { n: raw.n })
    }
}

#[test]
fn a_check_of_the_type_itself_is_a_validation_error() {
    let tools = ToolSet::new()
        .tool(|even: Even, _: &Call| format!("{even:?}"))
        .unwrap();
    assert_eq!(
        tools.call("even", Some(json!({"n": 4}))).blocks(),
        ["Even { n: 4 }"]
    );
    assert_eq!(
        tools.call("even", Some(json!({"n": 3}))).blocks(),
        [
            "<validation_error action=\"even\">\n<field name=\"(root)\">Invalid value. You sent: an object. N must be even.</field>\n<recovery>Fix the fields above and call the tool again. Do not explain the error.</recovery>\n</validation_error>"
        ]
    );
}
