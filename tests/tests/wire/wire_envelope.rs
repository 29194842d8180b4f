//! wire format §1, §2 and §12: the envelope, the block order and implicit wrapping (vectors V1–V8).

use crate::wire_support;

use std::borrow::Cow;

use fusion_runtime::present::Format;
use fusion_runtime::testing::ViewExt;
use fusion_runtime::ui::UiBlock;
use fusion_runtime::{IntoToolResponse, Json, ResponseBuilder, ToolResponse};
use serde_json::json;

/// Wraps a handler's result the way the tool layer does.
fn wrap(value: impl IntoToolResponse) -> ToolResponse {
    value.into_tool_response().expect("the value wraps")
}

#[test]
fn v01_text_result() {
    for response in [
        wrap("hello world"),
        wrap(String::from("hello world")),
        wrap(Cow::Borrowed("hello world")),
        wrap(Some("hello world")),
        wrap(Ok::<_, std::io::Error>("hello world")),
    ] {
        response
            .assert_blocks(&["hello world"])
            .assert_is_error(None)
            .assert_format(Format::Text)
            .assert_text("hello world");
        assert_eq!(
            response.to_json(),
            r#"{"content":[{"type":"text","text":"hello world"}]}"#
        );
        assert_eq!(
            serde_json::to_string(&response).unwrap(),
            response.to_json()
        );
    }
}

#[test]
fn v02_empty_text() {
    for response in [
        wrap(""),
        wrap(String::new()),
        ResponseBuilder::text("").build(),
    ] {
        response
            .assert_blocks(&["OK"])
            .assert_is_error(None)
            .assert_text("OK");
    }
}

#[test]
fn v03_nothing_returned() {
    for response in [
        wrap(()),
        wrap(None::<String>),
        wrap(None::<Json<wire_support::Order>>),
        wrap(Ok::<(), std::io::Error>(())),
    ] {
        response
            .assert_blocks(&["OK"])
            .assert_is_error(None)
            .assert_format(Format::Text)
            .assert_text("OK");
        assert_eq!(
            response.to_json(),
            r#"{"content":[{"type":"text","text":"OK"}]}"#
        );
    }
}

#[test]
fn v04_plain_serializable_value() {
    #[derive(serde::Serialize)]
    struct Plain {
        id: u32,
        name: &'static str,
        tags: Vec<&'static str>,
    }
    let expected = "{\n  \"id\": 1,\n  \"name\": \"A\",\n  \"tags\": [\n    \"x\"\n  ]\n}";
    let plain = Plain {
        id: 1,
        name: "A",
        tags: vec!["x"],
    };
    for response in [
        wrap(json!({"id": 1, "name": "A", "tags": ["x"]})),
        wrap(Json(&plain)),
        fusion_runtime::success(&plain).unwrap(),
    ] {
        response
            .assert_blocks(&[expected])
            .assert_is_error(None)
            .assert_format(Format::Json)
            .assert_data(json!({"id": 1, "name": "A", "tags": ["x"]}))
            .assert_structured(None);
    }
}

#[test]
fn v05_number_and_boolean() {
    wrap(42).assert_blocks(&["42"]).assert_is_error(None);
    wrap(42_u8).assert_blocks(&["42"]);
    wrap(42_i128).assert_blocks(&["42"]);
    wrap(42.0_f64).assert_blocks(&["42"]);
    wrap(true)
        .assert_blocks(&["true"])
        .assert_is_error(None)
        .assert_format(Format::Json)
        .assert_data(json!(true));
    // The kind follows the type, not the JSON form: a text is never JSON-quoted, `Json` always is.
    wrap("42").assert_format(Format::Text).assert_text("42");
    wrap(Json("abc")).assert_blocks(&["\"abc\""]);
    // A value that merely looks like a tool result is data.
    wrap(json!({"content": []})).assert_blocks(&["{\n  \"content\": []\n}"]);
}

#[test]
fn v06_full_block_order() {
    let response = wire_support::v6_response();
    response
        .assert_blocks(&[
            "{\n  \"id\": \"123\",\n  \"client\": {\n    \"name\": \"A\"\n  }\n}",
            "<ui_passthrough type=\"echarts\">\n```echarts\n{}\n```\n</ui_passthrough>",
            "<domain_rules>\n- From child presenter\n</domain_rules>",
            "<llm_directives>\n- Pay attention\n</llm_directives>",
            "<domain_rules>\n- Rule 1\n</domain_rules>",
            "<action_suggestions>\n- next.action: Do this next\n</action_suggestions>",
        ])
        .assert_is_error(None);
    insta::assert_snapshot!("v06_full_block_order", response.text());
}

#[test]
fn v06_order_does_not_depend_on_insertion_order() {
    // Entries added in reverse order still come out in the wire format §2.2 order.
    let response = ResponseBuilder::text("d")
        .suggest("t", "r")
        .rule("rule")
        .hint("hint")
        .ui(fusion_runtime::ui::markdown("m"))
        .build();
    response.assert_blocks(&[
        "d",
        "<ui_passthrough type=\"markdown\">\nm\n</ui_passthrough>",
        "<llm_directives>\n- hint\n</llm_directives>",
        "<domain_rules>\n- rule\n</domain_rules>",
        "<action_suggestions>\n- t: r\n</action_suggestions>",
    ]);
}

#[test]
fn v07_empty_rule_list() {
    let no_rules: [&str; 0] = [];
    let mut builder = ResponseBuilder::text("data").ui(UiBlock::custom("empty", ""));
    for rule in no_rules {
        builder = builder.rule(rule);
    }
    let response = builder.build();
    response
        .assert_blocks(&[
            "data",
            "<ui_passthrough type=\"empty\">\n\n</ui_passthrough>",
        ])
        .assert_is_error(None)
        .assert_rules(&[]);
}

#[test]
fn v08_hints_accumulate() {
    let response = ResponseBuilder::text("data")
        .hint("Hint 1")
        .hint("Hint 2")
        .build();
    response
        .assert_blocks(&[
            "data",
            "<llm_directives>\n- Hint 1\n- Hint 2\n</llm_directives>",
        ])
        .assert_is_error(None)
        .assert_hints(&["Hint 1", "Hint 2"]);
    insta::assert_snapshot!("v08_hints_accumulate", response.text());
}

#[test]
fn duplicate_rules_and_suggestions_are_dropped_hints_are_not() {
    let response = ResponseBuilder::text("d")
        .hint("h")
        .hint("h")
        .rule("r")
        .rule(String::from("r"))
        .suggest("t", "why")
        .suggest("t", "why")
        .suggest("t", "other")
        .build();
    response
        .assert_hints(&["h", "h"])
        .assert_rules(&["r"])
        .assert_suggestions(&[("t", "why"), ("t", "other")]);
}
