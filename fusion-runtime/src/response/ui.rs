//! UI blocks for the client to render (wire format §4): `<ui_passthrough>` entries and their helpers.
//!
//! Every helper returns a [`UiBlock`]; chain [`UiBlock::title`], [`UiBlock::width`] and
//! [`UiBlock::priority`] to set the optional metadata.
//!
//! ```
//! use fusion_runtime::ui::{self, Width};
//! let gauge = ui::echarts(serde_json::json!({"series": []})).title("Amount").width(Width::Half);
//! assert_eq!(gauge.kind(), "echarts");
//! ```

use std::borrow::Cow;

use serde::Serialize;

use crate::encode::{escape, json};

/// How much of the client's width a UI block asks for (wire format §4.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Width {
    /// `full`
    Full,
    /// `half`
    Half,
    /// `third`
    Third,
}

impl Width {
    /// The attribute text: `full`, `half` or `third`.
    pub fn as_str(self) -> &'static str {
        match self {
            Width::Full => "full",
            Width::Half => "half",
            Width::Third => "third",
        }
    }
}

/// One UI entry: a type, a content and optional metadata (wire format §4.1).
///
/// The content is kept as given; wire format §5.3 neutralization happens when the block is written.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct UiBlock {
    kind: Cow<'static, str>,
    content: String,
    title: Option<String>,
    width: Option<Width>,
    priority: Option<i64>,
}

impl UiBlock {
    /// A block of any `type` with the given content (the `custom` helper of wire format §4.3).
    pub fn custom(kind: impl Into<Cow<'static, str>>, content: impl Into<String>) -> Self {
        UiBlock {
            kind: kind.into(),
            content: content.into(),
            title: None,
            width: None,
            priority: None,
        }
    }

    /// Sets the title (an empty title is not written).
    #[must_use]
    pub fn title(mut self, title: impl Into<String>) -> Self {
        self.title = Some(title.into());
        self
    }

    /// Sets the width.
    #[must_use]
    pub fn width(mut self, width: Width) -> Self {
        self.width = Some(width);
        self
    }

    /// Sets the priority (any integer; it never changes block order).
    #[must_use]
    pub fn priority(mut self, priority: i64) -> Self {
        self.priority = Some(priority);
        self
    }

    /// The block's `type`.
    pub fn kind(&self) -> &str {
        &self.kind
    }

    /// The content as given, before wire format §5.3.
    pub fn content(&self) -> &str {
        &self.content
    }

    /// The title, if set.
    pub fn title_text(&self) -> Option<&str> {
        self.title.as_deref()
    }

    /// The width, if set.
    pub fn width_value(&self) -> Option<Width> {
        self.width
    }

    /// The priority, if set.
    pub fn priority_value(&self) -> Option<i64> {
        self.priority
    }

    /// The block text (wire format §2.3): `<ui_passthrough ATTRS>\nCONTENT\n</ui_passthrough>`, with
    /// the attributes escaped (wire format §5.2) and the content neutralized (wire format §5.3).
    ///
    /// ```
    /// use fusion_runtime::ui::{self, Width};
    /// let block = ui::markdown("</ui_passthrough>").title("Q\"1\"").width(Width::Half).priority(-1);
    /// assert_eq!(
    ///     block.render(),
    ///     "<ui_passthrough type=\"markdown\" title=\"Q&quot;1&quot;\" width=\"half\" priority=\"-1\">\n&lt;/ui_passthrough>\n</ui_passthrough>"
    /// );
    /// ```
    pub fn render(&self) -> String {
        let content = escape::neutralize(&self.content);
        let kind = escape::attribute(&self.kind);
        let title = self
            .title
            .as_deref()
            .filter(|t| !t.is_empty())
            .map(escape::attribute);
        // Sized for every part, so the block is written without a reallocation: the tags and
        // attribute names are 73 bytes, a width and a priority value at most 25.
        let mut out = String::with_capacity(
            content.len() + kind.len() + title.as_ref().map_or(0, |t| t.len()) + 98,
        );
        out.push_str("<ui_passthrough type=\"");
        out.push_str(&kind);
        out.push('"');
        if let Some(title) = title {
            out.push_str(" title=\"");
            out.push_str(&title);
            out.push('"');
        }
        if let Some(width) = self.width {
            out.push_str(" width=\"");
            out.push_str(width.as_str());
            out.push('"');
        }
        if let Some(priority) = self.priority {
            out.push_str(" priority=\"");
            out.push_str(itoa::Buffer::new().format(priority));
            out.push('"');
        }
        out.push_str(">\n");
        out.push_str(&content);
        out.push_str("\n</ui_passthrough>");
        out
    }
}

/// An `ECharts` chart: `type` `echarts`, the config as a fenced wire format §3 JSON text.
///
/// ```
/// use fusion_runtime::ui;
/// let chart = ui::echarts(serde_json::json!({"series": []}));
/// assert_eq!(chart.content(), "```echarts\n{\n  \"series\": []\n}\n```");
/// ```
///
/// The config is any [`Serialize`] value: a `serde_json::Value` (`json!`) or, cheaper, a typed
/// struct, which is written straight into the block with no `Value` tree built first.
pub fn echarts(config: impl Serialize) -> UiBlock {
    UiBlock::custom("echarts", fenced_json("echarts", &config))
}

/// A Mermaid diagram: `type` `mermaid`, the source fenced (wire format §5.5).
///
/// ```
/// use fusion_runtime::ui;
/// assert_eq!(ui::mermaid("graph TD; A-->B").content(), "```mermaid\ngraph TD; A-->B\n```");
/// ```
pub fn mermaid(source: impl AsRef<str>) -> UiBlock {
    UiBlock::custom("mermaid", escape::fence("mermaid", source.as_ref()))
}

/// Markdown text, as written (wire format §5.3 still applies when the block is written).
pub fn markdown(text: impl Into<String>) -> UiBlock {
    UiBlock::custom("markdown", text)
}

/// A code block: `type` is the language, the code fenced (wire format §5.5).
///
/// ```
/// use fusion_runtime::ui;
/// let block = ui::code_block("xml", "<root/>");
/// assert_eq!((block.kind(), block.content()), ("xml", "```xml\n<root/>\n```"));
/// ```
pub fn code_block(lang: impl AsRef<str>, code: impl AsRef<str>) -> UiBlock {
    let lang = lang.as_ref();
    UiBlock::custom(
        Cow::Owned(lang.to_owned()),
        escape::fence(lang, code.as_ref()),
    )
}

/// The text of a generated table of a collection that shows no item (wire format §4.4): a table
/// of headers alone would read as a broken table, so the block says there is nothing to show.
pub const EMPTY_TABLE: &str = "_No items to show._";

/// The table `#[collection_ui(table(...))]` generates (wire format §4.4): [`table`], or for a
/// collection with no shown item the markdown block [`EMPTY_TABLE`].
#[doc(hidden)]
pub fn collection_table<H, R, C>(headers: H, rows: R) -> UiBlock
where
    H: IntoIterator,
    H::Item: AsRef<str>,
    R: IntoIterator,
    R::Item: IntoIterator<Item = C>,
    C: AsRef<str>,
{
    let mut rows = rows.into_iter().peekable();
    if rows.peek().is_none() {
        return UiBlock::custom("markdown", EMPTY_TABLE);
    }
    table(headers, rows)
}

/// A markdown table (wire format §4.4); headers and cells are escaped per wire format §5.6.
///
/// Rows are neither padded nor cut to the header count.
///
/// ```
/// use fusion_runtime::ui;
/// let table = ui::table(["Invoice", "Status"], [["INV-1", "paid"]]);
/// assert_eq!(table.content(), "| Invoice | Status |\n| --- | --- |\n| INV-1 | paid |");
/// ```
pub fn table<H, R, C>(headers: H, rows: R) -> UiBlock
where
    H: IntoIterator,
    H::Item: AsRef<str>,
    R: IntoIterator,
    R::Item: IntoIterator<Item = C>,
    C: AsRef<str>,
{
    fn push_row<I: IntoIterator<Item = S>, S: AsRef<str>>(out: &mut String, cells: I) {
        out.push_str("| ");
        for (i, cell) in cells.into_iter().enumerate() {
            if i > 0 {
                out.push_str(" | ");
            }
            out.push_str(&escape::table_cell(cell.as_ref()));
        }
        out.push_str(" |");
    }
    let headers: Vec<H::Item> = headers.into_iter().collect();
    let mut out = String::new();
    push_row(&mut out, headers.iter().map(AsRef::as_ref));
    out.push('\n');
    push_row(&mut out, headers.iter().map(|_| "---"));
    out.push('\n');
    for (i, row) in rows.into_iter().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        push_row(&mut out, row);
    }
    UiBlock::custom("markdown", out)
}

/// The text of a value in a table cell (wire format §4.4): what the data block writes for it,
/// on one line. A string is its text (no quotes, no escapes); `null` is empty; a number or a
/// boolean is its JSON token; an array or an object is its JSON text with each line break and
/// the indentation after it replaced by one space (`{ "a": 1, "b": [ 2 ] }`).
///
/// Tables generated by `#[ui(table(...))]` fill their cells with it, from the wire value (a
/// redacted field's censor); it is public for hand-built tables that should read the same.
///
/// ```
/// use fusion_runtime::ui;
/// assert_eq!(ui::cell("a|b"), "a|b");
/// assert_eq!(ui::cell(&Option::<u8>::None), "");
/// assert_eq!(ui::cell(&1.5), "1.5");
/// assert_eq!(ui::cell(&serde_json::json!({"a": [1, 2]})), "{ \"a\": [ 1, 2 ] }");
/// ```
pub fn cell<T: Serialize + ?Sized>(value: &T) -> String {
    // A value the data block cannot encode fails the whole response before any block is
    // read, so the empty cell is never seen.
    let Ok(text) = json::to_string(value) else {
        return String::new();
    };
    if text == "null" {
        return String::new();
    }
    if text.starts_with('"') {
        // One JSON string token: its value (the `\u003c` rule and escapes undone).
        return serde_json::from_str::<String>(&text).unwrap_or(text);
    }
    if !text.contains('\n') {
        return text;
    }
    // JSON strings hold no raw line break, so every one is layout (wire format §3.2).
    text.split('\n')
        .map(str::trim_start)
        .collect::<Vec<_>>()
        .join(" ")
}

/// A markdown list: each item as `- ITEM`, continuation lines indented (wire format §5.4).
///
/// ```
/// use fusion_runtime::ui;
/// assert_eq!(ui::list(["one\ntwo", "three"]).content(), "- one\n  two\n- three");
/// ```
pub fn list<I>(items: I) -> UiBlock
where
    I: IntoIterator,
    I::Item: AsRef<str>,
{
    let mut out = String::new();
    for (i, item) in items.into_iter().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        out.push_str("- ");
        out.push_str(&escape::indent_continuation(item.as_ref()));
    }
    UiBlock::custom("markdown", out)
}

/// A JSON value: `type` `json`, fenced wire format §3 text.
///
/// ```
/// use fusion_runtime::ui;
/// assert_eq!(ui::json(serde_json::json!({"a": 1})).content(), "```json\n{\n  \"a\": 1\n}\n```");
/// ```
///
/// As [`echarts`], the value is any [`Serialize`] value.
pub fn json(value: impl Serialize) -> UiBlock {
    UiBlock::custom("json", fenced_json("json", &value))
}

/// A summary line: `📊 **Summary**: TEXT`.
///
/// ```
/// use fusion_runtime::ui;
/// assert_eq!(ui::summary("3 items").content(), "📊 **Summary**: 3 items");
/// ```
pub fn summary(text: impl AsRef<str>) -> UiBlock {
    let text = text.as_ref();
    summary_written(text.len(), |out| out.push_str(text))
}

/// [`summary`] of the text that `write` appends, in one string sized for `len` more bytes (a
/// budget summary is made for every prefix a fit probes).
pub(crate) fn summary_written(len: usize, write: impl FnOnce(&mut String)) -> UiBlock {
    const HEAD: &str = "📊 **Summary**: ";
    let mut content = String::with_capacity(HEAD.len() + len);
    content.push_str(HEAD);
    write(&mut content);
    UiBlock::custom("summary", content)
}

/// The fenced wire format §3 text of `value` (wire format §5.5), in one allocation: the JSON text
/// stays in the writer's buffer and is copied once, into the fenced body.
fn fenced_json<T: Serialize + ?Sized>(lang: &str, value: &T) -> String {
    // A value that cannot be JSON (a map with non-string keys, a failing `Serialize` impl) is
    // written as `null`, as a `serde_json::Value` holding it could not have been built either;
    // the helper stays total and never panics.
    json::with_text(value, |text| escape::fence(lang, text))
        .unwrap_or_else(|_| escape::fence(lang, "null"))
}
