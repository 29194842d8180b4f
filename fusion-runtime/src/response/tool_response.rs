//! The tool response (wire format §1): what a call answers with, and how it serializes.

use serde::Serialize;
use serde::ser::{SerializeMap, SerializeSeq, SerializeStruct};

use super::content::Content;
use super::format::Format;
#[cfg(feature = "testing")]
use super::view::{TestingView, ViewParts};

/// One MCP tool result, as plain wire data: ordered text blocks, optional `structuredContent`,
/// the three-state `isError`, and optionally image, audio and resource content after the text
/// blocks ([`crate::content`]) (wire format §1). With the feature `testing`, also the testing
/// view of what it was made of (wire format §14), never serialized.
///
/// It serializes exactly as an MCP `CallToolResult`: members `content`, `structuredContent` (only
/// when present), `isError` (only when set) and `_meta` (only when UI blocks were moved there for
/// an MCP Apps host, [`ToolResponse::ui_to_meta`]), each block `{"type":"text","text":...}`, then
/// the other content blocks.
///
/// ```
/// use fusion_runtime::ResponseBuilder;
/// let response = ResponseBuilder::text("hello world").build();
/// assert_eq!(response.to_json(), r#"{"content":[{"type":"text","text":"hello world"}]}"#);
/// ```
#[derive(Clone)]
pub struct ToolResponse {
    pub(crate) blocks: Vec<String>,
    pub(crate) structured_content: Option<serde_json::Value>,
    pub(crate) is_error: Option<bool>,
    /// Content blocks after the text blocks (see [`crate::content`]).
    pub(crate) contents: Vec<Content>,
    /// The `<ui_passthrough>` blocks moved out of `content` for a host that renders MCP Apps
    /// ([`ToolResponse::ui_to_meta`]), in wire order: `_meta["fusion/ui"]`.
    pub(crate) meta_ui: Vec<String>,
    /// The data block's format: `Json` (pretty or compact), `Toon`, or `Text` (errors too).
    #[cfg_attr(
        not(any(feature = "tool", feature = "testing")),
        allow(dead_code, reason = "read by the tool layer and the testing view")
    )]
    pub(crate) format: Format,
    /// The wire value of the data block, made from the value itself when someone asked for
    /// it (a structured action's `structuredContent`, the testing view); never serialized.
    #[cfg_attr(
        not(any(feature = "tool", feature = "testing")),
        allow(dead_code, reason = "read by the tool layer and the testing view")
    )]
    pub(crate) value: Option<serde_json::Value>,
    /// The model the response presents, if a presenter built it (never serialized): the tool
    /// layer checks it against the action's `returns`.
    #[cfg_attr(
        not(feature = "tool"),
        allow(dead_code, reason = "read by the tool layer")
    )]
    pub(crate) presented: Option<Presented>,
    /// What the handler asks before it can finish (an input-required result), if anything.
    #[cfg(feature = "tool")]
    pub(crate) asks: Option<Box<super::ask::Asks>>,
    /// What the response was made of, for the testing view (wire format §14).
    #[cfg(feature = "testing")]
    pub(crate) view: ViewParts,
}

/// The `_meta` key of the UI blocks a host that renders MCP Apps shows to the person (wire
/// format §4.6): `"fusion/ui"`.
pub const UI_META_KEY: &str = "fusion/ui";

/// The start of a truncation summary's block (wire format §4.5, §17.3): the one UI block that
/// stays in `content` for the model, which must know what it is missing (wire format §4.6).
const TRUNCATION_SUMMARY: &str = "<ui_passthrough type=\"summary\">\n\u{1F4CA} **Summary**: \u{26A0}\u{FE0F} Dataset truncated. ";

/// Which model a presented response shows, and whether as a collection.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Presented {
    /// The model's type name (`std::any::type_name`).
    pub(crate) model: &'static str,
    /// Presented with `present_all`.
    pub(crate) collection: bool,
}

#[cfg(feature = "tool")]
impl Presented {
    /// The model's name as a user writes it: the type name without its module path.
    pub(crate) fn short_name(self) -> String {
        short_type_name(self.model)
    }
}

/// `a::b::Page<c::Invoice>` as `Page<Invoice>`: every path in a type name cut to its last segment.
#[cfg(feature = "tool")]
fn short_type_name(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    let mut segment = String::new();
    for ch in name.chars() {
        if ch.is_alphanumeric() || ch == '_' || ch == ':' {
            segment.push(ch);
        } else {
            out.push_str(segment.rsplit("::").next().unwrap_or_default());
            segment.clear();
            out.push(ch);
        }
    }
    out.push_str(segment.rsplit("::").next().unwrap_or_default());
    out
}

impl ToolResponse {
    /// A response of these blocks, the first a data block of `format`, and nothing else.
    pub(crate) fn of_blocks(blocks: Vec<String>, format: Format) -> Self {
        ToolResponse {
            blocks,
            structured_content: None,
            is_error: None,
            contents: Vec::new(),
            meta_ui: Vec::new(),
            format,
            value: None,
            presented: None,
            #[cfg(feature = "tool")]
            asks: None,
            #[cfg(feature = "testing")]
            view: ViewParts::default(),
        }
    }

    /// An error response of one block (wire format §1.3).
    pub(crate) fn error_block(text: String, is_error: bool) -> Self {
        let mut response = ToolResponse::of_blocks(vec![text], Format::Text);
        response.is_error = Some(is_error);
        response
    }

    /// The text of a collection's truncation summary after "Dataset truncated. " (wire format
    /// §4.5, §17.3), if the response has one.
    #[cfg(feature = "tracing")]
    pub(crate) fn truncation_summary(&self) -> Option<&str> {
        self.blocks
            .iter()
            .find_map(|block| block.strip_prefix(TRUNCATION_SUMMARY))
    }

    /// The response for a client that renders MCP Apps (wire format §4.6): every
    /// `<ui_passthrough>` block after the data block, except a truncation summary, moves from
    /// `content` to `_meta["fusion/ui"]` ([`UI_META_KEY`]), in order, where the view reads it
    /// and the model does not. Rules, suggestions, hints and the data block stay. A response
    /// without UI blocks is unchanged, and so is one already moved.
    #[must_use]
    pub fn ui_to_meta(mut self) -> Self {
        let mut index = 1;
        while index < self.blocks.len() {
            let block = &self.blocks[index];
            if block.starts_with("<ui_passthrough ") && !block.starts_with(TRUNCATION_SUMMARY) {
                let moved = self.blocks.remove(index);
                self.meta_ui.push(moved);
            } else {
                index += 1;
            }
        }
        self
    }

    /// The response with a JSON data block written compact (wire format §3.8), for a tool or tool
    /// set whose format is [`Format::CompactJson`](super::Format::CompactJson); any other data
    /// block (text, TOON, an error envelope) is left as it is.
    #[must_use]
    #[cfg(feature = "tool")]
    pub(crate) fn compact_json_data(mut self) -> Self {
        if self.format == Format::Json
            && self.is_error.is_none()
            && let Some(data) = self.blocks.first_mut()
        {
            *data = crate::encode::json::compact(data);
        }
        self
    }

    /// The UI blocks [`ToolResponse::ui_to_meta`] moved to `_meta["fusion/ui"]` (empty unless
    /// it ran).
    pub fn meta_ui(&self) -> &[String] {
        &self.meta_ui
    }

    /// A response that asks before the handler can finish: the adapter sends `asks` to the
    /// client (an input-required result, or elicitation over a session) and calls the handler
    /// again with the answers. Its one text block, `text`, is what a client that cannot answer
    /// would read (adapters that cannot ask never see this response: see
    /// [`Call::can_ask`](crate::Call::can_ask)).
    #[cfg(feature = "tool")]
    pub fn asking(asks: super::ask::Asks, text: impl Into<String>) -> Self {
        let mut response = ToolResponse::error_block(text.into(), false);
        response.is_error = None;
        response.asks = Some(Box::new(asks));
        response
    }

    /// What the response asks before the handler can finish (see [`ToolResponse::asking`]).
    #[cfg(feature = "tool")]
    pub fn asks(&self) -> Option<&super::ask::Asks> {
        self.asks.as_deref()
    }

    /// The block texts, in wire order.
    pub fn blocks(&self) -> &[String] {
        &self.blocks
    }

    /// The block texts joined by LF (what wire format §5.10's properties read).
    pub fn text(&self) -> String {
        self.blocks.join("\n")
    }

    /// `structuredContent`, if the response carries it.
    pub fn structured_content(&self) -> Option<&serde_json::Value> {
        self.structured_content.as_ref()
    }

    /// `isError`: absent (`None`), `Some(true)` or `Some(false)`.
    pub fn is_error(&self) -> Option<bool> {
        self.is_error
    }

    /// The response with `content` after its text blocks (and after the content added before).
    /// The text blocks do not change.
    #[must_use]
    pub fn with_content(mut self, content: impl Into<Content>) -> Self {
        self.contents.push(content.into());
        self
    }

    /// The content blocks after the text blocks, in wire order.
    pub fn contents(&self) -> &[Content] {
        &self.contents
    }

    /// The typed testing view (wire format §14; feature `testing`).
    #[cfg(feature = "testing")]
    pub fn view(&self) -> TestingView<'_> {
        TestingView {
            // Every response has a data block; `""` only keeps this total without a panic.
            block: self.blocks.first().map_or("", String::as_str),
            format: self.format,
            value: self.value.as_ref(),
            parts: &self.view,
            structured_content: self.structured_content.as_ref(),
            is_error: self.is_error,
        }
    }

    /// The `CallToolResult` as compact JSON.
    pub fn to_json(&self) -> String {
        // A CallToolResult holds only strings, booleans and a JSON object: it always serializes.
        serde_json::to_string(self).unwrap_or_default()
    }
}

impl std::fmt::Debug for ToolResponse {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Shows exactly the wire: the value and the view hold nothing the blocks do not.
        f.debug_struct("ToolResponse")
            .field("blocks", &self.blocks)
            .field("structured_content", &self.structured_content)
            .field("is_error", &self.is_error)
            .field("contents", &self.contents)
            .finish_non_exhaustive()
    }
}

impl Serialize for ToolResponse {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        struct Blocks<'a>(&'a [String], &'a [Content]);
        struct TextBlock<'a>(&'a str);
        impl Serialize for Blocks<'_> {
            fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                let mut blocks = serializer.serialize_seq(Some(self.0.len() + self.1.len()))?;
                for text in self.0 {
                    blocks.serialize_element(&TextBlock(text))?;
                }
                for content in self.1 {
                    blocks.serialize_element(content)?;
                }
                blocks.end()
            }
        }
        impl Serialize for TextBlock<'_> {
            fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                let mut map = serializer.serialize_map(Some(2))?;
                map.serialize_entry("type", "text")?;
                map.serialize_entry("text", self.0)?;
                map.end()
            }
        }
        let len = 1
            + usize::from(self.structured_content.is_some())
            + usize::from(self.is_error.is_some())
            + usize::from(!self.meta_ui.is_empty());
        let mut result = serializer.serialize_struct("CallToolResult", len)?;
        result.serialize_field("content", &Blocks(&self.blocks, &self.contents))?;
        if let Some(structured) = &self.structured_content {
            result.serialize_field("structuredContent", structured)?;
        }
        if let Some(is_error) = self.is_error {
            result.serialize_field("isError", &is_error)?;
        }
        if !self.meta_ui.is_empty() {
            struct Meta<'a>(&'a [String]);
            impl Serialize for Meta<'_> {
                fn serialize<S: serde::Serializer>(
                    &self,
                    serializer: S,
                ) -> Result<S::Ok, S::Error> {
                    let mut map = serializer.serialize_map(Some(1))?;
                    map.serialize_entry(UI_META_KEY, self.0)?;
                    map.end()
                }
            }
            result.serialize_field("_meta", &Meta(&self.meta_ui))?;
        }
        result.end()
    }
}

#[cfg(all(test, feature = "tool"))]
mod tests {
    use super::short_type_name;

    #[test]
    fn type_names_lose_their_module_paths() {
        assert_eq!(short_type_name("app::models::Task"), "Task");
        assert_eq!(
            short_type_name("app::Page<app::models::Invoice, u8>"),
            "Page<Invoice, u8>"
        );
        assert_eq!(short_type_name("Task"), "Task");
    }
}
