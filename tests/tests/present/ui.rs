//! `#[ui]` and `#[collection_ui]`: functions, templated markdown and summary helpers,
//! conditions (wire format §6.2 step 3, §6.6).

use crate::support;

use fusion_runtime::Presenter;
use fusion_runtime::ui::{self, UiBlock, Width};
use support::{assert_blocks, listing};

/// wire format V23 model: `{id: text, value: integer}` with collection UI summary(`{n} items`).
#[derive(Presenter)]
#[collection_ui(summary = "{n} items")]
struct Counted {
    id: String,
    value: i64,
}

#[test]
fn v23_empty_collection_with_collection_ui() {
    let response = Counted::present_all(&[]).build().unwrap();
    assert_blocks(
        &response,
        &[
            "[]",
            "<ui_passthrough type=\"summary\">\n📊 **Summary**: 0 items\n</ui_passthrough>",
        ],
    );
    let one = Counted {
        id: "a".into(),
        value: 1,
    };
    let single = one.present().build().unwrap();
    assert_eq!(
        single.blocks().len(),
        1,
        "collection UI never runs for a single value"
    );
}

/// Every form of UI declaration.
#[derive(Presenter)]
#[ui(Self::gauge)]
#[ui(call = Self::maybe)]
#[ui(call = Self::several, when = Self::big)]
#[ui(markdown = "Invoice **{id}**: {amount_cents} cents")]
#[ui(summary = "{id} is {status}", when = Self::big)]
#[collection_ui(Self::overview)]
#[collection_ui(markdown = "{n} invoices")]
struct Invoice {
    id: &'static str,
    amount_cents: u64,
    status: &'static str,
}

impl Invoice {
    #[allow(clippy::cast_precision_loss, reason = "a chart value")]
    fn gauge(&self) -> UiBlock {
        ui::echarts(serde_json::json!({
            "series": [{"type": "gauge", "data": [{"value": self.amount_cents as f64 / 100.0}]}]
        }))
        .title("Amount (EUR)")
        .width(Width::Half)
        .priority(1)
    }

    fn maybe(&self) -> Option<UiBlock> {
        (self.status == "overdue").then(|| ui::markdown("**Overdue**"))
    }

    fn several(_: &Self) -> Vec<UiBlock> {
        vec![ui::markdown("first"), ui::markdown("first")]
    }

    fn big(&self) -> bool {
        self.amount_cents > 100_000
    }

    fn overview(items: &[Self]) -> UiBlock {
        ui::list(items.iter().map(|i| format!("{}: {}", i.id, i.status)))
    }
}

#[test]
fn item_ui_every_form_in_declaration_order() {
    let big = Invoice {
        id: "INV-1",
        amount_cents: 826_199,
        status: "overdue",
    };
    insta::assert_snapshot!("ui_single_big", listing(&big.present().build().unwrap()));
    let small = Invoice {
        id: "INV-2",
        amount_cents: 4500,
        status: "paid",
    };
    let response = small.present().build().unwrap();
    assert_blocks(
        &response,
        &[
            "{\n  \"id\": \"INV-2\",\n  \"amount_cents\": 4500,\n  \"status\": \"paid\"\n}",
            "<ui_passthrough type=\"echarts\" title=\"Amount (EUR)\" width=\"half\" priority=\"1\">\n```echarts\n{\n  \"series\": [\n    {\n      \"type\": \"gauge\",\n      \"data\": [\n        {\n          \"value\": 45\n        }\n      ]\n    }\n  ]\n}\n```\n</ui_passthrough>",
            "<ui_passthrough type=\"markdown\">\nInvoice **INV-2**: 4500 cents\n</ui_passthrough>",
        ],
    );
}

#[test]
fn collection_ui_runs_once_and_item_ui_never() {
    let items = [
        Invoice {
            id: "A",
            amount_cents: 1,
            status: "paid",
        },
        Invoice {
            id: "B",
            amount_cents: 200_000,
            status: "overdue",
        },
    ];
    let response = Invoice::present_all(&items).build().unwrap();
    insta::assert_snapshot!("ui_collection", listing(&response));
    assert!(!response.text().contains("echarts"));
}

#[test]
fn ui_entries_are_never_de_duplicated() {
    let big = Invoice {
        id: "INV-1",
        amount_cents: 200_000,
        status: "paid",
    };
    let response = big.present().build().unwrap();
    let firsts = response
        .blocks()
        .iter()
        .filter(|b| b.as_str() == "<ui_passthrough type=\"markdown\">\nfirst\n</ui_passthrough>")
        .count();
    assert_eq!(firsts, 2);
    assert_eq!(response.view().ui().len(), 5);
}
