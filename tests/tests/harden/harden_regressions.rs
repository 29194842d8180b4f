//! Regression tests of the bugs the hardening properties and fuzz targets found, one per bug,
//! named after it. Each failed before its fix.

use fusion_runtime::Tool;
use fusion_runtime::{Call, ToolSet};
use serde::Deserialize;
use serde_json::json;

/// A flat tool with 128-bit integers: serde reads them from a plain struct.
#[allow(dead_code, reason = "read by serde only")]
#[derive(Debug, Deserialize, schemars::JsonSchema, Tool)]
#[fusion(name = "wide")]
struct Wide {
    big: i128,
    huge: Option<u128>,
    small: Option<u8>,
}

fn wide() -> ToolSet {
    ToolSet::new()
        .tool(|input: Wide, _: &Call| format!("{} {:?} {:?}", input.big, input.huge, input.small))
        .unwrap()
}

/// Found by `harden_input::settings_answers_near_valid_arguments`: an integral float beyond the
/// 64-bit range passed the walker at an `i128` position (a negative one as `i128::MAX`, so even a
/// bounded field let it through), then serde refused it and the agent read serde's own message
/// at `(root)` instead of an out-of-range detail at the field.
#[test]
fn regression_integral_float_beyond_64_bits_is_out_of_range() {
    let tools = wide();
    for (sent, text) in [
        (json!(-9.529_694_745_307_744e177), "-9.529694745307744e+177"),
        (json!(1e20), "100000000000000000000"),
        (json!(18_446_744_073_709_551_616.0), "18446744073709552000"),
    ] {
        let response = tools.call("wide", Some(json!({"big": sent, "huge": sent})));
        assert_eq!(
            response.blocks(),
            [format!(
                "<validation_error action=\"wide\">\n<field name=\"big\">Out of range. You sent: {text}. Must be between -9223372036854775808 and 18446744073709551615.</field>\n<field name=\"huge\">Out of range. You sent: {text}. Must be between 0 and 18446744073709551615.</field>\n<recovery>Fix the fields above and call the tool again. Do not explain the error.</recovery>\n</validation_error>"
            )]
        );
    }
    // A bounded field keeps its own bounds in the detail.
    let response = tools.call("wide", Some(json!({"big": 1, "small": -1e30})));
    assert_eq!(
        response.blocks(),
        [
            "<validation_error action=\"wide\">\n<field name=\"small\">Out of range. You sent: -1e+30. Must be between 0 and 255.</field>\n<recovery>Fix the fields above and call the tool again. Do not explain the error.</recovery>\n</validation_error>"
        ]
    );
    // Within the 64-bit range, integral floats are the integers they denote.
    let response = tools.call(
        "wide",
        Some(json!({"big": -9_223_372_036_854_775_808.0, "huge": 1.8e19, "small": 5.0})),
    );
    assert_eq!(
        response.blocks(),
        ["-9223372036854775808 Some(18000000000000000000) Some(5)"]
    );
}

/// An `i128` inside an action of a discriminated tool.
#[allow(dead_code, reason = "read by serde only")]
#[derive(Debug, Deserialize, schemars::JsonSchema, Tool)]
#[serde(tag = "action", rename_all = "snake_case")]
#[fusion(name = "ledger")]
enum Ledger {
    Get { id: u64 },
    Adjust { delta: i128 },
}

/// Found by `harden_input::orders_answers_near_valid_arguments`: a discriminated tool with an
/// `i128` field was defined and listed, but serde reads an internally tagged enum through its
/// content buffer, which has no 128-bit integers, so every call of the action failed with
/// `(root)`: `I128 is not supported.` Such a tool is now refused when it is defined.
#[test]
fn regression_i128_in_a_discriminated_tool_is_a_definition_error() {
    let error = ToolSet::new()
        .tool(|_: Ledger, _: &Call| "unreachable")
        .unwrap_err();
    assert_eq!(
        error.to_string(),
        "tool `ledger` cannot be defined: the field `delta` of the action `adjust` is a 128-bit integer inside an enum that serde reads through its content buffer (an internally tagged or untagged enum), which cannot hold 128-bit integers, so no call could succeed; use `i64` or `u64`, or a `String` that you parse"
    );
}

#[allow(dead_code, reason = "read by serde only")]
#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
enum Amount {
    Exact { value: Vec<u128> },
    Unknown,
}

#[allow(dead_code, reason = "read by serde only")]
#[derive(Debug, Deserialize, schemars::JsonSchema, Tool)]
#[fusion(name = "pay")]
struct Pay {
    amount: Option<Amount>,
    total: Option<u128>,
}

/// The same serde limit in a flat tool: a 128-bit integer inside a tagged-union field (here in
/// a list, under an optional value) is refused, while one directly in the struct is fine.
#[test]
fn regression_u128_in_a_tagged_union_field_is_a_definition_error() {
    let error = ToolSet::new()
        .tool(|_: Pay, _: &Call| "unreachable")
        .unwrap_err();
    assert_eq!(
        error.to_string(),
        "tool `pay` cannot be defined: the field `amount.value` is a 128-bit integer inside an enum that serde reads through its content buffer (an internally tagged or untagged enum), which cannot hold 128-bit integers, so no call could succeed; use `i64` or `u64`, or a `String` that you parse"
    );
    // Without the enum, the same integers are read.
    assert_eq!(
        wide()
            .call(
                "wide",
                Some(json!({"big": -1, "huge": u64::MAX, "small": null}))
            )
            .blocks(),
        ["-1 Some(18446744073709551615) None"]
    );
}

/// A model presented as TOON, holding any JSON value.
#[derive(fusion_runtime::Presenter)]
#[presenter(format = toon)]
struct Holder {
    tree: serde_json::Value,
}

/// Found while checking deep nesting (hardening property 3's "deep nesting" on the output side):
/// the testing view parsed a JSON data block back with the nesting limit of `serde_json` (128 levels), so the
/// view of a deeper value was `null` instead of the wire value (wire format §14.2), for plain JSON
/// responses and for presented TOON responses alike.
#[test]
fn regression_view_of_a_json_block_deeper_than_128_levels() {
    use fusion_runtime::{ResponseBuilder, success};
    use serde_json::Value;

    let mut deep = json!("bottom");
    for level in 0..300 {
        deep = if level % 2 == 0 {
            Value::Array(vec![deep])
        } else {
            json!({ "next": deep })
        };
    }
    let response = success(&deep).unwrap();
    assert_eq!(response.view().data().as_value(), Some(&deep));
    let response = ResponseBuilder::json(&deep).unwrap().rule("r").build();
    assert_eq!(response.view().data().as_value(), Some(&deep));

    let holder = Holder { tree: deep.clone() };
    let response = holder.present().build().unwrap();
    assert_eq!(
        response.view().data().as_value(),
        Some(&json!({ "tree": deep }))
    );
}

/// A tool with `_select` over one model and a list argument, for the envelope bound.
mod bounded {
    use fusion_runtime::{Presenter, Tool};
    use serde::Deserialize;

    #[derive(Presenter)]
    pub struct Item {
        pub id: String,
    }

    #[allow(dead_code, reason = "read by serde only")]
    #[derive(Debug, Deserialize, schemars::JsonSchema, Tool)]
    #[serde(tag = "action", rename_all = "snake_case")]
    #[fusion(name = "items", select)]
    pub enum Items {
        #[fusion(returns = Item)]
        Get { ids: Vec<u8> },
    }
}

/// Found by the input properties' size study: wire format §13.6 reports every problem, so a `_select`
/// of a million non-strings (2 MB sent) answered with an 88 MB envelope built in 351 MB of
/// memory. The walk now stops after 100 problems and the envelope says so in one last line.
#[test]
fn regression_validation_envelope_is_bounded() {
    let tools = ToolSet::new()
        .tool(|_: bounded::Items, _: &Call| "unreachable".to_owned())
        .unwrap();
    let many: Vec<u32> = (0..200_000).collect();
    let ids = vec!["x"; 50_000];
    let response = tools.call(
        "items",
        Some(json!({"action": "get", "ids": ids, "_select": many})),
    );
    assert_eq!(response.is_error(), Some(true));
    let text = &response.blocks()[0];
    assert_eq!(text.matches("<field name=").count(), 101, "{text}");
    assert!(
        text.len() < 16 * 1024,
        "the envelope has {} bytes",
        text.len()
    );
    assert!(text.contains(
        "<field name=\"(root)\">More problems than listed: only the first 100 are reported. Fix them and call the tool again.</field>"
    ));
    // The first problems are still the ordinary ones, in wire format §13.6 order.
    assert!(text.contains(
        "<field name=\"ids.0\">Wrong type. You sent: 'x'. Expected type: integer.</field>"
    ));

    // Under the bound, nothing changes: every problem is listed.
    let response = tools.call(
        "items",
        Some(json!({"action": "get", "ids": ["x", "x", "x"], "_select": [1, 2]})),
    );
    assert_eq!(response.blocks()[0].matches("<field name=").count(), 5);
    assert!(!response.blocks()[0].contains("More problems"));
}
