//! `#[rule]` and `#[collection_rule]`: static texts, templates, conditions, functions
//! (wire format §6.4), and the order and de-duplication of the rule list.

use crate::support;

use std::borrow::Cow;

use fusion_runtime::{Presenter, ResponseBuilder};
use support::{assert_blocks, listing};

/// wire format V26 model.
#[derive(Presenter)]
#[rule("Quantities are in units.")]
#[rule("SKU {sku} is out of stock.", when = Self::out_of_stock)]
#[suggest(tool = "stock.reorder", reason = "Reorder out-of-stock items", when = Self::out_of_stock)]
struct Stock {
    sku: &'static str,
    qty: u32,
}

impl Stock {
    fn out_of_stock(&self) -> bool {
        self.qty == 0
    }
}

#[test]
fn v26_dynamic_item_rules_for_every_item() {
    let items = [
        Stock { sku: "A", qty: 0 },
        Stock { sku: "B", qty: 5 },
        Stock { sku: "C", qty: 0 },
        Stock { sku: "A", qty: 0 },
    ];
    let response = Stock::present_all(&items).build().unwrap();
    assert_blocks(
        &response,
        &[
            "[\n  {\n    \"sku\": \"A\",\n    \"qty\": 0\n  },\n  {\n    \"sku\": \"B\",\n    \"qty\": 5\n  },\n  {\n    \"sku\": \"C\",\n    \"qty\": 0\n  },\n  {\n    \"sku\": \"A\",\n    \"qty\": 0\n  }\n]",
            "<domain_rules>\n- Quantities are in units.\n- SKU A is out of stock. (likewise for C)\n</domain_rules>",
            "<action_suggestions>\n- stock.reorder: Reorder out-of-stock items\n</action_suggestions>",
        ],
    );
}

/// wire format V27 presenter A: only a dynamic rule.
#[derive(Presenter)]
#[rule(call = Self::dynamic)]
struct OnlyDynamic {
    a: i64,
}

impl OnlyDynamic {
    fn dynamic(_: &Self) -> &'static str {
        "Should not appear"
    }
}

/// wire format V27 presenter B: only a static rule.
#[derive(Presenter)]
#[rule("static")]
struct OnlyStatic {
    a: i64,
}

#[test]
fn v27_empty_collection_static_rules_only() {
    let response = OnlyDynamic::present_all(&[]).build().unwrap();
    assert_blocks(&response, &["[]"]);
    let response = OnlyStatic::present_all(&[]).build().unwrap();
    assert_blocks(
        &response,
        &["[]", "<domain_rules>\n- static\n</domain_rules>"],
    );
    // The same models with a value: the dynamic rule does run.
    let one = OnlyDynamic { a: 1 }.present().build().unwrap();
    assert_eq!(
        one.blocks()[1],
        "<domain_rules>\n- Should not appear\n</domain_rules>"
    );
    assert_eq!(OnlyStatic { a: 1 }.a, 1);
}

/// wire format V28 model: item rule, collection rule with `{n}`, both suggestion kinds.
#[derive(Presenter)]
#[rule("Item rule")]
#[collection_rule("Total: {n}")]
#[suggest(tool = "one.get", reason = "per item")]
#[collection_suggest(tool = "bulk.export", reason = "{n} rows")]
#[collection_suggest(call = Self::absent)]
struct Counted {
    a: i64,
}

impl Counted {
    fn absent(_: &[Self]) -> Option<fusion_runtime::Suggestion> {
        None
    }
}

#[test]
fn v28_collection_rules_and_both_suggestion_kinds() {
    let response = Counted::present_all(&[Counted { a: 1 }, Counted { a: 2 }])
        .build()
        .unwrap();
    assert_blocks(
        &response,
        &[
            "[\n  {\n    \"a\": 1\n  },\n  {\n    \"a\": 2\n  }\n]",
            "<domain_rules>\n- Item rule\n- Total: 2\n</domain_rules>",
            "<action_suggestions>\n- one.get: per item\n- bulk.export: 2 rows\n</action_suggestions>",
        ],
    );
}

/// Every return type a rule function may have, and a template with escaped braces.
#[derive(Presenter)]
#[rule(call = Self::borrowed)]
#[rule(call = Self::owned)]
#[rule(call = Self::cow)]
#[rule(call = Self::maybe)]
#[rule(call = Self::several)]
#[rule("Use {{braces}} for {code}; {code} again.")]
#[rule(text = "Keyed text form for {code}.")]
#[rule(call = |r: &Self| format!("closure sees {}", r.code))]
struct Returns {
    code: u16,
}

impl Returns {
    fn borrowed(_: &Self) -> &'static str {
        "borrowed"
    }
    fn owned(&self) -> String {
        format!("owned {}", self.code)
    }
    fn cow(_: &Self) -> Cow<'static, str> {
        Cow::Borrowed("cow")
    }
    fn maybe(&self) -> Option<&'static str> {
        (self.code > 100).then_some("big code")
    }
    fn several(_: &Self) -> Vec<String> {
        vec![
            "first".to_owned(),
            "borrowed".to_owned(),
            "second".to_owned(),
        ]
    }
}

#[test]
fn rule_functions_templates_and_de_duplication() {
    let response = Returns { code: 404 }.present().build().unwrap();
    insta::assert_snapshot!("rule_return_types", listing(&response));
    let small = Returns { code: 7 }.present().build().unwrap();
    assert!(
        !small.text().contains("big code"),
        "an absent rule is dropped"
    );
}

/// Collection rules: static, conditional, from a function, in declaration order.
#[derive(Presenter)]
#[collection_rule("Static collection rule.")]
#[collection_rule("More than one: {n} items.", when = Self::several)]
#[collection_rule(call = Self::names)]
#[rule("Item static.")]
struct Listed {
    name: &'static str,
}

impl Listed {
    fn several(items: &[Self]) -> bool {
        items.len() > 1
    }
    fn names(items: &[Self]) -> String {
        let names: Vec<&str> = items.iter().map(|i| i.name).collect();
        format!("Names: {}", names.join(", "))
    }
}

#[test]
fn collection_rules_in_declaration_order() {
    let items = [Listed { name: "a" }, Listed { name: "b" }];
    let response = Listed::present_all(&items).build().unwrap();
    assert_eq!(
        response.blocks()[1],
        "<domain_rules>\n- Item static.\n- Static collection rule.\n- More than one: 2 items.\n- Names: a, b\n</domain_rules>"
    );
    // Collection rules are evaluated for an empty collection too (wire format §6.4 step 3).
    let empty = Listed::present_all(&[]).build().unwrap();
    assert_eq!(
        empty.blocks()[1],
        "<domain_rules>\n- Item static.\n- Static collection rule.\n- Names: \n</domain_rules>"
    );
    // And never for a single value.
    let single = items[0].present().build().unwrap();
    assert_eq!(
        single.blocks()[1],
        "<domain_rules>\n- Item static.\n</domain_rules>"
    );
}

#[test]
fn handler_rules_come_last_and_are_de_duplicated() {
    let builder = Stock { sku: "A", qty: 0 }
        .present()
        .into_builder()
        .unwrap()
        .rule("Quantities are in units.")
        .rule("Handler rule.");
    let response = builder.build();
    assert_eq!(
        response.blocks()[1],
        "<domain_rules>\n- Quantities are in units.\n- SKU A is out of stock.\n- Handler rule.\n</domain_rules>"
    );
    let _ = ResponseBuilder::text("x");
}

#[test]
fn static_rules_are_a_constant() {
    assert_eq!(
        <Stock as Presenter>::STATIC_RULES,
        &["Quantities are in units."]
    );
    assert_eq!(<Returns as Presenter>::STATIC_RULES, &[] as &[&str]);
}

/// A rule template may read a skipped or redacted field when the rule reveals it.
#[derive(Presenter)]
#[rule("Margin is {margin_bps} bps; never quote it.", reveal(margin_bps))]
#[rule("Card ends in {card}.", reveal(card), when = Self::has_card)]
struct Revealed {
    #[presenter(skip)]
    margin_bps: u32,
    #[redact]
    card: String,
}

impl Revealed {
    fn has_card(&self) -> bool {
        !self.card.is_empty()
    }
}

#[test]
fn reveal_lets_a_template_read_hidden_fields() {
    let response = Revealed {
        margin_bps: 820,
        card: "1234".into(),
    }
    .present()
    .build()
    .unwrap();
    assert_blocks(
        &response,
        &[
            "{\n  \"card\": \"[REDACTED]\"\n}",
            "<domain_rules>\n- Margin is 820 bps; never quote it.\n- Card ends in 1234.\n</domain_rules>",
        ],
    );
}
