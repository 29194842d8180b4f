//! The cost of fitting a response to a token budget (wire format §17): 10,000 distinct billing
//! invoices (no agent limit) fitted to 2,000, 8,000 and 25,000 tokens, against rendering, without
//! a budget, the invoices each fit keeps. The target: fitting 10,000 items to 25,000
//! tokens costs at most 1.2x the second.
//!
//! Also the invoices as TOON (a list of nested items) and as a TOON table (a `_select` of the
//! invoice's flat members), and 20,000 wide rows of non-ASCII text (15 fields; Japanese,
//! Chinese, Russian, accented Latin, emoji: `support/wide.rs`) as JSON, compact JSON and TOON,
//! each fitted to 2,000, 8,000 and 25,000 tokens in `--ratio` (divan times the TOON cases at
//! 25,000 and the wide rows at every budget: `fit_20000_wide_rows`,
//! `render_the_kept_wide_rows`): issue #20's target is at most 1.5x for every one of these.
//!
//! `cargo bench -p fusion-runtime --bench budget` times each bench on its own (divan);
//! `cargo bench -p fusion-runtime --bench budget -- --ratio` times each fit and the render of what
//! it keeps in turn and prints the median ratio, the figure PERFORMANCE.md ("Fitting to a
//! budget") records; `-- --ratio --only CASE --profile fit` (or `render`) runs one side of the
//! cases named CASE for two seconds each, for a profiler. Not a timed test: nothing here asserts
//! a duration.

use std::sync::LazyLock;

use divan::Bencher;
use fusion_runtime::present::Format;
use fusion_runtime::tokens::estimate;
use fusion_runtime::{Selection, ToolResponse};

#[path = "support/billing.rs"]
mod billing;
#[path = "support/wide.rs"]
mod wide;

use billing::{derived, invoices};
use wide::WideRow;

static ALL: LazyLock<Vec<derived::InvoiceAll>> = LazyLock::new(|| invoices(10_000, true));

/// The wide rows of non-ASCII text.
static WIDE: LazyLock<Vec<WideRow>> = LazyLock::new(|| wide::wide_rows(20_000));

/// The formats of the wide rows' cases.
const FORMATS: [Format; 3] = [Format::Json, Format::CompactJson, Format::Toon];

/// The wide rows in `format` fitted to `budget`, and how many rows it keeps (from the budget
/// summary, wire format §17.3).
fn fitted_wide(format: Format, budget: usize) -> (ToolResponse, usize) {
    let response = fit_wide(format, budget);
    let kept = summary_count(&response);
    (response, kept)
}

/// The fit alone, as the benches time it: reading the kept count back from the response
/// (a search through every block) is no part of fitting.
fn fit_wide(format: Format, budget: usize) -> ToolResponse {
    WideRow::present_all(divan::black_box(&WIDE))
        .format(format)
        .max_tokens(budget)
        .build()
        .expect("writes")
}

/// The first `kept` wide rows in `format`, without a budget.
fn wide_of(format: Format, kept: usize) -> ToolResponse {
    WideRow::present_all(divan::black_box(&WIDE[..kept]))
        .format(format)
        .build()
        .expect("writes")
}

/// The count of kept items a budget summary states.
fn summary_count(response: &ToolResponse) -> usize {
    response
        .blocks()
        .iter()
        .find_map(|block| {
            let (_, rest) = block.split_once("Dataset truncated. ")?;
            rest.split(' ').next()?.parse().ok()
        })
        .expect("a budget summary")
}

/// A case of `--ratio`: its name, the items the fit keeps, the fit, the render of those items.
type Case = (String, usize, Box<dyn Fn()>, Box<dyn Fn()>);

/// `-- --ratio`: fit / render per budget, each round timing both back to back (a fit, then a
/// render of what it keeps, 20 times each), so that a machine whose speed drifts during the run
/// (a shared VM) weighs on both alike; prints the median and the spread of the rounds' ratios.
fn ratios() {
    const ROUNDS: usize = 301;
    const REPEATS: u32 = 20;
    // `-- --ratio --only wide`: only the cases whose name has `wide`.
    let args: Vec<String> = std::env::args().collect();
    let only = args
        .iter()
        .position(|arg| arg == "--only")
        .and_then(|at| args.get(at + 1).cloned());
    let time = |run: &dyn Fn()| {
        let start = std::time::Instant::now();
        for _ in 0..REPEATS {
            run();
        }
        start.elapsed() / REPEATS
    };
    let cases: Vec<Case> = billing_cases("JSON", kept, fitted, json_of)
        .chain(billing_cases(
            "TOON",
            |b| fitted_toon(b).1,
            fit_toon,
            toon_of,
        ))
        .chain(billing_cases(
            "TOON table",
            |b| fitted_table(b).1,
            |b| fitted_table(b).0,
            table_of,
        ))
        .chain(FORMATS.iter().flat_map(|&format| {
            BUDGETS.iter().map(move |&budget| {
                let kept = fitted_wide(format, budget).1;
                (
                    format!("wide rows {format:?}, budget {budget:>6}"),
                    kept,
                    Box::new(move || drop(divan::black_box(fit_wide(format, budget))))
                        as Box<dyn Fn()>,
                    Box::new(move || drop(divan::black_box(wide_of(format, kept))))
                        as Box<dyn Fn()>,
                )
            })
        }))
        .filter(|case: &Case| {
            only.as_ref()
                .is_none_or(|only| case.0.contains(only.as_str()))
        })
        .collect();
    // `-- --ratio --only CASE --profile fit|render`: that side of the cases alone, for two
    // seconds each, so that a profiler sees one side only.
    if let Some(side) = args
        .iter()
        .position(|arg| arg == "--profile")
        .and_then(|at| args.get(at + 1))
    {
        for (name, _, fit, render) in &cases {
            let run = if side == "render" { render } else { fit };
            let start = std::time::Instant::now();
            let mut runs = 0u64;
            while start.elapsed() < std::time::Duration::from_secs(2) {
                run();
                runs += 1;
            }
            println!("{name}: {side} {runs} times");
        }
        return;
    }
    for (name, kept, fit, render) in &cases {
        let mut rounds: Vec<(f64, std::time::Duration, std::time::Duration)> = (0..ROUNDS)
            .map(|_| {
                let (fit, render) = (time(fit), time(render));
                (fit.as_secs_f64() / render.as_secs_f64(), fit, render)
            })
            .collect();
        rounds.sort_by(|a, b| a.0.total_cmp(&b.0));
        let (low, median, high) = (
            rounds[ROUNDS / 10],
            rounds[ROUNDS / 2],
            rounds[ROUNDS * 9 / 10],
        );
        println!(
            "{name}: {kept:>3} kept; fit / render = {:.3}x (10th–90th percentile \
             {:.3}x–{:.3}x; at the median {:.1?} / {:.1?})",
            median.0, low.0, high.0, median.1, median.2
        );
    }
}

/// The `--ratio` cases of one way of presenting the invoices, one a budget: `kept`, the invoices
/// the fit to a budget keeps; `fit`, that fit; `render`, that many invoices without a budget.
fn billing_cases(
    name: &'static str,
    kept: fn(usize) -> usize,
    fit: fn(usize) -> ToolResponse,
    render: fn(usize) -> ToolResponse,
) -> impl Iterator<Item = Case> {
    BUDGETS.iter().map(move |&budget| {
        let kept = kept(budget);
        (
            format!("{name}, budget {budget:>6}"),
            kept,
            Box::new(move || drop(divan::black_box(fit(budget)))) as Box<dyn Fn()>,
            Box::new(move || drop(divan::black_box(render(kept)))) as Box<dyn Fn()>,
        )
    })
}

/// The first `kept` invoices as JSON, without a budget.
fn json_of(kept: usize) -> ToolResponse {
    derived::InvoiceAll::present_all(divan::black_box(&ALL[..kept]))
        .build()
        .expect("writes")
}

/// The budgets: 25,000 is Claude Code's default `MAX_MCP_OUTPUT_TOKENS`.
const BUDGETS: [usize; 3] = [2_000, 8_000, 25_000];

/// The whole collection fitted to `budget` tokens.
fn fitted(budget: usize) -> ToolResponse {
    derived::InvoiceAll::present_all(divan::black_box(&ALL))
        .max_tokens(budget)
        .build()
        .expect("writes")
}

/// How many invoices the response fitted to `budget` keeps.
fn kept(budget: usize) -> usize {
    let data: serde_json::Value =
        serde_json::from_str(&fitted(budget).blocks()[0]).expect("parses");
    data.as_array().expect("a list").len()
}

fn main() {
    if std::env::args().any(|arg| arg == "--ratio") {
        ratios();
        return;
    }
    // Before timing: each fitted data block is exactly the unbudgeted data block of the kept
    // invoices, so the two benches of a budget write the same data.
    for budget in BUDGETS {
        let kept = kept(budget);
        let fitted = fitted(budget);
        assert_eq!(fitted.blocks()[0], json_of(kept).blocks()[0]);
        let bytes: Vec<usize> = fitted.blocks().iter().map(String::len).collect();
        let tokens: Vec<usize> = fitted.blocks().iter().map(|b| estimate(b)).collect();
        eprintln!(
            "fitted to {budget} tokens: {kept} of {} invoices; blocks of {bytes:?} bytes, \
             {tokens:?} estimated tokens",
            ALL.len(),
        );
    }
    let (fitted, kept) = fitted_toon(TOON_BUDGET);
    assert_eq!(fitted.blocks()[0], toon_of(kept).blocks()[0]);
    eprintln!("as TOON, fitted to {TOON_BUDGET} tokens: {kept} invoices");
    let (fitted, kept) = fitted_table(TOON_BUDGET);
    assert_eq!(fitted.blocks()[0], table_of(kept).blocks()[0]);
    eprintln!("as a TOON table of flat members, fitted to {TOON_BUDGET} tokens: {kept} invoices");
    for format in FORMATS {
        for budget in BUDGETS {
            let (fitted, kept) = fitted_wide(format, budget);
            let plain = wide_of(format, kept);
            assert_eq!(fitted.blocks()[0], plain.blocks()[0]);
            eprintln!(
                "wide rows as {format:?}, fitted to {budget} tokens: {kept} of {} rows, {} bytes",
                WIDE.len(),
                fitted.blocks()[0].len()
            );
        }
    }
    divan::main();
}

/// The budget of the TOON cases divan times (`--ratio` times every budget).
const TOON_BUDGET: usize = 25_000;

/// The whole collection as TOON fitted to `budget` tokens, and how many invoices it keeps (from
/// the budget summary, wire format §17.3).
fn fitted_toon(budget: usize) -> (ToolResponse, usize) {
    let response = fit_toon(budget);
    let kept = response
        .blocks()
        .iter()
        .find_map(|block| {
            let (_, rest) = block.split_once("Dataset truncated. ")?;
            rest.split(' ').next()?.parse().ok()
        })
        .expect("a budget summary");
    (response, kept)
}

/// The TOON fit alone, as the bench times it (the kept count read back is no part of it).
fn fit_toon(budget: usize) -> ToolResponse {
    derived::InvoiceAll::present_all(divan::black_box(&ALL))
        .format(Format::Toon)
        .max_tokens(budget)
        .build()
        .expect("writes")
}

/// The kept invoices as TOON, without a budget.
fn toon_of(kept: usize) -> ToolResponse {
    derived::InvoiceAll::present_all(divan::black_box(&ALL[..kept]))
        .format(Format::Toon)
        .build()
        .expect("writes")
}

/// The flat members of an invoice: with this `_select` a TOON collection is a table, fitted from
/// one write of its rows (PERFORMANCE.md, "Fitting to a budget").
static FLAT: LazyLock<Selection> = LazyLock::new(|| {
    Selection::new([
        "id",
        "amount_cents",
        "currency",
        "status",
        "issued_at",
        "due_at",
    ])
});

/// The whole collection as a TOON table of the [`FLAT`] members fitted to `budget` tokens, and
/// how many invoices it keeps.
fn fitted_table(budget: usize) -> (ToolResponse, usize) {
    let response = derived::InvoiceAll::present_all(divan::black_box(&ALL))
        .select(&FLAT)
        .format(Format::Toon)
        .max_tokens(budget)
        .build()
        .expect("writes");
    let kept = response.blocks()[0]
        .strip_prefix('[')
        .and_then(|rest| rest.split('|').next())
        .and_then(|count| count.parse().ok())
        .expect("a table header");
    (response, kept)
}

/// The kept invoices as the same table, without a budget.
fn table_of(kept: usize) -> ToolResponse {
    derived::InvoiceAll::present_all(divan::black_box(&ALL[..kept]))
        .select(&FLAT)
        .format(Format::Toon)
        .build()
        .expect("writes")
}

/// The whole collection as a TOON table with a budget of 25,000 tokens.
#[divan::bench]
fn fit_10000_invoices_as_a_toon_table() -> ToolResponse {
    fitted_table(TOON_BUDGET).0
}

/// The invoices the TOON table fit keeps, as the same table without a budget.
#[divan::bench]
fn render_the_kept_invoices_as_a_toon_table(bencher: Bencher<'_, '_>) {
    let kept = fitted_table(TOON_BUDGET).1;
    bencher.bench(|| table_of(kept));
}

/// The whole collection with a budget.
#[divan::bench(args = BUDGETS)]
fn fit_10000_invoices(budget: usize) -> ToolResponse {
    fitted(budget)
}

/// The invoices the fit to a budget keeps, without a budget: what the fit is measured against.
#[divan::bench(args = BUDGETS)]
fn render_the_kept_invoices(bencher: Bencher<'_, '_>, budget: usize) {
    let kept = kept(budget);
    bencher.bench(|| json_of(kept));
}

/// The whole collection as TOON with a budget of 25,000 tokens.
#[divan::bench]
fn fit_10000_invoices_as_toon() -> ToolResponse {
    fit_toon(TOON_BUDGET)
}

/// The invoices the TOON fit keeps, as TOON without a budget.
#[divan::bench]
fn render_the_kept_invoices_as_toon(bencher: Bencher<'_, '_>) {
    let kept = fitted_toon(TOON_BUDGET).1;
    bencher.bench(|| toon_of(kept));
}

/// The 20,000 wide rows of non-ASCII text with a budget, as JSON and as TOON.
#[divan::bench(args = [(Format::Json, 2_000), (Format::Json, 8_000), (Format::Json, 25_000), (Format::Toon, 2_000), (Format::Toon, 8_000), (Format::Toon, 25_000)])]
fn fit_20000_wide_rows(case: (Format, usize)) -> ToolResponse {
    fit_wide(case.0, case.1)
}

/// The wide rows each fit keeps, without a budget.
#[divan::bench(args = [(Format::Json, 2_000), (Format::Json, 8_000), (Format::Json, 25_000), (Format::Toon, 2_000), (Format::Toon, 8_000), (Format::Toon, 25_000)])]
fn render_the_kept_wide_rows(bencher: Bencher<'_, '_>, case: (Format, usize)) {
    let kept = fitted_wide(case.0, case.1).1;
    bencher.bench(|| wide_of(case.0, kept));
}
