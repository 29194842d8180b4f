//! How much of the room a response budget leaves on the table (issue #20): for a mixed set of
//! cases (the billing invoices and the wide rows of non-ASCII text of `fusion_examples::wide`,
//! JSON and TOON, with and without `_select`, with no other blocks and with large ones), at
//! 2,000, 8,000 and 25,000 tokens, what `present_all(..).max_tokens(B)` keeps against the
//! *exact-maximal* prefix: the longest k whose response (the k items without a budget, plus the
//! budget summary of wire format §17.3) has an exact `o200k_base` count of at most B. Also the
//! exact count of the fitted response (it must never exceed B) and its estimate / exact.
//!
//! `cargo run --release -p fusion-examples --features token-report --bin budget_report`
//! (`-- --quick`: the 2,000-token budget only; `-- --exact`: also the fit kept by the exact
//! count, `exact_tokens`, with what it keeps and its time, the median of five; `-- --margins`:
//! what the estimate would keep with half the room's margin and with none, the trade the
//! margin makes; `-- --needed`: what keeping 97% of the exact-maximal prefix asks of any
//! estimate, the highest estimate / exact at which the response of 97% of its items is within
//! the budget and within the room, against the runtime estimate's own). Fails when a fitted
//! response is over its budget by the exact count, an exact fit keeps other than the
//! exact-maximal prefix, or (`--margins`) a fit keeps other than the longest prefix whose
//! estimate is within its room by a search of the report's own. The tables
//! of PERFORMANCE.md ("Fitting to a budget", room left; "round seven"; "round ten"; "round
//! fifteen").

#[path = "../../../fusion-runtime/benches/support/billing.rs"]
mod billing;

use std::process::ExitCode;

use fusion_examples::token_corpus::{margin, thousands};
use fusion_examples::wide::{self, WideRow, WideRowUi};
use fusion_runtime::present::{Format, Present};
use fusion_runtime::tokens::{Estimator, ExactCounter, TokenCounter, estimate};
use fusion_runtime::{Presenter, Selection, ToolResponse};

use billing::derived::InvoiceAll;

/// The budgets of the bench.
const BUDGETS: [usize; 3] = [2_000, 8_000, 25_000];

/// A case: its name and its response for a prefix of `k` items, with a budget or without.
struct Case {
    name: String,
    total: usize,
    /// The response of the first `k` items, fitted to a budget when one is given (by the exact
    /// count when `exactly`).
    respond: Box<dyn Fn(usize, Option<usize>, bool) -> ToolResponse>,
}

fn case<T: Presenter + 'static>(
    name: &str,
    items: &'static [T],
    select: Option<&'static Selection>,
    format: Format,
) -> Case {
    Case {
        name: name.to_owned(),
        total: items.len(),
        respond: Box::new(move |k, budget, exactly| {
            let mut presentation = T::present_all(&items[..k]).format(format);
            if let Some(selection) = select {
                presentation = presentation.select(selection);
            }
            if let Some(budget) = budget {
                presentation = presentation.max_tokens(budget);
            }
            if exactly {
                presentation = presentation.exact_tokens();
            }
            presentation.build().expect("writes")
        }),
    }
}

fn leak<T>(value: T) -> &'static T {
    Box::leak(Box::new(value))
}

fn cases() -> Vec<Case> {
    let invoices: &'static [InvoiceAll] = leak(billing::invoices(10_000, true));
    let rows: &'static [WideRow] = leak(wide::wide_rows(20_000));
    let rows_ui: &'static [WideRowUi] = leak(wide::wide_rows_ui(20_000));
    let flat = leak(Selection::new([
        "id",
        "amount_cents",
        "currency",
        "status",
        "issued_at",
        "due_at",
    ]));
    let narrow = leak(Selection::new(wide::SELECT));
    vec![
        case("billing JSON", invoices, None, Format::Json),
        case(
            "billing JSON, _select flat",
            invoices,
            Some(flat),
            Format::Json,
        ),
        case("billing TOON", invoices, None, Format::Toon),
        case(
            "billing TOON table, _select flat",
            invoices,
            Some(flat),
            Format::Toon,
        ),
        case("wide JSON", rows, None, Format::Json),
        case("wide JSON, _select", rows, Some(narrow), Format::Json),
        case("wide TOON", rows, None, Format::Toon),
        case("wide TOON, _select", rows, Some(narrow), Format::Toon),
        case("wide + blocks JSON", rows_ui, None, Format::Json),
        case("wide + blocks TOON", rows_ui, None, Format::Toon),
    ]
}

/// How many items a fitted response keeps: from its budget summary, or all of them.
fn kept(response: &ToolResponse, total: usize) -> usize {
    response
        .blocks()
        .iter()
        .find_map(|block| {
            let (_, rest) = block.split_once("Dataset truncated. ")?;
            rest.split(' ').next()?.parse().ok()
        })
        .unwrap_or(total)
}

/// The exact-maximal prefix of a case at `budget`: the longest k whose k items without a budget,
/// with the budget's summary of k (as `fitted`, which keeps `k`, shows it), count at most
/// `budget` exactly.
fn exact_maximal(
    case: &Case,
    budget: usize,
    fitted: &ToolResponse,
    k: usize,
    exact: &ExactCounter,
) -> usize {
    maximal(case, fitted, k, budget, exact)
}

/// The longest k whose k items without a budget, with the budget's summary of k (as `fitted`,
/// which keeps `k`, shows it), count at most `limit` by `counter`; found by galloping up from
/// `k` (or down), then halving.
fn maximal(
    case: &Case,
    fitted: &ToolResponse,
    k: usize,
    limit: usize,
    counter: &dyn TokenCounter,
) -> usize {
    let summary = summary_of(fitted);
    let count_of = |j: usize| Prefix::at(case, summary, k, j).count(counter);
    let at_k = count_of(k);
    let (mut good, mut bad) = if at_k <= limit {
        let mut step = 1;
        let mut good = k;
        loop {
            let next = (good + step).min(case.total);
            if count_of(next) > limit {
                break (good, next);
            }
            if next == case.total {
                break (next, next + 1);
            }
            good = next;
            step *= 2;
        }
    } else {
        // `k` itself is over (counted above): halving from there.
        let (mut low, mut high) = (k / 2, k);
        while low > 0 && count_of(low) > limit {
            high = low;
            low /= 2;
        }
        (low, high)
    };
    while bad - good > 1 {
        let middle = good + (bad - good) / 2;
        if count_of(middle) <= limit {
            good = middle;
        } else {
            bad = middle;
        }
    }
    good
}

/// The budget summary a fitted response shows.
fn summary_of(fitted: &ToolResponse) -> &str {
    fitted
        .blocks()
        .iter()
        .find(|block| block.contains("Dataset truncated. "))
        .expect("a budget summary")
}

/// A case's first `j` items without a budget, with the budget's summary of `j`.
struct Prefix {
    response: ToolResponse,
    summary: String,
}

impl Prefix {
    /// The prefix of `j` items, its summary made from `summary`, the one that `k` items show.
    fn at(case: &Case, summary: &str, k: usize, j: usize) -> Self {
        Prefix {
            response: (case.respond)(j, None, false),
            summary: summary.replace(
                &format!("{k} of {}", case.total),
                &format!("{j} of {}", case.total),
            ),
        }
    }

    /// Its count by `counter`: the blocks' and the summary's.
    fn count(&self, counter: &dyn TokenCounter) -> usize {
        count(&self.response, counter) + counter.count(&self.summary)
    }
}

/// What keeping 97% of a case's exact-maximal prefix `good` asks of any estimate (`--needed`):
/// the response of the fewest items that are 97% of it, its exact count, the highest estimate /
/// exact at which that response is still within the budget itself (no margin at all) and
/// within the runtime's room, and the estimate / exact the runtime's estimate has on it.
fn needed(
    case: &Case,
    budget: usize,
    fitted: &ToolResponse,
    k: usize,
    good: usize,
    exact: &ExactCounter,
) -> String {
    // The fewest items that are 97% of `good`: ⌈0.97 good⌉.
    let least = (97 * good).div_ceil(100);
    let prefix = Prefix::at(case, summary_of(fitted), k, least);
    let (counted, estimated) = (prefix.count(exact), prefix.count(&Estimator));
    #[allow(clippy::cast_precision_loss, reason = "small counts")]
    let ratio = |top: usize| top as f64 / counted as f64;
    format!(
        " {least} | {} | {:.3} | {:.3} | {:.3} |",
        thousands(counted),
        ratio(budget),
        ratio(room_with(budget, Some(2))),
        ratio(estimated),
    )
}

/// The margins `--margins` compares, c in B − (c⌈√B⌉ + 4): the runtime's (2), half of it (1),
/// and none (the estimate held to B itself, `None`).
const MARGINS: [Option<usize>; 3] = [Some(2), Some(1), None];

/// The room of a budget under a margin of `MARGINS`.
fn room_with(budget: usize, c: Option<usize>) -> usize {
    c.map_or(budget, |c| budget.saturating_sub(margin(budget, c)))
}

/// A case fitted to `budget` by the exact count (`exact_tokens`): the items it keeps, its exact
/// count and the median of five fits' times, in milliseconds (after one to load the vocabulary).
fn fitted_exactly(case: &Case, budget: usize, exact: &ExactCounter) -> (usize, usize, f64) {
    drop((case.respond)(case.total, Some(budget), true));
    let mut times = Vec::with_capacity(5);
    let mut response = None;
    for _ in 0..5 {
        let start = std::time::Instant::now();
        response = Some((case.respond)(case.total, Some(budget), true));
        times.push(start.elapsed().as_secs_f64() * 1_000.0);
    }
    times.sort_by(f64::total_cmp);
    let response = response.expect("fitted five times");
    (
        kept(&response, case.total),
        count(&response, exact),
        times[times.len() / 2],
    )
}

/// The `--margins` table: per case and budget, the longest prefix whose estimate is within the
/// room of each margin against the exact-maximal one; then per margin, the items kept of all
/// the exact-maximal items, the cases at 97% or more, and the prefixes over their budget by the
/// exact count (longer than the exact-maximal one).
fn print_margins(rows: &[(String, usize, usize, Vec<usize>)]) {
    println!(
        "\n| case | budget | exact-maximal | kept at B − (2⌈√B⌉ + 4) | at B − (⌈√B⌉ + 4) | at B |\n\
         |---|---|---|---|---|---|"
    );
    #[allow(clippy::cast_precision_loss, reason = "small counts")]
    let percent = |part: usize, whole: usize| 100.0 * part as f64 / whole.max(1) as f64;
    for (name, budget, good, kept_at) in rows {
        let cells: Vec<String> = kept_at
            .iter()
            .map(|&k| format!("{k} ({:.1}%)", percent(k, *good)))
            .collect();
        println!(
            "| {name} | {} | {good} | {} |",
            thousands(*budget),
            cells.join(" | ")
        );
    }
    let all: usize = rows.iter().map(|row| row.2).sum();
    for (index, name) in ["B − (2⌈√B⌉ + 4)", "B − (⌈√B⌉ + 4)", "B"]
        .iter()
        .enumerate()
    {
        let kept: usize = rows.iter().map(|row| row.3[index].min(row.2)).sum();
        let at_97 = rows
            .iter()
            .filter(|row| percent(row.3[index], row.2) >= 97.0)
            .count();
        let over = rows.iter().filter(|row| row.3[index] > row.2).count();
        println!(
            "room {name}: {kept} of {all} exact-maximal items kept ({:.2}%), {at_97} of {} \
             cases at 97% or more, {over} over the budget by the exact count",
            percent(kept, all),
            rows.len()
        );
    }
}

/// The table's columns past the fit's own, with `--exact` or `--needed`: their heads and rules.
fn extra_columns(exactly: bool, needs: bool) -> (&'static str, &'static str) {
    if exactly {
        (
            " kept by the exact count | its exact count | its ms |",
            "---|---|---|",
        )
    } else if needs {
        (
            " 97% of it | its exact count | highest estimate / exact within B | \
             within the room | the estimate's |",
            "---|---|---|---|---|",
        )
    } else {
        ("", "")
    }
}

/// The sum over the blocks (wire format §17.2).
fn count(response: &ToolResponse, counter: &(impl TokenCounter + ?Sized)) -> usize {
    response.blocks().iter().map(|b| counter.count(b)).sum()
}

fn main() -> ExitCode {
    let quick = std::env::args().any(|arg| arg == "--quick");
    let exactly = std::env::args().any(|arg| arg == "--exact");
    let margins = std::env::args().any(|arg| arg == "--margins");
    let needs = std::env::args().any(|arg| arg == "--needed");
    let exact = ExactCounter::o200k().expect("the o200k_base vocabulary loads");
    let budgets: &[usize] = if quick { &BUDGETS[..1] } else { &BUDGETS };
    let (more, more_rule) = extra_columns(exactly, needs);
    println!(
        "| case | budget | kept | exact-maximal | kept / exact-maximal | exact of the fitted | \
         estimate / exact |{more}\n|---|---|---|---|---|---|---|{more_rule}"
    );
    let mut over = 0;
    // Exact fits that keep other than the exact-maximal prefix, or exceed the budget.
    let mut wrong = 0;
    let mut worst: f64 = 1.0;
    // Per case and budget, with `--margins`: the exact-maximal prefix, and the longest prefix
    // whose estimate is within the room of each of `MARGINS`.
    let mut by_margin: Vec<(String, usize, usize, Vec<usize>)> = Vec::new();
    // Fits that keep other than the longest prefix within their room (`--margins`).
    let mut off_room = 0;
    for case in cases() {
        for &budget in budgets {
            let fitted = (case.respond)(case.total, Some(budget), false);
            if fitted.is_error() == Some(true) {
                println!(
                    "| {} | {} | none fits | | | | |",
                    case.name,
                    thousands(budget)
                );
                continue;
            }
            let k = kept(&fitted, case.total);
            let good = exact_maximal(&case, budget, &fitted, k, &exact);
            if margins {
                let kept_at: Vec<usize> = MARGINS
                    .iter()
                    .map(|&c| maximal(&case, &fitted, k, room_with(budget, c), &Estimator))
                    .collect();
                // The runtime's own margin: the fit must keep what an independent search of
                // the estimate keeps.
                if kept_at[0] != k {
                    off_room += 1;
                }
                by_margin.push((case.name.clone(), budget, good, kept_at));
            }
            let exact_fitted = count(&fitted, &exact);
            let estimated: usize = fitted.blocks().iter().map(|b| estimate(b)).sum();
            #[allow(clippy::cast_precision_loss, reason = "small counts")]
            let (share, ratio) = (
                k as f64 / good.max(1) as f64,
                estimated as f64 / exact_fitted as f64,
            );
            worst = worst.min(share);
            let flag = if exact_fitted > budget {
                over += 1;
                " **over**"
            } else {
                ""
            };
            let by_exact = if exactly {
                let (kept_exactly, counted, millis) = fitted_exactly(&case, budget, &exact);
                if kept_exactly != good || counted > budget {
                    wrong += 1;
                }
                format!(" {kept_exactly} | {} | {millis:.1} |", thousands(counted))
            } else if needs {
                needed(&case, budget, &fitted, k, good, &exact)
            } else {
                String::new()
            };
            println!(
                "| {} | {} | {k} | {good} | {:.1}% | {}{flag} | {ratio:.3} |{by_exact}",
                case.name,
                thousands(budget),
                share * 100.0,
                thousands(exact_fitted),
            );
        }
    }
    println!(
        "\nlowest kept / exact-maximal: {:.1}%; fitted responses over the budget by the exact \
         count: {over}",
        worst * 100.0
    );
    if exactly {
        println!("exact fits that keep other than the exact-maximal prefix: {wrong}");
    }
    if margins {
        print_margins(&by_margin);
        println!("fits that keep other than the longest prefix within their room: {off_room}");
    }
    if over == 0 && wrong == 0 && off_room == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
