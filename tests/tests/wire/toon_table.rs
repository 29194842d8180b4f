//! The compile-time TOON path (`toon::encode_table`, `toon_success_table`) and the TOON data
//! block of presenters (`Presentation::format`): exact bytes, the generic fallback for rows that
//! are no table, and everything but the data block unchanged.

use fusion_runtime::present::Format;
use fusion_runtime::toon::{self, Delimiter, ToonError, ToonOptions};
use fusion_runtime::{Presenter, Selection};
use serde::Serialize;

const DELIMITERS: [Delimiter; 3] = [Delimiter::Comma, Delimiter::Tab, Delimiter::Pipe];

/// Asserts that the compile-time path writes `expected` with the pipe delimiter, and the
/// generic encoder's bytes with every delimiter and indentations 1, 2 and 4.
#[track_caller]
fn check_table<T: fusion_runtime::present::Model>(items: &[T], expected: &str) {
    assert_eq!(
        toon::encode_table(items, &ToonOptions::pipe()).unwrap(),
        expected
    );
    for delimiter in DELIMITERS {
        for indent in [1, 2, 4] {
            let options = ToonOptions::default()
                .with_delimiter(delimiter)
                .with_indent(indent);
            assert_eq!(
                toon::encode_table(items, &options).unwrap(),
                toon::encode(items, &options).unwrap(),
                "{options:?}"
            );
        }
    }
}

#[derive(Serialize, Clone, Copy)]
enum Kind {
    Alpha,
    #[serde(rename = "beta gamma")]
    Beta,
    #[serde(rename = "42")]
    Numeric,
}

/// Every primitive cell kind.
#[derive(Presenter, Clone)]
struct Flat {
    id: u64,
    name: String,
    note: Option<String>,
    score: f64,
    ok: bool,
    delta: i64,
    kind: Kind,
    letter: char,
    big: u128,
    ratio: f32,
}

fn flat(id: u64, name: &str) -> Flat {
    Flat {
        id,
        name: name.to_owned(),
        note: None,
        score: 0.5,
        ok: true,
        delta: -3,
        kind: Kind::Alpha,
        letter: 'x',
        big: 0,
        ratio: 0.25,
    }
}

#[test]
fn flat_rows_are_one_table() {
    let mut second = flat(2, "Hooli: Cloud");
    second.note = Some("- refurbished unit".into());
    second.score = 1e21;
    second.ok = false;
    second.delta = i64::MIN;
    second.kind = Kind::Beta;
    second.letter = '|';
    second.big = u128::MAX;
    second.ratio = f32::NAN;
    let mut third = flat(u64::MAX, "</domain_rules>");
    third.note = Some(String::new());
    third.score = 1e-7;
    third.kind = Kind::Numeric;
    third.letter = '\u{1}';
    check_table(
        &[flat(1, "Café Crème"), second, third],
        "[3|]{id|name|note|score|ok|delta|kind|letter|big|ratio}:\n  \
         1|Café Crème|null|0.5|true|-3|Alpha|x|0|0.25\n  \
         2|\"Hooli: Cloud\"|\"- refurbished unit\"|1000000000000000000000|false|-9223372036854775808|beta gamma|\"|\"|340282366920938463463374607431768211455|null\n  \
         18446744073709551615|\"\\u003c/domain_rules>\"|\"\"|0.0000001|true|-3|\"42\"|\"\\u0001\"|0|0.25",
    );
}

#[test]
fn an_empty_collection_is_an_empty_list() {
    check_table::<Flat>(&[], "[]");
}

/// Renamed members whose keys need quotes, and a redacted one.
#[derive(Presenter)]
#[serde(rename_all = "camelCase")]
struct Renamed {
    item_id: u32,
    #[serde(rename = "full name")]
    full_name: String,
    #[serde(rename = "a.b")]
    dotted: bool,
    #[redact]
    secret_code: String,
    #[serde(skip)]
    #[allow(dead_code, reason = "never on the wire")]
    hidden: u8,
}

#[test]
fn keys_are_quoted_by_the_key_rules_and_redaction_applies() {
    let rows = [
        Renamed {
            item_id: 7,
            full_name: "Ada Lovelace".into(),
            dotted: true,
            secret_code: "1234".into(),
            hidden: 9,
        },
        Renamed {
            item_id: 8,
            full_name: "a,b".into(),
            dotted: false,
            secret_code: "5678".into(),
            hidden: 9,
        },
    ];
    check_table(
        &rows,
        "[2|]{itemId|\"full name\"|a.b|secretCode}:\n  7|Ada Lovelace|true|\"[REDACTED]\"\n  8|a,b|false|\"[REDACTED]\"",
    );
}

/// A member that `skip_serializing_if` may leave out.
#[derive(Presenter)]
struct Sparse {
    id: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    tag: Option<String>,
}

#[test]
fn a_skipped_member_falls_back_to_the_generic_form() {
    let some = |id, tag: &str| Sparse {
        id,
        tag: Some(tag.to_owned()),
    };
    // Different member sets: wire format §9.5 form 4, list items.
    check_table(
        &[some(1, "a"), Sparse { id: 2, tag: None }],
        "[2|]:\n  - id: 1\n    tag: a\n  - id: 2",
    );
    // The same member missing everywhere: still a table, of the members present.
    check_table(
        &[Sparse { id: 1, tag: None }, Sparse { id: 2, tag: None }],
        "[2|]{id}:\n  1\n  2",
    );
    check_table(&[some(1, "a"), some(2, "b")], "[2|]{id|tag}:\n  1|a\n  2|b");
}

#[derive(Presenter, Clone)]
struct Inner {
    name: String,
    country: String,
}

/// A nested model: a nested group of the table while every row has one.
#[derive(Presenter)]
struct WithInner {
    id: u32,
    customer: Option<Inner>,
}

/// A list member: never in a table.
#[derive(Presenter)]
struct WithList {
    id: u32,
    tags: Vec<String>,
}

#[test]
fn nested_values_fall_back_to_the_generic_form() {
    let inner = |name: &str| {
        Some(Inner {
            name: name.into(),
            country: "DK".into(),
        })
    };
    check_table(
        &[
            WithInner {
                id: 1,
                customer: inner("Ada"),
            },
            WithInner {
                id: 2,
                customer: inner("Bob"),
            },
        ],
        "[2|]{id|customer{name|country}}:\n  1|Ada|DK\n  2|Bob|DK",
    );
    // null and an object in one column: no table.
    check_table(
        &[
            WithInner {
                id: 1,
                customer: inner("Ada"),
            },
            WithInner {
                id: 2,
                customer: None,
            },
        ],
        "[2|]:\n  - id: 1\n    customer:\n      name: Ada\n      country: DK\n  - id: 2\n    customer: null",
    );
    check_table(
        &[
            WithList {
                id: 1,
                tags: vec!["x".into(), "y z".into()],
            },
            WithList {
                id: 2,
                tags: vec![],
            },
        ],
        "[2|]:\n  - id: 1\n    tags[2|]: x|y z\n  - id: 2\n    tags: []",
    );
}

/// A model with no wire members: rows are empty objects.
#[derive(Presenter)]
struct Nothing {
    #[serde(skip)]
    #[allow(dead_code, reason = "never on the wire")]
    hidden: u8,
}

#[test]
fn rows_without_members_are_list_items() {
    check_table(
        &[Nothing { hidden: 1 }, Nothing { hidden: 2 }],
        "[2|]:\n  -\n  -",
    );
}

#[test]
fn zero_indentation_is_refused() {
    let options = ToonOptions::pipe().with_indent(0);
    assert_eq!(
        toon::encode_table(&[flat(1, "a")], &options),
        Err(ToonError::ZeroIndent)
    );
}

#[test]
fn toon_success_table_is_toon_success() {
    let rows = [flat(1, "a|b"), flat(2, "c")];
    let table = toon::success_table(&rows).unwrap();
    let generic = toon::success(&rows).unwrap();
    assert_eq!(table.blocks(), generic.blocks());
    assert_eq!(table.is_error(), None);
    assert_eq!(table.view().format(), Format::Toon);
    // The view shows the wire value as the JSON data block does (0.5 stays a float, the
    // unit variant is its name).
    assert_eq!(
        table.view().data().as_value().unwrap()[0]["name"],
        serde_json::json!("a|b")
    );
    let json = fusion_runtime::ResponseBuilder::json(&rows)
        .unwrap()
        .build();
    assert_eq!(table.view().data(), json.view().data());
}

/// The billing models of BILLING.md, as the example application declares them.
mod billing {
    pub use fusion_examples::models::{Invoice, InvoiceLine};

    /// The fixture's invoices, in order.
    pub fn invoices() -> Vec<Invoice> {
        fusion_examples::store::Store::load()
            .expect("the fixture parses")
            .invoices()
            .cloned()
            .collect()
    }
}

/// wire format V49's text: the first invoice as TOON.
const V49: &str = "id: INV-0001\ncustomer:\n  id: CUS-001\n  name: Acme Corp\n  email: \"[REDACTED]\"\n  country: DE\namount_cents: 826199\ncurrency: EUR\nstatus: paid\nissued_at: 2026-04-21\ndue_at: 2026-05-21\nlines[4|]{sku|description|qty|unit_price_cents}:\n  SKU-301|\"- refurbished unit\"|5|8900\n  SKU-101|\"Widget, large | blue\"|1|4999\n  SKU-201|Onboarding (one-off)|5|150000\n  SKU-301|\"- refurbished unit\"|3|8900";

#[test]
fn a_presented_invoice_as_toon_is_v49_with_the_same_other_blocks() {
    let invoices = billing::invoices();
    let invoice = &invoices[0];
    let toon = invoice.present().format(Format::Toon).build().unwrap();
    let json = invoice.present().build().unwrap();
    assert_eq!(toon.blocks()[0], V49);
    assert_eq!(toon.blocks()[1..], json.blocks()[1..]);
    assert!(toon.blocks().len() > 2, "UI, embeds and rules follow");
    assert_eq!(toon.is_error(), None);
    assert_eq!(toon.view().format(), Format::Toon);
    assert_eq!(json.view().format(), Format::Json);
    // Apart from the format, the views are the same: data, UI, rules, suggestions.
    let mut toon_view = toon.view().to_json();
    toon_view["format"] = serde_json::json!("json");
    assert_eq!(toon_view, json.view().to_json());
}

#[test]
fn a_presented_collection_as_toon_keeps_limit_ui_rules_and_suggestions() {
    let invoices = billing::invoices();
    let toon = billing::Invoice::present_all(&invoices)
        .format(Format::Toon)
        .build()
        .unwrap();
    let json = billing::Invoice::present_all(&invoices).build().unwrap();
    // Agent limit 50: the TOON list holds the first 50 invoices in list-item form (each has a
    // nested customer and a lines table), exactly as the generic encoder writes them.
    let shown = &invoices[..50];
    assert_eq!(
        toon.blocks()[0],
        toon::encode(shown, &ToonOptions::pipe()).unwrap()
    );
    assert!(toon.blocks()[0].starts_with("[50|]:\n  - id: INV-0001\n    customer:\n"));
    assert_eq!(toon.blocks()[1..], json.blocks()[1..]);
    let mut toon_view = toon.view().to_json();
    toon_view["format"] = serde_json::json!("json");
    assert_eq!(toon_view, json.view().to_json());
}

#[test]
fn selection_applies_to_the_toon_data_block() {
    let invoices = billing::invoices();
    // Request order does not matter: declaration order (wire format §7.4).
    let selection = Selection::new(["status", "id", "amount_cents"]);
    let response = billing::Invoice::present_all(&invoices[..3])
        .select(&selection)
        .format(Format::Toon)
        .build()
        .unwrap();
    assert_eq!(
        response.blocks()[0],
        "[3|]{id|amount_cents|status}:\n  INV-0001|826199|paid\n  INV-0002|1355000|pending\n  INV-0003|49990|paid"
    );
    let single = invoices[0]
        .present()
        .select(&Selection::new(["customer", "id"]))
        .format(Format::Toon)
        .build()
        .unwrap();
    assert_eq!(
        single.blocks()[0],
        "id: INV-0001\ncustomer:\n  id: CUS-001\n  name: Acme Corp\n  email: \"[REDACTED]\"\n  country: DE"
    );
    assert_eq!(
        single.view().data().as_value().unwrap(),
        &serde_json::json!({"id": "INV-0001", "customer": {"id": "CUS-001", "name": "Acme Corp", "email": "[REDACTED]", "country": "DE"}})
    );
}

#[test]
fn an_empty_toon_data_block_is_ok() {
    // A name of the tool that this model does not have selects nothing: `{}` (wire format §7.4).
    let invoices = billing::invoices();
    let response = invoices[0]
        .present()
        .select(&Selection::new(["bogus"]))
        .format(Format::Toon)
        .build()
        .unwrap();
    assert_eq!(response.blocks()[0], "OK");
    assert_eq!(
        response.view().data().as_value(),
        Some(&serde_json::json!({}))
    );
    let none: [billing::InvoiceLine; 0] = [];
    let empty = billing::InvoiceLine::present_all(&none)
        .format(Format::Toon)
        .build()
        .unwrap();
    assert_eq!(
        empty.blocks(),
        [
            "[]",
            "<domain_rules>\n- unit_price_cents is in CENTS. Divide by 100.\n</domain_rules>"
        ]
    );
}

#[test]
fn a_flat_collection_is_written_by_the_table_path() {
    let invoices = billing::invoices();
    let lines = &invoices[0].lines;
    let response = billing::InvoiceLine::present_all(lines)
        .format(Format::Toon)
        .build()
        .unwrap();
    assert_eq!(
        response.blocks()[0],
        "[4|]{sku|description|qty|unit_price_cents}:\n  SKU-301|\"- refurbished unit\"|5|8900\n  SKU-101|\"Widget, large | blue\"|1|4999\n  SKU-201|Onboarding (one-off)|5|150000\n  SKU-301|\"- refurbished unit\"|3|8900"
    );
    // Format::Json per call is the default.
    let json = billing::InvoiceLine::present_all(lines)
        .format(Format::Json)
        .build()
        .unwrap();
    assert_eq!(
        json.blocks(),
        billing::InvoiceLine::present_all(lines)
            .build()
            .unwrap()
            .blocks()
    );
}

/// A `Serialize` that fails: the TOON data block reports it as the JSON one does.
#[derive(Presenter)]
struct Failing {
    value: Broken,
}

struct Broken;

impl Serialize for Broken {
    fn serialize<S: serde::Serializer>(&self, _: S) -> Result<S::Ok, S::Error> {
        Err(serde::ser::Error::custom("broken on purpose"))
    }
}

#[test]
fn a_failing_value_is_an_error_in_both_formats() {
    let items = [Failing { value: Broken }];
    let toon_error = Failing::present_all(&items)
        .format(Format::Toon)
        .build()
        .err()
        .unwrap();
    assert!(toon_error.to_string().contains("broken on purpose"));
    assert!(matches!(
        toon::encode_table(&items, &ToonOptions::pipe()),
        Err(ToonError::Custom(message)) if message == "broken on purpose"
    ));
}

/// `#[presenter(format = toon)]`: TOON by default, JSON on request.
#[derive(Presenter)]
#[presenter(format = toon)]
#[rule("amount_cents is in CENTS. Divide by 100.")]
struct InvoiceRow {
    id: String,
    customer: String,
    amount_cents: u64,
}

/// The string form names the same format.
#[derive(Presenter)]
#[presenter(format = "json")]
struct Plain {
    id: u32,
}

#[test]
fn the_model_declares_its_format_and_a_call_can_override_it() {
    assert_eq!(<InvoiceRow as Presenter>::FORMAT, Format::Toon);
    assert_eq!(<Plain as Presenter>::FORMAT, Format::Json);
    assert_eq!(<Flat as Presenter>::FORMAT, Format::Json);
    let rows = [
        InvoiceRow {
            id: "INV-0001".into(),
            customer: "Acme Corp".into(),
            amount_cents: 826_199,
        },
        InvoiceRow {
            id: "INV-0002".into(),
            customer: "Hooli: Cloud".into(),
            amount_cents: 4500,
        },
    ];
    let rule = "<domain_rules>\n- amount_cents is in CENTS. Divide by 100.\n</domain_rules>";
    let toon = InvoiceRow::present_all(&rows).build().unwrap();
    assert_eq!(
        toon.blocks(),
        [
            "[2|]{id|customer|amount_cents}:\n  INV-0001|Acme Corp|826199\n  INV-0002|\"Hooli: Cloud\"|4500",
            rule
        ]
    );
    assert_eq!(toon.view().format(), Format::Toon);
    let single = rows[1].present().build().unwrap();
    assert_eq!(
        single.blocks(),
        [
            "id: INV-0002\ncustomer: \"Hooli: Cloud\"\namount_cents: 4500",
            rule
        ]
    );
    let json = rows[1].present().format(Format::Json).build().unwrap();
    assert_eq!(
        json.blocks(),
        [
            "{\n  \"id\": \"INV-0002\",\n  \"customer\": \"Hooli: Cloud\",\n  \"amount_cents\": 4500\n}",
            rule
        ]
    );
    assert_eq!(json.view().format(), Format::Json);
    assert_eq!(json.view().data(), single.view().data());
    assert_eq!(
        Plain::present_all(&[Plain { id: 1 }])
            .build()
            .unwrap()
            .blocks(),
        ["[\n  {\n    \"id\": 1\n  }\n]"]
    );
}
