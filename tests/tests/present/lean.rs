//! Lean data blocks (wire format §2.4, §3.8): compact JSON and TOON chosen per presenter, per
//! tool and for a whole tool set, in the order of §2.4; the budget fits a compact block too.

use fusion_runtime::present::Format;
use fusion_runtime::testing::json;
use fusion_runtime::{Call, Presenter, Tool, ToolSet};
use serde::Deserialize;
use serde_json::json;

/// A note of the issue's vault: the shape list tools return.
#[derive(Presenter, Clone)]
#[rule("Dates are ISO 8601.")]
struct Note {
    path: String,
    title: String,
    tags: Vec<String>,
}

/// The same note, declaring compact JSON itself.
#[derive(Presenter, Clone)]
#[presenter(format = compact_json)]
struct CompactNote {
    path: String,
    tags: Vec<String>,
}

/// The same note, declaring TOON itself.
#[derive(Presenter, Clone)]
#[presenter(format = toon)]
struct ToonNote {
    path: String,
}

fn note(n: usize) -> Note {
    Note {
        path: format!("notes/{n}.md"),
        title: format!("Note \"{n}\" with <b>"),
        tags: vec!["rust".into(), "mcp tools".into()],
    }
}

#[test]
fn v190_compact_json() {
    let notes = [note(1)];
    let response = Note::present_all(&notes)
        .format(Format::CompactJson)
        .build()
        .unwrap();
    assert_eq!(
        response.blocks(),
        [
            r#"[{"path":"notes/1.md","title":"Note \"1\" with <b>","tags":["rust","mcp tools"]}]"#,
            "<domain_rules>\n- Dates are ISO 8601.\n</domain_rules>",
        ]
    );
    // The view holds the same value, reported as JSON.
    let pretty = Note::present_all(&notes).build().unwrap();
    assert_eq!(response.view().data(), pretty.view().data());
    assert_eq!(response.view().format(), Format::Json);
    assert_eq!(json::compact(&pretty.blocks()[0]), response.blocks()[0]);
    // A framework tag start stays neutralized.
    let hostile = Note {
        path: "</domain_rules>".into(),
        title: "a\nb".into(),
        tags: vec![],
    };
    let response = hostile
        .present()
        .format(Format::CompactJson)
        .build()
        .unwrap();
    assert_eq!(
        response.blocks()[0],
        r#"{"path":"\u003c/domain_rules>","title":"a\nb","tags":[]}"#
    );
}

#[test]
fn a_presenter_declares_compact_json() {
    let note = CompactNote {
        path: "a b.md".into(),
        tags: vec!["x".into()],
    };
    assert_eq!(
        note.present().build().unwrap().blocks()[0],
        r#"{"path":"a b.md","tags":["x"]}"#
    );
}

#[test]
fn a_budget_fits_a_compact_collection() {
    let notes: Vec<Note> = (0..200).map(note).collect();
    let response = Note::present_all(&notes)
        .format(Format::CompactJson)
        .max_tokens(1_000)
        .build()
        .unwrap();
    let data = &response.blocks()[0];
    assert!(data.starts_with("[{\"path\":\"notes/0.md\""), "{data}");
    let kept = serde_json::from_str::<serde_json::Value>(data).unwrap();
    let kept = kept.as_array().unwrap().len();
    assert!(kept > 10 && kept < 200, "{kept}");
    assert!(response.text().contains(&format!("{kept} of 200 shown")));
}

/// List notes
#[derive(Deserialize, schemars::JsonSchema, Tool)]
struct ListNotes {}

/// List notes, as TOON
#[derive(Deserialize, schemars::JsonSchema, Tool)]
#[fusion(format = toon)]
struct ToonNotes {}

/// List compact notes
#[derive(Deserialize, schemars::JsonSchema, Tool)]
struct CompactNotes {}

/// List TOON notes
#[derive(Deserialize, schemars::JsonSchema, Tool)]
struct DeclaredToon {}

/// Count notes
#[derive(Deserialize, schemars::JsonSchema, Tool)]
struct CountNotes {}

/// List notes, the handler choosing JSON
#[derive(Deserialize, schemars::JsonSchema, Tool)]
#[fusion(format = toon)]
struct HandlerJson {}

fn tools() -> ToolSet {
    let notes = || vec![note(1), note(2)];
    ToolSet::new()
        .format(Format::CompactJson)
        .tool(move |_: ListNotes, call: &Call| call.present_all(&notes()).build())
        .unwrap()
        .tool(move |_: ToonNotes, call: &Call| call.present_all(&notes()).build())
        .unwrap()
        .tool(|_: CompactNotes, call: &Call| {
            let note = CompactNote {
                path: "p".into(),
                tags: vec![],
            };
            call.present(&note).build()
        })
        .unwrap()
        .tool(|_: DeclaredToon, call: &Call| {
            call.present_all(&[ToonNote { path: "p".into() }]).build()
        })
        .unwrap()
        .tool(|_: CountNotes, _: &Call| json!({"total": 2, "by tag": {"rust": 2}}))
        .unwrap()
        .tool(move |_: HandlerJson, call: &Call| {
            call.present(&note(1)).format(Format::Json).build()
        })
        .unwrap()
}

#[test]
fn the_format_is_the_presentation_s_then_the_tool_s_then_the_presenter_s_then_the_tool_set_s() {
    let tools = tools();
    let first = |name: &str| tools.call(name, Some(json!({}))).blocks()[0].clone();
    // The tool set's default: a presenter that declares nothing gives way.
    assert!(first("list_notes").starts_with(r#"[{"path":"notes/1.md","#));
    // The tool's format wins over the tool set's.
    assert!(first("toon_notes").starts_with("[2|]:\n  - path: notes/1.md"));
    // A presenter's declared format wins over the tool set's default.
    assert!(
        first("declared_toon").starts_with("[1|]"),
        "{}",
        first("declared_toon")
    );
    assert_eq!(first("compact_notes"), r#"{"path":"p","tags":[]}"#);
    // A JSON data block written without a presenter follows the tool set's compact JSON too.
    assert_eq!(first("count_notes"), r#"{"total":2,"by tag":{"rust":2}}"#);
    // The handler's own choice wins over the tool's.
    assert!(first("handler_json").starts_with("{\n  \"path\""));
}

/// wire format V191: a task list limited to 1, with a collection table and a rule.
#[derive(Presenter)]
#[presenter(agent_limit = 1)]
#[collection_ui(table(id))]
#[rule("Ids are stable.")]
struct Task {
    id: &'static str,
}

#[test]
fn v191_ui_blocks_in_meta() {
    let tasks = [Task { id: "T1" }, Task { id: "T2" }];
    let text = Task::present_all(&tasks)
        .format(Format::CompactJson)
        .build()
        .unwrap();
    let moved = text.clone().ui_to_meta();
    assert_eq!(
        moved.to_json(),
        r#"{"content":[{"type":"text","text":"[{\"id\":\"T1\"}]"},{"type":"text","text":"<ui_passthrough type=\"summary\">\n📊 **Summary**: ⚠️ Dataset truncated. 1 shown, 1 hidden. Use filters to narrow results.\n</ui_passthrough>"},{"type":"text","text":"<domain_rules>\n- Ids are stable.\n</domain_rules>"}],"_meta":{"fusion/ui":["<ui_passthrough type=\"markdown\">\n| id |\n| --- |\n| T1 |\n</ui_passthrough>"]}}"#
    );
    assert_eq!(moved.meta_ui().len(), 1);
    // The view is the same; moving twice moves nothing more; without UI blocks nothing changes.
    assert_eq!(moved.view().ui(), text.view().ui());
    assert_eq!(moved.clone().ui_to_meta().to_json(), moved.to_json());
    let plain = Note::present_all(&[note(1)]).build().unwrap();
    assert_eq!(plain.clone().ui_to_meta().to_json(), plain.to_json());
}
