//! TOON encoding of 10,000 flat invoice rows (the billing fixture's `InvoiceRow` shape, cycled
//! with new ids, derived with `Presenter`): the compile-time path (`toon::encode_table`) and the
//! generic encoder against `toon-format` 0.7 and the JSON writers, all on the same rows.
//!
//! `cargo bench -p fusion-runtime --bench toon`

use std::hint::black_box;
use std::sync::LazyLock;

use divan::Bencher;
use fusion_runtime::Presenter;
use fusion_runtime::toon::{self, ToonOptions};

/// The flat export row of BILLING.md; the derive writes its `Serialize` impl (the wire form),
/// which every contender below uses.
#[derive(Presenter)]
struct InvoiceRow {
    id: String,
    customer: String,
    amount_cents: u64,
    currency: String,
    status: String,
    issued_at: String,
}

const ROW_COUNT: usize = 10_000;

/// 10,000 rows: the fixture's 120 invoices cycled, each copy with a new id.
static ROWS: LazyLock<Vec<InvoiceRow>> = LazyLock::new(|| {
    let data: serde_json::Value =
        serde_json::from_str(include_str!("../../examples/data/billing.json"))
            .expect("the billing fixture is valid JSON");
    let invoices = data["invoices"]
        .as_array()
        .expect("the fixture has an invoices list");
    let text = |v: &serde_json::Value| v.as_str().expect("a string field").to_owned();
    invoices
        .iter()
        .cycle()
        .take(ROW_COUNT)
        .enumerate()
        .map(|(i, invoice)| InvoiceRow {
            id: format!("INV-{:05}", i + 1),
            customer: text(&invoice["customer"]["name"]),
            amount_cents: invoice["amount_cents"].as_u64().expect("an integer amount"),
            currency: text(&invoice["currency"]),
            status: text(&invoice["status"]),
            issued_at: text(&invoice["issued_at"]),
        })
        .collect()
});

fn main() {
    // A differential check before timing: on these rows (no integer above 2^53, no float, no
    // tag start) both TOON encoders must write the same bytes.
    let ours = toon::encode(&*ROWS, &ToonOptions::pipe()).expect("rows encode");
    let theirs = toon_format::encode(&*ROWS, &toon_format_pipe()).expect("rows encode");
    assert_eq!(ours, theirs, "the encoders disagree on the benchmark rows");
    let table = toon::encode_table(&ROWS, &ToonOptions::pipe()).expect("rows encode");
    assert_eq!(
        table, ours,
        "the compile-time path disagrees with the generic encoder"
    );
    let misfit = |with_len| {
        let rows = LastRowShort {
            rows: &ROWS,
            with_len,
        };
        toon::encode(&rows, &ToonOptions::pipe()).expect("rows encode")
    };
    assert_eq!(
        misfit(true),
        misfit(false),
        "the streamed tables' fallback disagrees with the tree path"
    );
    eprintln!(
        "10,000 rows: TOON (pipe) {} bytes, identical in both encoders; pretty JSON {} bytes",
        ours.len(),
        serde_json::to_string_pretty(&*ROWS)
            .expect("rows serialize")
            .len()
    );
    divan::main();
}

fn toon_format_pipe() -> toon_format::EncodeOptions {
    toon_format::EncodeOptions::new().with_delimiter(toon_format::Delimiter::Pipe)
}

/// `fusion_runtime::toon::encode_table`, the compile-time path, with the pipe options.
#[divan::bench]
fn compile_time_path(bencher: Bencher<'_, '_>) {
    let rows = &*ROWS;
    let options = ToonOptions::pipe();
    bencher.bench(|| toon::encode_table(black_box(rows), &options).expect("rows encode"));
}

/// `fusion_runtime::toon::encode` with the pipe options of `toon::success`.
#[divan::bench]
fn generic_encoder(bencher: Bencher<'_, '_>) {
    let rows = &*ROWS;
    let options = ToonOptions::pipe();
    bencher.bench(|| toon::encode(black_box(rows), &options).expect("rows encode"));
}

/// The rows, the last one without its `issued_at`: the generic encoder streams all but the
/// last row, then throws that away and encodes the tree (the worst case of the streamed tables).
/// Without the length hint (`with_len` false) the stream refuses at once: the tree path alone.
struct LastRowShort<'a> {
    rows: &'a [InvoiceRow],
    with_len: bool,
}

impl serde::Serialize for LastRowShort<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::{SerializeSeq, SerializeStruct};
        /// One row written without its last member.
        struct Short<'a>(&'a InvoiceRow);
        impl serde::Serialize for Short<'_> {
            fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                let row = self.0;
                let mut fields = serializer.serialize_struct("InvoiceRow", 5)?;
                fields.serialize_field("id", &row.id)?;
                fields.serialize_field("customer", &row.customer)?;
                fields.serialize_field("amount_cents", &row.amount_cents)?;
                fields.serialize_field("currency", &row.currency)?;
                fields.serialize_field("status", &row.status)?;
                fields.end()
            }
        }
        let mut seq = serializer.serialize_seq(self.with_len.then_some(self.rows.len()))?;
        if let Some((last, rows)) = self.rows.split_last() {
            for row in rows {
                seq.serialize_element(row)?;
            }
            seq.serialize_element(&Short(last))?;
        }
        seq.end()
    }
}

/// `fusion_runtime::toon::encode` of rows whose last one does not fit the table: the stream's
/// work is discarded and the tree path encodes the rows (as a list of objects).
#[divan::bench]
fn generic_encoder_last_row_misfits(bencher: Bencher<'_, '_>) {
    let rows = LastRowShort {
        rows: &ROWS,
        with_len: true,
    };
    let options = ToonOptions::pipe();
    bencher.bench(|| toon::encode(black_box(&rows), &options).expect("rows encode"));
}

/// The same rows by the tree path alone (no length hint, so no stream): what the misfit costs.
#[divan::bench]
fn generic_encoder_last_row_misfits_tree_only(bencher: Bencher<'_, '_>) {
    let rows = LastRowShort {
        rows: &ROWS,
        with_len: false,
    };
    let options = ToonOptions::pipe();
    bencher.bench(|| toon::encode(black_box(&rows), &options).expect("rows encode"));
}

/// `toon_format::encode` (0.7) with the pipe delimiter.
#[divan::bench]
fn toon_format_encode(bencher: Bencher<'_, '_>) {
    let rows = &*ROWS;
    let options = toon_format_pipe();
    bencher.bench(|| toon_format::encode(black_box(rows), &options).expect("rows encode"));
}

/// `serde_json::to_string_pretty`, the usual way a tool answers today.
#[divan::bench]
fn serde_json_pretty(bencher: Bencher<'_, '_>) {
    let rows = &*ROWS;
    bencher.bench(|| serde_json::to_string_pretty(black_box(rows)).expect("rows serialize"));
}

/// The wire format §3 JSON data block writer (`fusion_runtime::testing::json::to_string`).
#[divan::bench]
fn fusion_json(bencher: Bencher<'_, '_>) {
    let rows = &*ROWS;
    bencher.bench(|| {
        fusion_runtime::testing::json::to_string(black_box(rows)).expect("rows serialize")
    });
}
