//! Hardening property 3 (input): arbitrary JSON as tool arguments (any root, `_select` of any
//! shape, deep nesting, huge strings, numbers out of every range) always yields the typed action
//! or an error envelope: never a panic, never `INTERNAL_ERROR`, never a protocol error.
//!
//! Which outcome is checked exactly (wire format §13.8): the routing error follows from the
//! discriminator alone (wire format §13.3, its texts decoded by the reference parser); a valid action
//! reaches the handler or gets a `<validation_error>` for that action; and a validation error
//! never comes from serde's own refusal (`(root)`: `Invalid value.`), which would mean the
//! argument walker let through a value the typed input cannot hold.
//!
//! Tools: the billing tool with its real handlers (over the fixture), `orders` (nested objects,
//! arrays of arrays, a tagged union, maps, integer types and declared ranges, floats, optional
//! values, a free JSON value, `_select`) and the flat tool `settings`.

#![allow(dead_code, reason = "the input types' fields are read by serde only")]

use crate::harden_support;

use std::collections::BTreeMap;
use std::rc::Rc;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use fusion_examples::{BillingApp, Store};
use fusion_runtime::tool::ToolDefinition;
use fusion_runtime::{Call, ToolSet};
use fusion_runtime::{Json, Presenter, Tool, ToolResponse};
use fusion_tests::wire::Block;
use harden_support::{config, nasty, parse};
use proptest::prelude::*;
use serde::Deserialize;
use serde_json::{Map, Number, Value, json};

/// The model `orders` presents (its wire names are the `_select` names).
#[derive(Presenter, Debug, Clone)]
struct Order {
    id: u64,
    total_cents: u64,
    note: String,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
struct Address {
    city: String,
    zip: u32,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
struct Customer {
    name: String,
    email: Option<String>,
    address: Address,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
struct Line {
    sku: String,
    #[schemars(range(min = 1, max = 100))]
    qty: u16,
    price_cents: u64,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
enum Payment {
    Card { number: String, cvc: u16 },
    Transfer { iban: String },
    Cash,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
enum Kind {
    Retail,
    Wholesale,
}

/// A discriminated tool whose inputs cover the shapes serde types produce.
#[derive(Debug, Deserialize, schemars::JsonSchema, Tool)]
#[serde(tag = "action", rename_all = "snake_case", deny_unknown_fields)]
#[fusion(name = "orders", select)]
enum Orders {
    #[fusion(returns = Order)]
    Create {
        customer: Customer,
        lines: Vec<Line>,
        payment: Payment,
        priority: Option<u8>,
        tags: Option<Vec<String>>,
        meta: Option<BTreeMap<String, i32>>,
        discount: Option<f64>,
    },
    #[fusion(returns = Order)]
    Get { id: u64 },
    Search {
        query: Option<String>,
        #[schemars(range(max = 50))]
        limit: Option<u16>,
        offset: Option<i32>,
        kinds: Option<Vec<Kind>>,
    },
    Adjust {
        delta: i8,
        ratio: f32,
        grid: Vec<Vec<u32>>,
        big: i64,
        extra: Option<Value>,
    },
}

/// A flat tool.
#[derive(Debug, Deserialize, schemars::JsonSchema, Tool)]
#[fusion(name = "settings")]
struct Settings {
    name: String,
    level: u8,
    ratio: Option<f64>,
    payment: Option<Payment>,
    limits: Option<Vec<i64>>,
    big: Option<i128>,
    huge: Option<u128>,
}

/// Member names and texts the generators draw from, so that valid calls are frequent.
const KEYS: &[&str] = &[
    "action",
    "id",
    "status",
    "customer_id",
    "reason",
    "_select",
    "customer",
    "name",
    "email",
    "address",
    "city",
    "zip",
    "lines",
    "sku",
    "qty",
    "price_cents",
    "payment",
    "kind",
    "number",
    "cvc",
    "iban",
    "priority",
    "tags",
    "meta",
    "discount",
    "query",
    "limit",
    "offset",
    "kinds",
    "delta",
    "ratio",
    "grid",
    "big",
    "extra",
    "level",
    "limits",
    "huge",
];

const TEXTS: &[&str] = &[
    "get_invoice",
    "list_invoices",
    "export_invoices",
    "remind",
    "void_invoice",
    "create",
    "get",
    "search",
    "adjust",
    "INV-0001",
    "INV-0002",
    "INV-0040",
    "CUS-007",
    "paid",
    "pending",
    "overdue",
    "card",
    "transfer",
    "cash",
    "retail",
    "wholesale",
    "id",
    "status",
    "amount_cents",
    "lines",
    "total_cents",
    "note",
    "",
];

fn number() -> impl Strategy<Value = Value> {
    let float = |x: f64| Number::from_f64(x).map_or(Value::Null, Value::Number);
    prop_oneof![
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        (-3_i64..300).prop_map(Value::from),
        any::<f64>()
            .prop_filter("JSON numbers are finite", |x| x.is_finite())
            .prop_map(float),
        prop::sample::select(vec![
            5.0,
            -0.0,
            0.5,
            255.0,
            256.0,
            1e300,
            -1e300,
            1e-300,
            4_294_967_296.0,
            9_007_199_254_740_993.0,
            1.8e19,
            -9.3e18,
            1.7e38,
            3.4e38,
            1e39,
        ])
        .prop_map(float),
        prop::sample::select(vec![
            json!(u64::MAX),
            json!(i64::MIN),
            json!(i64::MAX),
            json!(u32::MAX),
            json!(i128::from(u32::MAX) + 1),
        ]),
    ]
}

/// A huge text (up to 300,000 characters, some of them multi-byte and tag starts).
fn huge() -> impl Strategy<Value = String> {
    (
        1_000_usize..100_000,
        prop::sample::select(vec!["x", "é<", "</field>\n"]),
    )
        .prop_map(|(n, unit)| unit.repeat(n))
}

fn text() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => prop::sample::select(TEXTS.to_vec()).prop_map(str::to_owned),
        4 => nasty(),
        1 => huge(),
    ]
}

fn key() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => prop::sample::select(KEYS.to_vec()).prop_map(str::to_owned),
        1 => nasty(),
    ]
}

fn leaf() -> impl Strategy<Value = Value> {
    prop_oneof![
        1 => Just(Value::Null),
        1 => any::<bool>().prop_map(Value::Bool),
        3 => number(),
        3 => text().prop_map(Value::String),
    ]
}

/// Values nested up to `levels` deep (arrays and objects), past the parser limit of `serde_json` (128).
fn deep() -> impl Strategy<Value = Value> {
    (
        1_usize..400,
        leaf(),
        prop::collection::vec(any::<bool>(), 8),
    )
        .prop_map(|(levels, leaf, shape)| {
            let mut value = leaf;
            for level in 0..levels {
                value = if shape[level % shape.len()] {
                    Value::Array(vec![value])
                } else {
                    let mut map = Map::new();
                    map.insert(KEYS[level % KEYS.len()].to_owned(), value);
                    Value::Object(map)
                };
            }
            value
        })
}

/// Arbitrary JSON: leaves, nested arrays and objects with plausible member names, deep chains.
fn any_json() -> impl Strategy<Value = Value> {
    let tree = leaf().prop_recursive(4, 40, 5, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..5).prop_map(Value::Array),
            prop::collection::vec((key(), inner), 0..5)
                .prop_map(|members| Value::Object(members.into_iter().collect())),
        ]
    });
    prop_oneof![8 => tree, 1 => deep()]
}

/// `_select` of any shape: arrays of names, unknown names and non-texts, or anything else.
fn select() -> impl Strategy<Value = Value> {
    let element = prop_oneof![
        3 => prop::sample::select(TEXTS.to_vec()).prop_map(|t| Value::String(t.to_owned())),
        1 => any_json(),
    ];
    prop_oneof![
        4 => prop::collection::vec(element, 0..6).prop_map(Value::Array),
        1 => any_json(),
    ]
}

/// Call arguments: absent, any JSON root, or an object with an `action`, plausible members
/// holding arbitrary JSON, and `_select`.
fn arguments() -> impl Strategy<Value = Option<Value>> {
    let action = prop_oneof![
        6 => prop::sample::select(TEXTS[..9].to_vec()).prop_map(|t| Some(Value::String(t.to_owned()))),
        1 => Just(None),
        2 => any_json().prop_map(Some),
        1 => nasty().prop_map(|t| Some(Value::String(t))),
    ];
    let object = (
        action,
        prop::collection::vec((key(), any_json()), 0..6),
        prop::option::weighted(0.3, select()),
    )
        .prop_map(|(action, members, select)| {
            let mut map = Map::new();
            if let Some(action) = action {
                map.insert("action".to_owned(), action);
            }
            for (key, value) in members {
                map.insert(key, value);
            }
            if let Some(select) = select {
                map.insert("_select".to_owned(), select);
            }
            Some(Value::Object(map))
        });
    prop_oneof![
        1 => Just(None),
        1 => any_json().prop_map(Some),
        12 => object,
    ]
}

/// A text that is usually plain, sometimes hostile or huge.
fn some_text() -> impl Strategy<Value = Value> {
    prop_oneof![
        6 => "[A-Za-z0-9 ._-]{0,12}".prop_map(Value::String),
        3 => nasty().prop_map(Value::String),
        1 => huge().prop_map(Value::String),
    ]
}

fn opt(value: impl Strategy<Value = Value>) -> impl Strategy<Value = Option<Value>> {
    prop_oneof![
        2 => value.prop_map(Some),
        1 => Just(None),
        1 => Just(Some(Value::Null)),
    ]
}

/// An object of the members that are present.
fn object(members: Vec<(&str, Option<Value>)>) -> Value {
    Value::Object(
        members
            .into_iter()
            .filter_map(|(name, value)| value.map(|v| (name.to_owned(), v)))
            .collect(),
    )
}

fn float_in(min: f64, max: f64) -> impl Strategy<Value = Value> {
    (min..max).prop_map(|x| Number::from_f64(x).map_or(Value::Null, Value::Number))
}

/// A valid `_select` of the billing tool, or of `orders`.
fn valid_select(names: &'static [&'static str]) -> impl Strategy<Value = Option<Value>> {
    prop::option::weighted(
        0.4,
        prop::collection::vec(prop::sample::select(names.to_vec()), 0..4)
            .prop_map(|names| json!(names)),
    )
}

const BILLING_NAMES: &[&str] = &[
    "amount_cents",
    "currency",
    "customer",
    "due_at",
    "id",
    "issued_at",
    "lines",
    "status",
];
const ORDER_NAMES: &[&str] = &["id", "note", "total_cents"];

fn invoice_id() -> impl Strategy<Value = Value> {
    prop_oneof![
        3 => (1_u32..=125).prop_map(|n| json!(format!("INV-{n:04}"))),
        1 => some_text(),
    ]
}

fn status() -> impl Strategy<Value = Value> {
    prop::sample::select(vec!["paid", "pending", "overdue"]).prop_map(|s| json!(s))
}

/// Valid arguments of every billing action (and of `invoice_stats`, keyed `""`).
fn billing_valid() -> impl Strategy<Value = Value> {
    let select = || valid_select(BILLING_NAMES);
    prop_oneof![
        (invoice_id(), select()).prop_map(|(id, s)| object(vec![
            ("action", Some(json!("get_invoice"))),
            ("id", Some(id)),
            ("_select", s),
        ])),
        (opt(status()), opt(some_text()), select()).prop_map(|(status, customer, s)| object(vec![
            ("action", Some(json!("list_invoices"))),
            ("status", status),
            ("customer_id", customer),
            ("_select", s),
        ])),
        (opt(status()), select()).prop_map(|(status, s)| object(vec![
            ("action", Some(json!("export_invoices"))),
            ("status", status),
            ("_select", s),
        ])),
        (invoice_id(), select()).prop_map(|(id, s)| object(vec![
            ("action", Some(json!("remind"))),
            ("id", Some(id)),
            ("_select", s),
        ])),
        (invoice_id(), some_text(), select()).prop_map(|(id, reason, s)| object(vec![
            ("action", Some(json!("void_invoice"))),
            ("id", Some(id)),
            ("reason", Some(reason)),
            ("_select", s),
        ])),
    ]
}

fn stats_valid() -> impl Strategy<Value = Value> {
    opt(status()).prop_map(|status| object(vec![("status", status)]))
}

fn payment() -> impl Strategy<Value = Value> {
    prop_oneof![
        (some_text(), any::<u16>())
            .prop_map(|(number, cvc)| json!({"kind": "card", "number": number, "cvc": cvc})),
        some_text().prop_map(|iban| json!({"kind": "transfer", "iban": iban})),
        Just(json!({"kind": "cash"})),
    ]
}

/// Valid arguments of every `orders` action.
fn orders_valid() -> impl Strategy<Value = Value> {
    let customer = (some_text(), opt(some_text()), some_text(), any::<u32>()).prop_map(
        |(name, email, city, zip)| {
            object(vec![
                ("name", Some(name)),
                ("email", email),
                ("address", Some(json!({"city": city, "zip": zip}))),
            ])
        },
    );
    let line = (some_text(), 1_u16..=100, any::<u64>())
        .prop_map(|(sku, qty, price)| json!({"sku": sku, "qty": qty, "price_cents": price}));
    let create = (
        (customer, prop::collection::vec(line, 0..3), payment()),
        (
            opt(any::<u8>().prop_map(|p| json!(p))),
            opt(prop::collection::vec(some_text(), 0..3).prop_map(Value::Array)),
            opt(
                prop::collection::btree_map("[a-z]{0,3}", any::<i32>(), 0..3)
                    .prop_map(|m| json!(m)),
            ),
            opt(float_in(-1e6, 1e6)),
            valid_select(ORDER_NAMES),
        ),
    )
        .prop_map(
            |((customer, lines, payment), (priority, tags, meta, discount, s))| {
                object(vec![
                    ("action", Some(json!("create"))),
                    ("customer", Some(customer)),
                    ("lines", Some(Value::Array(lines))),
                    ("payment", Some(payment)),
                    ("priority", priority),
                    ("tags", tags),
                    ("meta", meta),
                    ("discount", discount),
                    ("_select", s),
                ])
            },
        );
    let get = (any::<u64>(), valid_select(ORDER_NAMES)).prop_map(|(id, s)| {
        object(vec![
            ("action", Some(json!("get"))),
            ("id", Some(json!(id))),
            ("_select", s),
        ])
    });
    let search = (
        opt(some_text()),
        opt((0_u16..=50).prop_map(|l| json!(l))),
        opt(any::<i32>().prop_map(|o| json!(o))),
        opt(
            prop::collection::vec(prop::sample::select(vec!["retail", "wholesale"]), 0..3)
                .prop_map(|k| json!(k)),
        ),
    )
        .prop_map(|(query, limit, offset, kinds)| {
            object(vec![
                ("action", Some(json!("search"))),
                ("query", query),
                ("limit", limit),
                ("offset", offset),
                ("kinds", kinds),
            ])
        });
    let adjust = (
        any::<i8>(),
        float_in(-3.0e38, 3.0e38),
        prop::collection::vec(prop::collection::vec(any::<u32>(), 0..3), 0..3),
        any::<i64>().prop_map(|b| json!(b)),
        opt(any_json()),
    )
        .prop_map(|(delta, ratio, grid, big, extra)| {
            object(vec![
                ("action", Some(json!("adjust"))),
                ("delta", Some(json!(delta))),
                ("ratio", Some(ratio)),
                ("grid", Some(json!(grid))),
                ("big", Some(big)),
                ("extra", extra),
            ])
        });
    prop_oneof![create, get, search, adjust]
}

fn settings_valid() -> impl Strategy<Value = Value> {
    (
        some_text(),
        any::<u8>(),
        opt(float_in(-1e9, 1e9)),
        opt(payment()),
        opt(prop::collection::vec(any::<i64>(), 0..3).prop_map(|l| json!(l))),
        opt(prop_oneof![
            any::<i64>().prop_map(|b| json!(b)),
            any::<u64>().prop_map(|b| json!(b))
        ]),
        opt(any::<u64>().prop_map(|h| json!(h))),
    )
        .prop_map(|(name, level, ratio, payment, limits, big, huge)| {
            object(vec![
                ("name", Some(name)),
                ("level", Some(json!(level))),
                ("ratio", ratio),
                ("payment", payment),
                ("limits", limits),
                ("big", big),
                ("huge", huge),
            ])
        })
}

/// One change to a valid argument object: at the `at`-th node (depth first), replace the value,
/// remove the member, or add a member.
#[derive(Debug, Clone)]
enum Mutation {
    Replace(usize, Value),
    Remove(usize),
    Insert(usize, String, Value),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        3 => (any::<usize>(), any_json()).prop_map(|(at, v)| Mutation::Replace(at, v)),
        1 => any::<usize>().prop_map(Mutation::Remove),
        1 => (any::<usize>(), key(), any_json()).prop_map(|(at, k, v)| Mutation::Insert(at, k, v)),
    ]
}

/// The number of nodes of a value (itself included).
fn count(value: &Value) -> usize {
    1 + match value {
        Value::Array(items) => items.iter().map(count).sum(),
        Value::Object(map) => map.values().map(count).sum(),
        _ => 0,
    }
}

/// Applies `mutation` at the `at`-th node of `value` (depth first, the root being node 0).
fn apply(value: &mut Value, mutation: &Mutation) {
    let at = match mutation {
        Mutation::Replace(at, _) | Mutation::Remove(at) | Mutation::Insert(at, ..) => *at,
    };
    let mut left = Some(at % count(value));
    if visit(value, &mut left, mutation) {
        // Removing the root leaves no arguments object: an empty one.
        *value = json!({});
    }
}

/// Counts down to the target node and changes it; returns true when the parent must remove it.
/// `left` becomes `None` once the mutation is done.
fn visit(value: &mut Value, left: &mut Option<usize>, mutation: &Mutation) -> bool {
    match left {
        None => return false,
        Some(0) => {
            *left = None;
            match mutation {
                Mutation::Replace(_, replacement) => *value = replacement.clone(),
                Mutation::Remove(_) => return true,
                Mutation::Insert(_, key, member) => {
                    if let Value::Object(map) = value {
                        map.insert(key.clone(), member.clone());
                    } else {
                        *value = member.clone();
                    }
                }
            }
            return false;
        }
        Some(n) => *n -= 1,
    }
    match value {
        Value::Array(items) => {
            let remove = items
                .iter_mut()
                .position(|item| visit(item, left, mutation));
            if let Some(i) = remove {
                items.remove(i);
            }
        }
        Value::Object(map) => {
            let remove = map
                .iter_mut()
                .find_map(|(key, member)| visit(member, left, mutation).then(|| key.clone()));
            if let Some(key) = remove {
                map.shift_remove(&key);
            }
        }
        _ => {}
    }
    false
}

/// Valid arguments with zero to three mutations: unmutated ones must reach the handler.
fn near(valid: impl Strategy<Value = Value>) -> impl Strategy<Value = (Value, Vec<Mutation>)> {
    (
        valid,
        prop_oneof![1 => Just(Vec::new()), 2 => prop::collection::vec(mutation(), 1..4)],
    )
}

/// What wire format §13.3 says routing answers for these arguments: the action key, or the routing
/// error's code and the texts of its envelope.
#[allow(
    clippy::result_large_err,
    reason = "the error is the expected block, compared once"
)]
fn route(definition: &ToolDefinition, arguments: Option<&Value>) -> Result<String, Block> {
    let Some(discriminator) = definition.discriminator() else {
        return Ok(String::new());
    };
    let keys: Vec<String> = definition.action_keys().map(str::to_owned).collect();
    let error = |code: &str, message: String, recovery: String| Block::ToolError {
        attrs: vec![
            ("code".to_owned(), code.to_owned()),
            ("severity".to_owned(), "error".to_owned()),
        ],
        message,
        recovery: Some(recovery),
        actions: keys.clone(),
        details: vec![],
        retry_after: None,
    };
    let missing = || {
        error(
            "MISSING_DISCRIMINATOR",
            format!("The required field \"{discriminator}\" is missing."),
            format!("Add the \"{discriminator}\" field as a string and call the tool again."),
        )
    };
    let sent = match arguments {
        None => None,
        Some(Value::Object(map)) => map.get(discriminator),
        Some(_) => return Err(missing()),
    };
    match sent {
        None | Some(Value::Null) => Err(missing()),
        Some(Value::String(key)) if key.is_empty() => Err(missing()),
        Some(Value::String(key)) if keys.contains(key) => Ok(key.clone()),
        Some(Value::String(key)) => Err(error(
            "UNKNOWN_ACTION",
            format!(
                "The {discriminator} {} does not exist.",
                harden_support::echoed_name(key)
            ),
            "Choose a valid action from available_actions and call the tool again.".to_owned(),
        )),
        Some(other) => {
            let json_type = match other {
                Value::Number(_) => "number",
                Value::Bool(_) => "boolean",
                Value::Array(_) => "array",
                _ => "object",
            };
            Err(error(
                "INVALID_DISCRIMINATOR",
                format!(
                    "Discriminator field \"{discriminator}\" must be a string, got {json_type}."
                ),
                format!("Set \"{discriminator}\" to one of the available actions as a string."),
            ))
        }
    }
}

/// Whether a handler's own response is allowed for the tool.
type HandlerCheck = fn(&ToolResponse, &[Block]) -> Result<(), TestCaseError>;

/// Checks one call against wire format §13.8.
fn check_call(
    tools: &ToolSet,
    name: &str,
    arguments: Option<Value>,
    handled: &AtomicUsize,
    handler_check: HandlerCheck,
    must_reach_handler: bool,
) -> Result<(), TestCaseError> {
    let definition = tools.get(name).expect("the tool exists");
    let routed = route(definition, arguments.as_ref());
    let before = handled.load(Ordering::SeqCst);
    let response = tools.call(name, arguments);
    let reached_handler = handled.load(Ordering::SeqCst) > before;
    let text = response.text();
    let blocks = parse(&text)?;
    match routed {
        Err(expected) => {
            prop_assert!(!reached_handler);
            prop_assert_eq!(response.is_error(), Some(true));
            prop_assert_eq!(blocks, vec![expected]);
        }
        Ok(action) => {
            prop_assert!(
                reached_handler || !must_reach_handler,
                "valid arguments were refused: {text}"
            );
            let reference = if action.is_empty() {
                name.to_owned()
            } else {
                format!("{name}/{action}")
            };
            if let [
                Block::ValidationError {
                    action: got,
                    fields,
                    ..
                },
            ] = blocks.as_slice()
            {
                prop_assert!(!reached_handler);
                prop_assert_eq!(response.is_error(), Some(true));
                prop_assert_eq!(got, &reference);
                prop_assert!(!fields.is_empty());
                for (path, detail) in fields {
                    prop_assert!(
                        !(path == "(root)" && detail.starts_with("Invalid value.")),
                        "serde refused what the walker accepted: {detail}"
                    );
                }
            } else {
                prop_assert!(reached_handler, "no handler call and no envelope: {text}");
                handler_check(&response, &blocks)?;
            }
        }
    }
    Ok(())
}

fn orders_tools(handled: Arc<AtomicUsize>) -> ToolSet {
    let flat = handled.clone();
    ToolSet::new()
        .tool(move |action: Orders, call: &Call| {
            handled.fetch_add(1, Ordering::SeqCst);
            match action {
                Orders::Get { id } => call
                    .present(&Order {
                        id,
                        total_cents: 1,
                        note: "n".into(),
                    })
                    .build()
                    .map_err(|e| e.to_string()),
                other => Ok(fusion_runtime::ResponseBuilder::text(format!("{other:?}")).build()),
            }
        })
        .unwrap()
        .tool(move |settings: Settings, _: &Call| {
            flat.fetch_add(1, Ordering::SeqCst);
            Json(format!("{settings:?}"))
        })
        .unwrap()
        .on_internal_error(|failure| panic!("INTERNAL_ERROR: {failure}"))
}

/// The handlers of `orders` and `settings` answer with data, never an error.
fn data_only(response: &ToolResponse, blocks: &[Block]) -> Result<(), TestCaseError> {
    prop_assert_eq!(response.is_error(), None);
    prop_assert!(matches!(blocks.first(), Some(Block::Data(_))));
    Ok(())
}

/// The billing handlers answer with data, `NOT_FOUND` or the `ALREADY_PAID` warning, never
/// `INTERNAL_ERROR`.
fn billing_outcome(response: &ToolResponse, blocks: &[Block]) -> Result<(), TestCaseError> {
    if let [Block::ToolError { attrs, .. }] = blocks {
        let code = attrs[0].1.as_str();
        prop_assert!(
            matches!(code, "NOT_FOUND" | "ALREADY_PAID"),
            "unexpected error {code}"
        );
        prop_assert_eq!(response.is_error(), Some(code != "ALREADY_PAID"));
    } else {
        prop_assert_eq!(response.is_error(), None);
        prop_assert!(matches!(blocks.first(), Some(Block::Data(_))));
    }
    Ok(())
}

/// The billing tools with a counter of handler calls.
fn billing_tools(handled: Arc<AtomicUsize>) -> ToolSet {
    let app = Arc::new(BillingApp::new(Store::load().unwrap()));
    let stats = app.clone();
    let counted = handled.clone();
    ToolSet::new()
        .tool(move |action: fusion_examples::Billing, call: &Call| {
            handled.fetch_add(1, Ordering::SeqCst);
            app.billing(action, call)
        })
        .unwrap()
        .tool(
            move |input: fusion_examples::InvoiceStatsInput, call: &Call| {
                counted.fetch_add(1, Ordering::SeqCst);
                stats.invoice_stats(input, call)
            },
        )
        .unwrap()
        .on_internal_error(|failure| panic!("INTERNAL_ERROR: {failure}"))
}

type Shared = (Rc<ToolSet>, Arc<AtomicUsize>);

thread_local! {
    // One tool set per test thread: the counter of handler calls must only see this thread's
    // calls (the test harness runs the properties in parallel). The tools keep no state a case
    // could depend on: voiding an invoice only turns later calls for it into `NOT_FOUND`.
    static BILLING: Shared = {
        let handled = Arc::new(AtomicUsize::new(0));
        (Rc::new(billing_tools(handled.clone())), handled)
    };
    static ORDERS: Shared = {
        let handled = Arc::new(AtomicUsize::new(0));
        (Rc::new(orders_tools(handled.clone())), handled)
    };
}

fn billing() -> Shared {
    BILLING.with(Clone::clone)
}

fn orders() -> Shared {
    ORDERS.with(Clone::clone)
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn billing_answers_any_arguments(arguments in arguments()) {
        let (tools, handled) = billing();
        check_call(&tools, "billing", arguments, &handled, billing_outcome, false)?;
    }

    #[test]
    fn invoice_stats_answers_any_arguments(arguments in arguments()) {
        let (tools, handled) = billing();
        check_call(&tools, "invoice_stats", arguments, &handled, billing_outcome, false)?;
    }

    #[test]
    fn orders_answers_any_arguments(arguments in arguments()) {
        let (tools, handled) = orders();
        check_call(&tools, "orders", arguments, &handled, data_only, false)?;
    }

    #[test]
    fn settings_answers_any_arguments(arguments in arguments()) {
        let (tools, handled) = orders();
        check_call(&tools, "settings", arguments, &handled, data_only, false)?;
    }

    /// Members of the right names with values of arbitrary shape, for every action, so the
    /// walker's checks (not routing) get most of the cases.
    #[test]
    fn orders_answers_any_member_values(
        action in prop::sample::select(vec!["create", "get", "search", "adjust"]),
        members in prop::collection::vec((prop::sample::select(KEYS.to_vec()), any_json()), 0..8),
    ) {
        let (tools, handled) = orders();
        let mut map = Map::new();
        map.insert("action".to_owned(), json!(action));
        for (key, value) in members {
            map.insert(key.to_owned(), value);
        }
        check_call(&tools, "orders", Some(Value::Object(map)), &handled, data_only, false)?;
    }

    #[test]
    fn billing_answers_near_valid_arguments((valid, mutations) in near(billing_valid())) {
        let (tools, handled) = billing();
        let mut arguments = valid;
        for mutation in &mutations {
            apply(&mut arguments, mutation);
        }
        check_call(&tools, "billing", Some(arguments), &handled, billing_outcome, mutations.is_empty())?;
    }

    #[test]
    fn invoice_stats_answers_near_valid_arguments((valid, mutations) in near(stats_valid())) {
        let (tools, handled) = billing();
        let mut arguments = valid;
        for mutation in &mutations {
            apply(&mut arguments, mutation);
        }
        check_call(&tools, "invoice_stats", Some(arguments), &handled, billing_outcome, mutations.is_empty())?;
    }

    #[test]
    fn orders_answers_near_valid_arguments((valid, mutations) in near(orders_valid())) {
        let (tools, handled) = orders();
        let mut arguments = valid;
        for mutation in &mutations {
            apply(&mut arguments, mutation);
        }
        check_call(&tools, "orders", Some(arguments), &handled, data_only, mutations.is_empty())?;
    }

    #[test]
    fn settings_answers_near_valid_arguments((valid, mutations) in near(settings_valid())) {
        let (tools, handled) = orders();
        let mut arguments = valid;
        for mutation in &mutations {
            apply(&mut arguments, mutation);
        }
        check_call(&tools, "settings", Some(arguments), &handled, data_only, mutations.is_empty())?;
    }
}

/// How often each outcome comes up, so a generator that drifts (say, one that never builds a
/// valid call any more) fails here instead of leaving the handler path untested.
#[test]
fn the_generators_reach_every_outcome() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;

    fn outcomes(tools: &ToolSet, name: &str, calls: Vec<Option<Value>>) -> [usize; 3] {
        let mut counts = [0; 3];
        for arguments in calls {
            let response = tools.call(name, arguments);
            let text = response.text();
            let index = if text.starts_with("<tool_error code=\"MISSING_DISCRIMINATOR\"")
                || text.starts_with("<tool_error code=\"INVALID_DISCRIMINATOR\"")
                || text.starts_with("<tool_error code=\"UNKNOWN_ACTION\"")
            {
                0
            } else if text.starts_with("<validation_error") {
                1
            } else {
                2
            };
            counts[index] += 1;
        }
        counts
    }

    fn sample<S: Strategy>(strategy: S, n: usize) -> Vec<S::Value> {
        let mut runner = TestRunner::deterministic();
        (0..n)
            .map(|_| strategy.new_tree(&mut runner).unwrap().current())
            .collect()
    }

    let mutated = |(mut value, mutations): (Value, Vec<Mutation>)| {
        for mutation in &mutations {
            apply(&mut value, mutation);
        }
        Some(value)
    };
    let (billing, _) = billing();
    let (orders, _) = orders();
    let n = 300;
    let any = outcomes(&billing, "billing", sample(arguments(), n));
    assert!(
        any[0] > n / 10 && any[1] > n / 10,
        "billing, any arguments: {any:?}"
    );
    for (tools, name, calls) in [
        (&billing, "billing", sample(near(billing_valid()), n)),
        (&orders, "orders", sample(near(orders_valid()), n)),
        (&orders, "settings", sample(near(settings_valid()), n)),
    ] {
        let counts = outcomes(tools, name, calls.into_iter().map(mutated).collect());
        // Routing errors only come from mutations of `action`; validation errors and handled
        // calls must both be frequent.
        assert!(
            counts[1] > n / 5 && counts[2] > n / 5,
            "{name}, near-valid arguments: {counts:?}"
        );
    }
}

/// SENT (wire format §13.5) of the values `echoed_value` generates, written from the wire format alone.
fn sent(value: &Value) -> String {
    match value {
        Value::String(text) => harden_support::sent_text(text),
        Value::Array(items) if items.len() == 1 => "an array of 1 item".to_owned(),
        Value::Array(items) => format!("an array of {} items", items.len()),
        Value::Object(_) => "an object".to_owned(),
        other => other.to_string(),
    }
}

/// Values whose SENT is exact text: hostile or huge strings, integers, booleans, lists, objects.
fn echoed_value() -> impl Strategy<Value = Value> {
    prop_oneof![
        4 => text().prop_map(Value::String),
        1 => any::<i64>().prop_map(Value::from),
        1 => any::<bool>().prop_map(Value::Bool),
        1 => prop::collection::vec(Just(Value::Null), 0..3).prop_map(Value::Array),
        1 => Just(json!({"a": 1})),
    ]
}

proptest! {
    #![proptest_config(config())]

    /// Forging through the tool layer: values, `_select` elements and member names sent by the
    /// client come back in the `<validation_error>` exactly, in wire format §13.6 order, and the
    /// reference parser recovers each `<field>` with its decoded path and detail.
    #[test]
    fn validation_errors_echo_arbitrary_values_exactly(
        status in prop_oneof![1 => status(), 3 => echoed_value()],
        customer in prop::option::of(echoed_value()),
        select in prop::option::of(prop::collection::vec(
            prop_oneof![2 => echoed_value(), 1 => prop::sample::select(BILLING_NAMES.to_vec()).prop_map(|n| json!(n))],
            0..4,
        )),
        unknown in prop::collection::vec((nasty(), echoed_value()), 0..3),
    ) {
        const VALID_FIELDS: &str = "Valid fields: 'action', 'status', 'customer_id', '_select'.";
        let names = "'amount_cents', 'currency', 'customer', 'due_at', 'id', 'issued_at', 'lines', 'status'";
        let mut map = Map::new();
        let mut unknown_fields = Vec::new();
        for (key, value) in unknown {
            if ["action", "status", "customer_id", "_select"].contains(&key.as_str()) || map.contains_key(&key) {
                continue;
            }
            unknown_fields.push((key.clone(), format!("Unknown field. {VALID_FIELDS}")));
            map.insert(key, value);
        }
        map.insert("action".to_owned(), json!("list_invoices"));
        let mut fields = Vec::new();
        if !["paid", "pending", "overdue"].iter().any(|s| status == json!(s)) {
            let detail = if status.is_string() {
                format!("Invalid value. You sent: {}. Valid options: 'paid', 'pending', 'overdue'.", sent(&status))
            } else {
                format!("Wrong type. You sent: {}. Valid options: 'paid', 'pending', 'overdue'.", sent(&status))
            };
            fields.push(("status".to_owned(), detail));
        }
        map.insert("status".to_owned(), status);
        if let Some(customer) = customer {
            if !customer.is_string() {
                fields.push((
                    "customer_id".to_owned(),
                    format!("Wrong type. You sent: {}. Expected type: string.", sent(&customer)),
                ));
            }
            map.insert("customer_id".to_owned(), customer);
        }
        if let Some(elements) = select {
            for (index, element) in elements.iter().enumerate() {
                let path = format!("_select.{index}");
                match element {
                    Value::String(name) if BILLING_NAMES.contains(&name.as_str()) => {}
                    Value::String(_) => fields.push((
                        path,
                        format!("Unknown field name. You sent: {}. Valid names: {names}.", sent(element)),
                    )),
                    other => fields.push((
                        path,
                        format!("Wrong type. You sent: {}. Expected type: string.", sent(other)),
                    )),
                }
            }
            map.insert("_select".to_owned(), Value::Array(elements));
        }
        fields.extend(unknown_fields);

        let (tools, _) = billing();
        let response = tools.call("billing", Some(Value::Object(map)));
        let text = response.text();
        let blocks = parse(&text)?;
        if fields.is_empty() {
            prop_assert_eq!(response.is_error(), None);
            prop_assert!(matches!(blocks.first(), Some(Block::Data(_))));
        } else {
            prop_assert_eq!(response.is_error(), Some(true));
            let want = Block::ValidationError {
                action: "billing/list_invoices".to_owned(),
                fields,
                recovery: "Fix the fields above and call the tool again. Do not explain the error.".to_owned(),
            };
            prop_assert_eq!(blocks, vec![want]);
        }
    }
}
