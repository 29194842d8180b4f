//! Assertions on the testing view (wire format §14), for the tests of applications built with fusion
//! (feature `testing`, for dev-dependencies; the primitives of [`json`] and [`escape`] are here
//! without it).
//!
//! The view holds the values a response was made of (the wire value of the data, the texts of
//! rules and hints before escaping, every UI entry and suggestion in wire order), so tests assert
//! on meaning rather than on escaped bytes. Each assertion panics with the expected and the
//! actual value and the response's blocks, like `assert_eq!`; the `ViewExt` methods return the
//! response so they chain.
//!
//! ```
//! # #[cfg(feature = "testing")] {
//! use fusion_runtime::testing::{self, ViewExt};
//! use fusion_runtime::{ResponseBuilder, ui};
//! use serde_json::json;
//!
//! let response = ResponseBuilder::json(&json!({"id": "INV-1", "amount_cents": 45000}))
//!     .unwrap()
//!     .ui(ui::summary("1 invoice"))
//!     .rule("amount_cents is in CENTS. Divide by 100.")
//!     .suggest("billing.pay", "Offer immediate payment")
//!     .build();
//!
//! response
//!     .assert_data(json!({"id": "INV-1", "amount_cents": 45000}))
//!     .assert_ui_types(&["summary"])
//!     .assert_rules(&["amount_cents is in CENTS. Divide by 100."])
//!     .assert_suggestions(&[("billing.pay", "Offer immediate payment")])
//!     .assert_is_error(None);
//! testing::assert_hints(&response, &[]);
//! # }
//! ```
//!
//! # Panics
//!
//! Every assertion panics when the response does not match: that is how a test fails.

#[cfg(feature = "testing")]
use serde_json::Value;

#[cfg(feature = "testing")]
use super::format::Format;
#[cfg(feature = "testing")]
use super::tool_response::ToolResponse;
#[cfg(feature = "testing")]
pub use super::view::{TestingView, ViewValue};

/// The wire format §3 JSON writer the data blocks are written with, for tests that compare against it.
pub mod json {
    pub use crate::encode::json::{compact, number_text, to_string};
}

/// The injection-safety primitives of wire format §5 the wire is escaped with, for tests that check
/// texts against them.
pub mod escape {
    pub use crate::encode::escape::{
        FRAMEWORK_NAMES, contains_tag_start, is_tag_start_at, neutralize,
    };
}

#[cfg(feature = "testing")]
/// Assertion methods on a response's testing view; each returns `self`, so they chain.
pub trait ViewExt {
    /// The response the assertions look at.
    fn response(&self) -> &ToolResponse;

    /// Asserts that the data is this JSON value (JSON and TOON responses). Numbers compare by
    /// value, so `json!(100.0)` matches a wire `100`.
    #[track_caller]
    fn assert_data(&self, expected: Value) -> &Self {
        let response = self.response();
        match response.view().data() {
            ViewValue::Value(actual) => {
                if !json_eq(actual, &expected) {
                    fail(response, "data", &expected, actual);
                }
            }
            ViewValue::Text(text) => fail(
                response,
                "data (the response has a text data block, use `assert_text`)",
                &expected,
                &text,
            ),
        }
        self
    }

    /// Asserts that the data is this text (text responses, before wire format §5.3; error responses,
    /// the envelope text).
    #[track_caller]
    fn assert_text(&self, expected: &str) -> &Self {
        let response = self.response();
        match response.view().data() {
            ViewValue::Text(actual) => {
                if actual != expected {
                    fail(response, "text data", &expected, &actual);
                }
            }
            ViewValue::Value(value) => fail(
                response,
                "text data (the response has a JSON or TOON data block, use `assert_data`)",
                &expected,
                value,
            ),
        }
        self
    }

    /// Asserts the kind of the data block.
    #[track_caller]
    fn assert_format(&self, expected: Format) -> &Self {
        let response = self.response();
        let actual = response.view().format();
        if actual != expected {
            fail(response, "format", &expected, &actual);
        }
        self
    }

    /// Asserts the `type` of every UI entry on the wire, in wire order.
    #[track_caller]
    fn assert_ui_types(&self, expected: &[&str]) -> &Self {
        let response = self.response();
        let actual: Vec<&str> = response
            .view()
            .ui()
            .iter()
            .map(super::ui::UiBlock::kind)
            .collect();
        if actual != expected {
            fail(response, "UI types", &expected, &actual);
        }
        self
    }

    /// Asserts every hint on the wire, in order, before escaping.
    #[track_caller]
    fn assert_hints(&self, expected: &[&str]) -> &Self {
        let response = self.response();
        let actual = response.view().hints();
        if actual != expected {
            fail(response, "hints", &expected, &actual);
        }
        self
    }

    /// Asserts every rule on the wire (embedded children's first), in order, before escaping.
    #[track_caller]
    fn assert_rules(&self, expected: &[&str]) -> &Self {
        let response = self.response();
        let actual = response.view().rules();
        if actual != expected {
            fail(response, "rules", &expected, &actual);
        }
        self
    }

    /// Asserts every suggestion on the wire as `(tool, reason)` pairs, in order.
    #[track_caller]
    fn assert_suggestions(&self, expected: &[(&str, &str)]) -> &Self {
        let response = self.response();
        let actual: Vec<(&str, &str)> = response
            .view()
            .suggestions()
            .iter()
            .map(|s| (&*s.tool, &*s.reason))
            .collect();
        if actual != expected {
            fail(response, "suggestions", &expected, &actual);
        }
        self
    }

    /// Asserts `structuredContent` (`None`: absent). Numbers compare by value.
    #[track_caller]
    fn assert_structured(&self, expected: Option<Value>) -> &Self {
        let response = self.response();
        let actual = response.structured_content();
        let same = match (actual, &expected) {
            (Some(actual), Some(expected)) => json_eq(actual, expected),
            (None, None) => true,
            _ => false,
        };
        if !same {
            fail(response, "structuredContent", &expected, &actual);
        }
        self
    }

    /// Asserts `isError`: `None` (absent), `Some(true)` or `Some(false)`.
    #[track_caller]
    fn assert_is_error(&self, expected: Option<bool>) -> &Self {
        let response = self.response();
        let actual = response.is_error();
        if actual != expected {
            fail(response, "isError", &expected, &actual);
        }
        self
    }

    /// Asserts the whole view in the JSON notation of wire format §16.12 (see
    /// [`TestingView::to_json`](TestingView::to_json)).
    /// Numbers compare by value.
    #[track_caller]
    fn assert_view(&self, expected: Value) -> &Self {
        let response = self.response();
        let actual = response.view().to_json();
        if !json_eq(&actual, &expected) {
            fail(response, "view", &expected, &actual);
        }
        self
    }

    /// Asserts the exact block texts on the wire.
    #[track_caller]
    fn assert_blocks(&self, expected: &[&str]) -> &Self {
        let response = self.response();
        if response.blocks() != expected {
            fail(response, "blocks", &expected, &response.blocks());
        }
        self
    }
}

#[cfg(feature = "testing")]
impl ViewExt for ToolResponse {
    fn response(&self) -> &ToolResponse {
        self
    }
}

#[cfg(feature = "testing")]
/// Asserts that the data is this JSON value; see [`ViewExt::assert_data`].
#[track_caller]
pub fn assert_data(response: &ToolResponse, expected: Value) {
    response.assert_data(expected);
}

#[cfg(feature = "testing")]
/// Asserts that the data is this text; see [`ViewExt::assert_text`].
#[track_caller]
pub fn assert_text(response: &ToolResponse, expected: &str) {
    response.assert_text(expected);
}

#[cfg(feature = "testing")]
/// Asserts every hint; see [`ViewExt::assert_hints`].
#[track_caller]
pub fn assert_hints(response: &ToolResponse, expected: &[&str]) {
    response.assert_hints(expected);
}

#[cfg(feature = "testing")]
/// Asserts every rule; see [`ViewExt::assert_rules`].
#[track_caller]
pub fn assert_rules(response: &ToolResponse, expected: &[&str]) {
    response.assert_rules(expected);
}

#[cfg(feature = "testing")]
/// Asserts every suggestion; see [`ViewExt::assert_suggestions`].
#[track_caller]
pub fn assert_suggestions(response: &ToolResponse, expected: &[(&str, &str)]) {
    response.assert_suggestions(expected);
}

#[cfg(feature = "testing")]
/// Asserts the UI types; see [`ViewExt::assert_ui_types`].
#[track_caller]
pub fn assert_ui_types(response: &ToolResponse, expected: &[&str]) {
    response.assert_ui_types(expected);
}

#[cfg(feature = "testing")]
/// Asserts the whole view; see [`ViewExt::assert_view`].
#[track_caller]
pub fn assert_view(response: &ToolResponse, expected: Value) {
    response.assert_view(expected);
}

#[cfg(feature = "testing")]
/// JSON equality with numbers compared by value: two integers exactly, otherwise as floats.
///
/// ```
/// use fusion_runtime::testing::json_eq;
/// use serde_json::json;
/// assert!(json_eq(&json!({"a": [100]}), &json!({"a": [100.0]})));
/// assert!(!json_eq(&json!(1), &json!("1")));
/// ```
pub fn json_eq(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => match (x.as_i64(), y.as_i64()) {
            (Some(x), Some(y)) => x == y,
            _ => match (x.as_u64(), y.as_u64()) {
                (Some(x), Some(y)) => x == y,
                // The view's floats come from shortest round-trip text, so value equality is
                // exact equality of the binary64 values.
                _ => x.as_f64() == y.as_f64(),
            },
        },
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(x, y)| json_eq(x, y))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(key, x)| y.get(key).is_some_and(|y| json_eq(x, y)))
        }
        _ => a == b,
    }
}

#[cfg(feature = "testing")]
/// Panics with what differs, and the blocks of the response for context.
#[track_caller]
fn fail(
    response: &ToolResponse,
    what: &str,
    expected: &dyn std::fmt::Debug,
    actual: &dyn std::fmt::Debug,
) -> ! {
    panic!(
        "the response's {what} differ\n  expected: {expected:?}\n    actual: {actual:?}\n  blocks: {:#?}",
        response.blocks()
    )
}
