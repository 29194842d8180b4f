//! Token and size report: what each data block format costs a model, in UTF-8 bytes and in
//! `o200k_base` tokens (the GPT-4o tokenizer: `tokens::ExactCounter`).
//!
//! `cargo run --release -p fusion-examples --features token-report --bin token_report`
//!
//! Datasets: the 120 invoices of the billing fixture in their wire form (customer email
//! redacted, `internal_margin_bps` absent), the same 120 as flat `InvoiceRow`s, and 10,000
//! `InvoiceRow`s made by cycling the fixture with new ids. Formats: the wire format §3 pretty JSON data
//! block, compact JSON, the TOON response block (pipe delimiter, `toon_success`), and the pretty
//! JSON data block under `_select` of 2 and of 3 fields (the selected fields of each item, in
//! declaration order, as wire format §7 writes them).
//!
//! Whole responses: `get_invoice` for the first invoice (INV-0001) and `list_invoices` (agent
//! limit 50), each presented with the JSON data block and with the TOON data block
//! (`Presentation::format(Format::Toon)`); every block counts (data, UI, embeds, rules,
//! suggestions), as the model reads them.
//!
//! Said once (wire format §6.10): a collection of 40 products of which 35 are below their
//! reorder level, whose item rule and item suggestion fire for each of those: the tokens of the
//! rules and suggestions blocks with one line per item (`each`, as before), with the default
//! grouped line (`(likewise for ...)`) and with a `many` text.
//!
//! Budgets (wire format §17): the billing tools called through the `ToolSet` without a budget
//! and with `ToolSet::max_tokens` of 2,000, 8,000 and 25,000: items kept, the estimate the fit
//! works with, and the exact `o200k_base` count.
//!
//! Plain server vs fusion: the billing tools, the task tracker and a paged notes search (200
//! hits, 72 a page, a 5,000-token budget), each call's model-visible tokens (the text blocks) as
//! a plain server answers (the compact JSON of the same data: the wire value fusion's answer
//! holds), with fusion's defaults (pretty JSON, UI blocks as text; split into data, UI, rules,
//! suggestions), with compact JSON alone (`ToolSet::format`, a client without MCP Apps), with the
//! lean setup the README recommends (`ToolSet::lean`, wire format §6.12) for a client without MCP
//! Apps and for one that renders them (UI blocks in `_meta`, wire format §4.6), and the same with
//! TOON. A lean tool says its static rules once, in `tools/list`: a second table counts the
//! tokens of each tool set's `tools/list` entries with the defaults and lean, once a session.

use std::process::ExitCode;

use std::sync::Arc;

use fusion_examples::models::{Invoice, InvoiceRow};
use fusion_examples::store::Store;
use fusion_examples::tasks::tasks_tools;
use fusion_examples::tools::{BillingApp, tools};
use fusion_runtime::present::{FieldMask, Format, Model};
use fusion_runtime::tokens::{ExactCounter, TokenCounter};
use fusion_runtime::tool::ToolDefinition;
use fusion_runtime::{Call, Presenter, Selection, Tool, ToolResponse, ToolSet};
use serde::{Deserialize, Serialize, Serializer};
use serde_json::{Value, json};

const SYNTHETIC_ROWS: usize = 10_000;

/// Declares a product model with the reorder rule and suggestion and the given extra keys.
macro_rules! product {
    ($name:ident, $($group:tt)*) => {
        /// A product; its rule and suggestion fire when it is below its reorder level.
        #[derive(fusion_runtime::Presenter)]
        #[rule("Stock is in units.")]
        #[rule(
            "SKU {sku} is below its reorder level ({stock} left, reorder at {reorder_at}): tell the user.",
            when = Self::low,
            $($group)*
        )]
        #[suggest(
            tool = "inventory.reorder",
            reason = "Reorder {sku} from its supplier",
            when = Self::low,
            $($group)*
        )]
        struct $name {
            sku: String,
            name: String,
            stock: u32,
            reorder_at: u32,
        }

        impl $name {
            fn low(&self) -> bool {
                self.stock < self.reorder_at
            }

            fn all() -> Vec<Self> {
                (1..=40u32)
                    .map(|i| $name {
                        sku: format!("SKU-{i:03}"),
                        name: format!("Product {i}"),
                        stock: if i % 7 == 0 { 50 } else { i % 5 },
                        reorder_at: 10,
                    })
                    .collect()
            }
        }
    };
}

product!(ProductEach, each);
product!(ProductLikewise,);
product!(
    ProductMany,
    many = "SKUs {items} are below their reorder level: tell the user."
);

/// A collection written as the presenter writes it under `_select`: each item through the
/// model's generated wire writer with the selection's mask (no agent limit, so every dataset
/// keeps all its items).
struct Selected<'a, T> {
    items: &'a [T],
    mask: &'a FieldMask,
}

impl<T: Model> Serialize for Selected<'_, T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        struct One<'a, T>(&'a T, &'a FieldMask);
        impl<T: Model> Serialize for One<'_, T> {
            fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                self.0.serialize_selected(self.1, serializer)
            }
        }
        serializer.collect_seq(self.items.iter().map(|item| One(item, self.mask)))
    }
}

/// One data block in one format.
struct Block {
    format: String,
    text: String,
}

/// The blocks of one dataset. `select2` and `select3` name fields in declaration order.
fn blocks<T: Model>(
    items: &[T],
    select2: &[&str],
    select3: &[&str],
) -> Result<Vec<Block>, Box<dyn std::error::Error>> {
    let mut blocks = vec![
        Block {
            format: "pretty JSON (wire format §3 data block)".into(),
            text: fusion_runtime::testing::json::to_string(items)?,
        },
        Block {
            format: "compact JSON".into(),
            text: serde_json::to_string(items)?,
        },
        Block {
            format: "TOON, pipe (toon_success_table)".into(),
            text: fusion_runtime::toon::success_table(items)?.blocks()[0].clone(),
        },
    ];
    for fields in [select2, select3] {
        blocks.push(Block {
            format: format!("_select {} (pretty JSON)", fields.join(",")),
            text: fusion_runtime::testing::json::to_string(&Selected {
                items,
                mask: &FieldMask::of::<T>(&Selection::new(fields.iter().copied())),
            })?,
        });
    }
    Ok(blocks)
}

fn report(title: &str, blocks: &[Block], bpe: &ExactCounter) -> Vec<(String, usize, usize)> {
    println!("\n{title}");
    println!(
        "{:<48} {:>10} {:>10} {:>9} {:>9}",
        "format", "bytes", "tokens", "bytes %", "tokens %"
    );
    let figures: Vec<(String, usize, usize)> = blocks
        .iter()
        .map(|block| {
            let tokens = bpe.count(&block.text);
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

/// Bytes and tokens of one response: its data block, and all of its blocks.
struct Whole {
    data_bytes: usize,
    data_tokens: usize,
    bytes: usize,
    tokens: usize,
    blocks: usize,
    /// Tokens of the MCP `CallToolResult` JSON as sent (block texts as escaped JSON strings).
    wire_tokens: usize,
}

impl Whole {
    fn of(response: &ToolResponse, bpe: &ExactCounter) -> Self {
        let tokens = |text: &str| bpe.count(text);
        let data = response.blocks().first().map_or("", String::as_str);
        Whole {
            data_bytes: data.len(),
            data_tokens: tokens(data),
            bytes: response.blocks().iter().map(String::len).sum(),
            tokens: response.blocks().iter().map(|block| tokens(block)).sum(),
            blocks: response.blocks().len(),
            wire_tokens: tokens(&response.to_json()),
        }
    }
}

/// Prints one presented call with both data block formats; returns the TOON response's tokens
/// as a percentage of the JSON response's.
fn compare(title: &str, json: &ToolResponse, toon: &ToolResponse, bpe: &ExactCounter) -> f64 {
    println!("\n{title}");
    println!(
        "{:<20} {:>7} {:>11} {:>12} {:>12} {:>13} {:>9} {:>12} {:>9}",
        "data block",
        "blocks",
        "data bytes",
        "data tokens",
        "total bytes",
        "total tokens",
        "tokens %",
        "wire tokens",
        "wire %"
    );
    let json = Whole::of(json, bpe);
    let toon = Whole::of(toon, bpe);
    for (name, whole) in [("JSON (default)", &json), ("TOON (format toon)", &toon)] {
        println!(
            "{name:<20} {:>7} {:>11} {:>12} {:>12} {:>13} {:>8.1}% {:>12} {:>8.1}%",
            whole.blocks,
            whole.data_bytes,
            whole.data_tokens,
            whole.bytes,
            whole.tokens,
            percent(whole.tokens, json.tokens),
            whole.wire_tokens,
            percent(whole.wire_tokens, json.wire_tokens)
        );
    }
    percent(toon.tokens, json.tokens)
}

/// How many items a data block holds: a JSON list's length, a TOON table's `[N` header, one
/// for any other value.
fn items_in(data: &str) -> usize {
    if let Some(rest) = data.strip_prefix('[')
        && let Some(count) = rest.split(|c: char| !c.is_ascii_digit()).next()
        && let Ok(count) = count.parse()
    {
        return count;
    }
    match serde_json::from_str::<Value>(data) {
        Ok(Value::Array(items)) => items.len(),
        _ => 1,
    }
}

/// Prints the tokens of the rules and suggestions blocks of the product list, one line per item
/// (before) and said once (after, wire format §6.10).
fn said_once(bpe: &ExactCounter) -> Result<(), Box<dyn std::error::Error>> {
    let lists = |response: &ToolResponse| {
        let of = |tag: &str| {
            response
                .blocks()
                .iter()
                .filter(|block| block.starts_with(tag))
                .map(|block| bpe.count(block))
                .sum::<usize>()
        };
        let total: usize = response.blocks().iter().map(|block| bpe.count(block)).sum();
        (of("<domain_rules>"), of("<action_suggestions>"), total)
    };
    let each = ProductEach::all();
    let low = each.iter().filter(|p| p.low()).count();
    println!(
        "\nSaid once (wire format §6.10): {} products, {low} below their reorder level; o200k_base \
         tokens of the rules and suggestions blocks and of the whole response (JSON data block).",
        each.len()
    );
    println!(
        "{:<40} {:>8} {:>12} {:>8} {:>8} {:>8}",
        "declaration", "rules", "suggestions", "both", "total", "both %"
    );
    let rows = [
        (
            "each (one line per item: before)",
            lists(&ProductEach::present_all(&each).build()?),
        ),
        (
            "default ((likewise for ...))",
            lists(&ProductLikewise::present_all(&ProductLikewise::all()).build()?),
        ),
        (
            "many = \"SKUs {items} are ...\"",
            lists(&ProductMany::present_all(&ProductMany::all()).build()?),
        ),
    ];
    let before = rows[0].1.0 + rows[0].1.1;
    for (name, (rules, suggestions, total)) in rows {
        println!(
            "{name:<40} {rules:>8} {suggestions:>12} {:>8} {total:>8} {:>7.1}%",
            rules + suggestions,
            percent(rules + suggestions, before)
        );
    }
    Ok(())
}

/// Prints the billing calls without a budget and with each budget: items kept, estimated and
/// exact tokens; returns whether every budgeted response stayed within its budget by the exact
/// count.
fn budgets(bpe: &ExactCounter) -> Result<bool, Box<dyn std::error::Error>> {
    let calls = [
        (
            "list_invoices",
            serde_json::json!({"action": "list_invoices"}),
        ),
        (
            "list_invoices overdue",
            serde_json::json!({"action": "list_invoices", "status": "overdue"}),
        ),
        (
            "list_invoices _select",
            serde_json::json!({"action": "list_invoices", "_select": ["id", "status"]}),
        ),
        (
            "get_invoice",
            serde_json::json!({"action": "get_invoice", "id": "INV-0001"}),
        ),
        (
            "export_invoices",
            serde_json::json!({"action": "export_invoices"}),
        ),
    ];
    println!(
        "\nResponse budgets (ToolSet::max_tokens): items kept, estimated and exact tokens of \
         every block. export_invoices is built by hand (toon::success_table): sent as it is."
    );
    println!(
        "{:<24} {:>8} {:>7} {:>10} {:>8} {:>8}",
        "call", "budget", "items", "estimate", "exact", "isError"
    );
    let mut within = true;
    for budget in [None, Some(2_000), Some(8_000), Some(25_000)] {
        let app = Arc::new(BillingApp::new(Store::load()?));
        let mut set = tools(app)?;
        if let Some(budget) = budget {
            set = set.max_tokens(budget);
        }
        for (name, arguments) in &calls {
            let response = set.call("billing", Some(arguments.clone()));
            let estimate: usize = response
                .blocks()
                .iter()
                .map(|b| fusion_runtime::tokens::estimate(b))
                .sum();
            let exact: usize = response.blocks().iter().map(|b| bpe.count(b)).sum();
            let data = response.blocks().first().map_or("", String::as_str);
            let by_hand = *name == "export_invoices";
            if let Some(budget) = budget
                && !by_hand
                && exact > budget
            {
                within = false;
            }
            println!(
                "{name:<24} {:>8} {:>7} {estimate:>10} {exact:>8} {:>8}",
                budget.map_or_else(|| "none".to_owned(), |b| b.to_string()),
                items_in(data),
                response.is_error() == Some(true)
            );
        }
    }
    Ok(within)
}

/// A hit of the paged notes search: the records a notes vault's search tool returns.
#[derive(Presenter, Clone)]
#[rule("score is 0 to 1, higher is better; open a note with notes.read.")]
struct Hit {
    path: String,
    title: String,
    tags: Vec<String>,
    modified: String,
    score: f64,
}

/// Search the notes
#[derive(Deserialize, schemars::JsonSchema, Tool)]
#[fusion(name = "search_notes", returns = [Hit], max_tokens = 5000)]
struct SearchNotes {
    offset: Option<usize>,
}

/// The 200 hits of one query, best first.
fn all_hits() -> Vec<Hit> {
    const WORDS: [&str; 8] = [
        "rust", "mcp", "async", "tokio", "serde", "schema", "agents", "tools",
    ];
    (0..200)
        .map(|i| Hit {
            path: format!(
                "vault/{}/{}-notes-on-{}.md",
                WORDS[i % 8],
                2020 + i % 6,
                WORDS[(i * 3) % 8]
            ),
            title: format!(
                "Notes on {} and {} ({i})",
                WORDS[(i * 3) % 8],
                WORDS[(i * 5) % 8]
            ),
            tags: vec![WORDS[i % 8].to_owned(), WORDS[(i + 3) % 8].to_owned()],
            modified: format!("2026-{:02}-{:02}", 1 + i % 12, 1 + i % 28),
            #[allow(clippy::cast_precision_loss, reason = "small counts")]
            score: ((1000 - i * 4) as f64 / 1000.0),
        })
        .collect()
}

/// A tool set with the paged search: 72 hits a page, in the `{results, total, offset, ...}`
/// envelope (wire format §6.11), with a next-page suggestion.
fn search_tools() -> Result<ToolSet, fusion_runtime::tool::DefinitionError> {
    ToolSet::new().tool(|input: SearchNotes, call: &Call| {
        let hits = all_hits();
        let offset = input.offset.unwrap_or(0).min(hits.len());
        let page = &hits[offset..(offset + 72).min(hits.len())];
        call.present_all(page)
            .page(offset, Some(hits.len()))
            .suggest_next("search_notes", "Next page")
            .build()
    })
}

/// Model-visible tokens of one answer, by part.
#[derive(Default, Clone, Copy)]
struct Cost {
    data: usize,
    ui: usize,
    rules: usize,
    suggestions: usize,
    other: usize,
}

impl Cost {
    fn of(response: &ToolResponse, bpe: &ExactCounter) -> Self {
        let mut cost = Cost::default();
        for (index, block) in response.blocks().iter().enumerate() {
            let tokens = bpe.count(block);
            let part = if index == 0 {
                &mut cost.data
            } else if block.starts_with("<ui_passthrough") {
                &mut cost.ui
            } else if block.starts_with("<domain_rules>") {
                &mut cost.rules
            } else if block.starts_with("<action_suggestions>") {
                &mut cost.suggestions
            } else {
                &mut cost.other
            };
            *part += tokens;
        }
        cost
    }

    fn total(self) -> usize {
        self.data + self.ui + self.rules + self.suggestions + self.other
    }
}

/// How a tool set of the plain-vs-fusion table is set up.
#[derive(Clone, Copy)]
enum Setup {
    /// fusion's defaults.
    Default,
    /// `ToolSet::format(format)` alone.
    Format(Format),
    /// `ToolSet::lean()` (compact JSON, static rules said once in the description).
    Lean,
    /// `ToolSet::lean().format(Format::Toon)`.
    LeanToon,
}

impl Setup {
    fn apply<S: Send + Sync + 'static>(self, set: ToolSet<S>) -> ToolSet<S> {
        match self {
            Setup::Default => set,
            Setup::Format(format) => set.format(format),
            Setup::Lean => set.lean(),
            Setup::LeanToon => set.lean().format(Format::Toon),
        }
    }
}

/// One call of the plain-vs-fusion table: the answer of a fresh tool set set up as `setup`,
/// whether the tool renders with the MCP Apps view, and the tool set's `tools/list` entries as
/// compact JSON (what a host shows the model once a session).
type Maker = fn(Setup, &str, Value) -> Result<Answer, Box<dyn std::error::Error>>;

/// What one call of the plain-vs-fusion table gives.
struct Answer {
    response: ToolResponse,
    renders: bool,
    descriptions: String,
}

/// `tool` called with `arguments` on `set`, set up as `setup`.
fn answer<S: Send + Sync + 'static>(
    set: ToolSet<S>,
    setup: Setup,
    tool: &str,
    arguments: Value,
) -> Answer {
    let set = setup.apply(set);
    let renders = set.get(tool).is_some_and(ToolDefinition::ui_app);
    let descriptions = set
        .definitions()
        .map(|definition| definition.to_json().to_string())
        .collect::<Vec<_>>()
        .join("\n");
    Answer {
        response: set.call(tool, Some(arguments)),
        renders,
        descriptions,
    }
}

fn billing_call(
    setup: Setup,
    tool: &str,
    arguments: Value,
) -> Result<Answer, Box<dyn std::error::Error>> {
    let set = tools(Arc::new(BillingApp::new(Store::load()?)))?;
    Ok(answer(set, setup, tool, arguments))
}

fn tasks_call(
    setup: Setup,
    tool: &str,
    arguments: Value,
) -> Result<Answer, Box<dyn std::error::Error>> {
    Ok(answer(tasks_tools()?, setup, tool, arguments))
}

fn search_call(
    setup: Setup,
    tool: &str,
    arguments: Value,
) -> Result<Answer, Box<dyn std::error::Error>> {
    Ok(answer(search_tools()?, setup, tool, arguments))
}

/// The calls of the plain-vs-fusion table: label, tool set, tool, arguments.
fn plain_calls() -> [(&'static str, Maker, &'static str, Value); 11] {
    [
        (
            "billing get_invoice",
            billing_call,
            "billing",
            json!({"action": "get_invoice", "id": "INV-0001"}),
        ),
        (
            "billing get_invoice _select",
            billing_call,
            "billing",
            json!({"action": "get_invoice", "id": "INV-0047", "_select": ["id", "status", "amount_cents"]}),
        ),
        (
            "billing list overdue",
            billing_call,
            "billing",
            json!({"action": "list_invoices", "status": "overdue"}),
        ),
        (
            "billing list (limit 50)",
            billing_call,
            "billing",
            json!({"action": "list_invoices"}),
        ),
        ("invoice_stats", billing_call, "invoice_stats", json!({})),
        (
            "tasks get_project",
            tasks_call,
            "tasks",
            json!({"action": "get_project", "id": "PRJ-1"}),
        ),
        (
            "tasks get_task",
            tasks_call,
            "tasks",
            json!({"action": "get_task", "id": "T-1"}),
        ),
        (
            "tasks list_tasks",
            tasks_call,
            "tasks",
            json!({"action": "list_tasks"}),
        ),
        ("task_stats", tasks_call, "task_stats", json!({})),
        (
            "search_notes page 1",
            search_call,
            "search_notes",
            json!({}),
        ),
        (
            "search_notes offset 150",
            search_call,
            "search_notes",
            json!({"offset": 150}),
        ),
    ]
}

/// Prints the plain-server-vs-fusion table; returns whether every lean answer with MCP Apps
/// is within 1.1x of the plain server's compact JSON.
fn plain_vs_fusion(bpe: &ExactCounter) -> Result<bool, Box<dyn std::error::Error>> {
    let calls = plain_calls();
    println!(
        "\nPlain server vs fusion: model-visible o200k tokens per call (the text blocks). plain: \
         the compact JSON of the data the lean answer holds (each x is against the compact JSON \
         of that answer's own data); default: fusion's defaults (pretty JSON, UI as text), by \
         part; compact: ToolSet::format(CompactJson), a client without MCP Apps; lean: \
         ToolSet::lean() (compact JSON, static rules said once in tools/list, a _select that \
         leaves out a member answers its data alone), a client without MCP Apps; lean+apps: the \
         same for a client that renders MCP Apps (UI blocks in _meta); toon+apps: the same with \
         ToolSet::lean().format(Toon)."
    );
    println!(
        "| {:<28} | {:>6} | {:>5} | {:>5} | {:>5} | {:>5} | {:>7} | {:>5} | {:>7} | {:>5} | {:>9} | {:>5} | {:>9} | {:>5} |",
        "call",
        "plain",
        "data",
        "UI",
        "rules",
        "sugg.",
        "default",
        "x",
        "compact",
        "lean",
        "lean+apps",
        "x",
        "toon+apps",
        "x"
    );
    println!("|{}|", ["---"; 14].join("|"));
    let mut within = true;
    let mut sessions: Vec<(&str, String, usize, usize)> = Vec::new();
    for (label, make, tool, arguments) in calls {
        let default = make(Setup::Default, tool, arguments.clone())?;
        let compact = make(Setup::Format(Format::CompactJson), tool, arguments.clone())?;
        let lean = make(Setup::Lean, tool, arguments.clone())?;
        let toon = make(Setup::LeanToon, tool, arguments)?;
        let with_apps = |answer: &Answer| {
            if answer.renders {
                answer.response.clone().ui_to_meta()
            } else {
                answer.response.clone()
            }
        };
        let apps = with_apps(&lean);
        let toon_apps = with_apps(&toon);
        // The plain server's answer to the same data: the compact JSON of what each answer holds
        // (a budget keeps more items of a leaner answer).
        let plain_of = |response: &ToolResponse| -> Result<usize, serde_json::Error> {
            let data = match response.view().data().as_value() {
                Some(value) => serde_json::to_string(value)?,
                None => response.blocks()[0].clone(),
            };
            Ok(bpe.count(&data))
        };
        let plain = plain_of(&apps)?;
        let cost = Cost::of(&default.response, bpe);
        let lean_apps = Cost::of(&apps, bpe).total();
        let ratio = percent(lean_apps, plain) / 100.0;
        within &= ratio <= 1.1;
        println!(
            "| {label:<28} | {plain:>6} | {:>5} | {:>5} | {:>5} | {:>5} | {:>7} | {:>5.2} | {:>7} | {:>5} | {lean_apps:>9} | {ratio:>5.2} | {:>9} | {:>5.2} |",
            cost.data,
            cost.ui,
            cost.rules,
            cost.suggestions,
            cost.total(),
            percent(cost.total(), plain_of(&default.response)?) / 100.0,
            Cost::of(&compact.response, bpe).total(),
            Cost::of(&lean.response, bpe).total(),
            Cost::of(&toon_apps, bpe).total(),
            percent(Cost::of(&toon_apps, bpe).total(), plain_of(&toon_apps)?) / 100.0,
        );
        // One row per tool set (the billing set answers `billing` and `invoice_stats`).
        if !sessions
            .iter()
            .any(|(_, text, _, _)| *text == default.descriptions)
        {
            let server = label.split(' ').next().unwrap_or(label);
            sessions.push((
                server,
                default.descriptions.clone(),
                bpe.count(&default.descriptions),
                bpe.count(&lean.descriptions),
            ));
        }
    }
    println!(
        "\nOnce a session: o200k tokens of the tools/list entries (compact JSON) of the tool \
         set that answers each call (what a host shows the model), with fusion's defaults and \
         lean (the static rules said once, the _select note)."
    );
    println!(
        "| {:<14} | {:>7} | {:>5} | {:>6} |",
        "tool set of", "default", "lean", "+ once"
    );
    println!("|{}|", ["---"; 4].join("|"));
    for (server, _, default, lean) in sessions {
        println!(
            "| {server:<14} | {default:>7} | {lean:>5} | {:>6} |",
            lean.saturating_sub(default)
        );
    }
    Ok(within)
}

#[allow(
    clippy::cast_precision_loss,
    reason = "display of counts far below 2^52"
)]
fn percent(part: usize, whole: usize) -> f64 {
    100.0 * part as f64 / whole.max(1) as f64
}

fn main() -> ExitCode {
    fusion_examples::cli::report_run("token_report", run)
}

/// Prints the report; returns whether the targets are met: TOON within 45% of pretty JSON's
/// tokens for the 10,000 rows, the whole `get_invoice` response with the TOON data block
/// within 70% of the tokens of the same response with the JSON data block, budgeted responses
/// within their budget, and every lean answer with MCP Apps within 1.1x of the plain server's.
fn run() -> Result<bool, Box<dyn std::error::Error>> {
    let store = Store::load()?;
    let invoices: Vec<Invoice> = store.invoices().cloned().collect();
    let rows: Vec<InvoiceRow> = invoices.iter().map(InvoiceRow::from).collect();
    let synthetic: Vec<InvoiceRow> = invoices
        .iter()
        .cycle()
        .take(SYNTHETIC_ROWS)
        .enumerate()
        .map(|(i, invoice)| InvoiceRow {
            id: format!("INV-{:05}", i + 1),
            ..InvoiceRow::from(invoice)
        })
        .collect();
    let bpe = ExactCounter::o200k()?;

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
        "\nWhole presented responses. total: the text of every block (what the model reads), \
         tokens summed over blocks; wire: the MCP CallToolResult JSON as sent."
    );
    let first = invoices.first().ok_or("the fixture has no invoice")?;
    let get_share = compare(
        &format!("get_invoice {} (single Invoice)", first.id),
        &first.present().build()?,
        &first.present().format(Format::Toon).build()?,
        &bpe,
    );
    compare(
        &format!(
            "list_invoices, all {} invoices (agent limit 50)",
            invoices.len()
        ),
        &Invoice::present_all(&invoices).build()?,
        &Invoice::present_all(&invoices)
            .format(Format::Toon)
            .build()?,
        &bpe,
    );
    let get_within = get_share <= 70.0;
    said_once(&bpe)?;
    let budgets_within = budgets(&bpe)?;
    let lean_within = plain_vs_fusion(&bpe)?;

    let verdict = |met: bool| if met { "met" } else { "NOT met" };
    println!(
        "\nTOON (pipe) for {SYNTHETIC_ROWS} rows: {toon_share:.1}% of pretty JSON's tokens \
         (target: at most 45%): {}",
        verdict(within)
    );
    println!(
        "get_invoice {} with the TOON data block: {get_share:.1}% of the tokens of the JSON \
         response (target: at most 70%): {}",
        first.id,
        verdict(get_within)
    );
    println!(
        "Budgeted presented responses within their budget by the exact count: {}",
        verdict(budgets_within)
    );
    println!(
        "Lean answers with MCP Apps within 1.1x of the plain server's compact JSON: {}",
        verdict(lean_within)
    );
    Ok(within && get_within && budgets_within && lean_within)
}
