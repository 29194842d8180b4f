//! wire format §4: UI blocks and their helpers (vectors V12–V16).

use fusion_runtime::ResponseBuilder;
use fusion_runtime::testing::ViewExt;
use fusion_runtime::ui::UiBlock;
use fusion_runtime::ui::{self, Width};
use serde_json::json;

#[test]
fn v12_all_attributes_escaped() {
    let response = ResponseBuilder::text("d")
        .ui(ui::echarts(json!({"title": {"text": "T"}}))
            .title("Rev \"Q1\" <b> & 'x'")
            .width(Width::Half)
            .priority(0))
        .build();
    response
        .assert_blocks(&[
            "d",
            "<ui_passthrough type=\"echarts\" title=\"Rev &quot;Q1&quot; &lt;b&gt; &amp; &apos;x&apos;\" width=\"half\" priority=\"0\">\n```echarts\n{\n  \"title\": {\n    \"text\": \"T\"\n  }\n}\n```\n</ui_passthrough>",
        ])
        .assert_is_error(None)
        .assert_ui_types(&["echarts"]);
    // The view keeps the metadata as given.
    let block = &response.view().ui()[0];
    assert_eq!(block.title_text(), Some("Rev \"Q1\" <b> & 'x'"));
    assert_eq!(block.width_value(), Some(Width::Half));
    assert_eq!(block.priority_value(), Some(0));
    insta::assert_snapshot!("v12_all_attributes_escaped", response.text());
}

#[test]
fn attributes_in_order_and_omitted_when_unset() {
    let cases = [
        (ui::markdown("m"), "<ui_passthrough type=\"markdown\">"),
        (
            ui::markdown("m").title(""),
            "<ui_passthrough type=\"markdown\">",
        ),
        (
            ui::markdown("m")
                .priority(-3)
                .width(Width::Third)
                .title("t"),
            "<ui_passthrough type=\"markdown\" title=\"t\" width=\"third\" priority=\"-3\">",
        ),
        (
            ui::markdown("m").width(Width::Full),
            "<ui_passthrough type=\"markdown\" width=\"full\">",
        ),
        (
            ui::markdown("m").priority(i64::MIN),
            "<ui_passthrough type=\"markdown\" priority=\"-9223372036854775808\">",
        ),
        (
            UiBlock::custom("a\tb\r\nc", "m").title("x\ny"),
            "<ui_passthrough type=\"a&#9;b&#13;&#10;c\" title=\"x&#10;y\">",
        ),
    ];
    for (block, opening) in cases {
        assert_eq!(
            block.render(),
            format!("{opening}\nm\n</ui_passthrough>"),
            "{block:?}"
        );
    }
}

#[test]
fn v13_table_list_summary_empty_list() {
    let response = ResponseBuilder::text("d")
        .ui(ui::table(
            ["Invoice", "Status"],
            [["INV-001", "✅ Paid"], ["INV-002", "⚠\u{fe0f} Pending"]],
        ))
        .ui(ui::list(["Deploy", "Verify"]))
        .ui(ui::summary("3 items"))
        .ui(ui::list(Vec::<String>::new()))
        .build();
    response
        .assert_blocks(&[
            "d",
            "<ui_passthrough type=\"markdown\">\n| Invoice | Status |\n| --- | --- |\n| INV-001 | ✅ Paid |\n| INV-002 | ⚠️ Pending |\n</ui_passthrough>",
            "<ui_passthrough type=\"markdown\">\n- Deploy\n- Verify\n</ui_passthrough>",
            "<ui_passthrough type=\"summary\">\n📊 **Summary**: 3 items\n</ui_passthrough>",
            "<ui_passthrough type=\"markdown\">\n\n</ui_passthrough>",
        ])
        .assert_is_error(None)
        .assert_ui_types(&["markdown", "markdown", "summary", "markdown"]);
    insta::assert_snapshot!("v13_table_list_summary_empty_list", response.text());
}

#[test]
fn v14_mermaid_code_block_json_markdown() {
    let response = ResponseBuilder::text("d")
        .ui(ui::mermaid("graph TD; A-->B"))
        .ui(ui::code_block("xml", "<root/>"))
        .ui(ui::json(json!({"a": 1})))
        .ui(ui::markdown("**bold**"))
        .build();
    response
        .assert_blocks(&[
            "d",
            "<ui_passthrough type=\"mermaid\">\n```mermaid\ngraph TD; A-->B\n```\n</ui_passthrough>",
            "<ui_passthrough type=\"xml\">\n```xml\n<root/>\n```\n</ui_passthrough>",
            "<ui_passthrough type=\"json\">\n```json\n{\n  \"a\": 1\n}\n```\n</ui_passthrough>",
            "<ui_passthrough type=\"markdown\">\n**bold**\n</ui_passthrough>",
        ])
        .assert_is_error(None);
    insta::assert_snapshot!("v14_mermaid_code_block_json_markdown", response.text());
}

#[test]
fn v15_table_edge_cases_list_continuation() {
    let no_rows: [[&str; 0]; 0] = [];
    let response = ResponseBuilder::text("d")
        .ui(ui::table(["A"], no_rows))
        .ui(ui::table(["k", "v"], [vec!["a|b", "line1\nline2"], vec![]]))
        .ui(ui::list(["one\ntwo"]))
        .build();
    response
        .assert_blocks(&[
            "d",
            "<ui_passthrough type=\"markdown\">\n| A |\n| --- |\n\n</ui_passthrough>",
            "<ui_passthrough type=\"markdown\">\n| k | v |\n| --- | --- |\n| a\\|b | line1 line2 |\n|  |\n</ui_passthrough>",
            "<ui_passthrough type=\"markdown\">\n- one\n  two\n</ui_passthrough>",
        ])
        .assert_is_error(None);
    insta::assert_snapshot!("v15_table_edge_cases_list_continuation", response.text());
}

#[test]
fn table_without_headers_and_ragged_rows() {
    let no_headers: [&str; 0] = [];
    assert_eq!(
        ui::table(no_headers, [["x"]]).content(),
        "|  |\n|  |\n| x |"
    );
    // Rows are neither padded nor cut; CR LF gives two spaces.
    assert_eq!(
        ui::table(["a", "b"], [vec!["1"], vec!["1", "2", "3\r\n4"]]).content(),
        "| a | b |\n| --- | --- |\n| 1 |\n| 1 | 2 | 3  4 |"
    );
}

#[test]
fn v16_fence_lengthening() {
    let response = ResponseBuilder::text("d")
        .ui(ui::code_block("md", "a\n```\nb"))
        .ui(ui::mermaid("x ````` y"))
        .build();
    response
        .assert_blocks(&[
            "d",
            "<ui_passthrough type=\"md\">\n````md\na\n```\nb\n````\n</ui_passthrough>",
            "<ui_passthrough type=\"mermaid\">\n``````mermaid\nx ````` y\n``````\n</ui_passthrough>",
        ])
        .assert_is_error(None);
    // Short runs keep the ordinary fence; CR and LF in the language become spaces.
    assert_eq!(
        ui::code_block("a\r\nb", "``x").content(),
        "```a  b\n``x\n```"
    );
    assert_eq!(ui::code_block("md", "").content(), "```md\n\n```");
    insta::assert_snapshot!("v16_fence_lengthening", response.text());
}
