//! `#[suggest]` and `#[collection_suggest]`: fixed pairs, templates, conditions and functions
//! (wire format §6.5).

use crate::support;

use fusion_runtime::{Presenter, Suggestion};
use support::{assert_blocks, listing};

/// Every form of item suggestion.
#[derive(Presenter)]
#[suggest(tool = "billing.remind", reason = "Send a payment reminder", when = Self::is_open)]
#[suggest(tool = "billing.get", reason = "Open invoice {id}")]
#[suggest(call = Self::one)]
#[suggest(call = Self::maybe)]
#[suggest(call = Self::several)]
#[collection_suggest(tool = "billing.export", reason = "Export {n} invoices")]
#[collection_suggest(call = Self::bulk)]
struct Invoice {
    id: &'static str,
    open: bool,
}

impl Invoice {
    fn is_open(&self) -> bool {
        self.open
    }

    fn one(_: &Self) -> Suggestion {
        Suggestion::new("billing.history", "See the history")
    }

    fn maybe(&self) -> Option<Suggestion> {
        self.open
            .then(|| Suggestion::new("billing.void_invoice", "Void it if it cannot be collected"))
    }

    fn several(&self) -> Vec<Suggestion> {
        vec![
            Suggestion::new("billing.history", "See the history"),
            Suggestion::new("billing.pdf", format!("Download {}.pdf", self.id)),
        ]
    }

    fn bulk(items: &[Self]) -> Option<Suggestion> {
        let open = items.iter().filter(|i| i.open).count();
        (open > 1).then(|| Suggestion::new("billing.remind_all", format!("Remind all {open}")))
    }
}

#[test]
fn item_suggestions_every_form() {
    let response = Invoice {
        id: "INV-1",
        open: true,
    }
    .present()
    .build()
    .unwrap();
    insta::assert_snapshot!("suggest_single_open", listing(&response));
    let closed = Invoice {
        id: "INV-2",
        open: false,
    }
    .present()
    .build()
    .unwrap();
    insta::assert_snapshot!("suggest_single_closed", listing(&closed));
}

#[test]
fn collection_suggestions_follow_item_ones_and_are_de_duplicated() {
    let items = [
        Invoice {
            id: "A",
            open: true,
        },
        Invoice {
            id: "B",
            open: false,
        },
        Invoice {
            id: "C",
            open: true,
        },
    ];
    let response = Invoice::present_all(&items).build().unwrap();
    insta::assert_snapshot!("suggest_collection", listing(&response));
    let text = response.text();
    assert_eq!(
        text.matches("billing.remind: Send a payment reminder")
            .count(),
        1
    );
    assert!(text.ends_with(
        "- billing.export: Export 3 invoices\n- billing.remind_all: Remind all 2\n</action_suggestions>"
    ));
}

#[test]
fn collection_suggestions_are_not_evaluated_for_an_empty_collection() {
    let response = Invoice::present_all(&[]).build().unwrap();
    assert_blocks(&response, &["[]"]);
}

/// Suggestions that read the context.
struct Ctx {
    tool_prefix: &'static str,
}

#[derive(Presenter)]
#[presenter(context = Ctx)]
#[suggest(call = Self::scoped, when = Self::enabled)]
#[collection_suggest(call = Self::scoped_all)]
struct Scoped {
    id: u8,
}

impl Scoped {
    fn enabled(_: &Self, ctx: &Ctx) -> bool {
        !ctx.tool_prefix.is_empty()
    }

    fn scoped(&self, ctx: &Ctx) -> Suggestion {
        Suggestion::new(
            format!("{}.get", ctx.tool_prefix),
            format!("Open {}", self.id),
        )
    }

    fn scoped_all(items: &[Self], ctx: &Ctx) -> Suggestion {
        Suggestion::new(
            format!("{}.list", ctx.tool_prefix),
            format!("{} rows", items.len()),
        )
    }
}

#[test]
fn suggestion_callbacks_read_the_context() {
    let ctx = Ctx { tool_prefix: "crm" };
    let items = [Scoped { id: 1 }, Scoped { id: 2 }];
    let response = Scoped::present_all(&items).context(&ctx).build().unwrap();
    assert_blocks(
        &response,
        &[
            "[\n  {\n    \"id\": 1\n  },\n  {\n    \"id\": 2\n  }\n]",
            "<action_suggestions>\n- crm.get: Open 1\n- crm.get: Open 2\n- crm.list: 2 rows\n</action_suggestions>",
        ],
    );
    let off = Ctx { tool_prefix: "" };
    let response = Scoped { id: 3 }.present().context(&off).build().unwrap();
    assert_blocks(&response, &["{\n  \"id\": 3\n}"]);
}
