//! wire format §13.1: the `<tool_error>` envelope on the wire (vectors V56–V58).

use fusion_runtime::present::Format;
use fusion_runtime::testing::ViewExt;
use fusion_runtime::{IntoToolResponse, Severity, ToolError};

#[test]
fn v56_tool_error_with_every_part() {
    let response = ToolError::new("CONFLICT", "Invoice already paid.")
        .recovery("Check the invoice status first.")
        .actions(["billing.get", "billing.list"])
        .detail("invoice_id", "inv_456")
        .detail("x<y", "<script>")
        .retry_after(5)
        .into_response();
    response
        .assert_blocks(&["<tool_error code=\"CONFLICT\" severity=\"error\">\n<message>Invoice already paid.</message>\n<recovery>Check the invoice status first.</recovery>\n<available_actions>\n  <action>billing.get</action>\n  <action>billing.list</action>\n</available_actions>\n<details>\n  <detail key=\"invoice_id\">inv_456</detail>\n  <detail key=\"x&lt;y\">&lt;script></detail>\n</details>\n<retry_after>5 seconds</retry_after>\n</tool_error>"])
        .assert_is_error(Some(true))
        .assert_format(Format::Text);
    assert!(response.to_json().ends_with(",\"isError\":true}"));
    assert_eq!(response.structured_content(), None);
    insta::assert_snapshot!("v56_tool_error_with_every_part", response.text());
}

#[test]
fn v57_warning() {
    let response = ToolError::new("DEPRECATED", "Use v2")
        .severity(Severity::Warning)
        .retry_after(0)
        .into_response();
    response
        .assert_blocks(&["<tool_error code=\"DEPRECATED\" severity=\"warning\">\n<message>Use v2</message>\n</tool_error>"])
        .assert_is_error(Some(false));
    assert_eq!(
        response.to_json(),
        r#"{"content":[{"type":"text","text":"<tool_error code=\"DEPRECATED\" severity=\"warning\">\n<message>Use v2</message>\n</tool_error>"}],"isError":false}"#
    );
}

#[test]
fn v58_escaping() {
    let response = ToolError::new("NOT_FOUND", "Not <found> & \"x\" >")
        .detail("a\"b\n", "1 > 0")
        .into_response();
    response
        .assert_blocks(&["<tool_error code=\"NOT_FOUND\" severity=\"error\">\n<message>Not &lt;found> &amp; \"x\" ></message>\n<details>\n  <detail key=\"a&quot;b&#10;\">1 > 0</detail>\n</details>\n</tool_error>"])
        .assert_is_error(Some(true));
}

#[test]
fn a_returned_tool_error_passes_through_implicit_wrapping() {
    let returned: Result<String, ToolError> =
        Err(ToolError::new("DEPRECATED", "Use v2").severity(Severity::Warning));
    returned
        .into_tool_response()
        .unwrap()
        .assert_is_error(Some(false))
        .assert_blocks(&["<tool_error code=\"DEPRECATED\" severity=\"warning\">\n<message>Use v2</message>\n</tool_error>"]);
    ToolError::not_found("gone")
        .into_tool_response()
        .unwrap()
        .assert_is_error(Some(true));
}
