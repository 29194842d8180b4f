//! Shared by the presenter tests: the wire format's `Inv` presenter and wire listings.

#![allow(
    dead_code,
    reason = "each test file uses a different part of the support module"
)]

use fusion_runtime::ui::{self, UiBlock};
use fusion_runtime::{Presenter, ToolResponse};

/// The wire of a response as an insta snapshot shows it: `isError`, then each block as written.
pub fn listing(response: &ToolResponse) -> String {
    let is_error = match response.is_error() {
        None => "absent",
        Some(true) => "true",
        Some(false) => "false",
    };
    let mut out = format!("isError {is_error}");
    for (i, block) in response.blocks().iter().enumerate() {
        out.push_str("\n--- [");
        out.push_str(&i.to_string());
        out.push_str("]\n");
        out.push_str(block);
    }
    out
}

/// Asserts a successful response (isError absent) whose blocks are exactly `expected`.
#[track_caller]
pub fn assert_blocks(response: &ToolResponse, expected: &[&str]) {
    assert_eq!(response.is_error(), None, "isError");
    let blocks: Vec<&str> = response.blocks().iter().map(String::as_str).collect();
    assert_eq!(blocks, expected);
}

/// wire format §16.5 presenter **Inv**: static rule, item UI table, suggestion when pending.
#[derive(Presenter, Debug, Clone)]
#[presenter(field_enum)]
#[rule("CRITICAL: amount_cents is in CENTS. Divide by 100.")]
#[ui(Self::amount_table)]
#[suggest(tool = "billing.pay", reason = "Offer immediate payment", when = Self::is_pending)]
pub struct Inv {
    pub id: String,
    pub amount_cents: u64,
    pub status: &'static str,
}

impl Inv {
    pub fn new(id: &str, amount_cents: u64, status: &'static str) -> Self {
        Inv {
            id: id.to_owned(),
            amount_cents,
            status,
        }
    }

    fn amount_table(&self) -> UiBlock {
        let amount = format!(
            "${}.{:02}",
            self.amount_cents / 100,
            self.amount_cents % 100
        );
        ui::table(["Field", "Value"], [["Amount".to_owned(), amount]])
    }

    fn is_pending(&self) -> bool {
        self.status == "pending"
    }
}

/// The `[0]` block of V21/V34: the Inv table UI for 45000 cents.
pub const INV_TABLE_45000: &str = "<ui_passthrough type=\"markdown\">\n| Field | Value |\n| --- | --- |\n| Amount | $450.00 |\n</ui_passthrough>";
/// The Inv static rule block.
pub const INV_RULES: &str =
    "<domain_rules>\n- CRITICAL: amount_cents is in CENTS. Divide by 100.\n</domain_rules>";
/// The Inv suggestion block.
pub const INV_PAY: &str =
    "<action_suggestions>\n- billing.pay: Offer immediate payment\n</action_suggestions>";
