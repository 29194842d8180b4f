//! The expansion is clean under strict lints: this file denies `missing_docs`,
//! `unused_qualifications` and clippy's pedantic group (CI runs clippy on the tests with
//! `-D warnings`), and derives public models whose generated items are public too.

#![deny(missing_docs, unused_qualifications, clippy::pedantic)]

use fusion_runtime::ui::{self, UiBlock};
use fusion_runtime::{Presenter, Suggestion};

/// A child model.
#[derive(Presenter)]
#[presenter(field_enum)]
#[rule("Lines are read-only.")]
pub struct Line {
    /// The SKU.
    pub sku: String,
}

/// A public model using every kind of declaration.
#[derive(Presenter)]
#[presenter(agent_limit = 10, field_enum)]
#[serde(rename_all = "camelCase")]
#[rule("amount_cents is in CENTS.")]
#[rule("Invoice {id} is overdue.", when = Self::is_overdue)]
#[suggest(tool = "billing.remind", reason = "Remind", when = Self::is_overdue)]
#[suggest(call = Self::next)]
#[ui(Self::gauge)]
#[collection_ui(summary = "{n} invoices")]
#[collection_rule("Listed {n}.")]
pub struct Invoice {
    /// The id.
    pub id: String,
    /// The amount, in cents.
    pub amount_cents: u64,
    /// Whether it is overdue.
    pub overdue: bool,
    /// The customer's email.
    #[redact]
    pub email: Option<String>,
    /// The lines.
    #[embed]
    pub lines: Vec<Line>,
    /// Never on the wire.
    #[presenter(skip)]
    pub margin_bps: u32,
}

impl Invoice {
    fn is_overdue(&self) -> bool {
        self.overdue
    }

    fn next(&self) -> Option<Suggestion> {
        (self.margin_bps > 0).then(|| Suggestion::new("billing.get", "Open it"))
    }

    fn gauge(&self) -> UiBlock {
        ui::markdown(format!("{} cents", self.amount_cents))
    }
}

#[test]
fn strict_lints_accept_the_expansion() {
    let invoice = Invoice {
        id: "INV-1".to_owned(),
        amount_cents: 100,
        overdue: true,
        email: None,
        lines: vec![Line {
            sku: "A".to_owned(),
        }],
        margin_bps: 3,
    };
    let response = invoice.present().build().unwrap();
    assert_eq!(response.blocks().len(), 5);
    assert!(response.blocks()[0].contains("\"amountCents\": 100"));
    let _ = InvoiceField::AmountCents;
    let _ = LineField::Sku;
}
