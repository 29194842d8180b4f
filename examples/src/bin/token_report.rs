//! Token and size report: what each data block format costs a model, in UTF-8 bytes and in
//! `o200k_base` tokens (the GPT-4o tokenizer, via `tiktoken-rs`).
//!
//! `cargo run --release -p fusion-examples --features token-report --bin token_report`
//!
//! Datasets: the 120 invoices of the billing fixture in their wire form (customer email
//! redacted, `internal_margin_bps` absent), the same 120 as flat `InvoiceRow`s, and 10,000
//! `InvoiceRow`s made by cycling the fixture with new ids. Formats: the SPEC §3 pretty JSON data
//! block, compact JSON, the TOON response block (pipe delimiter, `toon_success`), and the pretty
//! JSON data block under `_select` of 2 and of 3 fields (the selected fields of each item, in
//! declaration order, as SPEC §7 writes them).

use std::process::ExitCode;

use serde::{Deserialize, Serialize, Serializer};
use serde_json::Value;

const FIXTURE: &str = include_str!("../../data/billing.json");
const SYNTHETIC_ROWS: usize = 10_000;

#[derive(Deserialize)]
struct Fixture {
    invoices: Vec<Invoice>,
}

/// The Invoice model of BILLING.md; serializes as its wire form.
#[derive(Serialize, Deserialize, Clone)]
struct Invoice {
    id: String,
    customer: Customer,
    amount_cents: u64,
    currency: String,
    status: String,
    issued_at: String,
    due_at: String,
    lines: Vec<InvoiceLine>,
    #[serde(skip_serializing)]
    #[allow(dead_code, reason = "read from the data, never written (BILLING.md)")]
    internal_margin_bps: u32,
}

#[derive(Serialize, Deserialize, Clone)]
struct Customer {
    id: String,
    name: String,
    #[serde(serialize_with = "redacted")]
    email: String,
    country: String,
}

#[derive(Serialize, Deserialize, Clone)]
struct InvoiceLine {
    sku: String,
    description: String,
    qty: u32,
    unit_price_cents: u64,
}

/// The flat export row of BILLING.md.
#[derive(Serialize)]
struct InvoiceRow {
    id: String,
    customer: String,
    amount_cents: u64,
    currency: String,
    status: String,
    issued_at: String,
}

impl InvoiceRow {
    fn of(invoice: &Invoice, id: String) -> Self {
        InvoiceRow {
            id,
            customer: invoice.customer.name.clone(),
            amount_cents: invoice.amount_cents,
            currency: invoice.currency.clone(),
            status: invoice.status.clone(),
            issued_at: invoice.issued_at.clone(),
        }
    }
}

fn redacted<S: Serializer>(_: &str, serializer: S) -> Result<S::Ok, S::Error> {
    serializer.serialize_str("[REDACTED]")
}

/// One data block in one format.
struct Block {
    format: String,
    text: String,
}

/// The blocks of one dataset. `select2` and `select3` name fields in declaration order.
fn blocks<T: Serialize>(
    items: &[T],
    select2: &[&str],
    select3: &[&str],
) -> Result<Vec<Block>, Box<dyn std::error::Error>> {
    let wire = serde_json::to_value(items)?;
    let mut blocks = vec![
        Block {
            format: "pretty JSON (SPEC §3 data block)".into(),
            text: fusion_runtime::json::to_string(items)?,
        },
        Block {
            format: "compact JSON".into(),
            text: serde_json::to_string(items)?,
        },
        Block {
            format: "TOON, pipe (toon_success)".into(),
            text: fusion_runtime::toon_success(items)?.blocks()[0].clone(),
        },
    ];
    for fields in [select2, select3] {
        blocks.push(Block {
            format: format!("_select {} (pretty JSON)", fields.join(",")),
            text: fusion_runtime::json::to_string(&select(&wire, fields))?,
        });
    }
    Ok(blocks)
}

/// Each item keeping only `fields`, in the item's own (declaration) order.
fn select(wire: &Value, fields: &[&str]) -> Value {
    let items = wire.as_array().map_or(&[][..], Vec::as_slice);
    Value::Array(
        items
            .iter()
            .map(|item| {
                let members = item.as_object().into_iter().flatten();
                Value::Object(
                    members
                        .filter(|(name, _)| fields.contains(&name.as_str()))
                        .map(|(name, value)| (name.clone(), value.clone()))
                        .collect(),
                )
            })
            .collect(),
    )
}

fn report(
    title: &str,
    blocks: &[Block],
    bpe: &tiktoken_rs::CoreBPE,
) -> Vec<(String, usize, usize)> {
    println!("\n{title}");
    println!(
        "{:<48} {:>10} {:>10} {:>9} {:>9}",
        "format", "bytes", "tokens", "bytes %", "tokens %"
    );
    let figures: Vec<(String, usize, usize)> = blocks
        .iter()
        .map(|block| {
            let tokens = bpe.encode_ordinary(&block.text).len();
            (block.format.clone(), block.text.len(), tokens)
        })
        .collect();
    let (_, base_bytes, base_tokens) = figures[0];
    for (format, bytes, tokens) in &figures {
        println!(
            "{format:<48} {bytes:>10} {tokens:>10} {:>8.1}% {:>8.1}%",
            percent(*bytes, base_bytes),
            percent(*tokens, base_tokens)
        );
    }
    figures
}

#[allow(
    clippy::cast_precision_loss,
    reason = "display of counts far below 2^52"
)]
fn percent(part: usize, whole: usize) -> f64 {
    100.0 * part as f64 / whole.max(1) as f64
}

fn main() -> ExitCode {
    match run() {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(error) => {
            eprintln!("token_report: {error}");
            ExitCode::FAILURE
        }
    }
}

/// Prints the report; returns whether TOON stays within 45% of pretty JSON's tokens for the
/// 10,000 rows (the target).
fn run() -> Result<bool, Box<dyn std::error::Error>> {
    let fixture: Fixture = serde_json::from_str(FIXTURE)?;
    let invoices = fixture.invoices;
    let rows: Vec<InvoiceRow> = invoices
        .iter()
        .map(|invoice| InvoiceRow::of(invoice, invoice.id.clone()))
        .collect();
    let synthetic: Vec<InvoiceRow> = invoices
        .iter()
        .cycle()
        .take(SYNTHETIC_ROWS)
        .enumerate()
        .map(|(i, invoice)| InvoiceRow::of(invoice, format!("INV-{:05}", i + 1)))
        .collect();
    let bpe = tiktoken_rs::o200k_base()?;

    println!("Data block sizes: UTF-8 bytes and o200k_base tokens; % of the pretty JSON block.");
    report(
        &format!(
            "{} invoices, Invoice wire form (customer embedded, email redacted)",
            invoices.len()
        ),
        &blocks(
            &invoices,
            &["id", "amount_cents"],
            &["id", "amount_cents", "status"],
        )?,
        &bpe,
    );
    report(
        &format!("{} invoices as InvoiceRow", rows.len()),
        &blocks(
            &rows,
            &["id", "amount_cents"],
            &["id", "customer", "amount_cents"],
        )?,
        &bpe,
    );
    let figures = report(
        &format!("{SYNTHETIC_ROWS} InvoiceRow rows (fixture cycled, new ids)"),
        &blocks(
            &synthetic,
            &["id", "amount_cents"],
            &["id", "customer", "amount_cents"],
        )?,
        &bpe,
    );
    let toon_share = percent(figures[2].2, figures[0].2);
    let within = toon_share <= 45.0;
    println!(
        "\nTOON (pipe) for {SYNTHETIC_ROWS} rows: {toon_share:.1}% of pretty JSON's tokens \
         (target: at most 45%): {}",
        if within { "met" } else { "NOT met" }
    );
    Ok(within)
}
