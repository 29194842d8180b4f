//! Action checks (wire format §13.8 step 4, V170–V171), suggestion targets checked by the tool
//! set, the annotations a tool declares of itself, and `?` on `build()` in a handler that
//! returns `Result<ToolResponse, ToolError>`.

use fusion_runtime::tool::Checks;
use fusion_runtime::{Call, Presenter, ResponseBuilder, Tool, ToolError, ToolResponse, ToolSet};
use serde_json::json;

use crate::tool_vectors::listing;

/// Adjust the stock of a product
#[derive(serde::Deserialize, schemars::JsonSchema, Tool)]
#[fusion(check = Self::sane)]
struct AdjustStock {
    sku: String,
    delta: i64,
}

impl AdjustStock {
    fn sane(&self, checks: &mut Checks) {
        checks.ensure(
            self.sku.starts_with("SKU-"),
            "sku",
            "Must start with 'SKU-'.",
        );
        checks.ensure(
            self.delta != 0,
            "delta",
            "Must not be 0: a change of nothing.",
        );
    }
}

fn stock() -> ToolSet {
    ToolSet::new()
        .tool(|input: AdjustStock, _: &Call| -> String {
            assert!(input.delta != 0, "the handler never sees a refused value");
            "adjusted".into()
        })
        .unwrap()
}

#[test]
fn v170_every_value_a_check_refuses_in_one_envelope() {
    let response = stock().call("adjust_stock", Some(json!({"sku": "A1", "delta": 0})));
    assert_eq!(
        listing(&response),
        "isError true\n[0] \"<validation_error action=\\\"adjust_stock\\\">\\n<field name=\\\"sku\\\">Invalid value. You sent: 'A1'. Must start with 'SKU-'.</field>\\n<field name=\\\"delta\\\">Invalid value. You sent: 0. Must not be 0: a change of nothing.</field>\\n<recovery>Fix the fields above and call the tool again. Do not explain the error.</recovery>\\n</validation_error>\""
    );
}

#[test]
fn v171_the_schemas_problems_come_first() {
    let response = stock().call("adjust_stock", Some(json!({"sku": 5, "delta": 0})));
    assert_eq!(
        listing(&response),
        "isError true\n[0] \"<validation_error action=\\\"adjust_stock\\\">\\n<field name=\\\"sku\\\">Wrong type. You sent: 5. Expected type: string.</field>\\n<recovery>Fix the fields above and call the tool again. Do not explain the error.</recovery>\\n</validation_error>\""
    );
    let passed = stock().call("adjust_stock", Some(json!({"sku": "SKU-1", "delta": 2})));
    assert_eq!(passed.blocks(), ["adjusted"]);
}

/// Manage the stock
#[derive(serde::Deserialize, schemars::JsonSchema, Tool)]
#[serde(tag = "action", rename_all = "snake_case")]
#[fusion(name = "inventory", check = Self::known_sku, title = "Inventory", idempotent, closed_world)]
enum Inventory {
    /// Fetch one product
    #[fusion(returns = Product, read_only)]
    Get { sku: String },
    /// Move stock between two bins
    #[fusion(check = Self::two_bins)]
    Move { sku: String, bins: Vec<String> },
}

impl Inventory {
    fn known_sku(&self, checks: &mut Checks) {
        let (Inventory::Get { sku } | Inventory::Move { sku, .. }) = self;
        checks.ensure(sku != "gone", "sku", "Must be a product that exists.");
    }

    fn two_bins(&self, checks: &mut Checks) {
        if let Inventory::Move { bins, .. } = self
            && bins.first() == bins.get(1)
        {
            checks.reject("bins.1", "Must differ from bins.0.");
        }
    }
}

#[derive(Presenter)]
#[suggest(tool = "inventory.move", reason = "Move it")]
struct Product {
    sku: String,
}

/// A product whose suggestions name the actions by path: the compiler checks them, and the
/// wire text is the action's target, `tool.action`.
#[derive(Presenter)]
#[suggest(Inventory::Move, "Move it")]
#[collection_suggest(Inventory::Get, reason = "Fetch one of {n}")]
struct Stocked {
    sku: String,
}

/// Keep the ledger
#[derive(serde::Deserialize, schemars::JsonSchema, Tool)]
#[serde(tag = "op", rename_all = "kebab-case")]
#[allow(dead_code, reason = "only its actions' targets are read")]
enum Ledger {
    /// Post an entry
    PostEntry { id: String },
    /// Reverse an entry
    #[serde(rename = "undo")]
    Reverse { id: String },
    /// Not an action
    #[serde(skip)]
    Internal,
}

/// Show a stocked product
#[derive(serde::Deserialize, schemars::JsonSchema, Tool)]
#[fusion(returns = Stocked)]
struct ShowStocked {
    sku: String,
}

#[test]
fn suggestion_targets_written_as_paths_are_the_actions_targets() {
    use fusion_runtime::present::Model;
    use fusion_runtime::tool::ToolActions;
    assert_eq!(
        <Ledger as ToolActions>::ACTIONS.PostEntry,
        "ledger.post-entry"
    );
    assert_eq!(<Ledger as ToolActions>::ACTIONS.Reverse, "ledger.undo");
    assert_eq!(<Inventory as ToolActions>::ACTIONS.Move, "inventory.move");
    assert_eq!(
        <Stocked as Model>::SUGGESTS,
        ["inventory.move", "inventory.get"]
    );
    let one = Stocked { sku: "S".into() }.present().build().unwrap();
    assert_eq!(
        one.blocks()[1],
        "<action_suggestions>\n- inventory.move: Move it\n</action_suggestions>"
    );
    let all = Stocked::present_all(&[Stocked { sku: "S".into() }])
        .build()
        .unwrap();
    assert!(
        all.blocks()
            .iter()
            .any(|block| block.contains("- inventory.get: Fetch one of 1")),
        "{:?}",
        all.blocks()
    );
    // The tool set checks them as it checks text targets: both name actions it has.
    let tools = ToolSet::new()
        .tool(|action: Inventory, call: &Call| inventory(call, action))
        .unwrap()
        .tool(|input: ShowStocked, call: &Call| call.present(&Stocked { sku: input.sku }).build())
        .unwrap();
    tools.check_suggestions().unwrap();
}

fn inventory(call: &Call, action: Inventory) -> Result<ToolResponse, ToolError> {
    match action {
        // `?` on `build()`: the handler's own error type is `ToolError`.
        Inventory::Get { sku } => Ok(call.present(&Product { sku }).build()?),
        Inventory::Move { .. } => Ok(ResponseBuilder::text("moved").build()),
    }
}

#[test]
fn the_tools_check_runs_for_every_action_then_the_actions_own() {
    let tools = ToolSet::new()
        .tool(|action: Inventory, call: &Call| inventory(call, action))
        .unwrap();
    let response = tools.call(
        "inventory",
        Some(json!({"action": "move", "sku": "gone", "bins": ["A", "A"]})),
    );
    let text = &response.blocks()[0];
    assert!(text.contains("<field name=\"sku\">Invalid value. You sent: 'gone'. Must be a product that exists.</field>\n<field name=\"bins.1\">Invalid value. You sent: 'A'. Must differ from bins.0.</field>"), "{text}");
    let response = tools.call("inventory", Some(json!({"action": "get", "sku": "S"})));
    assert_eq!(response.blocks()[0], "{\n  \"sku\": \"S\"\n}");
}

#[test]
fn a_tool_declares_title_idempotent_and_open_world() {
    let tools = ToolSet::new()
        .tool(|action: Inventory, call: &Call| inventory(call, action))
        .unwrap();
    let definition = tools.get("inventory").unwrap();
    assert_eq!(
        serde_json::Value::Object(definition.annotations().unwrap().clone()),
        json!({"title": "Inventory", "idempotentHint": true, "openWorldHint": false})
    );
    assert_eq!(definition.to_json()["title"], "Inventory");
}

#[derive(Presenter)]
#[suggest(tool = "inventory.mvoe", reason = "Move it")]
struct Misspelt {
    sku: String,
}

#[derive(Presenter)]
#[suggest(tool = "inventroy.move", reason = "Move it")]
struct NoSuchTool {
    sku: String,
}

/// Show a product's history
#[derive(serde::Deserialize, schemars::JsonSchema, Tool)]
#[fusion(returns = NoSuchTool)]
struct ShowHistory {
    sku: String,
}

#[test]
fn suggestion_targets_are_checked_when_the_set_is_built() {
    /// Show a misspelt product
    #[derive(serde::Deserialize, schemars::JsonSchema, Tool)]
    #[fusion(returns = Misspelt)]
    struct ShowMisspelt {
        sku: String,
    }
    let tools = ToolSet::new()
        .tool(|action: Inventory, call: &Call| inventory(call, action))
        .unwrap();
    let error = tools
        .tool(|input: ShowMisspelt, call: &Call| call.present(&Misspelt { sku: input.sku }).build())
        .unwrap_err();
    assert_eq!(
        error.to_string(),
        "tool `show_misspelt` cannot be defined: `Misspelt` suggests `inventory.mvoe`, but `inventory` has no action `mvoe`; did you mean `inventory.move`? (a suggestion target is `tool` or `tool.action`)"
    );

    // A target naming no tool of the set is found once every tool is in.
    let tools = ToolSet::new()
        .tool(|input: ShowHistory, call: &Call| {
            call.present(&NoSuchTool { sku: input.sku }).build()
        })
        .unwrap()
        .tool(|action: Inventory, call: &Call| inventory(call, action))
        .unwrap();
    assert_eq!(
        tools.check_suggestions().unwrap_err().to_string(),
        "tool `show_history` cannot be defined: `NoSuchTool` suggests `inventroy.move`, but no tool `inventroy` is in the set; did you mean `inventory`? (a suggestion target is `tool` or `tool.action`)"
    );
}

/// Read a ratio table
#[derive(serde::Deserialize, schemars::JsonSchema, Tool)]
struct Ratios {}

#[test]
fn question_mark_on_an_unwritable_value_is_the_actions_internal_error_and_is_reported() {
    use std::sync::{Arc, Mutex};
    let reported = Arc::new(Mutex::new(Vec::new()));
    let seen = reported.clone();
    let tools = ToolSet::new()
        .on_internal_error(move |failure| {
            seen.lock().unwrap().push(failure.reference().to_owned());
        })
        .tool(|_: Ratios, _: &Call| -> Result<ToolResponse, ToolError> {
            // A map whose keys JSON cannot hold: the writer refuses it.
            let table = std::collections::BTreeMap::from([((1, 2), 0.5)]);
            Ok(ResponseBuilder::json(&table)?.build())
        })
        .unwrap();
    let response = tools.call("ratios", None);
    assert_eq!(
        response.blocks()[0],
        "<tool_error code=\"INTERNAL_ERROR\" severity=\"error\">\n<message>[ratios] The action failed with an internal error.</message>\n<recovery>This may be a transient failure. Retry the call once; if it fails again, tell the user the action is unavailable.</recovery>\n</tool_error>"
    );
    assert_eq!(*reported.lock().unwrap(), ["ratios"]);
}
