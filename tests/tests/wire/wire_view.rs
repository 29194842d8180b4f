//! wire format §14: the testing view (vector V69) and its absence from the wire.

use crate::wire_support;

use fusion_runtime::present::Format;
use fusion_runtime::testing::{self, ViewExt};
use fusion_runtime::{IntoToolResponse, ResponseBuilder, ToolError, ui};
use serde_json::json;

#[test]
fn v69_view_of_the_v6_response() {
    let response = wire_support::v6_response();
    let view = response.view().to_json();
    assert_eq!(
        serde_json::to_string(&view).unwrap(),
        r#"{"data":{"id":"123","client":{"name":"A"}},"format":"json","ui":[{"type":"echarts","title":null,"width":null,"priority":null,"content":"```echarts\n{}\n```"}],"hints":["Pay attention"],"rules":["From child presenter","Rule 1"],"suggestions":[{"tool":"next.action","reason":"Do this next"}],"structured_content":null,"is_error":null}"#
    );
    response
        .assert_data(json!({"id": "123", "client": {"name": "A"}}))
        .assert_format(Format::Json)
        .assert_ui_types(&["echarts"])
        .assert_hints(&["Pay attention"])
        .assert_rules(&["From child presenter", "Rule 1"])
        .assert_suggestions(&[("next.action", "Do this next")])
        .assert_structured(None)
        .assert_is_error(None);
}

#[test]
fn the_view_is_never_serialized() {
    let response = wire_support::v6_response();
    let wire = response.to_json();
    assert!(!wire.contains("\"format\""));
    assert!(!wire.contains("\"hints\""));
    let parsed: serde_json::Value = serde_json::from_str(&wire).unwrap();
    let members: Vec<&String> = parsed.as_object().unwrap().keys().collect();
    assert_eq!(members, ["content"]);
    assert_eq!(parsed["content"].as_array().unwrap().len(), 6);
}

#[test]
fn text_stays_text() {
    // wire format §14.3: the text `123` is not the number 123.
    let response = "123".into_tool_response().unwrap();
    response.assert_format(Format::Text).assert_text("123");
    assert_eq!(response.view().data().as_value(), None);
}

#[test]
fn views_of_error_responses_hold_the_envelope() {
    let response = ToolError::not_found("Invoice <x> does not exist.").into_response();
    response
        .assert_format(Format::Text)
        .assert_text(&response.blocks()[0])
        .assert_is_error(Some(true))
        .assert_rules(&[]);
    assert_eq!(
        response.view().to_json()["is_error"],
        serde_json::Value::Bool(true)
    );
}

#[test]
fn assertion_failures_say_what_differs() {
    let response = ResponseBuilder::text("d")
        .rule("a")
        .ui(ui::summary("s"))
        .build();
    let failure = std::panic::catch_unwind(|| {
        testing::assert_rules(&response, &["b"]);
    })
    .unwrap_err();
    let message = failure.downcast_ref::<String>().unwrap();
    assert!(message.contains("the response's rules differ"), "{message}");
    assert!(message.contains("expected: [\"b\"]"), "{message}");
    assert!(message.contains("actual: [\"a\"]"), "{message}");

    let failure = std::panic::catch_unwind(|| {
        testing::assert_data(&response, json!("d"));
    })
    .unwrap_err();
    let message = failure.downcast_ref::<String>().unwrap();
    assert!(message.contains("use `assert_text`"), "{message}");
}

#[test]
fn a_presentation_wraps_as_it_stands() {
    let order = wire_support::Order {
        id: "123".to_owned(),
        client: wire_support::Client {
            name: "A".to_owned(),
        },
    };
    let selection = fusion_runtime::Selection::new(["id"]);
    fusion_runtime::present::present(&order)
        .select(&selection)
        .into_tool_response()
        .unwrap()
        .assert_data(json!({"id": "123"}))
        .assert_rules(&["From child presenter", "Rule 1"])
        .assert_hints(&[]);
}
