//! `#[ui(table(...))]` and `#[collection_ui(table(...))]`: tables of the model's own fields,
//! each cell what the data block shows (wire format §4.4, V160–V163).

use crate::support;

use fusion_runtime::{Presenter, ui};
use serde::Serialize;
use support::assert_blocks;

#[derive(Serialize, Clone, Copy)]
#[serde(rename_all = "snake_case")]
enum Status {
    Open,
    InProgress,
}

/// Every kind of cell: renamed, enum, optional, redacted (default, fixed and function
/// censors), skipped by value, composite.
#[derive(Presenter, Clone)]
#[ui(table(id, title, status, due, owner_email, note, tags))]
#[collection_ui(table(id, title, owner_email, mask))]
#[presenter(agent_limit = 2)]
struct Task {
    id: u32,
    #[serde(rename = "name")]
    title: String,
    status: Status,
    due: Option<String>,
    #[redact]
    owner_email: String,
    #[redact(censor = "hidden")]
    note: Option<String>,
    #[redact(with = last_two)]
    mask: String,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    tags: Vec<String>,
}

fn last_two(value: &str) -> String {
    let tail: String = value
        .chars()
        .rev()
        .take(2)
        .collect::<Vec<_>>()
        .into_iter()
        .rev()
        .collect();
    format!("**{tail}")
}

fn task(id: u32, title: &str, tags: &[&str]) -> Task {
    Task {
        id,
        title: title.into(),
        status: if id == 1 {
            Status::Open
        } else {
            Status::InProgress
        },
        due: (id == 1).then(|| "2026-12-24".to_owned()),
        owner_email: "ada@example.com".into(),
        note: Some("call first".into()),
        mask: "secret42".into(),
        tags: tags.iter().map(|t| (*t).to_owned()).collect(),
    }
}

/// V160: one item, one row; headers are wire names; redacted cells are the censors.
#[test]
fn v160_item_table() {
    let response = task(1, "Ship a|b", &["x", "y"]).present().build().unwrap();
    let table = &response.blocks()[1];
    assert_eq!(
        table,
        "<ui_passthrough type=\"markdown\">\n\
         | id | name | status | due | owner_email | note | tags |\n\
         | --- | --- | --- | --- | --- | --- | --- |\n\
         | 1 | Ship a\\|b | open | 2026-12-24 | [REDACTED] | hidden | [ \"x\", \"y\" ] |\n\
         </ui_passthrough>"
    );
    assert!(!table.contains("ada@example.com") && !table.contains("call first"));
}

/// V161: a missing optional value and a member skipped by value are empty cells.
#[test]
fn v161_empty_cells() {
    let mut value = task(2, "Plan", &[]);
    value.note = None;
    let response = value.present().build().unwrap();
    assert!(
        response.blocks()[1].contains("| 2 | Plan | in_progress |  | [REDACTED] |  |  |"),
        "{}",
        response.blocks()[1]
    );
}

/// V162: a collection, one row per shown item (the agent limit cuts the rows too), after
/// the truncation summary.
#[test]
fn v162_collection_table() {
    let items = [task(1, "A", &[]), task(2, "B", &[]), task(3, "C", &[])];
    let response = Task::present_all(&items).build().unwrap();
    let blocks = response.blocks();
    assert!(blocks[1].starts_with("<ui_passthrough type=\"summary\">"));
    assert_eq!(
        blocks[2],
        "<ui_passthrough type=\"markdown\">\n\
         | id | name | owner_email | mask |\n\
         | --- | --- | --- | --- |\n\
         | 1 | A | [REDACTED] | **42 |\n\
         | 2 | B | [REDACTED] | **42 |\n\
         </ui_passthrough>"
    );
}

/// V163: no shown items give no table of headers alone, but a block that says so.
#[test]
fn v163_empty_collection_table() {
    #[derive(Presenter)]
    #[collection_ui(table(id))]
    struct Row {
        id: u32,
    }
    let response = Row::present_all(&[]).build().unwrap();
    assert_blocks(
        &response,
        &[
            "[]",
            "<ui_passthrough type=\"markdown\">\n_No items to show._\n</ui_passthrough>",
        ],
    );
}

/// A declared UI block takes a title: tables, markdown and summaries alike.
#[test]
fn declared_blocks_take_a_title() {
    #[derive(Presenter)]
    #[ui(table(id), title = "Row")]
    #[ui(markdown = "Row {id}", title = "Note")]
    #[collection_ui(summary = "{n} rows", title = "Count")]
    struct Row {
        id: u32,
    }
    let response = Row { id: 7 }.present().build().unwrap();
    assert_eq!(
        response.blocks()[1..],
        [
            "<ui_passthrough type=\"markdown\" title=\"Row\">\n| id |\n| --- |\n| 7 |\n</ui_passthrough>",
            "<ui_passthrough type=\"markdown\" title=\"Note\">\nRow 7\n</ui_passthrough>",
        ]
    );
    let all = Row::present_all(&[]).build().unwrap();
    assert_eq!(
        all.blocks()[1],
        "<ui_passthrough type=\"summary\" title=\"Count\">\n📊 **Summary**: 0 rows\n</ui_passthrough>"
    );
}

/// The cell text of each JSON kind (wire format §4.4).
#[test]
fn cells_read_like_the_data_block() {
    assert_eq!(ui::cell("<b>"), "<b>");
    assert_eq!(ui::cell(&true), "true");
    assert_eq!(ui::cell(&-3_i64), "-3");
    assert_eq!(ui::cell(&Option::<String>::None), "");
    assert_eq!(ui::cell(&Vec::<u8>::new()), "[]");
    assert_eq!(
        ui::cell(&serde_json::json!({"a": {"b": [1, "x"]}})),
        "{ \"a\": { \"b\": [ 1, \"x\" ] } }"
    );
}
