//! The testing view (wire format §14): what a response was made of, typed, never serialized
//! (feature `testing`).
//!
//! In a build with the feature, every response the toolkit builds carries its parts (the
//! lists its blocks were written from, moved, not copied) and the wire value of its data block,
//! made from the value itself (`encode::json::to_value`, never read back from the text);
//! [`ToolResponse::view`](crate::ToolResponse::view) borrows them. The
//! [`testing`](crate::testing) module asserts on it.

use std::borrow::Cow;
use std::sync::OnceLock;

use super::format::Format;
use super::lists::Suggestion;
use super::ui::{UiBlock, Width};

/// The parts of the view that the blocks do not hold as values.
#[derive(Debug, Clone, Default)]
pub(crate) struct ViewParts {
    /// The handler's text before wire format §5.3 (`None` when it equals the block text).
    pub(crate) original: Option<String>,
    pub(crate) ui: Vec<UiBlock>,
    pub(crate) hints: Vec<String>,
    /// The rules as pushed: static texts stay borrowed, so a render allocates nothing for them.
    pub(crate) rules: Vec<Cow<'static, str>>,
    /// [`ViewParts::rules`] as `String`s, made on the first call of [`TestingView::rules`].
    pub(crate) owned_rules: OnceLock<Vec<String>>,
    pub(crate) suggestions: Vec<Suggestion>,
}

/// The data of a response as the view shows it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum ViewValue<'a> {
    /// The wire value of a JSON or TOON data block (selection and redaction applied).
    Value(&'a serde_json::Value),
    /// The text of a text data block before wire format §5.3, or an error envelope's text.
    Text(&'a str),
}

impl ViewValue<'_> {
    /// The JSON value, if the data is one.
    pub fn as_value(&self) -> Option<&serde_json::Value> {
        match self {
            ViewValue::Value(value) => Some(value),
            ViewValue::Text(_) => None,
        }
    }

    /// The text, if the data is text.
    pub fn as_text(&self) -> Option<&str> {
        match self {
            ViewValue::Value(_) => None,
            ViewValue::Text(text) => Some(text),
        }
    }
}

/// A borrowed, typed view of one response (wire format §14.2).
///
/// It borrows the parts of the response it views (not the response itself), so the view does
/// not depend on the response type.
#[derive(Clone, Copy)]
pub struct TestingView<'a> {
    /// The data block's text.
    pub(crate) block: &'a str,
    pub(crate) format: Format,
    /// The wire value of a JSON or TOON data block.
    pub(crate) value: Option<&'a serde_json::Value>,
    pub(crate) parts: &'a ViewParts,
    pub(crate) structured_content: Option<&'a serde_json::Value>,
    pub(crate) is_error: Option<bool>,
}

impl<'a> TestingView<'a> {
    /// The data: the wire value for JSON and TOON, the original text for text responses, the
    /// envelope text for errors.
    pub fn data(&self) -> ViewValue<'a> {
        match (self.format, self.value) {
            (Format::Text, _) | (_, None) => {
                ViewValue::Text(self.parts.original.as_deref().unwrap_or(self.block))
            }
            (_, Some(value)) => ViewValue::Value(value),
        }
    }

    /// `json`, `toon` or `text` (`text` for errors).
    pub fn format(&self) -> Format {
        match self.format {
            Format::CompactJson => Format::Json,
            format => format,
        }
    }

    /// Every UI entry on the wire, in wire order, content before wire format §5.3.
    pub fn ui(&self) -> &'a [UiBlock] {
        &self.parts.ui
    }

    /// Every hint on the wire, in wire order.
    pub fn hints(&self) -> &'a [String] {
        &self.parts.hints
    }

    /// Every rule on the wire across all rule blocks, in wire order (children's first).
    pub fn rules(&self) -> &'a [String] {
        let parts = self.parts;
        parts.owned_rules.get_or_init(|| {
            parts
                .rules
                .iter()
                .map(|rule| String::from(rule.as_ref()))
                .collect()
        })
    }

    /// Every suggestion on the wire across all suggestion blocks, in wire order.
    pub fn suggestions(&self) -> &'a [Suggestion] {
        &self.parts.suggestions
    }

    /// `structuredContent`, if any.
    pub fn structured_content(&self) -> Option<&'a serde_json::Value> {
        self.structured_content
    }

    /// `isError` as on the wire.
    pub fn is_error(&self) -> Option<bool> {
        self.is_error
    }

    /// The view as a JSON value in the notation of wire format §16.12, for snapshots and comparisons.
    ///
    /// This is a test aid: the view itself is never serialized into a response.
    pub fn to_json(&self) -> serde_json::Value {
        use serde_json::{Value, json};
        let data = match self.data() {
            ViewValue::Value(value) => value.clone(),
            ViewValue::Text(text) => Value::String(text.to_owned()),
        };
        let ui: Vec<Value> = self
            .ui()
            .iter()
            .map(|block| {
                json!({
                    "type": block.kind(),
                    "title": block.title_text(),
                    "width": block.width_value().map(Width::as_str),
                    "priority": block.priority_value(),
                    "content": block.content(),
                })
            })
            .collect();
        let suggestions: Vec<Value> = self
            .suggestions()
            .iter()
            .map(|s| json!({"tool": s.tool, "reason": s.reason}))
            .collect();
        json!({
            "data": data,
            "format": self.format().as_str(),
            "ui": ui,
            "hints": self.hints(),
            "rules": self.rules(),
            "suggestions": suggestions,
            "structured_content": self.structured_content(),
            "is_error": self.is_error(),
        })
    }
}

impl std::fmt::Debug for TestingView<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TestingView")
            .field("format", &self.format())
            .field("ui", &self.ui())
            .field("hints", &self.hints())
            .field("rules", &self.rules())
            .field("suggestions", &self.suggestions())
            .field("is_error", &self.is_error())
            .finish_non_exhaustive()
    }
}
