//! Whether the room of a fit (wire format §17.2: B − (2⌈√B⌉ + 4)) covers the estimate's
//! shortfall on text it was not fitted on (issue #20, A.23).
//!
//! 1. Random responses: rows of random billing words (as the budget's property test makes them)
//!    and windows of the wide rows of non-ASCII text, JSON and TOON, with and without `_select`
//!    and other blocks; per size, the lowest estimate / exact and the largest shortfall in
//!    tokens, against the margin at that size.
//! 2. Rows of one script each (the wide rows take seven scripts in turn), fitted to budgets of
//!    200 to 6,000 tokens: how many fitted responses exceed their budget by the exact count.
//!
//! `cargo run --release -p fusion-examples --features token-report --bin budget_margin`. Fails
//! when a shortfall exceeds the margin or a fitted response exceeds its budget. The tables of
//! PERFORMANCE.md ("the room").

use std::process::ExitCode;

use fusion_examples::token_corpus::{NOTE_WORDS, margin};
use fusion_examples::wide::{self, WideRow, WideRowUi};
use fusion_runtime::present::Format;
use fusion_runtime::tokens::{ExactCounter, TokenCounter, estimate};
use fusion_runtime::{Presenter, Selection, ToolResponse};

/// A row of random words with a dynamic rule, as in `tests/tests/present/budget.rs`.
#[derive(Presenter, Clone, Debug)]
#[rule(when = Self::is_flagged, text = "Row {id} is flagged.")]
struct Row {
    id: u32,
    note: String,
    flagged: bool,
}

impl Row {
    fn is_flagged(&self) -> bool {
        self.flagged
    }
}

/// A fixed-seed generator, so every run measures the same responses.
struct Random(u64);

impl Random {
    fn below(&mut self, bound: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        usize::try_from((self.0 >> 33) % bound as u64).unwrap_or(0)
    }
}

/// `part / whole` of two token counts.
#[allow(clippy::cast_precision_loss, reason = "token counts far below 2^52")]
fn ratio(part: usize, whole: usize) -> f64 {
    part as f64 / whole.max(1) as f64
}

/// Estimate and exact count of a response (the sums over its text blocks).
fn counts(response: &ToolResponse, exact: &ExactCounter) -> (usize, usize) {
    let blocks = response.blocks();
    (
        blocks.iter().map(|block| estimate(block)).sum(),
        blocks.iter().map(|block| exact.count(block)).sum(),
    )
}

const FORMATS: [Format; 2] = [Format::Json, Format::Toon];

fn main() -> ExitCode {
    let exact = ExactCounter::o200k().expect("the o200k vocabulary loads");
    let rows = wide::wide_rows(4_000);
    let samples = random_responses(&exact, &rows);
    let mut failed = shortfalls(&samples);
    under_at_all(&samples);
    failed |= one_script(&exact, &rows);
    if failed {
        eprintln!("a shortfall exceeds the margin, or a fitted response exceeds its budget");
        return ExitCode::FAILURE;
    }
    ExitCode::SUCCESS
}

/// How many of the random responses are word-soup rows (the first ones); the rest are windows of
/// the wide rows.
const SOUPS: usize = 4_000;

/// (estimate, exact) of random responses of word-soup rows and windows of the wide rows.
fn random_responses(exact: &ExactCounter, rows: &[WideRow]) -> Vec<(usize, usize)> {
    let mut random = Random(42);
    let formats = FORMATS;
    let mut samples: Vec<(usize, usize)> = Vec::new();
    for round in 0..SOUPS {
        let items = random.below(if round % 3 == 0 { 300 } else { 60 }) + 1;
        let most_words = random.below(12) + 1;
        let rows: Vec<Row> = (0..items)
            .map(|index| {
                let words: Vec<&str> = (0..random.below(most_words))
                    .map(|_| NOTE_WORDS[random.below(NOTE_WORDS.len())])
                    .collect();
                Row {
                    id: u32::try_from(index).unwrap_or(u32::MAX),
                    note: words.join(" "),
                    flagged: index % 7 == 3,
                }
            })
            .collect();
        let selection = if random.below(2) == 0 {
            Selection::new(["id", "note"])
        } else {
            Selection::default()
        };
        let response = Row::present_all(&rows)
            .select(&selection)
            .format(formats[random.below(2)])
            .build()
            .expect("writes");
        samples.push(counts(&response, exact));
    }
    let rows_ui = wide::wide_rows_ui(4_000);
    let narrow = Selection::new(wide::SELECT);
    let every = Selection::default();
    for round in 0..1_500 {
        let start = random.below(3_000);
        let end = (start + 1 + random.below(if round % 4 == 0 { 400 } else { 40 })).min(4_000);
        let format = formats[random.below(2)];
        let selection = if random.below(2) == 0 {
            &narrow
        } else {
            &every
        };
        let response = if random.below(2) == 0 {
            WideRow::present_all(&rows[start..end])
                .select(selection)
                .format(format)
                .build()
        } else {
            WideRowUi::present_all(&rows_ui[start..end])
                .select(selection)
                .format(format)
                .build()
        };
        samples.push(counts(&response.expect("writes"), exact));
    }
    samples
}

/// Prints the shortfalls per size; whether one exceeds the margin of a budget its size.
fn shortfalls(samples: &[(usize, usize)]) -> bool {
    let mut failed = false;
    println!(
        "| exact tokens | responses | lowest estimate / exact | largest shortfall | margin at the bucket's low end |"
    );
    println!("|---|---|---|---|---|");
    let bounds = [1, 100, 300, 1_000, 3_000, 10_000, 100_000];
    for pair in bounds.windows(2) {
        let (low, high) = (pair[0], pair[1]);
        let inside: Vec<(usize, usize)> = samples
            .iter()
            .copied()
            .filter(|&(_, exact)| exact >= low && exact < high)
            .collect();
        if inside.is_empty() {
            continue;
        }
        let lowest = inside
            .iter()
            .map(|&(estimate, exact)| ratio(estimate, exact))
            .fold(f64::INFINITY, f64::min);
        let short = inside
            .iter()
            .map(|&(estimate, exact)| exact.saturating_sub(estimate))
            .max()
            .unwrap_or(0);
        // Every response against the margin of a budget its own size.
        failed |= inside
            .iter()
            .any(|&(estimate, exact)| exact.saturating_sub(estimate) > margin(exact, 2));
        println!(
            "| {low}–{high} | {} | {lowest:.3} | {short} | {} |",
            inside.len(),
            margin(low, 2)
        );
    }
    println!();
    failed
}

/// Per kind of response, how many are estimated under their exact count at all, and the
/// largest shortfall in units of √exact: a margin of c⌈√B⌉ + 4 must cover that c (the room of
/// §17.2 takes c = 2; a fit with a smaller margin keeps more, `budget_report -- --margins`).
fn under_at_all(samples: &[(usize, usize)]) {
    println!("| responses | estimated under their exact count | largest shortfall / √exact |");
    println!("|---|---|---|");
    for (name, kind) in [
        ("word-soup rows", &samples[..SOUPS]),
        ("windows of the wide rows", &samples[SOUPS..]),
    ] {
        let under = kind
            .iter()
            .filter(|&&(estimate, exact)| exact > estimate)
            .count();
        #[allow(clippy::cast_precision_loss, reason = "token counts far below 2^52")]
        let worst = kind
            .iter()
            .map(|&(estimate, exact)| exact.saturating_sub(estimate) as f64 / (exact as f64).sqrt())
            .fold(0.0, f64::max);
        println!("| {name} | {under} of {} | {worst:.2} |", kind.len());
    }
    println!();
}

/// Fits rows of one script each to many budgets; whether one exceeds its budget by the exact
/// count.
fn one_script(exact: &ExactCounter, rows: &[WideRow]) -> bool {
    let mut failed = false;
    println!(
        "| rows of one script | fitted responses | over the budget by the exact count | highest exact / budget |"
    );
    println!("|---|---|---|---|");
    for script in 0..7 {
        let one: Vec<WideRow> = rows.iter().skip(script).step_by(7).cloned().collect();
        let (mut fitted, mut over, mut highest) = (0, 0, 0.0f64);
        for format in FORMATS {
            for budget in (200..6_000).step_by(97) {
                let response = WideRow::present_all(&one)
                    .format(format)
                    .max_tokens(budget)
                    .build()
                    .expect("writes");
                if response.is_error() == Some(true) {
                    continue;
                }
                fitted += 1;
                let (_, count) = counts(&response, exact);
                highest = highest.max(ratio(count, budget));
                over += usize::from(count > budget);
            }
        }
        failed |= over > 0;
        println!("| script {script} | {fitted} | {over} | {highest:.3} |");
    }
    failed
}
