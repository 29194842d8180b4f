//! The official TOON v4.0 encode suite (wire format §9.10): every vector of every file of
//! `../shared/toon-fixtures/encode/` (override the folder with `FUSION_TOON_FIXTURES`), each with
//! its own options. Failures are reported by file and vector name with both texts.

use std::path::PathBuf;

use fusion_runtime::toon::{self, Delimiter, ToonOptions};
use serde_json::Value;

/// wire format §9.10: the suite has exactly this many encode vectors.
const OFFICIAL_ENCODE_VECTORS: usize = 173;

fn fixtures_dir() -> PathBuf {
    std::env::var_os("FUSION_TOON_FIXTURES").map_or_else(
        || {
            PathBuf::from(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/../../shared/toon-fixtures"
            ))
        },
        PathBuf::from,
    )
}

fn options_of(test: &Value) -> ToonOptions {
    let mut options = ToonOptions::default();
    let Some(given) = test.get("options") else {
        return options;
    };
    if let Some(delimiter) = given.get("delimiter").and_then(Value::as_str) {
        options = options.with_delimiter(match delimiter {
            "," => Delimiter::Comma,
            "\t" => Delimiter::Tab,
            "|" => Delimiter::Pipe,
            other => panic!("unknown delimiter {other:?}"),
        });
    }
    if let Some(indent) = given.get("indentSize").and_then(Value::as_u64) {
        options = options.with_indent(usize::try_from(indent).unwrap());
    }
    options
}

#[test]
fn official_encode_vectors() {
    let dir = fixtures_dir().join("encode");
    if !dir.is_dir() {
        eprintln!(
            "SKIPPED: the official TOON fixtures are not at {}; set FUSION_TOON_FIXTURES to the \
             folder holding encode/ to run the 173 vectors",
            dir.display()
        );
        return;
    }
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "json"))
        .collect();
    files.sort();

    let mut ran = 0;
    let mut failures = Vec::new();
    for path in &files {
        let file = path.file_name().unwrap().to_string_lossy().into_owned();
        let suite: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
        assert_eq!(suite["category"], "encode", "{file}");
        for test in suite["tests"].as_array().unwrap() {
            ran += 1;
            let name = test["name"].as_str().unwrap();
            let should_error = test
                .get("shouldError")
                .and_then(Value::as_bool)
                .unwrap_or(false);
            let got = toon::encode(&test["input"], &options_of(test));
            match (should_error, got) {
                (true, Ok(text)) => {
                    failures.push(format!("{file} / {name}: expected an error, got {text:?}"));
                }
                (true, Err(_)) => {}
                (false, Err(error)) => {
                    failures.push(format!("{file} / {name}: unexpected error: {error}"));
                }
                (false, Ok(text)) => {
                    let expected = test["expected"].as_str().unwrap();
                    if text != expected {
                        failures.push(format!(
                            "{file} / {name}:\n  expected: {expected:?}\n  got:      {text:?}"
                        ));
                    }
                }
            }
        }
    }
    eprintln!(
        "official TOON encode vectors: {} of {ran} passed ({} files)",
        ran - failures.len(),
        files.len()
    );
    assert!(
        failures.is_empty(),
        "{} of {ran} official encode vectors failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert_eq!(
        ran, OFFICIAL_ENCODE_VECTORS,
        "the suite should hold 173 encode vectors"
    );
}
