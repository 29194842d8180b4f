//! Synthetic texts of the corpus: the kinds of text a tool can answer with that the billing
//! fixture has little of (word soups with accented and non-Latin words, CSV, deep JSON, number
//! lists, prose of short words, long and compound words, identifiers and paths, and notes in
//! JSON rows as the budget's property test writes them). They keep the estimate's weights from
//! fitting the billing text alone. Deterministic: a fixed seed.

use serde_json::{Value, json};

use super::{Item, Random, push};

/// Billing words with the non-ASCII text the estimate is calibrated on: the notes of the word
/// soups here, and of the budget's property tests (`tests/tests/present/budget.rs`).
pub const NOTE_WORDS: &[&str] = &[
    "invoice",
    "paid",
    "overdue",
    "Acme",
    "Corp",
    "Café",
    "Crème",
    "SARL",
    "Müller",
    "GmbH",
    "€",
    "1,250.00",
    "INV-0042",
    "2026-11-21",
    "reminder",
    "sent",
    "to",
    "the",
    "customer",
    "Zahlung",
    "überfällig",
    "счёт",
    "оплачен",
    "請求書",
    "🎉",
    "note:",
    "(see",
    "above)",
];

/// Short English words.
const SHORT_WORDS: &[&str] = &[
    "red", "green", "blue", "a", "an", "of", "to", "in", "is", "it", "data", "value", "total",
    "status", "open", "closed", "north", "south", "east", "west", "alpha", "beta", "gamma",
    "delta", "id", "name", "email", "country", "amount", "currency", "yes", "no", "ok", "x", "y",
    "z", "widget", "gadget", "item", "order",
];

/// Long English words and German compounds.
const LONG_WORDS: &[&str] = &[
    "international",
    "configuration",
    "responsibility",
    "documentation",
    "Rechnungsbetrag",
    "Zahlungserinnerung",
    "Kundennummer",
    "reconciliation",
    "subscription",
    "authentication",
    "Mahnungsgebühr",
    "überweisungsdatum",
    "infrastructure",
    "approximately",
    "administrative",
    "characteristics",
    "Geschäftsführer",
    "notwithstanding",
    "telecommunications",
    "Umsatzsteuer",
];

/// Identifiers, paths and URLs.
const IDENTIFIERS: &[&str] = &[
    "invoiceId",
    "customerName",
    "amount_cents",
    "dueAt",
    "https://billing.example.com/invoices/",
    "/api/v2/customers/",
    "get_invoice",
    "listInvoices",
    "HTTPServer",
    "userEmail",
    "SKU-301",
    "v1.2.3",
    "src/main.rs",
    "fusion_runtime::tokens",
];

/// Every synthetic item.
pub(super) fn synthetic(items: &mut Vec<Item>) -> Result<(), fusion_runtime::EncodeError> {
    let mut random = Random(0x5EED_CAFE_F00D_0001);
    let words = |random: &mut Random, from: &[&str], count: usize| -> Vec<String> {
        (0..count)
            .map(|_| from[random.below(from.len())].to_owned())
            .collect()
    };
    for index in 0..20 {
        let text = words(&mut random, NOTE_WORDS, 120).join(" ");
        push(items, "synthetic", format!("word soup {index}"), text);
    }
    for index in 0..20 {
        let mut text = String::new();
        for _ in 0..30 {
            text.push_str(&words(&mut random, SHORT_WORDS, 8).join(","));
            text.push('\n');
        }
        push(items, "synthetic", format!("csv {index}"), text);
    }
    for index in 0..10 {
        let numbers: Vec<String> = (0..60).map(|_| random.below(100_000).to_string()).collect();
        push(
            items,
            "synthetic",
            format!("numbers {index}"),
            numbers.join(", "),
        );
    }
    for index in 0..10 {
        let mut value =
            json!({"leaf": words(&mut random, SHORT_WORDS, 1)[0], "n": random.below(1000)});
        for level in 0..4 + index {
            value = json!({
                "level": level,
                "name": words(&mut random, SHORT_WORDS, 1)[0],
                "child": value,
                "tags": words(&mut random, SHORT_WORDS, 2),
            });
        }
        push(
            items,
            "synthetic",
            format!("deep JSON {index}"),
            fusion_runtime::testing::json::to_string(&value)?,
        );
    }
    for index in 0..10 {
        let text = words(&mut random, SHORT_WORDS, 200).join(" ");
        push(
            items,
            "synthetic",
            format!("short-word prose {index}"),
            text,
        );
    }
    for index in 0..10 {
        let text: Vec<String> = (0..300)
            .map(|_| {
                let from = if random.below(3) == 0 {
                    SHORT_WORDS
                } else {
                    LONG_WORDS
                };
                words(&mut random, from, 1).remove(0)
            })
            .collect();
        push(
            items,
            "synthetic",
            format!("long words {index}"),
            text.join(" "),
        );
    }
    for index in 0..10 {
        let mut text = String::new();
        for _ in 0..80 {
            text.push_str(&words(&mut random, IDENTIFIERS, 1)[0]);
            if random.below(2) == 0 {
                text.push_str(&random.below(10_000).to_string());
            }
            text.push(if random.below(4) == 0 { '\n' } else { ' ' });
        }
        push(items, "synthetic", format!("identifiers {index}"), text);
    }
    for index in 0..30 {
        let rows: Vec<Value> = (0..10 + random.below(50))
            .map(|row| {
                let count = random.below(13);
                json!({"id": row, "note": words(&mut random, NOTE_WORDS, count).join(" "), "flagged": row % 7 == 3})
            })
            .collect();
        push(
            items,
            "synthetic",
            format!("notes in JSON rows {index}"),
            fusion_runtime::testing::json::to_string(&rows)?,
        );
    }
    Ok(())
}
