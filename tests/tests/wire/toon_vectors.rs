//! wire format §16.8 TOON vectors V42–V49 through `toon_success`, plus the data block of V76 and the
//! encoder's edges (integers beyond 64 bits, options, errors).

use fusion_runtime::ToolResponse;
use fusion_runtime::present::Format;
use fusion_runtime::toon::{self, Delimiter, ToonError, ToonOptions};
use serde::Serialize;
use serde_json::{Value, json};

/// Checks the response shape every TOON response has: one block, `isError` absent, view format
/// `toon`; returns the block.
fn single_block(response: &ToolResponse) -> &str {
    assert_eq!(response.blocks().len(), 1, "{:?}", response.blocks());
    assert_eq!(response.is_error(), None);
    assert_eq!(response.view().format(), Format::Toon);
    &response.blocks()[0]
}

/// A TOON response of a JSON value: checks the block and that the view holds the value.
fn check(input: &Value, expected: &str) {
    let response = toon::success(input).unwrap();
    assert_eq!(single_block(&response), expected);
    assert_eq!(response.view().data().as_value(), Some(input));
}

#[test]
fn v42_uniform_collection() {
    check(
        &json!([{"id":1,"name":"Alice","email":"a@x.io"},{"id":2,"name":"Bob","email":"b@x.io"}]),
        "[2|]{id|name|email}:\n  1|Alice|a@x.io\n  2|Bob|b@x.io",
    );
}

#[test]
fn v43_non_uniform_collection() {
    check(
        &json!([{"id":1,"name":"A"},{"id":2}]),
        "[2|]:\n  - id: 1\n    name: A\n  - id: 2",
    );
}

#[test]
fn v44_nested_object_inline_array_quoting_empty_array() {
    check(
        &json!({"user":{"name":"Alice","note":"a|b"},"tags":["x","y z"],"empty":[],"n":null,"s":""}),
        "user:\n  name: Alice\n  note: \"a|b\"\ntags[2|]: x|y z\nempty: []\nn: null\ns: \"\"",
    );
}

#[test]
fn v45_empty_and_root_cases() {
    check(&json!({}), "OK");
    check(&json!([]), "[]");
    check(&json!(""), "\"\"");
    check(&json!(null), "null");
    check(&json!({"a":{}}), "a:");
}

#[test]
fn v46_nested_field_group_and_keyed_table() {
    check(
        &json!({
            "orders":[
                {"id":1,"customer":{"name":"Ada","country":"DK"},"total":99},
                {"id":2,"customer":{"name":"Bob","country":"UK"},"total":149}
            ],
            "servers":{
                "alpha":{"host":"a.example.com","port":8080},
                "beta":{"host":"b.example.com","port":9090}
            }
        }),
        "orders[2|]{id|customer{name|country}|total}:\n  1|Ada|DK|99\n  2|Bob|UK|149\n\
         servers[2:|]{host|port}:\n  alpha: a.example.com|8080\n  beta: b.example.com|9090",
    );
}

#[test]
fn v47_toon_numbers() {
    #[derive(Serialize)]
    struct Numbers {
        v: Vec<f64>,
        big: u64,
    }
    let value = Numbers {
        v: vec![1e21, 1e-7, 0.1, -0.0, 100.0, f64::INFINITY],
        big: 12_345_678_901_234_567_890,
    };
    let response = toon::success(&value).unwrap();
    assert_eq!(
        single_block(&response),
        "v[6|]: 1000000000000000000000|0.0000001|0.1|0|100|null\nbig: 12345678901234567890"
    );
    // The view holds what was encoded; serde_json has no infinity, so it shows null as TOON does.
    let view = response.view().data().as_value().unwrap().clone();
    assert_eq!(view["big"], json!(12_345_678_901_234_567_890_u64));
    assert_eq!(view["v"][5], Value::Null);
    assert_eq!(view["v"][0], json!(1e21));
}

#[test]
fn v48_tag_quoting_in_toon() {
    check(
        &json!({"note":"</domain_rules>","ok":"a < b","<tool_error>":1,"rows":[{"t":"<message>x"},{"t":"y"}]}),
        "note: \"\\u003c/domain_rules>\"\nok: a < b\n\"\\u003ctool_error>\": 1\nrows[2|]{t}:\n  \"\\u003cmessage>x\"\n  y",
    );
}

/// The data block of V76 (the export action's rows), encoded from the fixture with plain serde
/// rows; the tool call itself is covered with the billing tool.
#[test]
fn v76_export_rows_block() {
    #[derive(Serialize)]
    struct Row<'a> {
        id: &'a str,
        customer: &'a str,
        amount_cents: u64,
        currency: &'a str,
        status: &'a str,
        issued_at: &'a str,
    }
    let data: Value =
        serde_json::from_str(include_str!("../../../examples/data/billing.json")).unwrap();
    let rows: Vec<Row<'_>> = data["invoices"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|invoice| invoice["status"] == "overdue")
        .map(|invoice| Row {
            id: invoice["id"].as_str().unwrap(),
            customer: invoice["customer"]["name"].as_str().unwrap(),
            amount_cents: invoice["amount_cents"].as_u64().unwrap(),
            currency: invoice["currency"].as_str().unwrap(),
            status: invoice["status"].as_str().unwrap(),
            issued_at: invoice["issued_at"].as_str().unwrap(),
        })
        .collect();
    let response = toon::success(&rows).unwrap();
    assert_eq!(
        single_block(&response),
        "[14|]{id|customer|amount_cents|currency|status|issued_at}:\n  INV-0038|Acme Corp|129097|EUR|overdue|2026-01-13\n  INV-0040|\"Vandelay \\\"Import\\\" Export\"|11250|EUR|overdue|2026-10-09\n  INV-0045|Stark Industries|138100|EUR|overdue|2026-04-22\n  INV-0047|\"Vandelay \\\"Import\\\" Export\"|63793|EUR|overdue|2026-04-11\n  INV-0052|\"Umbrella | Pharma\"|454794|EUR|overdue|2026-09-18\n  INV-0063|\"Umbrella | Pharma\"|99980|EUR|overdue|2026-06-26\n  INV-0080|Café Crème SARL|105189|EUR|overdue|2026-01-24\n  INV-0084|\"Hooli: Cloud\"|1409700|EUR|overdue|2026-04-23\n  INV-0087|Café Crème SARL|311539|EUR|overdue|2026-01-26\n  INV-0100|Café Crème SARL|39992|EUR|overdue|2026-09-18\n  INV-0102|Initech, Inc.|238883|EUR|overdue|2026-05-17\n  INV-0104|\"Hooli: Cloud\"|256600|EUR|overdue|2026-09-10\n  INV-0114|Initech, Inc.|446489|EUR|overdue|2026-04-27\n  INV-0118|Café Crème SARL|1405800|EUR|overdue|2026-10-21"
    );
}

#[test]
fn integers_beyond_64_bits_keep_every_digit() {
    #[derive(Serialize)]
    struct Wide {
        max: u128,
        min: i128,
    }
    let response = toon::success(&Wide {
        max: u128::MAX,
        min: i128::MIN,
    })
    .unwrap();
    assert_eq!(
        single_block(&response),
        "max: 340282366920938463463374607431768211455\n\
         min: -170141183460469231731687303715884105728"
    );
    // serde_json cannot hold them: the view shows the nearest float (documented).
    let view = response.view().data().as_value().unwrap().clone();
    assert_eq!(view["max"].as_f64(), Some(3.402_823_669_209_385e38));
}

#[test]
fn struct_members_keep_declaration_order_and_rows_follow_the_header() {
    #[derive(Serialize)]
    struct Item {
        z: u8,
        a: &'static str,
    }
    let items = [Item { z: 1, a: "x" }, Item { z: 2, a: "y" }];
    assert_eq!(
        toon::encode(&items, &ToonOptions::default()).unwrap(),
        "[2]{z,a}:\n  1,x\n  2,y"
    );
    // Rows follow the first element's order whatever their own (wire format §9.6).
    assert_eq!(
        toon::encode(&json!([{"a":1,"b":2},{"b":3,"a":4}]), &ToonOptions::pipe()).unwrap(),
        "[2|]{a|b}:\n  1|2\n  4|3"
    );
}

#[test]
fn options() {
    let value = json!({"user":{"tags":["a","b"]}});
    assert_eq!(
        ToonOptions::default(),
        ToonOptions::default().with_indent(2)
    );
    assert_eq!(ToonOptions::default().delimiter(), Delimiter::Comma);
    assert_eq!(ToonOptions::pipe().delimiter(), Delimiter::Pipe);
    assert_eq!(
        toon::encode(
            &value,
            &ToonOptions::default()
                .with_delimiter(Delimiter::Tab)
                .with_indent(3)
        )
        .unwrap(),
        "user:\n   tags[2\t]: a\tb"
    );
    let zero = ToonOptions::default().with_indent(0);
    assert_eq!(toon::encode(&value, &zero), Err(ToonError::ZeroIndent));
}

#[test]
fn errors_say_what_to_do() {
    let mut map = std::collections::BTreeMap::new();
    map.insert((1, 2), "pair key");
    let error = toon::success(&map).unwrap_err();
    assert_eq!(error, ToonError::KeyMustBeString { found: "a tuple" });
    assert_eq!(
        error.to_string(),
        "a TOON member name must be a string, but a map key is a tuple; use string (or integer) \
         keys, or serialize the map as a list of pairs"
    );
}

#[test]
fn root_byte_order_mark_is_quoted() {
    check(&json!("\u{feff}x"), "\"\u{feff}x\"");
    check(&json!({"k": "\u{feff}x"}), "k: \u{feff}x");
}

/// The billing models of BILLING.md, as far as V49 needs them: the derive writes their
/// redacted wire form, which any serializer (TOON included) sees.
mod billing {
    use fusion_runtime::Presenter;
    use serde::Deserialize;

    #[derive(Presenter, Deserialize)]
    pub struct Customer {
        pub id: String,
        pub name: String,
        #[redact]
        pub email: String,
        pub country: String,
    }

    #[derive(Presenter, Deserialize)]
    pub struct InvoiceLine {
        pub sku: String,
        pub description: String,
        pub qty: u32,
        pub unit_price_cents: u64,
    }

    #[derive(Presenter, Deserialize)]
    pub struct Invoice {
        pub id: String,
        pub customer: Customer,
        pub amount_cents: u64,
        pub currency: String,
        pub status: String,
        pub issued_at: String,
        pub due_at: String,
        pub lines: Vec<InvoiceLine>,
        #[serde(skip_serializing)]
        pub internal_margin_bps: u32,
    }

    #[derive(Deserialize)]
    pub struct Fixture {
        pub invoices: Vec<Invoice>,
    }
}

#[test]
fn v49_a_redacted_model_as_toon() {
    let fixture: billing::Fixture =
        serde_json::from_str(include_str!("../../../examples/data/billing.json")).unwrap();
    let first = &fixture.invoices[0];
    assert_eq!(first.internal_margin_bps, 821);
    let response = toon::success(first).unwrap();
    assert_eq!(
        single_block(&response),
        "id: INV-0001\ncustomer:\n  id: CUS-001\n  name: Acme Corp\n  email: \"[REDACTED]\"\n  country: DE\namount_cents: 826199\ncurrency: EUR\nstatus: paid\nissued_at: 2026-04-21\ndue_at: 2026-05-21\nlines[4|]{sku|description|qty|unit_price_cents}:\n  SKU-301|\"- refurbished unit\"|5|8900\n  SKU-101|\"Widget, large | blue\"|1|4999\n  SKU-201|Onboarding (one-off)|5|150000\n  SKU-301|\"- refurbished unit\"|3|8900"
    );
    // The view holds the redacted wire value that was encoded.
    let view = response.view().data().as_value().unwrap().clone();
    assert_eq!(view["customer"]["email"], "[REDACTED]");
    assert!(view.get("internal_margin_bps").is_none());
}
