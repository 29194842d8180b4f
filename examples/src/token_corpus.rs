//! The corpus the token estimate is calibrated on (`fusion_runtime::tokens`): what the
//! billing tools answer, plus synthetic wide rows and texts, in the categories a response is made
//! of. Deterministic: the same items on every run.
//!
//! Used by the `token_calibration` binary (the table of PERFORMANCE.md) and the
//! `token_calibration` test (every item within the estimate's bounds).

mod columns;
mod scripts;
mod synthetic;

pub use synthetic::NOTE_WORDS;

use std::fmt::Write as _;
use std::sync::Arc;

use fusion_runtime::present::Format;
use fusion_runtime::tokens::{self, TokenCounter};
use fusion_runtime::toon::{self, ToonOptions};
use fusion_runtime::{ToolError, ToolResponse, ui};
use serde_json::{Map, Value, json};

use crate::models::{Invoice, InvoiceRow, Status};
use crate::store::Store;
use crate::tools::{BillingApp, tools};

/// One text of the corpus.
#[derive(Debug, Clone)]
pub struct Item {
    /// What kind of text it is: the rows of the calibration table.
    pub category: &'static str,
    /// Where it comes from, to find it again when it falls outside the bounds.
    pub name: String,
    /// The text, as a model reads it.
    pub text: String,
}

/// The sentences of the scripts the estimate prices like others (Greek, Arabic, Hebrew, Korean,
/// Hindi, Thai), for tests that draw text from them.
pub const OTHER_SCRIPTS: [&[&str]; 6] = [
    scripts::GREEK,
    scripts::ARABIC,
    scripts::HEBREW,
    scripts::KOREAN,
    scripts::HINDI,
    scripts::THAI,
];

/// Every item of the corpus, category by category.
pub fn corpus() -> Result<Vec<Item>, Box<dyn std::error::Error>> {
    let store = Store::load()?;
    let invoices: Vec<Invoice> = store.invoices().cloned().collect();
    let mut items = Vec::new();
    billing_data(&invoices, &mut items)?;
    billing_responses(&mut items)?;
    rules(&invoices, &mut items)?;
    ui_blocks(&invoices, &mut items);
    envelopes(&mut items)?;
    wide_rows(&mut items)?;
    non_ascii(
        &mut items,
        "non-ASCII",
        &[
            ("German", GERMAN),
            ("Russian", RUSSIAN),
            ("Japanese", JAPANESE),
            ("Japanese catalog", scripts::JAPANESE_CATALOG),
            ("emoji", EMOJI),
        ],
    )?;
    non_ascii(
        &mut items,
        "other scripts",
        &[
            ("Greek", scripts::GREEK),
            ("Arabic", scripts::ARABIC),
            ("Hebrew", scripts::HEBREW),
            ("Korean", scripts::KOREAN),
            ("Hindi", scripts::HINDI),
            ("Thai", scripts::THAI),
        ],
    )?;
    wide_non_ascii(&mut items)?;
    katakana_listings(&mut items)?;
    emoji_labels(&mut items)?;
    decomposed(&mut items);
    synthetic::synthetic(&mut items)?;
    columns::columns(&mut items)?;
    Ok(items)
}

fn push(items: &mut Vec<Item>, category: &'static str, name: impl Into<String>, text: String) {
    items.push(Item {
        category,
        name: name.into(),
        text,
    });
}

/// `rows` as pretty JSON and as TOON, under the two categories, named `{name} JSON` and
/// `{name} TOON`.
fn push_rows(
    items: &mut Vec<Item>,
    (json_category, toon_category): (&'static str, &'static str),
    name: &str,
    rows: &[Value],
) -> Result<(), Box<dyn std::error::Error>> {
    push(
        items,
        json_category,
        format!("{name} JSON"),
        fusion_runtime::testing::json::to_string(rows)?,
    );
    push(
        items,
        toon_category,
        format!("{name} TOON"),
        toon::encode(rows, &ToonOptions::pipe())?,
    );
    Ok(())
}

/// The data blocks of the billing models: each invoice alone and lists of them, in JSON and TOON.
fn billing_data(
    invoices: &[Invoice],
    items: &mut Vec<Item>,
) -> Result<(), Box<dyn std::error::Error>> {
    for invoice in invoices {
        let json = invoice.present().build()?;
        push(items, "billing JSON", &invoice.id, first_block(&json));
        let toon = invoice.present().format(Format::Toon).build()?;
        push(items, "billing TOON", &invoice.id, first_block(&toon));
    }
    for chunk in invoices.chunks(10) {
        let name = format!("{}..{}", chunk[0].id, chunk[chunk.len() - 1].id);
        let json = Invoice::present_all(chunk).build()?;
        push(
            items,
            "billing JSON",
            format!("list {name}"),
            first_block(&json),
        );
        let compact = Invoice::present_all(chunk)
            .format(Format::CompactJson)
            .build()?;
        push(
            items,
            "billing JSON",
            format!("list {name}, compact"),
            first_block(&compact),
        );
        let toon = Invoice::present_all(chunk).format(Format::Toon).build()?;
        push(
            items,
            "billing TOON",
            format!("list {name}"),
            first_block(&toon),
        );
        let rows: Vec<InvoiceRow> = chunk.iter().map(InvoiceRow::from).collect();
        let table = toon::encode_table(&rows, &ToonOptions::pipe())?;
        push(items, "billing TOON", format!("rows {name}"), table);
    }
    // The flat members only (a narrow `_select`, the budget bench's), with five-digit ids: short
    // fields, digits and dates weigh more here than in whole invoices.
    let flat = fusion_runtime::Selection::new([
        "id",
        "amount_cents",
        "currency",
        "status",
        "issued_at",
        "due_at",
    ]);
    let renumbered: Vec<Invoice> = invoices
        .iter()
        .enumerate()
        .map(|(index, invoice)| {
            let mut invoice = invoice.clone();
            invoice.id = format!("INV-{:05}", index + 1);
            invoice
        })
        .collect();
    for (start, count) in [(0, 5), (5, 20), (25, 60)] {
        let chunk = &renumbered[start..(start + count).min(renumbered.len())];
        let name = format!("flat _select, {count} from {start}");
        for (format, category, how) in [
            (Format::Json, "billing JSON", ""),
            (Format::CompactJson, "billing JSON", ", compact"),
            (Format::Toon, "billing TOON", ""),
        ] {
            let data = Invoice::present_all(chunk)
                .select(&flat)
                .format(format)
                .build()?;
            push(items, category, format!("{name}{how}"), first_block(&data));
        }
    }
    let rows: Vec<InvoiceRow> = invoices.iter().map(InvoiceRow::from).collect();
    push(
        items,
        "billing TOON",
        "all rows",
        toon::encode_table(&rows, &ToonOptions::pipe())?,
    );
    push(
        items,
        "billing JSON",
        "all rows",
        fusion_runtime::testing::json::to_string(&rows)?,
    );
    Ok(())
}

/// Whole responses of the billing tools (every block joined), as the demo calls them.
fn billing_responses(items: &mut Vec<Item>) -> Result<(), Box<dyn std::error::Error>> {
    let tools = tools(Arc::new(BillingApp::new(Store::load()?)))?;
    let calls = [
        json!({"action": "get_invoice", "id": "INV-0001"}),
        json!({"action": "get_invoice", "id": "INV-0047", "_select": ["id", "status", "due_at"]}),
        json!({"action": "list_invoices", "status": "overdue"}),
        json!({"action": "list_invoices", "status": "pending"}),
        json!({"action": "list_invoices", "customer_id": "CUS-007"}),
        json!({"action": "list_invoices", "_select": ["id", "amount_cents", "status"]}),
        json!({"action": "export_invoices", "status": "overdue"}),
        json!({"action": "export_invoices"}),
    ];
    for arguments in calls {
        let name = arguments.to_string();
        let response = tools.call("billing", Some(arguments));
        push(
            items,
            "billing response",
            name,
            response.blocks().join("\n"),
        );
    }
    Ok(())
}

/// Rule and suggestion blocks: the billing list's (templated overdue rules) and prose rules.
fn rules(invoices: &[Invoice], items: &mut Vec<Item>) -> Result<(), Box<dyn std::error::Error>> {
    let overdue: Vec<Invoice> = invoices
        .iter()
        .filter(|i| i.status == Status::Overdue)
        .cloned()
        .collect();
    for chunk in overdue.chunks(12) {
        let response = Invoice::present_all(chunk).build()?;
        push(
            items,
            "rules",
            format!("blocks after the data of {} overdue", chunk.len()),
            response.blocks()[1..].join("\n"),
        );
    }
    let mut random = Random(7);
    for size in [6, 10, 16, 24, 40] {
        let mut block = String::from("<domain_rules>\n");
        for _ in 0..size {
            block.push_str("- ");
            block.push_str(PROSE_RULES[random.below(PROSE_RULES.len())]);
            block.push('\n');
        }
        block.push_str("</domain_rules>\n<action_suggestions>\n");
        for tool in [
            "billing.remind",
            "billing.void_invoice",
            "billing.list_invoices",
        ] {
            let _ = writeln!(block, "- {tool}: {}", PROSE_RULES[random.below(8)]);
        }
        block.push_str("</action_suggestions>");
        push(items, "rules", format!("{size} prose rules"), block);
    }
    Ok(())
}

/// UI blocks: echarts configs, mermaid diagrams, markdown tables and lists.
fn ui_blocks(invoices: &[Invoice], items: &mut Vec<Item>) {
    for chunk in invoices.chunks(30) {
        let ids: Vec<&str> = chunk.iter().map(|i| i.id.as_str()).collect();
        let amounts: Vec<f64> = chunk.iter().map(|i| euros(i.amount_cents)).collect();
        let chart = ui::echarts(json!({
            "title": {"text": "Amount per invoice (EUR)"},
            "tooltip": {"trigger": "axis"},
            "xAxis": {"type": "category", "data": ids},
            "yAxis": {"type": "value", "name": "EUR"},
            "series": [{"type": "bar", "name": "amount", "data": amounts}]
        }))
        .title("Amounts")
        .width(ui::Width::Full);
        push(
            items,
            "UI blocks",
            format!("echarts bar {}", ids[0]),
            chart.render(),
        );

        let mut graph = String::from("flowchart LR\n");
        for invoice in chunk {
            let _ = writeln!(
                graph,
                "    {}[\"{} ({})\"] --> {}{{{}}}",
                invoice.id.replace('-', "_"),
                invoice.id,
                invoice.customer.name.replace('"', "'"),
                invoice.status.as_str(),
                invoice.status.as_str()
            );
        }
        push(
            items,
            "UI blocks",
            format!("mermaid {}", ids[0]),
            ui::mermaid(&graph).render(),
        );

        let table = ui::table(
            ["Invoice", "Customer", "Amount", "Status", "Due"],
            chunk.iter().map(|i| {
                [
                    i.id.clone(),
                    i.customer.name.clone(),
                    format!("{:.2} {}", euros(i.amount_cents), i.currency),
                    i.status.as_str().to_owned(),
                    i.due_at.clone(),
                ]
            }),
        );
        push(
            items,
            "UI blocks",
            format!("table {}", ids[0]),
            table.render(),
        );

        let list = ui::list(chunk.iter().map(|i| {
            format!(
                "**{}** for {}: {} lines, due {}",
                i.id,
                i.customer.name,
                i.lines.len(),
                i.due_at
            )
        }));
        push(
            items,
            "UI blocks",
            format!("list {}", ids[0]),
            list.render(),
        );
    }
}

#[allow(
    clippy::cast_precision_loss,
    reason = "amounts stay far below 2^53 cents, where f64 is exact"
)]
fn euros(cents: u64) -> f64 {
    cents as f64 / 100.0
}

/// `<tool_error>` envelopes: the billing tools' own and hand-made ones, a few per item, as a
/// batch of failed calls reads.
fn envelopes(items: &mut Vec<Item>) -> Result<(), Box<dyn std::error::Error>> {
    let tools = tools(Arc::new(BillingApp::new(Store::load()?)))?;
    let bad_calls = [
        (
            "billing",
            json!({"action": "get_invoice", "id": "INV-9999"}),
        ),
        ("billing", json!({"action": "remind", "id": "INV-0001"})),
        ("billing", json!({"action": "refund", "id": "INV-0001"})),
        ("billing", json!({"id": "INV-0001"})),
        ("billing", json!({"action": "get_invoice"})),
        (
            "billing",
            json!({"action": "list_invoices", "status": "late", "limit": "ten"}),
        ),
        (
            "billing",
            json!({"action": "get_invoice", "id": "INV-0001", "_select": ["id", "nope"]}),
        ),
        ("invoice_stats", json!({"status": 3})),
        ("no_such_tool", json!({})),
    ];
    let mut texts: Vec<String> = bad_calls
        .into_iter()
        .map(|(tool, arguments)| tools.call(tool, Some(arguments)).blocks().join("\n"))
        .collect();
    let mut random = Random(11);
    for i in 0..12 {
        let error = ToolError::new(
            ["RATE_LIMITED", "UPSTREAM_TIMEOUT", "CONFLICT", "FORBIDDEN"][i % 4],
            PROSE_RULES[random.below(PROSE_RULES.len())],
        )
        .recovery(PROSE_RULES[random.below(PROSE_RULES.len())])
        .detail("invoice_id", format!("INV-{:04}", random.below(9999)))
        .detail("request_id", random.hex(32))
        .actions(["list_invoices", "get_invoice"])
        .retry_after(30);
        texts.push(error.render());
    }
    for (i, group) in texts.chunks(3).enumerate() {
        push(
            items,
            "tool_error",
            format!("envelopes {i}"),
            group.join("\n"),
        );
    }
    Ok(())
}

/// Wide synthetic rows (40 fields of every JSON type, ids, hashes, timestamps), as JSON and TOON.
fn wide_rows(items: &mut Vec<Item>) -> Result<(), Box<dyn std::error::Error>> {
    let mut random = Random(3);
    for count in [2, 5, 10, 25, 60] {
        let rows: Vec<Value> = (0..count).map(|i| wide_row(i, &mut random)).collect();
        push_rows(
            items,
            ("wide rows JSON", "wide rows TOON"),
            &format!("{count} rows"),
            &rows,
        )?;
    }
    Ok(())
}

fn wide_row(index: usize, random: &mut Random) -> Value {
    let mut row = Map::new();
    row.insert("id".into(), json!(format!("ORD-{:06}", 100_000 + index)));
    row.insert("uuid".into(), json!(random.uuid()));
    row.insert("sha256".into(), json!(random.hex(64)));
    for field in 0..10 {
        row.insert(format!("metric_{field}"), json!(random.below(1_000_000)));
    }
    for field in 0..8 {
        let value = random.float();
        row.insert(format!("ratio{field}"), json!(value));
    }
    for (field, words) in ["title", "note", "category", "region", "owner", "tags"]
        .iter()
        .zip([4, 12, 1, 2, 2, 3])
    {
        row.insert((*field).into(), json!(random.words(words)));
    }
    for field in ["created_at", "updated_at", "shipped_at"] {
        row.insert(field.into(), json!(random.timestamp()));
    }
    for field in ["isActive", "hasDiscount", "needsReview"] {
        row.insert(field.into(), json!(random.below(2) == 1));
    }
    row.insert("parentId".into(), Value::Null);
    row.insert(
        "email".into(),
        json!(format!("{}@example.com", random.words(1))),
    );
    row.insert(
        "url".into(),
        json!(format!(
            "https://shop.example.com/orders/{index}?ref={}",
            random.hex(8)
        )),
    );
    let currency = ["EUR", "USD", "JPY", "GBP"][random.below(4)];
    row.insert("currency".into(), json!(currency));
    let country = ["DE", "US", "JP", "FR", "RU"][random.below(5)];
    row.insert("country".into(), json!(country));
    row.insert("quantity".into(), json!(random.below(500)));
    row.insert("priceCents".into(), json!(random.below(10_000_000)));
    Value::Object(row)
}

/// The wide rows of non-ASCII text of [`crate::wide`] (the budget bench's): runs of them as JSON
/// and TOON, whole and with a `_select`, and the other blocks of the presenter that has them (a
/// table of the rows, item and collection rules and suggestions).
fn wide_non_ascii(items: &mut Vec<Item>) -> Result<(), Box<dyn std::error::Error>> {
    let rows = crate::wide::wide_rows(600);
    let rows_ui = crate::wide::wide_rows_ui(600);
    let narrow = fusion_runtime::Selection::new(crate::wide::SELECT);
    for (start, count) in [(0, 3), (3, 8), (11, 20), (31, 45), (76, 100), (176, 200)] {
        let chunk = &rows[start..start + count];
        let name = format!("rows {}..{}", start + 1, start + count);
        for (format, category) in [
            (Format::Json, "wide non-ASCII JSON"),
            (Format::CompactJson, "wide non-ASCII JSON"),
            (Format::Toon, "wide non-ASCII TOON"),
        ] {
            let whole = crate::wide::WideRow::present_all(chunk)
                .format(format)
                .build()?;
            push(items, category, name.clone(), first_block(&whole));
            let selected = crate::wide::WideRow::present_all(chunk)
                .format(format)
                .select(&narrow)
                .build()?;
            push(
                items,
                category,
                format!("{name}, _select"),
                first_block(&selected),
            );
        }
        let response =
            crate::wide::WideRowUi::present_all(&rows_ui[start..start + count]).build()?;
        push(
            items,
            "wide non-ASCII blocks",
            format!("{name}: the blocks after the data"),
            response.blocks()[1..].join("\n"),
        );
    }
    // Rows of one script each (the rows take the scripts in turn): a user's data is often in
    // one language, and a run of one script must be an upper bound too, not only a mix.
    for script in 0..7 {
        for (skip, count) in [(0, 4), (28, 12), (112, 40)] {
            let chunk: Vec<crate::wide::WideRow> = rows
                .iter()
                .skip(skip + script)
                .step_by(7)
                .take(count)
                .cloned()
                .collect();
            let name = format!("script {script}, {count} rows");
            for (format, category) in [
                (Format::Json, "wide non-ASCII JSON"),
                (Format::Toon, "wide non-ASCII TOON"),
            ] {
                let whole = crate::wide::WideRow::present_all(&chunk)
                    .format(format)
                    .build()?;
                push(items, category, name.clone(), first_block(&whole));
                let selected = crate::wide::WideRow::present_all(&chunk)
                    .format(format)
                    .select(&narrow)
                    .build()?;
                push(
                    items,
                    category,
                    format!("{name}, _select"),
                    first_block(&selected),
                );
            }
        }
    }
    Ok(())
}

/// Short labels decorated with emoji, as status pages, team lists and shipping boards show
/// them: emoji with a variation selector (`⚠️`), joined by a zero-width joiner (`👩‍🔧`), with a
/// skin tone, flags (two regional indicators), and emoji before and after words, as JSON,
/// compact JSON and TOON rows. The estimate prices each emoji by its table (its exact count
/// alone); these hold the characters that join them as an upper bound (as the synthetic items
/// are held: not the text of a response of record, so with no 5% of slack below).
fn emoji_labels(items: &mut Vec<Item>) -> Result<(), Box<dyn std::error::Error>> {
    let mut random = Random(29);
    let labels = scripts::EMOJI_LABELS;
    for count in [20, 60, 160] {
        let rows: Vec<Value> = (0..count)
            .map(|i| {
                json!({
                    "id": format!("L-{}", 100 + i),
                    "label": labels[random.below(labels.len())],
                    "owner": labels[random.below(labels.len())],
                })
            })
            .collect();
        let name = format!("emoji labels x{count}");
        push_rows(items, ("synthetic", "synthetic"), &name, &rows)?;
        push(
            items,
            "synthetic",
            format!("{name} compact JSON"),
            serde_json::to_string(&rows)?,
        );
    }
    Ok(())
}

/// A Japanese shop's listings, JSON and TOON: product names of two or three katakana loanwords
/// (a space between them or not), the text on which pricing katakana as hiragana fell to 0.55
/// of the exact count.
fn katakana_listings(items: &mut Vec<Item>) -> Result<(), Box<dyn std::error::Error>> {
    let mut random = Random(11);
    let words = scripts::KATAKANA_WORDS;
    for count in [12, 40, 120] {
        let rows: Vec<Value> = (0..count)
            .map(|i| {
                let parts = 2 + random.below(2);
                let separator = if random.below(2) == 0 { " " } else { "" };
                let name: Vec<&str> = (0..parts)
                    .map(|_| words[random.below(words.len())])
                    .collect();
                json!({
                    "id": i + 1,
                    "name": name.join(separator),
                    "price_yen": 980 + 100 * random.below(200),
                })
            })
            .collect();
        let name = format!("katakana listings x{count}");
        push_rows(items, ("non-ASCII", "non-ASCII"), &name, &rows)?;
    }
    Ok(())
}

/// The German rules in decomposed form (NFD: `u` and a combining diaeresis for `ü`), as text
/// from macOS file names comes: each combining mark is priced as an emoji, an upper bound.
fn decomposed(items: &mut Vec<Item>) {
    let mut random = Random(13);
    for size in [8, 20, 40] {
        let mut block = String::from("<domain_rules>\n");
        for _ in 0..size {
            block.push_str("- ");
            for letter in GERMAN[random.below(GERMAN.len())].chars() {
                let (base, mark) = match letter {
                    'ä' => ('a', '\u{308}'),
                    'ö' => ('o', '\u{308}'),
                    'ü' => ('u', '\u{308}'),
                    'Ä' => ('A', '\u{308}'),
                    'Ö' => ('O', '\u{308}'),
                    'Ü' => ('U', '\u{308}'),
                    'é' => ('e', '\u{301}'),
                    other => {
                        block.push(other);
                        continue;
                    }
                };
                block.push(base);
                block.push(mark);
            }
            block.push('\n');
        }
        block.push_str("</domain_rules>");
        push(
            items,
            "non-ASCII",
            format!("German rules NFD x{size}"),
            block,
        );
    }
}

/// Text of other languages: prose rules, and invoices whose customers and lines are written in
/// those languages, under `category`.
fn non_ascii(
    items: &mut Vec<Item>,
    category: &'static str,
    languages: &[(&str, &[&str])],
) -> Result<(), Box<dyn std::error::Error>> {
    let mut random = Random(5);
    for &(language, sentences) in languages {
        for size in [8, 20, 40] {
            let mut block = String::from("<domain_rules>\n");
            for _ in 0..size {
                block.push_str("- ");
                block.push_str(sentences[random.below(sentences.len())]);
                block.push('\n');
            }
            block.push_str("</domain_rules>");
            push(items, category, format!("{language} rules x{size}"), block);
        }
        let rows: Vec<Value> = (0..15)
            .map(|i| {
                json!({
                    "id": format!("INV-{:04}", i + 1),
                    "customer": sentences[random.below(sentences.len())]
                        .split_whitespace().take(3).collect::<Vec<_>>().join(" "),
                    "description": sentences[random.below(sentences.len())],
                    "amount_cents": random.below(1_000_000),
                    "status": STATUSES[random.below(3)],
                })
            })
            .collect();
        push_rows(
            items,
            (category, category),
            &format!("{language} invoices"),
            &rows,
        )?;
    }
    Ok(())
}

fn first_block(response: &ToolResponse) -> String {
    response.blocks().first().cloned().unwrap_or_default()
}

/// A small deterministic generator (xorshift64*): the corpus must not change between runs.
struct Random(u64);

impl Random {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// A number in `0..bound`.
    fn below(&mut self, bound: usize) -> usize {
        usize::try_from(self.next() % bound as u64).unwrap_or(0)
    }

    fn hex(&mut self, digits: usize) -> String {
        (0..digits)
            .map(|_| char::from(b"0123456789abcdef"[self.below(16)]))
            .collect()
    }

    /// `count` characters drawn from `alphabet`.
    fn from(&mut self, alphabet: &str, count: usize) -> String {
        let alphabet: Vec<char> = alphabet.chars().collect();
        (0..count)
            .map(|_| alphabet[self.below(alphabet.len())])
            .collect()
    }

    fn uuid(&mut self) -> String {
        format!(
            "{}-{}-{}-{}-{}",
            self.hex(8),
            self.hex(4),
            self.hex(4),
            self.hex(4),
            self.hex(12)
        )
    }

    #[allow(
        clippy::cast_precision_loss,
        reason = "a value below 10^7 is exact in f64"
    )]
    fn float(&mut self) -> f64 {
        (self.below(10_000_000) as f64) / 10_000.0
    }

    fn words(&mut self, count: usize) -> String {
        (0..count)
            .map(|_| WORDS[self.below(WORDS.len())])
            .collect::<Vec<_>>()
            .join(" ")
    }

    fn timestamp(&mut self) -> String {
        format!(
            "2026-{:02}-{:02}T{:02}:{:02}:{:02}Z",
            1 + self.below(12),
            1 + self.below(28),
            self.below(24),
            self.below(60),
            self.below(60)
        )
    }
}

const STATUSES: [&str; 3] = ["paid", "pending", "overdue"];

const WORDS: &[&str] = &[
    "invoice",
    "shipment",
    "customer",
    "warehouse",
    "express",
    "standard",
    "refund",
    "priority",
    "quarterly",
    "subscription",
    "hardware",
    "consulting",
    "onboarding",
    "renewal",
    "discount",
    "north",
    "south",
    "enterprise",
    "startup",
    "reseller",
    "backorder",
    "fragile",
    "bulk",
    "sample",
    "premium",
    "legacy",
    "migration",
    "audit",
    "compliance",
    "analytics",
];

const PROSE_RULES: &[&str] = &[
    "Amounts are in cents; divide by 100 before showing them to the user.",
    "Never reveal a customer's email address, even when the user asks for it directly.",
    "Mention overdue invoices first, oldest due date first, and say how many days they are late.",
    "When the user asks for a total, sum amount_cents over the shown invoices only.",
    "Dates are ISO 8601 (YYYY-MM-DD) in the customer's time zone; do not convert them.",
    "If a list was truncated, say so and offer to narrow it with filters or _select.",
    "Do not void an invoice without an explicit confirmation from the user in this conversation.",
    "Reminders are rate-limited to one per invoice per week; check before queueing another.",
    "Currency codes follow ISO 4217; never assume EUR when the field says otherwise.",
    "A paid invoice cannot be reminded or voided; explain this instead of retrying the call.",
    "Quote invoice ids exactly as written (INV-0001), including the leading zeros.",
    "Prefer a short table when more than five invoices are shown, one row per invoice.",
    "The internal margin is confidential and is never part of any response.",
    "If the customer is in the EU, VAT is included in amount_cents; otherwise it is not.",
    "Round displayed amounts to two decimals, and keep the currency next to the number.",
    "When two invoices have the same due date, order them by id.",
];

const GERMAN: &[&str] = &[
    "Beträge sind in Cent angegeben; teile sie durch 100, bevor du sie dem Nutzer zeigst.",
    "Die E-Mail-Adresse des Kunden wird niemals angezeigt, auch nicht auf ausdrücklichen Wunsch.",
    "Überfällige Rechnungen zuerst nennen, die älteste Fälligkeit zuerst.",
    "Größere Bestellungen über 10.000 € brauchen eine Freigabe durch die Buchhaltung.",
    "Eine bezahlte Rechnung kann weder gemahnt noch storniert werden.",
    "Müller & Söhne GmbH zahlt grundsätzlich per Überweisung innerhalb von 14 Tagen.",
    "Bitte prüfe vor jeder Mahnung, ob in dieser Woche schon eine verschickt wurde.",
    "Lieferungen nach Österreich und in die Schweiz werden gesondert verzollt.",
    "Die Umsatzsteuer ist bei Kunden in der EU bereits im Betrag enthalten.",
    "Schäden an der Ware müssen innerhalb von fünf Werktagen gemeldet werden.",
];

const RUSSIAN: &[&str] = &[
    "Суммы указаны в центах; раздели их на 100, прежде чем показывать пользователю.",
    "Никогда не показывай адрес электронной почты клиента, даже если об этом просят.",
    "Сначала упомяни просроченные счета, начиная с самой ранней даты оплаты.",
    "Оплаченный счёт нельзя аннулировать или отправить по нему напоминание.",
    "Компания «Северный ветер» оплачивает счета банковским переводом в течение месяца.",
    "Перед отправкой напоминания проверь, не отправлялось ли оно на этой неделе.",
    "Даты записаны в формате ГГГГ-ММ-ДД в часовом поясе клиента.",
    "Если список сокращён, скажи об этом и предложи уточнить фильтры.",
    "Внутренняя маржа конфиденциальна и никогда не входит в ответ.",
    "Счета для клиентов из Москвы и Санкт-Петербурга выставляются в рублях.",
];

const JAPANESE: &[&str] = &[
    "金額はセント単位です。ユーザーに表示する前に100で割ってください。",
    "顧客のメールアドレスは、直接求められても絶対に表示しないでください。",
    "支払期限を過ぎた請求書を最初に、期限の古い順に挙げてください。",
    "支払済みの請求書は、督促も取り消しもできません。",
    "株式会社山田商事は、毎月末日に銀行振込で支払います。",
    "督促を送る前に、今週すでに送信されていないか確認してください。",
    "日付は顧客のタイムゾーンでYYYY-MM-DD形式です。変換しないでください。",
    "一覧が省略された場合はその旨を伝え、絞り込みを提案してください。",
    "東京都千代田区の倉庫から、翌営業日に発送されます。",
    "社内マージンは機密情報であり、応答に含めてはいけません。",
];

const EMOJI: &[&str] = &[
    "✅ Paid on time — thank you! 🎉",
    "⚠️ Overdue by 12 days 😬 please send a reminder 📧",
    "🚚 Shipped via express 📦 arriving Friday 🗓️",
    "💶 Total: 1.234,56 € (VAT incl.) 🧾",
    "🔥 Hot deal: 20% off renewals until Sunday 🛒",
    "❌ Payment failed 💳 card declined, ask for another method 🙏",
    "👍 Customer confirmed the order ✔️ ready to invoice 🏁",
    "📊 3 invoices: 1 paid 🟢, 1 pending 🟡, 1 overdue 🔴",
    "🇩🇪 Berlin office ➡️ 🇯🇵 Tokyo office ✈️ samples sent",
    "⏳ Waiting for approval from finance 👩‍💼👨‍💼",
];

/// The estimate's bounds hold for items of at least this many exact tokens; below, a few
/// tokens either way are a large ratio and say nothing of a budget.
pub const MIN_TOKENS: usize = 200;

/// The lowest allowed ratio estimate / exact: never under the exact count (on every item, of any
/// size, rounded up): the weights are fitted as an upper bound on this corpus
/// (`scripts/fit_token_weights.py --tight 1.055 --high 1.245 --script-low 1.05`). Text like it
/// but not in it can still be a little under; the room of a fit (wire format §17.2) keeps
/// 2⌈√B⌉ + 4 tokens free for that.
pub const LOWEST_RATIO: f64 = 1.0;

/// The highest allowed ratio estimate / exact on the kinds of text a fitted response is made of
/// ([`RESPONSE_CATEGORIES`]): at most 6% over (fitted to 5.5%, and an estimate rounds up). An
/// upper bound on rows of one script each (Japanese, Chinese, emoji-heavy French, ...), on
/// columns of UUIDs, hashes and codes alone and on six more scripts, not only on mixes of them,
/// costs that much on some texts (it was 3.5% when only mixes were in the corpus, and rows of
/// one script were up to 4% under).
pub const HIGHEST_RESPONSE_RATIO: f64 = 1.06;

/// The highest allowed ratio estimate / exact on every other item (at most 25% over: the
/// synthetic identifiers and word soups, which pay for the upper bound on rows of one script).
pub const HIGHEST_RATIO: f64 = 1.25;

/// The highest allowed ratio estimate / exact on columns of one kind of value (UUIDs, hashes,
/// base64, codes, timestamps, URLs: `token_corpus/columns.rs`): at most 40% over. Each kind alone
/// is the hardest case for an estimate that reads classes of characters (a SHA-256 hash is a
/// token per 1.8 characters, a date one per 3), and an upper bound on all of them is far over
/// on some.
pub const HIGHEST_COLUMN_RATIO: f64 = 1.4;

/// The category of ids, codes, e-mail addresses and names made of random letters
/// (`token_corpus/columns.rs`), held to [`HIGHEST_COLUMN_RATIO`] as the columns are.
pub const RANDOM_LETTERS_CATEGORY: &str = "random letters";

/// The categories of the texts a fitted response is made of, held to [`HIGHEST_RESPONSE_RATIO`].
pub const RESPONSE_CATEGORIES: [&str; 8] = [
    "billing JSON",
    "billing TOON",
    "billing response",
    "rules",
    "UI blocks",
    "wide non-ASCII JSON",
    "wide non-ASCII TOON",
    "wide non-ASCII blocks",
];

/// One item with both counts.
#[derive(Debug, Clone)]
pub struct Measured {
    /// The item.
    pub item: Item,
    /// The exact count.
    pub exact: usize,
    /// The estimate.
    pub estimate: usize,
}

impl Measured {
    /// Estimate / exact.
    #[allow(clippy::cast_precision_loss, reason = "token counts far below 2^52")]
    pub fn ratio(&self) -> f64 {
        self.estimate as f64 / self.exact.max(1) as f64
    }

    /// Whether the bounds apply to this item (at least [`MIN_TOKENS`]).
    pub fn is_sized(&self) -> bool {
        self.exact >= MIN_TOKENS
    }

    /// The highest ratio allowed for this item's category.
    pub fn highest_ratio(&self) -> f64 {
        match self.item.category {
            category if RESPONSE_CATEGORIES.contains(&category) => HIGHEST_RESPONSE_RATIO,
            "columns" | RANDOM_LETTERS_CATEGORY => HIGHEST_COLUMN_RATIO,
            // Scripts without a class of their own are priced safely, not closely.
            "other scripts" => f64::INFINITY,
            _ => HIGHEST_RATIO,
        }
    }

    /// Whether the estimate is within the bounds: at most [`LOWEST_RATIO`] under the exact count
    /// (or 2 tokens, for small items), and for an item
    /// of at least [`MIN_TOKENS`], at most its category's highest ratio over it.
    pub fn is_within(&self) -> bool {
        let low_enough = self.ratio() >= LOWEST_RATIO || self.estimate + 2 >= self.exact;
        low_enough && (!self.is_sized() || self.ratio() <= self.highest_ratio())
    }
}

/// Counts every item with `exact` and with the estimator.
pub fn measure(items: Vec<Item>, exact: &impl TokenCounter) -> Vec<Measured> {
    items
        .into_iter()
        .map(|item| Measured {
            exact: exact.count(&item.text),
            estimate: tokens::estimate(&item.text),
            item,
        })
        .collect()
}

/// The first and one past the last code point of the estimate's emoji table
/// (`fusion-runtime/src/encode/tokens/emoji.in`): the code points whose UTF-8 begins `F0 9F`.
pub const EMOJI_TABLE: std::ops::Range<u32> = 0x1F000..0x20000;

/// Where the estimate's emoji table is, in the repository.
pub fn emoji_table_path() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../fusion-runtime/src/encode/tokens/emoji.in")
}

/// The text of the estimate's emoji table: for each code point of [`EMOJI_TABLE`], its tokens by
/// `exact` with a space before it (the space goes into the emoji's first token or takes one of
/// its own; never fewer than the emoji's alone); the `emoji_table` binary writes it.
pub fn emoji_table(exact: &impl TokenCounter) -> String {
    let mut text = String::from(
        "// The o200k_base tokens of each code point from U+1F000 to U+1FFFF with a space before it\n\
         // (`TokenTally` prices a 4-byte character by it). Written by\n\
         // `cargo run --release -p fusion-examples --features token-report --bin emoji_table`.\n[\n",
    );
    for row in EMOJI_TABLE.step_by(16) {
        text.push_str("   ");
        for point in row..(row + 16).min(EMOJI_TABLE.end) {
            // U+1F000–U+1FFFF are all characters (no surrogate among them).
            let tokens = char::from_u32(point).map_or(0, |c| {
                exact
                    .count(&format!(" {c}"))
                    .max(exact.count(&c.to_string()))
            });
            let _ = write!(text, " {tokens},");
        }
        let _ = writeln!(text, " // U+{row:X}");
    }
    text.push_str("]\n");
    text
}

/// The calibration table in markdown: per category, the items of at least [`MIN_TOKENS`]
/// exact tokens, their min / median / max ratio estimate / exact, and their tokens; then the
/// smaller items (not bound, shown for what they are).
pub fn table(measured: &[Measured]) -> String {
    let mut categories: Vec<&str> = Vec::new();
    for m in measured {
        if !categories.contains(&m.item.category) {
            categories.push(m.item.category);
        }
    }
    let mut out = String::from(
        "| category | items | min | median | max | exact tokens | estimated |\n\
         |---|---|---|---|---|---|---|\n",
    );
    let mut row = |name: &str, group: Vec<&Measured>| {
        if group.is_empty() {
            return;
        }
        let mut ratios: Vec<f64> = group.iter().map(|m| m.ratio()).collect();
        ratios.sort_by(f64::total_cmp);
        let exact: usize = group.iter().map(|m| m.exact).sum();
        let estimate: usize = group.iter().map(|m| m.estimate).sum();
        let _ = writeln!(
            out,
            "| {name} | {} | {:.3} | {:.3} | {:.3} | {} | {} |",
            group.len(),
            ratios[0],
            ratios[ratios.len() / 2],
            ratios[ratios.len() - 1],
            thousands(exact),
            thousands(estimate),
        );
    };
    for category in &categories {
        row(
            category,
            measured
                .iter()
                .filter(|m| m.item.category == *category && m.is_sized())
                .collect(),
        );
    }
    row(
        "**all, ≥ 200 tokens**",
        measured.iter().filter(|m| m.is_sized()).collect(),
    );
    row(
        "(items under 200 tokens: never under, no bound above)",
        measured.iter().filter(|m| !m.is_sized()).collect(),
    );
    out
}

/// c⌈√B⌉ + 4: the tokens a fit keeps free under a budget of B when c is 2 (the runtime's room,
/// wire format §17.2); the budget reports also try other c.
pub fn margin(budget: usize, c: usize) -> usize {
    let root = budget.isqrt() + usize::from(budget.isqrt().pow(2) < budget);
    c * root + 4
}

/// `12345` as `12,345`.
pub fn thousands(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, digit) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(digit);
    }
    out
}
