//! wire format §11: structured responses (vector V54) and the refusal of non-object roots.

use fusion_runtime::present::Format;
use fusion_runtime::testing::ViewExt;
use fusion_runtime::{
    IntoToolResponse, ResponseBuilder, StructuredError, WrapError, success_structured,
};
use serde::Serialize;
use serde_json::json;

/// The result of BILLING.md's `invoice_stats`.
#[derive(Serialize)]
struct InvoiceStats {
    count: u32,
    total_cents: u64,
    by_status: ByStatus,
}

#[derive(Serialize)]
struct ByStatus {
    paid: u32,
    pending: u32,
    overdue: u32,
}

fn stats() -> InvoiceStats {
    InvoiceStats {
        count: 120,
        total_cents: 50_326_715,
        by_status: ByStatus {
            paid: 74,
            pending: 32,
            overdue: 14,
        },
    }
}

#[test]
fn v54_structured_response() {
    let response = success_structured(&stats()).unwrap();
    let expected = json!({"count": 120, "total_cents": 50_326_715, "by_status": {"paid": 74, "pending": 32, "overdue": 14}});
    response
        .assert_blocks(&["{\n  \"count\": 120,\n  \"total_cents\": 50326715,\n  \"by_status\": {\n    \"paid\": 74,\n    \"pending\": 32,\n    \"overdue\": 14\n  }\n}"])
        .assert_is_error(None)
        .assert_format(Format::Json)
        .assert_data(expected.clone())
        .assert_structured(Some(expected));
    // structuredContent keeps the member order of the value.
    assert_eq!(
        serde_json::to_string(response.structured_content().unwrap()).unwrap(),
        r#"{"count":120,"total_cents":50326715,"by_status":{"paid":74,"pending":32,"overdue":14}}"#
    );
    assert_eq!(
        response.to_json(),
        r#"{"content":[{"type":"text","text":"{\n  \"count\": 120,\n  \"total_cents\": 50326715,\n  \"by_status\": {\n    \"paid\": 74,\n    \"pending\": 32,\n    \"overdue\": 14\n  }\n}"}],"structuredContent":{"count":120,"total_cents":50326715,"by_status":{"paid":74,"pending":32,"overdue":14}}}"#
    );
}

#[test]
fn handler_additions_go_to_content_only() {
    let response = ResponseBuilder::structured(&stats())
        .unwrap()
        .hint("Totals are in CENTS.")
        .build();
    assert_eq!(response.blocks().len(), 2);
    assert_eq!(
        response.blocks()[1],
        "<llm_directives>\n- Totals are in CENTS.\n</llm_directives>"
    );
    assert_eq!(
        response.structured_content(),
        Some(
            &json!({"count": 120, "total_cents": 50_326_715, "by_status": {"paid": 74, "pending": 32, "overdue": 14}})
        )
    );
}

#[test]
fn structured_content_is_the_same_value_as_the_data_block() {
    // Floats and tag starts: the block writes `1e+21` and `\u003c`, structuredContent holds the
    // same values.
    let value = json!({"x": 1e21, "s": "</domain_rules>", "nested": {"z": -0.0}});
    let response = success_structured(&value).unwrap();
    response.assert_blocks(&[
        "{\n  \"x\": 1e+21,\n  \"s\": \"\\u003c/domain_rules>\",\n  \"nested\": {\n    \"z\": 0\n  }\n}",
    ]);
    let from_block: serde_json::Value = serde_json::from_str(&response.blocks()[0]).unwrap();
    assert!(fusion_runtime::testing::json_eq(
        &from_block,
        response.structured_content().unwrap()
    ));
}

#[test]
fn non_object_roots_are_refused_with_what_to_do() {
    let list = vec![stats()];
    let error = success_structured(&list).unwrap_err();
    assert!(matches!(
        error,
        StructuredError::NotAnObject { found: "an array" }
    ));
    assert_eq!(
        error.to_string(),
        "structured content must be a JSON object, but the value is an array; return a struct or a map (put a list in a named field, e.g. `{\"items\": [...]}`), or use `success` for a JSON data block without structured content"
    );
    for (value, found) in [
        (json!("text"), "a string"),
        (json!(3), "a number"),
        (json!(false), "a boolean"),
        (json!(null), "null"),
    ] {
        let error = success_structured(&value).unwrap_err();
        assert!(
            error
                .to_string()
                .contains(&format!("the value is {found};")),
            "{error}"
        );
    }
}

#[test]
fn a_refusal_that_escapes_the_handler_is_a_failure() {
    // wire format §11.1: nothing is sent for it; the tool layer answers INTERNAL_ERROR.
    let escaped = success_structured(&[1, 2]);
    let Err(WrapError::Handler(error)) = escaped.into_tool_response() else {
        panic!("a refused structured response is a failure");
    };
    assert!(error.is::<StructuredError>());
}

#[test]
fn values_beyond_json_numbers_are_an_error() {
    // structuredContent is a JSON value: an integer beyond 64 bits cannot be one.
    let mut map = std::collections::BTreeMap::new();
    map.insert("big", u128::MAX);
    let error = success_structured(&map).unwrap_err();
    assert!(matches!(error, StructuredError::Json(_)), "{error}");
    assert!(
        error
            .to_string()
            .starts_with("the structured content cannot be built")
    );
}
