//! Rendering whole responses of the billing models (wire format semantics), in four cases, each with
//! three contenders measured side by side in one run:
//!
//! - `derived`: the models with `#[derive(Presenter)]`;
//! - `by_hand`: the same presenters written by hand against the runtime API (`Model`,
//!   `Presenter`, `Embed`), presented by the same engine;
//! - `floor_pretty_json`: `serde_json::to_string_pretty` of the data block's value alone (the
//!   wire form of the shown invoices; for `_select`, of the selected value), the cost of the
//!   data with no blocks at all;
//! - `spec_json_writer`: our wire format §3 JSON writer (`fusion_runtime::testing::json::to_string`) on that
//!   same value, to tell the writer's share from the engine's;
//! - `floor_all_json` (single invoices only): `serde_json::to_string_pretty` of the data block's
//!   value and of the gauge's echarts config, built as the gauge callback builds it (a typed
//!   `Serialize` struct): all the JSON the response holds, without the blocks around it.
//!
//! Cases: one invoice (INV-0001, as V70), one invoice with `_select` of 2 fields (`id`,
//! `status`, as V71), the fixture's 120 invoices with the agent limit of 50 (as V75), and
//! 10,000 distinct invoices (the fixture cycled, renumbered) with no agent limit.
//!
//! `cargo bench -p fusion-runtime --bench presenter` (PERFORMANCE.md explains the method).

use std::sync::LazyLock;

use fusion_runtime::{Selection, ToolResponse};

#[path = "support/billing.rs"]
mod billing;

use billing::{by_hand, derived, invoices};

static LIST_D: LazyLock<Vec<derived::Invoice>> = LazyLock::new(|| invoices(120, false));
static LIST_H: LazyLock<Vec<by_hand::Invoice>> = LazyLock::new(|| invoices(120, false));
static ALL_D: LazyLock<Vec<derived::InvoiceAll>> = LazyLock::new(|| invoices(10_000, true));
static ALL_H: LazyLock<Vec<by_hand::InvoiceAll>> = LazyLock::new(|| invoices(10_000, true));
static SELECTION: LazyLock<Selection> = LazyLock::new(|| Selection::new(["id", "status"]));

/// The selected value of INV-0001 under `_select: ["id", "status"]`, as plain serde data.
#[derive(serde::Serialize)]
struct IdStatus {
    id: String,
    status: String,
}

static SELECTED_FLOOR: LazyLock<IdStatus> = LazyLock::new(|| IdStatus {
    id: LIST_D[0].id.clone(),
    status: LIST_D[0].status.clone(),
});

/// The agent limit of BILLING.md: the data block of the 120-invoice list holds 50.
const LIMIT: usize = 50;

fn main() {
    // Before timing: derived and hand-written write the same blocks, and the data block is the
    // floor's own bytes (no floats, no tag starts in this data), or a ratio would compare
    // different work.
    let cases: [(&str, ToolResponse, ToolResponse, String); 4] = [
        (
            "one invoice",
            one_invoice::derived(),
            one_invoice::by_hand(),
            pretty(&LIST_D[0]),
        ),
        (
            "one invoice, _select",
            one_invoice_select_2::derived(),
            one_invoice_select_2::by_hand(),
            pretty(&*SELECTED_FLOOR),
        ),
        (
            "120 invoices, limit 50",
            list_120_limit_50::derived(),
            list_120_limit_50::by_hand(),
            pretty(&LIST_D[..LIMIT]),
        ),
        (
            "10,000 invoices",
            list_10000_no_limit::derived(),
            list_10000_no_limit::by_hand(),
            pretty(&*ALL_D),
        ),
    ];
    let gauge = |value: f64| {
        (
            fusion_runtime::ui::echarts(billing::gauge_config(value))
                .content()
                .to_owned(),
            fusion_runtime::ui::echarts(billing::gauge_config_json(value))
                .content()
                .to_owned(),
        )
    };
    let (typed, json) = gauge(12.5);
    assert_eq!(
        typed, json,
        "the typed gauge config writes other bytes than json!"
    );
    for (name, derived, by_hand, floor) in &cases {
        assert_eq!(
            derived.blocks(),
            by_hand.blocks(),
            "{name}: derived != by hand"
        );
        assert_eq!(derived.blocks()[0], *floor, "{name}: data block != floor");
        let rest: usize = derived.blocks()[1..].iter().map(String::len).sum();
        eprintln!(
            "{name}: {} blocks, data block {} bytes, other blocks {rest} bytes",
            derived.blocks().len(),
            floor.len()
        );
    }
    divan::main();
}

fn pretty<T: serde::Serialize + ?Sized>(value: &T) -> String {
    serde_json::to_string_pretty(value).expect("writes")
}

fn spec_json<T: serde::Serialize + ?Sized>(value: &T) -> String {
    fusion_runtime::testing::json::to_string(value).expect("writes")
}

/// `serde_json::to_string_pretty` of `data` and of the gauge config of `invoice`.
#[allow(clippy::cast_precision_loss, reason = "a chart value")]
fn all_json<T: serde::Serialize + ?Sized>(
    data: &T,
    invoice: &derived::Invoice,
) -> (String, String) {
    let config = billing::gauge_config(invoice.amount_cents as f64 / 100.0);
    (pretty(data), pretty(&config))
}

/// INV-0001 (paid: gauge, two embeds, static rules), as V70.
mod one_invoice {
    use super::{LIST_D, LIST_H, ToolResponse, all_json, pretty, spec_json};
    use divan::black_box;

    #[divan::bench]
    pub fn derived() -> ToolResponse {
        black_box(&LIST_D[0]).present().build().expect("writes")
    }

    #[divan::bench]
    pub fn by_hand() -> ToolResponse {
        fusion_runtime::present::present(black_box(&LIST_H[0]))
            .build()
            .expect("writes")
    }

    #[divan::bench]
    fn floor_pretty_json() -> String {
        pretty(black_box(&LIST_D[0]))
    }

    #[divan::bench]
    fn spec_json_writer() -> String {
        spec_json(black_box(&LIST_D[0]))
    }

    #[divan::bench]
    fn floor_all_json() -> (String, String) {
        let invoice = black_box(&LIST_D[0]);
        all_json(invoice, invoice)
    }
}

/// INV-0001 with `_select: ["id", "status"]`, as V71.
mod one_invoice_select_2 {
    use super::{
        LIST_D, LIST_H, SELECTED_FLOOR, SELECTION, ToolResponse, all_json, pretty, spec_json,
    };
    use divan::black_box;

    #[divan::bench]
    pub fn derived() -> ToolResponse {
        black_box(&LIST_D[0])
            .present()
            .select(&SELECTION)
            .build()
            .expect("writes")
    }

    #[divan::bench]
    pub fn by_hand() -> ToolResponse {
        fusion_runtime::present::present(black_box(&LIST_H[0]))
            .select(&SELECTION)
            .build()
            .expect("writes")
    }

    #[divan::bench]
    fn floor_pretty_json() -> String {
        pretty(black_box(&*SELECTED_FLOOR))
    }

    #[divan::bench]
    fn spec_json_writer() -> String {
        spec_json(black_box(&*SELECTED_FLOOR))
    }

    #[divan::bench]
    fn floor_all_json() -> (String, String) {
        all_json(black_box(&*SELECTED_FLOOR), black_box(&LIST_D[0]))
    }
}

/// The fixture's 120 invoices with the agent limit of 50 (truncation summary), as V75.
mod list_120_limit_50 {
    use super::{LIMIT, LIST_D, LIST_H, ToolResponse, by_hand, derived, pretty, spec_json};
    use divan::black_box;

    #[divan::bench]
    pub fn derived() -> ToolResponse {
        derived::Invoice::present_all(black_box(&LIST_D))
            .build()
            .expect("writes")
    }

    #[divan::bench]
    pub fn by_hand() -> ToolResponse {
        fusion_runtime::present::present_all::<by_hand::Invoice>(black_box(&LIST_H))
            .build()
            .expect("writes")
    }

    #[divan::bench]
    fn floor_pretty_json() -> String {
        pretty(black_box(&LIST_D[..LIMIT]))
    }

    #[divan::bench]
    fn spec_json_writer() -> String {
        spec_json(black_box(&LIST_D[..LIMIT]))
    }
}

/// 10,000 distinct invoices, no agent limit: every invoice's rules, suggestions and embeds.
mod list_10000_no_limit {
    use super::{ALL_D, ALL_H, ToolResponse, by_hand, derived, pretty, spec_json};
    use divan::black_box;

    #[divan::bench]
    pub fn derived() -> ToolResponse {
        derived::InvoiceAll::present_all(black_box(&ALL_D))
            .build()
            .expect("writes")
    }

    #[divan::bench]
    pub fn by_hand() -> ToolResponse {
        fusion_runtime::present::present_all::<by_hand::InvoiceAll>(black_box(&ALL_H))
            .build()
            .expect("writes")
    }

    #[divan::bench]
    fn floor_pretty_json() -> String {
        pretty(black_box(&**ALL_D))
    }

    #[divan::bench]
    fn spec_json_writer() -> String {
        spec_json(black_box(&**ALL_D))
    }
}
