//! serde compatibility: `rename`, `rename_all`, `skip`, `skip_serializing`,
//! `skip_serializing_if` change the wire keys exactly as serde would, everywhere (data block,
//! `_select` names, field enum); deserialize-only attributes are ignored.
//!
//! Each case declares the same struct twice, once with `#[derive(Presenter)]` and once with
//! serde's `#[derive(Serialize)]`, reads the same JSON into both and compares what they write.

use fusion_runtime::Selection;
use fusion_runtime::present::Model;

macro_rules! twins {
    (
        $module:ident,
        $(#[$container:meta])*
        struct $name:ident { $( $(#[$attr:meta])* $field:ident : $ty:ty ),* $(,)? }
    ) => {
        mod $module {
            pub mod ours {
                #[derive(fusion_runtime::Presenter, serde::Deserialize)]
                #[presenter(field_enum)]
                $(#[$container])*
                pub struct $name { $( $(#[$attr])* pub $field: $ty ),* }
            }
            pub mod theirs {
                #[allow(dead_code, reason = "serde's twin is only written, never read")]
                #[derive(serde::Serialize, serde::Deserialize)]
                $(#[$container])*
                pub struct $name { $( $(#[$attr])* pub $field: $ty ),* }
            }
        }
    };
}

/// Reads `input` into both twins and checks that they write the same JSON; returns it.
fn same_wire<O, T>(input: &str) -> String
where
    O: serde::de::DeserializeOwned + serde::Serialize,
    T: serde::de::DeserializeOwned + serde::Serialize,
{
    let ours: O = serde_json::from_str(input).unwrap();
    let theirs: T = serde_json::from_str(input).unwrap();
    let ours = serde_json::to_string(&ours).unwrap();
    let theirs = serde_json::to_string(&theirs).unwrap();
    assert_eq!(ours, theirs, "input {input}");
    ours
}

/// The member names of a JSON object text, in order.
fn keys(json: &str) -> Vec<String> {
    let value: serde_json::Value = serde_json::from_str(json).unwrap();
    value.as_object().unwrap().keys().cloned().collect()
}

macro_rules! rename_all_case {
    ($module:ident, $rule:literal, $expected:expr) => {
        twins!(
            $module,
            #[serde(rename_all = $rule)]
            struct Doc {
                amount_cents: u64,
                #[serde(rename = "ID")]
                invoice_id: String,
                due_at: String,
                r#type: u8,
            }
        );

        #[test]
        fn $module() {
            let names: Vec<&str> = $expected;
            let input = format!(
                "{{\"{}\":1,\"ID\":\"x\",\"{}\":\"d\",\"{}\":2}}",
                names[0], names[2], names[3]
            );
            let wire = same_wire::<$module::ours::Doc, $module::theirs::Doc>(&input);
            assert_eq!(keys(&wire), names);
            assert_eq!(<$module::ours::Doc as Model>::WIRE_NAMES, names.as_slice());
        }
    };
}

rename_all_case!(
    rename_all_lowercase,
    "lowercase",
    vec!["amount_cents", "ID", "due_at", "type"]
);
rename_all_case!(
    rename_all_uppercase,
    "UPPERCASE",
    vec!["AMOUNT_CENTS", "ID", "DUE_AT", "TYPE"]
);
rename_all_case!(
    rename_all_pascal_case,
    "PascalCase",
    vec!["AmountCents", "ID", "DueAt", "Type"]
);
rename_all_case!(
    rename_all_camel_case,
    "camelCase",
    vec!["amountCents", "ID", "dueAt", "type"]
);
rename_all_case!(
    rename_all_snake_case,
    "snake_case",
    vec!["amount_cents", "ID", "due_at", "type"]
);
rename_all_case!(
    rename_all_screaming_snake_case,
    "SCREAMING_SNAKE_CASE",
    vec!["AMOUNT_CENTS", "ID", "DUE_AT", "TYPE"]
);
rename_all_case!(
    rename_all_kebab_case,
    "kebab-case",
    vec!["amount-cents", "ID", "due-at", "type"]
);
rename_all_case!(
    rename_all_screaming_kebab_case,
    "SCREAMING-KEBAB-CASE",
    vec!["AMOUNT-CENTS", "ID", "DUE-AT", "TYPE"]
);

twins!(
    skips,
    #[serde(deny_unknown_fields, rename = "Skips")]
    struct Skips {
        id: u32,
        #[serde(skip)]
        cache: u32,
        #[serde(skip_serializing)]
        password: String,
        #[serde(skip_serializing_if = "Option::is_none", default)]
        note: Option<String>,
        #[serde(skip_serializing_if = "Vec::is_empty", alias = "labels", default)]
        tags: Vec<String>,
        #[serde(rename(serialize = "out", deserialize = "in"), skip_deserializing)]
        both_ways: u8,
    }
);

#[test]
fn skip_skip_serializing_and_skip_serializing_if() {
    let full = same_wire::<skips::ours::Skips, skips::theirs::Skips>(
        r#"{"id":1,"password":"p","note":"n","labels":["a"]}"#,
    );
    assert_eq!(full, r#"{"id":1,"note":"n","tags":["a"],"out":0}"#);
    let sparse =
        same_wire::<skips::ours::Skips, skips::theirs::Skips>(r#"{"id":2,"password":"p"}"#);
    assert_eq!(sparse, r#"{"id":2,"out":0}"#);
    assert_eq!(
        <skips::ours::Skips as Model>::WIRE_NAMES,
        &["id", "note", "tags", "out"]
    );
}

#[test]
fn renamed_names_are_the_select_names_and_the_data_block_keys() {
    let value: rename_all_camel_case::ours::Doc =
        serde_json::from_str(r#"{"amountCents":5,"ID":"x","dueAt":"d","type":1}"#).unwrap();
    let selection = Selection::new(["dueAt", "ID", "amount_cents"]);
    let response = value.present().select(&selection).build().unwrap();
    assert_eq!(
        response.blocks()[0],
        "{\n  \"ID\": \"x\",\n  \"dueAt\": \"d\"\n}"
    );
    assert_eq!(
        "dueAt".parse::<rename_all_camel_case::ours::DocField>(),
        Ok(rename_all_camel_case::ours::DocField::DueAt)
    );
}

#[test]
fn skip_serializing_if_applies_under_selection_too() {
    let value: skips::ours::Skips = serde_json::from_str(r#"{"id":3,"password":"p"}"#).unwrap();
    let selection = Selection::new(["note", "id"]);
    let response = value.present().select(&selection).build().unwrap();
    assert_eq!(response.blocks()[0], "{\n  \"id\": 3\n}");
    assert_eq!(value.cache, 0);
    assert_eq!(value.password, "p");
}
