//! `_select` on presented values (wire format §7.4–7.5) and the generated field enum: names, parsing,
//! the list of fields and its JSON-schema enum.

use crate::support;

use fusion_runtime::present::{Field, FieldMask, Model};
use fusion_runtime::{Presenter, Selection};
use support::{INV_PAY, INV_RULES, INV_TABLE_45000, Inv, InvField, assert_blocks};

#[test]
fn v34_selection_keeps_declaration_order() {
    let selection = Selection::new(["status", "id", "status"]);
    let response = Inv::new("INV-1", 45000, "pending")
        .present()
        .select(&selection)
        .build()
        .unwrap();
    assert_blocks(
        &response,
        &[
            "{\n  \"id\": \"INV-1\",\n  \"status\": \"pending\"\n}",
            INV_TABLE_45000,
            INV_RULES,
            INV_PAY,
        ],
    );
}

#[test]
fn v35_empty_selection() {
    let selection = Selection::new(Vec::<String>::new());
    let response = Inv::new("I", 1, "paid")
        .present()
        .select(&selection)
        .build()
        .unwrap();
    assert_blocks(
        &response,
        &[
            "{\n  \"id\": \"I\",\n  \"amount_cents\": 1,\n  \"status\": \"paid\"\n}",
            "<ui_passthrough type=\"markdown\">\n| Field | Value |\n| --- | --- |\n| Amount | $0.01 |\n</ui_passthrough>",
            INV_RULES,
        ],
    );
}

#[test]
fn v37_selection_per_element() {
    let items = [Inv::new("A", 1, "paid"), Inv::new("B", 2, "paid")];
    let selection = Selection::new(["id"]);
    let response = Inv::present_all(&items).select(&selection).build().unwrap();
    assert_blocks(
        &response,
        &[
            "[\n  {\n    \"id\": \"A\"\n  },\n  {\n    \"id\": \"B\"\n  }\n]",
            INV_RULES,
        ],
    );
}

#[test]
fn v38_selection_leaves_ui_rules_and_suggestions_unaffected() {
    // Response 2 of V38 (response 1 goes through the tool layer).
    let selection = Selection::new(["status"]);
    let response = Inv::new("INV-1", 45000, "pending")
        .present()
        .select(&selection)
        .build()
        .unwrap();
    assert_blocks(
        &response,
        &[
            "{\n  \"status\": \"pending\"\n}",
            INV_TABLE_45000,
            INV_RULES,
            INV_PAY,
        ],
    );
}

/// wire format §16.6 model **Inv2** with the static rule `cents`.
#[derive(Presenter)]
#[rule("cents")]
struct Inv2 {
    id: String,
    status: &'static str,
}

#[test]
fn v68_view_of_a_selected_call() {
    let selection = Selection::new(["id"]);
    let value = Inv2 {
        id: "INV-9".into(),
        status: "paid",
    };
    let response = value.present().select(&selection).build().unwrap();
    let view = response.view();
    assert_eq!(
        view.data().as_value(),
        Some(&serde_json::json!({"id": "INV-9"}))
    );
    assert_eq!(view.format().as_str(), "json");
    assert!(view.ui().is_empty());
    assert!(view.hints().is_empty());
    assert_eq!(view.rules(), &["cents".to_owned()]);
    assert!(view.suggestions().is_empty());
    assert_eq!(view.structured_content(), None);
    assert_eq!(view.is_error(), None);
    assert_eq!(value.status, "paid");
}

#[test]
fn names_this_model_does_not_have_match_nothing() {
    let selection = Selection::new(["customer"]);
    let response = Inv::new("A", 1, "paid")
        .present()
        .select(&selection)
        .build()
        .unwrap();
    assert_eq!(response.blocks()[0], "{}");
}

#[test]
fn the_field_enum() {
    assert_eq!(
        InvField::ALL,
        &[InvField::Id, InvField::AmountCents, InvField::Status]
    );
    assert_eq!(InvField::AmountCents.wire_name(), "amount_cents");
    assert_eq!(InvField::AmountCents.index(), 1);
    assert_eq!(InvField::from_wire_name("status"), Some(InvField::Status));
    assert_eq!(InvField::from_wire_name("Status"), None);
    assert_eq!("id".parse::<InvField>(), Ok(InvField::Id));
    let error = "bogus".parse::<InvField>().unwrap_err();
    assert_eq!(
        error.to_string(),
        "unknown field name `bogus`; use one of `id`, `amount_cents`, `status`"
    );
    assert_eq!(InvField::Status.to_string(), "status");
    assert_eq!(
        <Inv as Model>::WIRE_NAMES,
        &["id", "amount_cents", "status"]
    );
    assert_eq!(
        <Inv as Model>::select_schema(),
        serde_json::json!({"type": "string", "enum": ["id", "amount_cents", "status"]})
    );
}

#[test]
fn serialize_selected_with_a_typed_mask() {
    let mask = FieldMask::fields(&[InvField::Status]);
    let mut out = Vec::new();
    let mut serializer = serde_json::Serializer::new(&mut out);
    Inv::new("A", 1, "paid")
        .serialize_selected(&mask, &mut serializer)
        .unwrap();
    assert_eq!(String::from_utf8(out).unwrap(), r#"{"status":"paid"}"#);
}

/// A model with no wire member at all.
#[derive(Presenter)]
#[presenter(field_enum)]
struct Hidden {
    #[presenter(skip)]
    secret: u8,
}

#[test]
fn a_model_without_members() {
    assert!(HiddenField::ALL.is_empty());
    let hidden = Hidden { secret: 1 };
    assert_eq!(serde_json::to_string(&hidden).unwrap(), "{}");
    assert_eq!(hidden.secret, 1);
    assert_eq!(
        "x".parse::<HiddenField>().unwrap_err().valid(),
        &[] as &[&str]
    );
}

/// The billing `Invoice` of BILLING.md, for its `_select` names.
#[derive(Presenter)]
#[rule("amount_cents is in CENTS. Divide by 100.")]
struct BillingInvoice {
    id: String,
    #[embed]
    customer: BillingCustomer,
    amount_cents: u64,
    currency: String,
    status: String,
    issued_at: String,
    due_at: String,
    lines: Vec<String>,
    #[presenter(skip)]
    internal_margin_bps: u32,
}

#[derive(Presenter)]
struct BillingCustomer {
    name: String,
}

#[test]
fn v33_select_names_of_the_billing_invoice() {
    // The tool layer sorts the union of the presented models' names (wire format §7.2); for the
    // billing tool that union is the Invoice's wire names, `internal_margin_bps` excluded.
    let mut names = <BillingInvoice as Model>::WIRE_NAMES.to_vec();
    names.sort_unstable();
    assert_eq!(
        names,
        [
            "amount_cents",
            "currency",
            "customer",
            "due_at",
            "id",
            "issued_at",
            "lines",
            "status"
        ]
    );
    let invoice = BillingInvoice {
        id: "INV-1".into(),
        customer: BillingCustomer {
            name: "Acme".into(),
        },
        amount_cents: 1,
        currency: "EUR".into(),
        status: "paid".into(),
        issued_at: "2026-01-01".into(),
        due_at: "2026-02-01".into(),
        lines: Vec::new(),
        internal_margin_bps: 3,
    };
    let text = invoice.present().build().unwrap().text();
    assert!(!text.contains("internal_margin_bps"));
    assert!(!text.contains("820") && invoice.internal_margin_bps == 3);
}
