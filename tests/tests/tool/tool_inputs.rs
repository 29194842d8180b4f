//! Inputs that actions share and selection per action (wire format §7.1–§7.3, §16.14): a field that
//! is `T` in one action and `Option<T>` in another is one property, required where it is not an
//! `Option`; fields of different types are refused, every clash at once; `_select` is checked
//! against the called action's model (V120–V124 on tool K).

use fusion_runtime::tool::{ToolDefinition, ToolSpec, input_schema_of};
use fusion_runtime::{Call, ResponseBuilder, Tool, ToolResponse, ToolSet};
use serde::Deserialize;
use serde_json::{Value, json};

use crate::tool_vectors::listing;

/// Model Prj of tool K.
#[derive(fusion_runtime::Presenter)]
struct Prj {
    id: String,
    name: String,
}

/// Model Tsk of tool K.
#[derive(fusion_runtime::Presenter)]
struct Tsk {
    id: String,
    title: String,
    status: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
enum St {
    Todo,
    Done,
}

/// Tool K (wire format §16.14).
#[derive(Deserialize, schemars::JsonSchema, Tool)]
#[allow(
    dead_code,
    reason = "`update_status` reads its fields through serde only"
)]
#[serde(tag = "action", rename_all = "snake_case")]
#[fusion(name = "tasks", select)]
enum K {
    #[fusion(returns = Prj)]
    GetProject {
        id: String,
    },
    #[fusion(returns = [Tsk])]
    ListTasks {
        status: Option<St>,
    },
    UpdateStatus {
        id: String,
        status: St,
    },
}

type Answer = Result<ToolResponse, Box<dyn std::error::Error + Send + Sync>>;

fn handle_k(action: K, call: &Call) -> Answer {
    match action {
        K::GetProject { id } => Ok(call
            .present(&Prj {
                id,
                name: "Relaunch".to_owned(),
            })
            .build()?),
        K::ListTasks { status } => {
            let tasks: Vec<Tsk> = [("T-1", "Audit", St::Todo), ("T-2", "Launch", St::Done)]
                .into_iter()
                .filter(|(_, _, s)| status.is_none_or(|wanted| wanted == *s))
                .map(|(id, title, s)| Tsk {
                    id: id.to_owned(),
                    title: title.to_owned(),
                    status: if s == St::Todo { "todo" } else { "done" }.to_owned(),
                })
                .collect();
            Ok(call.present_all(&tasks).build()?)
        }
        K::UpdateStatus { .. } => Ok(ResponseBuilder::text("updated").build()),
    }
}

fn tool_k() -> ToolSet {
    ToolSet::new().tool(handle_k).expect("tool K is valid")
}

fn call_k(arguments: Value) -> ToolResponse {
    tool_k().call("tasks", Some(arguments))
}

fn property(name: &str) -> String {
    let tools = tool_k();
    let schema = tools.get("tasks").unwrap().input_schema();
    serde_json::to_string(&schema["properties"][name]).unwrap()
}

#[test]
fn v120_a_field_optional_in_one_action_and_required_in_another_is_one_property() {
    assert_eq!(
        property("status"),
        r#"{"type":["string","null"],"enum":["todo","done",null],"description":"Required for: update_status. For: list_tasks"}"#
    );
    assert_eq!(
        property("id"),
        r#"{"type":"string","description":"Required for: get_project, update_status"}"#
    );
    let tools = tool_k();
    let schema = tools.get("tasks").unwrap().input_schema();
    assert_eq!(schema["required"], json!(["action"]));
    let keys: Vec<&String> = schema["properties"].as_object().unwrap().keys().collect();
    assert_eq!(keys, ["action", "id", "status", "_select"]);
}

#[test]
fn v121_each_action_checks_the_merged_field_its_own_way() {
    let missing = call_k(json!({"action": "update_status", "id": "T-1"}));
    let null = call_k(json!({"action": "update_status", "id": "T-1", "status": null}));
    let filtered = call_k(json!({"action": "list_tasks", "status": "done"}));
    let unfiltered = call_k(json!({"action": "list_tasks", "status": null}));
    let text = [missing, null, filtered, unfiltered]
        .iter()
        .enumerate()
        .map(|(i, r)| format!("response {}: {}", i + 1, listing(r)))
        .collect::<Vec<_>>()
        .join("\n");
    assert_eq!(text, V121);
}

const V121: &str = r#"response 1: isError true
[0] "<validation_error action=\"tasks/update_status\">\n<field name=\"status\">Missing required field. Valid options: 'todo', 'done'.</field>\n<recovery>Fix the fields above and call the tool again. Do not explain the error.</recovery>\n</validation_error>"
response 2: isError true
[0] "<validation_error action=\"tasks/update_status\">\n<field name=\"status\">Wrong type. You sent: null. Valid options: 'todo', 'done'.</field>\n<recovery>Fix the fields above and call the tool again. Do not explain the error.</recovery>\n</validation_error>"
response 3: isError absent
[0] "[\n  {\n    \"id\": \"T-2\",\n    \"title\": \"Launch\",\n    \"status\": \"done\"\n  }\n]"
response 4: isError absent
[0] "[\n  {\n    \"id\": \"T-1\",\n    \"title\": \"Audit\",\n    \"status\": \"todo\"\n  },\n  {\n    \"id\": \"T-2\",\n    \"title\": \"Launch\",\n    \"status\": \"done\"\n  }\n]""#;

#[test]
fn v122_the_select_property_names_the_actions_that_take_it() {
    assert_eq!(
        property("_select"),
        r#"{"type":"array","description":"⚡ Context optimization: select only the response fields you need. Omit to receive all fields. For: get_project, list_tasks","items":{"type":"string","enum":["id","name","status","title"]}}"#
    );
}

#[test]
fn v123_a_name_outside_the_called_actions_model_is_a_validation_error() {
    let project = call_k(json!({"action": "get_project", "id": "PRJ-1", "_select": ["title"]}));
    let tasks = call_k(json!({"action": "list_tasks", "_select": ["title", "name"]}));
    assert_eq!(
        format!(
            "response 1: {}\nresponse 2: {}",
            listing(&project),
            listing(&tasks)
        ),
        r#"response 1: isError true
[0] "<validation_error action=\"tasks/get_project\">\n<field name=\"_select.0\">Unknown field name. You sent: 'title'. Valid names: 'id', 'name'.</field>\n<recovery>Fix the fields above and call the tool again. Do not explain the error.</recovery>\n</validation_error>"
response 2: isError true
[0] "<validation_error action=\"tasks/list_tasks\">\n<field name=\"_select.1\">Unknown field name. You sent: 'name'. Valid names: 'id', 'status', 'title'.</field>\n<recovery>Fix the fields above and call the tool again. Do not explain the error.</recovery>\n</validation_error>""#
    );
}

#[test]
fn v124_select_on_an_action_without_a_model_is_ignored() {
    let response = call_k(json!({
        "action": "update_status", "id": "T-1", "status": "done", "_select": ["bogus", 7]
    }));
    assert_eq!(listing(&response), "isError absent\n[0] \"updated\"");
}

#[test]
fn a_selection_valid_for_the_action_is_never_answered_with_an_empty_object() {
    let response = call_k(json!({"action": "get_project", "id": "PRJ-1", "_select": ["name"]}));
    assert_eq!(response.blocks()[0], "{\n  \"name\": \"Relaunch\"\n}");
}

/// The definition error of an input type (or `defined`).
fn define<T: schemars::JsonSchema>(name: &str) -> String {
    match ToolDefinition::from_schema(&ToolSpec::new(name.to_owned()), &input_schema_of::<T>()) {
        Ok(_) => "defined".to_owned(),
        Err(error) => error.to_string(),
    }
}

#[derive(Deserialize, schemars::JsonSchema)]
#[serde(tag = "action", rename_all = "snake_case")]
#[allow(dead_code, reason = "only the schema is read")]
enum Optional {
    Find {
        tags: Option<Vec<String>>,
        limit: Option<u32>,
    },
    Tag {
        tags: Vec<String>,
        limit: u32,
    },
    Count {
        limit: Option<u32>,
    },
}

#[test]
fn options_of_lists_and_numbers_merge_too() {
    assert_eq!(define::<Optional>("optional"), "defined");
    let definition =
        ToolDefinition::from_schema(&ToolSpec::new("optional"), &input_schema_of::<Optional>())
            .unwrap();
    let properties = &definition.input_schema()["properties"];
    assert_eq!(
        properties["limit"]["description"],
        "Required for: tag. For: find, count"
    );
    assert_eq!(properties["tags"]["type"], json!(["array", "null"]));
}

#[derive(Deserialize, schemars::JsonSchema)]
#[serde(tag = "action", rename_all = "snake_case")]
#[allow(dead_code, reason = "only the schema is read")]
enum Clashes {
    Get { id: String, when: Option<String> },
    Remove { id: u64, when: bool },
    Rename { id: Option<char>, name: String },
    Move { name: Vec<String> },
}

#[test]
fn every_clash_is_reported_at_once_with_both_actions_and_both_types() {
    assert_eq!(
        define::<Clashes>("clashes"),
        "tool `clashes` cannot be defined: fields have different types in different actions (4 clashes); give each field one type in every action (`T` in one action and `Option<T>` in another is fine: it is required only where it is not an `Option`), or rename one of the fields:\n  - the field `id` is a string in action `get` and an integer (`u64`) in action `remove`\n  - the field `when` is an optional string in action `get` and a boolean (`bool`) in action `remove`\n  - the field `id` is a string in action `get` and an optional character (`char`) in action `rename`\n  - the field `name` is a string in action `rename` and a list of strings in action `move`"
    );
}

#[derive(Deserialize, schemars::JsonSchema)]
#[serde(tag = "action", rename_all = "snake_case")]
#[allow(dead_code, reason = "only the schema is read")]
enum NullableSecond {
    Update { status: St },
    List { status: Option<St> },
    Count { status: Option<String> },
}

#[test]
fn an_option_of_another_type_still_clashes() {
    assert_eq!(
        define::<NullableSecond>("nullable"),
        "tool `nullable` cannot be defined: the field `status` is an enum of `todo`, `done` in action `update` and an optional string in action `count`; give the field one type in every action (`T` in one action and `Option<T>` in another is fine: it is required only where it is not an `Option`), or rename one of the fields"
    );
}

/// The task tracker example uses the merged field for real: `status` filters `list_tasks` and is
/// required by `update_status`.
#[test]
fn the_task_tracker_filters_and_updates_with_one_status_field() {
    let tools = fusion_examples::tasks::tasks_tools().expect("the tasks tool is valid");
    let schema = tools.get("tasks").unwrap().input_schema();
    assert_eq!(
        schema["properties"]["status"]["description"],
        "Required for: update_status. For: list_tasks"
    );
    let doing = tools.call(
        "tasks",
        Some(json!({"action": "list_tasks", "status": "doing", "_select": ["id"]})),
    );
    assert_eq!(doing.is_error(), None);
    assert_eq!(doing.blocks()[0], "[\n  {\n    \"id\": \"T-3\"\n  }\n]");
    let missing = tools.call(
        "tasks",
        Some(json!({"action": "update_status", "id": "T-4"})),
    );
    assert_eq!(missing.is_error(), Some(true));
    assert!(
        missing.blocks()[0].contains(
            "<field name=\"status\">Missing required field. Valid options: 'todo', 'doing', 'done'.</field>"
        ),
        "{}",
        missing.blocks()[0]
    );
    let updated = tools.call(
        "tasks",
        Some(json!({"action": "update_status", "id": "T-4", "status": "done", "_select": ["id", "status"]})),
    );
    assert_eq!(
        updated.blocks()[0],
        "{\n  \"id\": \"T-4\",\n  \"status\": \"done\"\n}"
    );
    let done = tools.call(
        "tasks",
        Some(json!({"action": "list_tasks", "status": "done", "_select": ["id"]})),
    );
    assert_eq!(
        done.blocks()[0],
        "[\n  {\n    \"id\": \"T-1\"\n  },\n  {\n    \"id\": \"T-2\"\n  },\n  {\n    \"id\": \"T-4\"\n  }\n]"
    );
    let project = tools.call(
        "tasks",
        Some(json!({"action": "get_project", "id": "PRJ-1", "_select": ["title"]})),
    );
    assert!(
        project.blocks()[0].contains("Valid names: 'id', 'name', 'owner_email', 'tasks'."),
        "{}",
        project.blocks()[0]
    );
}

/// The one rule on shared fields is the definition's: a derived tool whose actions give a field
/// two types compiles, and building it names every clash (the user's own types included, which
/// only the schemas tell apart).
#[derive(Deserialize, schemars::JsonSchema)]
#[allow(dead_code, reason = "only the schema is read")]
struct Owner {
    name: String,
}

#[derive(Deserialize, schemars::JsonSchema, Tool)]
#[serde(tag = "action", rename_all = "snake_case")]
#[allow(dead_code, reason = "only the definition is read")]
enum DerivedClashes {
    ListTasks {
        status: Option<String>,
        limit: Option<u32>,
        owner: Option<Owner>,
    },
    UpdateStatus {
        id: String,
        status: String,
        owner: Owner,
    },
    Reorder {
        id: Option<i64>,
        limit: Vec<u32>,
    },
    Untag {
        done: bool,
    },
    Retype {
        done: Option<String>,
    },
}

#[test]
fn a_derived_tool_with_clashes_stops_its_definition_naming_every_one() {
    let error = DerivedClashes::definition().expect_err("three fields clash");
    // The clashes the derive used to report at compile time (`String`/`i64`, `Option<u32>`/
    // `Vec<u32>`, `bool`/`Option<String>`), each with both actions and both types; `owner` is
    // `Owner` and `Option<Owner>`, one type.
    assert_eq!(
        error.to_string(),
        "tool `derived_clashes` cannot be defined: fields have different types in different actions (3 clashes); give each field one type in every action (`T` in one action and `Option<T>` in another is fine: it is required only where it is not an `Option`), or rename one of the fields:\n  - the field `id` is a string in action `update_status` and an optional integer (`i64`) in action `reorder`\n  - the field `limit` is an optional integer (`u32`) in action `list_tasks` and a list of integers (`u32`) in action `reorder`\n  - the field `done` is a boolean (`bool`) in action `untag` and an optional string in action `retype`"
    );
}

/// A field serde renames is a clash like any other: the definition sees the schemas.
#[derive(Deserialize, schemars::JsonSchema, Tool)]
#[serde(tag = "action", rename_all = "snake_case")]
#[allow(dead_code, reason = "only the definition is read")]
enum Renamed {
    Get {
        id: String,
    },
    Remove {
        #[serde(rename = "id")]
        key: u64,
    },
}

#[test]
fn a_clash_the_derive_cannot_see_stops_the_definition_with_readable_debug_output() {
    let error = Renamed::definition().expect_err("`id` clashes");
    let text = "tool `renamed` cannot be defined: the field `id` is a string in action `get` and an integer (`u64`) in action `remove`; give the field one type in every action (`T` in one action and `Option<T>` in another is fine: it is required only where it is not an `Option`), or rename one of the fields";
    assert_eq!(error.to_string(), text);
    // What `fn main() -> Result<(), Box<dyn Error>>` prints when it returns the error.
    let boxed: Box<dyn std::error::Error> = Box::new(error);
    assert_eq!(format!("{boxed:?}"), text);
}

#[derive(Deserialize, schemars::JsonSchema)]
#[serde(tag = "action", rename_all = "snake_case")]
#[allow(dead_code, reason = "only the schema is read")]
enum Defaults {
    List {
        #[serde(default)]
        limit: u32,
    },
    Page {
        limit: Option<u32>,
    },
    Cut {
        #[schemars(range(max = 10))]
        limit: u32,
    },
}

#[test]
fn a_default_is_no_difference_and_a_bound_is_named_when_the_words_agree() {
    assert_eq!(
        define::<Defaults>("defaults"),
        "tool `defaults` cannot be defined: the field `limit` is an integer (`u32`) in action `list` and an integer (`u32`) in action `cut` (the same words, but their JSON Schemas differ in `maximum`); give the field one type in every action (`T` in one action and `Option<T>` in another is fine: it is required only where it is not an `Option`), or rename one of the fields"
    );
}
