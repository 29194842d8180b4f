//! Lean tools (wire format §6.12): the static rules of the models a tool presents are said once,
//! in its `tools/list` description, and left out of its answers; a `_select` that leaves out a
//! member answers the projection alone. Vectors V193–V195.

use fusion_runtime::present::{Format, StaticRules};
use fusion_runtime::{Call, Presenter, Tool, ToolSet};
use serde::Deserialize;
use serde_json::json;

/// wire format V193: a line of an order, with a static rule.
#[derive(Presenter, Clone, Debug)]
#[rule("qty is in units.")]
struct Line {
    sku: String,
    qty: u32,
}

/// wire format V193: an order, its static and dynamic rules, a suggestion, an embedded list.
#[derive(Presenter, Clone, Debug)]
#[rule("total is in cents.")]
#[rule("Order {id} is open: confirm it.", when = Self::open)]
#[suggest(tool = "orders.confirm", reason = "Confirm it", when = Self::open)]
struct Order {
    id: String,
    status: String,
    total: u64,
    #[embed]
    lines: Vec<Line>,
}

impl Order {
    fn open(&self) -> bool {
        self.status == "open"
    }
}

/// Manage orders
#[derive(Deserialize, schemars::JsonSchema, Tool)]
#[fusion(name = "orders", select, lean)]
#[serde(tag = "action", rename_all = "snake_case")]
enum Orders {
    #[fusion(returns = Order)]
    Get {
        id: String,
    },
    #[fusion(returns = [Order])]
    List {},
    Confirm {
        id: String,
    },
}

// The same tool, not lean.
/// Manage orders
#[derive(Deserialize, schemars::JsonSchema, Tool)]
#[fusion(name = "orders", select)]
#[serde(tag = "action", rename_all = "snake_case")]
enum PlainOrders {
    #[fusion(returns = Order)]
    Get {
        id: String,
    },
    #[fusion(returns = [Order])]
    List {},
    Confirm {
        id: String,
    },
}

fn orders() -> Vec<Order> {
    vec![
        Order {
            id: "O1".into(),
            status: "open".into(),
            total: 1250,
            lines: vec![Line {
                sku: "A".into(),
                qty: 2,
            }],
        },
        Order {
            id: "O2".into(),
            status: "paid".into(),
            total: 300,
            lines: vec![],
        },
    ]
}

fn answer(call: &Call, get: Option<&str>) -> fusion_runtime::ToolResponse {
    let all = orders();
    match get {
        Some(id) => {
            let order = all.iter().find(|o| o.id == id).unwrap();
            call.present(order).build().unwrap()
        }
        None => call.present_all(&all).build().unwrap(),
    }
}

fn lean() -> ToolSet {
    ToolSet::new()
        .tool(|input: Orders, call: &Call| match input {
            Orders::Get { id } => answer(call, Some(&id)),
            Orders::List {} => answer(call, None),
            Orders::Confirm { id } => fusion_runtime::success(&id).unwrap(),
        })
        .unwrap()
}

fn plain() -> ToolSet {
    ToolSet::new()
        .tool(|input: PlainOrders, call: &Call| match input {
            PlainOrders::Get { id } => answer(call, Some(&id)),
            PlainOrders::List {} => answer(call, None),
            PlainOrders::Confirm { id } => fusion_runtime::success(&id).unwrap(),
        })
        .unwrap()
}

#[test]
fn static_rules_are_the_model_s_then_its_embedded_models_each_once() {
    assert_eq!(
        StaticRules::of::<Order>(),
        ["total is in cents.", "qty is in units."]
    );
    assert_eq!(StaticRules::of::<Line>(), ["qty is in units."]);
}

#[test]
fn v193_the_description_says_the_static_rules_once() {
    let tools = lean();
    let before_lean = plain();
    let definition = tools.get("orders").unwrap();
    assert!(definition.is_lean());
    assert_eq!(
        definition.description(),
        format!(
            "{}\n\n<domain_rules>\n- total is in cents.\n- qty is in units.\n</domain_rules>",
            before_lean.get("orders").unwrap().description()
        )
    );
    assert_eq!(
        definition.static_rules(),
        ["total is in cents.", "qty is in units."]
    );
    // `tools/list` carries it, and the `_select` description says what a projection leaves out.
    let entry = definition.to_json();
    assert_eq!(entry["description"], json!(definition.description()));
    assert_eq!(
        entry["inputSchema"]["properties"]["_select"]["description"],
        "\u{26A1} Context optimization: select only the response fields you need. Omit to receive all fields. For: get, list. Leaving fields out also leaves out the per-item rules and suggestions; omit `_select` for them."
    );
    // The tool set's `lean()` does the same, for tools added before and after it.
    let before = plain().lean();
    assert_eq!(
        before.get("orders").unwrap().description(),
        definition.description()
    );
    let after = ToolSet::new()
        .lean()
        .tool(|_: PlainOrders, _: &Call| fusion_runtime::success("OK").unwrap())
        .unwrap();
    assert_eq!(
        after.get("orders").unwrap().description(),
        definition.description()
    );
    // Twice is once.
    assert_eq!(
        before.lean().get("orders").unwrap().description(),
        definition.description()
    );
}

#[test]
fn v194_a_lean_answer_leaves_the_said_rules_out() {
    let response = lean().call("orders", Some(json!({"action": "get", "id": "O1"})));
    assert_eq!(
        response.blocks(),
        [
            r#"{"id":"O1","status":"open","total":1250,"lines":[{"sku":"A","qty":2}]}"#,
            "<domain_rules>\n- Order O1 is open: confirm it.\n</domain_rules>",
            "<action_suggestions>\n- orders.confirm: Confirm it\n</action_suggestions>",
        ]
    );
    // The same call on the tool that is not lean: pretty JSON, every rule in the answer.
    let before = plain().call("orders", Some(json!({"action": "get", "id": "O1"})));
    assert_eq!(
        before.view().data(),
        response.view().data(),
        "the same data value"
    );
    assert_eq!(
        before.blocks()[1..],
        [
            "<domain_rules>\n- qty is in units.\n</domain_rules>",
            "<domain_rules>\n- total is in cents.\n- Order O1 is open: confirm it.\n</domain_rules>",
            "<action_suggestions>\n- orders.confirm: Confirm it\n</action_suggestions>",
        ]
    );
    // A collection: the same.
    let list = lean().call("orders", Some(json!({"action": "list"})));
    assert_eq!(list.view().rules(), ["Order O1 is open: confirm it."]);
    assert!(!list.text().contains("in cents"));
    assert!(!list.text().contains("in units"));
}

#[test]
fn v195_a_projection_answers_its_data_alone() {
    let arguments = json!({"action": "get", "id": "O1", "_select": ["id", "status"]});
    let response = lean().call("orders", Some(arguments.clone()));
    assert_eq!(response.blocks(), [r#"{"id":"O1","status":"open"}"#]);
    // Not lean: the rules and the suggestion still come (wire format §7.5).
    let before = plain().call("orders", Some(arguments));
    assert_eq!(
        before.view().rules(),
        ["total is in cents.", "Order O1 is open: confirm it."]
    );
    assert_eq!(before.view().suggestions().len(), 1);
    // A `_select` of every member is no projection.
    let whole = lean().call(
        "orders",
        Some(json!({"action": "get", "id": "O1", "_select": ["id", "status", "total", "lines"]})),
    );
    assert_eq!(whole.view().rules(), ["Order O1 is open: confirm it."]);
    assert_eq!(whole.view().suggestions().len(), 1);
    // A collection under a projection.
    let list = lean().call("orders", Some(json!({"action": "list", "_select": ["id"]})));
    assert_eq!(list.blocks(), [r#"[{"id":"O1"},{"id":"O2"}]"#]);
}

#[test]
fn a_chosen_format_wins_over_the_lean_default() {
    let tools = ToolSet::new()
        .format(Format::Toon)
        .tool(|input: Orders, call: &Call| match input {
            Orders::Get { id } => answer(call, Some(&id)),
            _ => fusion_runtime::success("OK").unwrap(),
        })
        .unwrap();
    let response = tools.call("orders", Some(json!({"action": "get", "id": "O2"})));
    assert!(
        response.blocks()[0].starts_with("id: O2"),
        "{}",
        response.blocks()[0]
    );
    assert_eq!(response.blocks().len(), 1);
}

/// A model whose static rules a handler presents without `returns`: nothing said, nothing left out.
#[derive(Presenter)]
#[rule("Counts are exact.")]
struct Count {
    n: u32,
}

/// Count
#[derive(Deserialize, schemars::JsonSchema, Tool)]
#[fusion(lean)]
struct CountThings {}

#[test]
fn a_rule_the_description_does_not_say_stays_in_the_answer() {
    let tools = ToolSet::new()
        .tool(|_: CountThings, call: &Call| call.present(&Count { n: 3 }).build())
        .unwrap();
    assert_eq!(tools.get("count_things").unwrap().description(), "Count");
    let response = tools.call("count_things", Some(json!({})));
    assert_eq!(
        response.blocks(),
        [
            r#"{"n":3}"#,
            "<domain_rules>\n- Counts are exact.\n</domain_rules>"
        ]
    );
}

/// A random order: open or not, with zero to three lines.
fn an_order() -> impl proptest::strategy::Strategy<Value = Order> {
    use proptest::prelude::*;
    (any::<bool>(), 0..4usize, 0..5000u64).prop_map(|(open, lines, total)| Order {
        id: format!("O{total}"),
        status: if open { "open" } else { "paid" }.into(),
        total,
        lines: (0..lines)
            .map(|n| Line {
                sku: format!("S{n}"),
                qty: u32::try_from(n).unwrap_or(0),
            })
            .collect(),
    })
}

/// The members of `Order` a `_select` names, from a bit set (0: no `_select`).
fn selection(bits: u8) -> Option<Vec<&'static str>> {
    let names = ["id", "status", "total", "lines"];
    (bits != 0).then(|| {
        names
            .iter()
            .enumerate()
            .filter(|(at, _)| bits & (1 << at) != 0)
            .map(|(_, name)| *name)
            .collect()
    })
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(64))]

    /// A lean answer holds the same data value as the answer of the same tool not lean; its
    /// rules are those minus the rules the description says, and nothing else changes, unless
    /// the `_select` leaves out a member: then it holds the data alone. The description says
    /// every rule the answer leaves out.
    #[test]
    fn a_lean_answer_is_the_plain_one_without_what_the_description_says(
        orders in proptest::collection::vec(an_order(), 1..4),
        bits in 0u8..16,
        single in proptest::prelude::any::<bool>(),
    ) {
        let present = |lean: bool| {
            let selection = selection(bits);
            let mut arguments = if single {
                json!({"action": "get", "id": orders[0].id})
            } else {
                json!({"action": "list"})
            };
            if let Some(names) = &selection {
                arguments["_select"] = json!(names);
            }
            let all = orders.clone();
            let handler = move |call: &Call, get: bool| {
                if get {
                    call.present(&all[0]).build().unwrap()
                } else {
                    call.present_all(&all).build().unwrap()
                }
            };
            let tools = if lean {
                let handler = handler.clone();
                ToolSet::new()
                    .tool(move |input: Orders, call: &Call| {
                        handler(call, matches!(input, Orders::Get { .. }))
                    })
                    .unwrap()
            } else {
                ToolSet::new()
                    .tool(move |input: PlainOrders, call: &Call| {
                        handler(call, matches!(input, PlainOrders::Get { .. }))
                    })
                    .unwrap()
            };
            let said: Vec<String> = tools
                .get("orders")
                .unwrap()
                .static_rules()
                .iter()
                .map(|rule| (*rule).to_owned())
                .collect();
            (tools.call("orders", Some(arguments)), said)
        };
        let (lean, said) = present(true);
        let (plain, _) = present(false);
        proptest::prop_assert_eq!(lean.view().data(), plain.view().data());
        let projected = selection(bits).is_some_and(|names| names.len() < 4);
        // Every rule the model reads: the items of every rules block, the children's included.
        let rules = |response: &fusion_runtime::ToolResponse| -> Vec<String> {
            response
                .blocks()
                .iter()
                .filter(|block| block.starts_with("<domain_rules>"))
                .flat_map(|block| block.lines().filter_map(|line| line.strip_prefix("- ")))
                .map(str::to_owned)
                .collect()
        };
        let lean_rules = rules(&lean);
        let plain_rules = rules(&plain);
        for rule in &lean_rules {
            proptest::prop_assert!(!said.contains(rule), "said and written: {}", rule);
        }
        if projected {
            proptest::prop_assert_eq!(lean.blocks().len(), 1, "{:?}", lean.blocks());
        } else {
            let expected: Vec<&String> = plain_rules.iter().filter(|r| !said.contains(r)).collect();
            let written: Vec<&String> = lean_rules.iter().collect();
            proptest::prop_assert_eq!(written, expected);
            proptest::prop_assert_eq!(lean.view().suggestions(), plain.view().suggestions());
        }
        // Nothing the plain answer says is lost without a trace: it is in the answer or said.
        if !projected {
            for rule in &plain_rules {
                proptest::prop_assert!(lean_rules.contains(rule) || said.contains(rule));
            }
        }
    }
}

#[test]
fn a_definition_s_own_call_is_lean_too() {
    // What an adapter that routes one tool does (`rmcp::route`): the definition's call.
    let definition = fusion_runtime::tool::ToolDefinition::of::<Orders>().unwrap();
    assert!(definition.is_lean());
    let (orders, call) = definition
        .parse_typed::<Orders>(Some(json!({"action": "get", "id": "O2"})))
        .unwrap();
    assert!(matches!(orders, Orders::Get { .. }));
    let response = call.present(&self::orders()[1]).build().unwrap();
    assert_eq!(
        response.blocks(),
        [r#"{"id":"O2","status":"paid","total":300,"lines":[]}"#]
    );
}

/// A model that makes the tools declaring it lean.
#[derive(Presenter)]
#[presenter(lean)]
#[rule("Temperatures are in °C.")]
struct Reading {
    celsius: f64,
}

/// Read the sensor
#[derive(Deserialize, schemars::JsonSchema, Tool)]
#[fusion(returns = Reading)]
struct ReadSensor {}

#[test]
fn a_lean_presenter_makes_the_tools_that_declare_it_lean() {
    let tools = ToolSet::new()
        .tool(|_: ReadSensor, call: &Call| call.present(&Reading { celsius: 21.5 }).build())
        .unwrap();
    let definition = tools.get("read_sensor").unwrap();
    assert!(definition.is_lean());
    assert_eq!(
        definition.description(),
        "Read the sensor\n\n<domain_rules>\n- Temperatures are in °C.\n</domain_rules>"
    );
    let response = tools.call("read_sensor", Some(json!({})));
    assert_eq!(response.blocks(), [r#"{"celsius":21.5}"#]);
    // Presented outside a lean tool, the model says its rule as any model does.
    let alone = fusion_runtime::present::present(&Reading { celsius: 3.0 })
        .build()
        .unwrap();
    assert_eq!(alone.view().rules(), ["Temperatures are in °C."]);
}
