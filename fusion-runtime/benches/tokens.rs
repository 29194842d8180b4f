//! Speed of the token estimate (`encode::tokens::estimate`) in bytes per second, on the kinds of
//! text a response holds: the billing fixture as a pretty JSON data block and as TOON, rule
//! prose, non-ASCII text (German, Russian, Japanese, emoji), and the budget bench's wide rows of
//! non-ASCII text (`support/wide.rs`) as JSON and TOON data blocks. Throughput is the `bytes/s`
//! column.
//!
//! `cargo bench -p fusion-runtime --bench tokens`

use std::hint::black_box;
use std::sync::LazyLock;

use divan::counter::BytesCount;
use divan::{Bencher, Divan};
use fusion_runtime::present::Format;
use fusion_runtime::tokens::{TokenTally, estimate};
use fusion_runtime::toon::{self, ToonOptions};

#[path = "support/wide.rs"]
mod wide;

/// 400 wide rows of non-ASCII text as a data block in `format`.
fn wide_block(format: Format) -> String {
    let rows = wide::wide_rows(400);
    let response = wide::WideRow::present_all(&rows)
        .format(format)
        .build()
        .expect("the rows write");
    response.blocks()[0].clone()
}

static WIDE_JSON: LazyLock<String> = LazyLock::new(|| wide_block(Format::Json));

static WIDE_TOON: LazyLock<String> = LazyLock::new(|| wide_block(Format::Toon));

/// The billing fixture (120 invoices) as the wire format §3 JSON writer writes it.
static FIXTURE: LazyLock<serde_json::Value> = LazyLock::new(|| {
    serde_json::from_str(include_str!("../../examples/data/billing.json"))
        .expect("the billing fixture is valid JSON")
});

static JSON: LazyLock<String> = LazyLock::new(|| {
    fusion_runtime::testing::json::to_string(&*FIXTURE).expect("the fixture writes")
});

static TOON: LazyLock<String> = LazyLock::new(|| {
    toon::encode(&*FIXTURE, &ToonOptions::pipe()).expect("the fixture encodes as TOON")
});

/// Rule prose, 64 KiB of it.
static PROSE: LazyLock<String> = LazyLock::new(|| {
    repeat(
        "- Amounts are in cents; divide by 100 before showing them to the user.\n\
         - Mention overdue invoices first, oldest due date first, and say how many days late.\n\
         - If a list was truncated, say so and offer to narrow it with filters or _select.\n",
    )
});

/// German, Russian, Japanese and emoji lines, 64 KiB of them.
static NON_ASCII: LazyLock<String> = LazyLock::new(|| {
    repeat(
        "- Überfällige Rechnungen zuerst nennen, die älteste Fälligkeit zuerst.\n\
         - Сначала упомяни просроченные счета, начиная с самой ранней даты оплаты.\n\
         - 支払期限を過ぎた請求書を最初に、期限の古い順に挙げてください。\n\
         - ⚠️ Overdue by 12 days 😬 please send a reminder 📧\n",
    )
});

fn repeat(text: &str) -> String {
    text.repeat((64 * 1024) / text.len() + 1)
}

fn main() {
    // Force the texts before timing, and say what is timed.
    for (name, text) in [
        ("JSON", &*JSON),
        ("TOON", &*TOON),
        ("prose", &*PROSE),
        ("non-ASCII", &*NON_ASCII),
        ("wide rows JSON", &*WIDE_JSON),
        ("wide rows TOON", &*WIDE_TOON),
    ] {
        eprintln!(
            "{name}: {} bytes, estimated {} tokens",
            text.len(),
            estimate(text)
        );
    }
    Divan::from_args().main();
}

fn bench_text(bencher: Bencher<'_, '_>, text: &str) {
    bencher
        .counter(BytesCount::of_str(text))
        .bench(|| estimate(black_box(text)));
}

/// The fixture as a pretty JSON data block.
#[divan::bench]
fn billing_json(bencher: Bencher<'_, '_>) {
    bench_text(bencher, &JSON);
}

/// The fixture as TOON.
#[divan::bench]
fn billing_toon(bencher: Bencher<'_, '_>) {
    bench_text(bencher, &TOON);
}

/// English rule prose.
#[divan::bench]
fn prose(bencher: Bencher<'_, '_>) {
    bench_text(bencher, &PROSE);
}

/// German, Russian, Japanese and emoji text.
#[divan::bench]
fn non_ascii(bencher: Bencher<'_, '_>) {
    bench_text(bencher, &NON_ASCII);
}

/// 400 wide rows of non-ASCII text as a JSON data block.
#[divan::bench]
fn wide_rows_json(bencher: Bencher<'_, '_>) {
    bench_text(bencher, &WIDE_JSON);
}

/// The same rows as a TOON table.
#[divan::bench]
fn wide_rows_toon(bencher: Bencher<'_, '_>) {
    bench_text(bencher, &WIDE_TOON);
}

/// The JSON block fed line by line into one tally (what a fitting loop does with items).
#[divan::bench]
fn billing_json_by_lines(bencher: Bencher<'_, '_>) {
    let text: &str = &JSON;
    bencher.counter(BytesCount::of_str(text)).bench(|| {
        let mut tally = TokenTally::new();
        for line in black_box(text).split_inclusive('\n') {
            tally.push(line);
        }
        tally.tokens()
    });
}
