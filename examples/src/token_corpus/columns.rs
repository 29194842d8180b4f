//! Columns of one kind of value, each on its own: lists of rows whose only text is UUIDs, hashes,
//! base64 tokens, codes, timestamps, e-mail addresses, URLs or identifiers, as JSON (pretty and
//! compact) and as TOON.
//!
//! Inside a wide row such a value is a small part of the text, and an estimate fitted on totals
//! can be far under on it while the row stays over: a list of UUIDs alone was estimated at 0.75
//! of its exact count, of SHA-256 hashes at 0.55 (issue #20). Each kind alone here makes the
//! estimate an upper bound on it, not only on the rows it hides in. Deterministic: a fixed seed.

use serde_json::{Value, json};

use super::{Item, Random, push};
use fusion_runtime::toon::{self, ToonOptions};

/// A kind of value: its name, and how to draw one.
type Kind = (&'static str, fn(&mut Random) -> String);

/// The kinds of value.
const KINDS: &[Kind] = &[
    ("uuid", |random| random.uuid()),
    ("sha256", |random| random.hex(64)),
    ("short hex", |random| random.hex(8)),
    ("base64", |random| random.from(BASE64, 44)),
    ("alphanumeric code", |random| random.from(ALPHANUMERIC, 12)),
    ("lower-case id", |random| random.from(LOWER, 10)),
    ("upper-case code", |random| random.from(UPPER, 6)),
    ("digits", |random| random.from(DIGITS, 16)),
    ("timestamp", |random| random.timestamp()),
    ("e-mail", |random| {
        format!(
            "{}.{}@{}.example.com",
            random.from(LOWER, 6),
            random.from(LOWER, 8),
            random.from(LOWER, 5)
        )
    }),
    ("url", |random| {
        format!(
            "https://cdn.example.com/{}/{}?v={}",
            random.hex(12),
            random.from(ALPHANUMERIC, 10),
            random.from(DIGITS, 6)
        )
    }),
    ("camelCase identifier", |random| {
        (0..4)
            .map(|_| {
                let length = 3 + random.below(6);
                let word = random.from(LOWER, length);
                let mut chars = word.chars();
                chars.next().map_or_else(String::new, |first| {
                    first.to_ascii_uppercase().to_string() + chars.as_str()
                })
            })
            .collect()
    }),
];

const BASE64: &str = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const ALPHANUMERIC: &str = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
const LOWER: &str = "abcdefghijklmnopqrstuvwxyz";
const UPPER: &str = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
const DIGITS: &str = "0123456789";

/// The kinds made of random letters alone: no word of any language (10 random lower-case
/// letters take about 5 tokens, a 10-letter word one or two). Under a category of their own,
/// held as the columns are: the estimate tells them from words by their letters (lower-case
/// letters come in three classes: vowels, common consonants and the rest, which random letters
/// have many of, in clusters).
const RANDOM_LETTERS: [&str; 4] = [
    "lower-case id",
    "upper-case code",
    "e-mail",
    "camelCase identifier",
];

/// Lists of 4, 12 and 40 rows of each kind: one field alone, and beside a short numbered id.
pub(super) fn columns(items: &mut Vec<Item>) -> Result<(), Box<dyn std::error::Error>> {
    let mut random = Random(0xC01_0B5E_ED00_0020);
    for &(kind, value) in KINDS {
        let category = if RANDOM_LETTERS.contains(&kind) {
            "random letters"
        } else {
            "columns"
        };
        for rows in [4, 12, 40] {
            let alone: Vec<Value> = (0..rows)
                .map(|_| json!({ "value": value(&mut random) }))
                .collect();
            let numbered: Vec<Value> = (0..rows)
                .map(|i| json!({ "id": i + 1, "key": value(&mut random) }))
                .collect();
            for (shape, list) in [("alone", &alone), ("numbered", &numbered)] {
                let name = format!("{kind} x{rows} {shape}");
                push(
                    items,
                    category,
                    format!("{name} JSON"),
                    fusion_runtime::testing::json::to_string(list)?,
                );
                push(
                    items,
                    category,
                    format!("{name} compact JSON"),
                    serde_json::to_string(list)?,
                );
                push(
                    items,
                    category,
                    format!("{name} TOON"),
                    toon::encode(list, &ToonOptions::pipe())?,
                );
            }
        }
    }
    Ok(())
}
