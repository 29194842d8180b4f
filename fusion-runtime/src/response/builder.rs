//! The builder that composes a response's blocks in the fixed order of wire format §2.
//!
//! ```
//! use fusion_runtime::{ResponseBuilder, ui};
//! let response = ResponseBuilder::text("data")
//!     .ui(ui::markdown("**hi**"))
//!     .rule("amount_cents is in CENTS.")
//!     .suggest("billing.remind", "Send a payment reminder")
//!     .build();
//! assert_eq!(response.blocks().len(), 4);
//! ```

use std::borrow::Cow;
use std::error::Error as StdError;
use std::fmt;

use serde::Serialize;

#[cfg(feature = "testing")]
use super::blocks::EmbedKind;
use super::blocks::{EmbedBlock, list_block, suggestions_block};
use super::format::Format;
use super::lists::{Rules, Suggestion, Suggestions};
use super::tool_response::{Presented, ToolResponse};
use super::ui::UiBlock;
#[cfg(feature = "testing")]
use super::view::ViewParts;
#[cfg(feature = "budget")]
use crate::encode::tokens;
use crate::encode::toon::table::{Members, Row, Rows};
use crate::encode::toon::{self, ToonOptions};
use crate::encode::{EncodeError, ToonError, escape, json};
use crate::model::Model;

/// The data block of a response, already written.
#[derive(Debug, Clone)]
pub(crate) struct DataBlock {
    pub(crate) text: String,
    /// `Json` (pretty or compact), `Toon`, or `Text`.
    pub(crate) format: Format,
    /// The wire value the block holds (JSON and TOON), made from the value itself when someone
    /// asks for it: a structured action, a page, the testing view (feature `testing`).
    pub(crate) value: Option<serde_json::Value>,
    /// The handler's text before wire format §5.3, when it differs from the block (the testing
    /// view shows it).
    #[cfg(feature = "testing")]
    pub(crate) original: Option<String>,
}

impl DataBlock {
    fn new(text: String, format: Format, value: Option<serde_json::Value>) -> Self {
        DataBlock {
            text,
            format,
            value,
            #[cfg(feature = "testing")]
            original: None,
        }
    }
}

/// The wire value of a data block for the testing view: made from `wire` in a build with the
/// feature `testing`, and never otherwise.
#[cfg(feature = "testing")]
fn view_value<W: Serialize + ?Sized>(wire: &W) -> Result<Option<serde_json::Value>, EncodeError> {
    json::to_value(wire).map(Some)
}

#[cfg(not(feature = "testing"))]
#[expect(
    clippy::unnecessary_wraps,
    reason = "the same signature as with the feature `testing`"
)]
fn view_value<W: Serialize + ?Sized>(_: &W) -> Result<Option<serde_json::Value>, EncodeError> {
    Ok(None)
}

/// Composes a successful response: one data block, then UI, embed, hint, rule and suggestion
/// blocks in the fixed order of wire format §2.2, whatever order they were added in.
#[derive(Debug, Clone)]
#[must_use = "a builder does nothing until `build` is called"]
pub struct ResponseBuilder {
    data: DataBlock,
    structured: Option<serde_json::Value>,
    ui: Vec<UiBlock>,
    embeds: Vec<EmbedBlock>,
    hints: Vec<String>,
    rules: Rules,
    suggestions: Suggestions,
    /// The model a presenter wrote the data block of (see [`ToolResponse`]'s `presented`).
    presented: Option<Presented>,
}

impl ResponseBuilder {
    fn with_data(data: DataBlock) -> Self {
        ResponseBuilder {
            data,
            structured: None,
            ui: Vec::new(),
            embeds: Vec::new(),
            hints: Vec::new(),
            rules: Rules::default(),
            suggestions: Suggestions::default(),
            presented: None,
        }
    }

    /// Records that a presenter of `model` wrote the data block.
    pub(crate) fn set_presented(&mut self, presented: Presented) {
        self.presented = Some(presented);
    }

    /// Takes the wire value the data block holds, if it was made (see
    /// [`ResponseBuilder::set_value`]).
    pub(crate) fn take_value(&mut self) -> Option<serde_json::Value> {
        self.data.value.take()
    }

    /// Whether the wire value of the data block is made.
    #[cfg(feature = "tool")]
    pub(crate) fn has_value(&self) -> bool {
        self.data.value.is_some()
    }

    /// Records the wire value of the data block, made from the value the block was written
    /// from ([`json::to_value`]).
    pub(crate) fn set_value(&mut self, value: serde_json::Value) {
        self.data.value = Some(value);
    }

    /// The same blocks with the data block of `other` (a paged envelope, for one).
    pub(crate) fn replace_data(mut self, other: ResponseBuilder) -> Self {
        self.data = other.data;
        self
    }

    /// The data block's text, as written.
    pub(crate) fn data_text(&self) -> &str {
        &self.data.text
    }

    /// A data block written elsewhere in `format` (a page's envelope, wire format §6.11); its
    /// wire value, when asked for, is set with [`ResponseBuilder::set_value`].
    pub(crate) fn written(text: String, format: Format) -> Self {
        let format = match format {
            Format::Toon => Format::Toon,
            Format::Json | Format::CompactJson | Format::Text => Format::Json,
        };
        Self::with_data(DataBlock::new(text, format, None))
    }

    /// A text data block: the text after wire format §5.3, `OK` when empty.
    ///
    /// ```
    /// use fusion_runtime::ResponseBuilder;
    /// assert_eq!(ResponseBuilder::text("").build().blocks(), ["OK"]);
    /// assert_eq!(ResponseBuilder::text("a < b, </domain_rules>").build().blocks(), ["a < b, &lt;/domain_rules>"]);
    /// ```
    pub fn text(text: impl Into<String>) -> Self {
        let mut text = text.into();
        if text.is_empty() {
            text.push_str("OK");
        }
        let wire = escape::neutralize(&text).into_owned();
        #[cfg_attr(
            not(feature = "testing"),
            expect(unused_mut, reason = "only the view keeps the original")
        )]
        let mut data = DataBlock::new(wire, Format::Text, None);
        #[cfg(feature = "testing")]
        {
            data.original = (text != data.text).then_some(text);
        }
        Self::with_data(data)
    }

    /// A JSON data block (wire format §3) of any serializable value.
    ///
    /// ```
    /// use fusion_runtime::ResponseBuilder;
    /// let response = ResponseBuilder::json(&[1.5, 2.0]).unwrap().hint("Amounts are in EUR.").build();
    /// assert_eq!(response.blocks(), ["[\n  1.5,\n  2\n]", "<llm_directives>\n- Amounts are in EUR.\n</llm_directives>"]);
    /// ```
    pub fn json<T: Serialize + ?Sized>(value: &T) -> Result<Self, EncodeError> {
        let text = json::to_string(value)?;
        Ok(Self::with_data(DataBlock::new(
            text,
            Format::Json,
            view_value(value)?,
        )))
    }

    /// A JSON data block from text this crate's JSON writer produced (the presentation sets
    /// its wire value when one is asked for).
    pub(crate) fn json_text(text: String) -> Self {
        Self::with_data(DataBlock::new(text, Format::Json, None))
    }

    /// A JSON data block of a presented collection: `text`, written from the wire value `wire`
    /// elsewhere (fitting a collection to a budget writes it item by item), which is made
    /// into the block's value when `keep_value` says someone asks for it.
    #[cfg(feature = "budget")]
    pub(crate) fn presented_json_text<W: Serialize + ?Sized>(
        text: String,
        wire: &W,
        keep_value: bool,
    ) -> Result<Self, EncodeError> {
        let value = if keep_value {
            Some(json::to_value(wire)?)
        } else {
            None
        };
        Ok(Self::with_data(DataBlock::new(text, Format::Json, value)))
    }

    /// A structured response's builder (wire format §11.1): JSON data block plus `structuredContent`,
    /// the same JSON value; refused unless the value serializes to a JSON object.
    ///
    /// ```
    /// use fusion_runtime::ResponseBuilder;
    /// let response = ResponseBuilder::structured(&serde_json::json!({"count": 3}))
    ///     .unwrap()
    ///     .hint("Counts include voided invoices.")
    ///     .build();
    /// assert_eq!(response.blocks().len(), 2);
    /// assert_eq!(response.structured_content(), Some(&serde_json::json!({"count": 3})));
    /// ```
    pub fn structured<T: Serialize + ?Sized>(value: &T) -> Result<Self, StructuredError> {
        // structuredContent is a JSON value; the block is written from `value` itself, so its
        // members keep their declaration order whether or not `serde_json`'s `preserve_order` is
        // on in the user's build (a `serde_json::Map` sorts its keys without it).
        //
        // The value is serde_json's own (`to_value`), as it always was: its numbers are the
        // value's, so `structuredContent` keeps a float's `.0` (`100.0`) where the block writes
        // ECMAScript's `100`.
        let tree = serde_json::to_value(value)
            .map_err(|e| StructuredError::Json(EncodeError::from_serde(e)))?;
        if !tree.is_object() {
            return Err(StructuredError::NotAnObject {
                found: json_kind(&tree),
            });
        }
        let text = json::to_string(value).map_err(StructuredError::Json)?;
        let view = view_value(value).map_err(StructuredError::Json)?;
        let mut builder = Self::with_data(DataBlock::new(text, Format::Json, view));
        builder.structured = Some(tree);
        Ok(builder)
    }

    /// A TOON data block of a collection of models, by the compile-time path; what
    /// [`toon::success_table`](crate::toon::success_table) builds.
    pub fn toon_table<T: Model>(items: &[T]) -> Result<Self, EncodeError> {
        let mut builder = toon_presented_all(items, Members::Every)?;
        builder.data.value = view_value(&Rows {
            items,
            members: Members::Every,
        })?;
        Ok(builder)
    }

    /// A TOON data block (wire format §9.1) of any serializable value, to add UI, rules or suggestions
    /// to; [`toon::success`](crate::toon::success) is this plus `build`.
    pub fn toon<T: Serialize + ?Sized>(value: &T) -> Result<Self, ToonError> {
        let tree = toon::value::to_tree(value)?;
        let mut text = toon::encode::encode_tree(&tree, &ToonOptions::pipe());
        if text.is_empty() {
            text.push_str("OK");
        }
        // The encoded tree is the value (the one a structured action's TOON answer offers).
        Ok(Self::with_data(DataBlock::new(
            text,
            Format::Toon,
            Some(tree.into_json()),
        )))
    }

    /// Appends a UI entry.
    pub fn ui(mut self, block: UiBlock) -> Self {
        self.ui.push(block);
        self
    }

    /// Appends a hint (`<llm_directives>`).
    pub fn hint(mut self, hint: impl Into<String>) -> Self {
        self.hints.push(hint.into());
        self
    }

    /// Appends a rule; a rule already in the list is dropped.
    pub fn rule(mut self, rule: impl Into<Cow<'static, str>>) -> Self {
        self.rules.push(rule.into());
        self
    }

    /// Appends a suggestion; a pair already in the list is dropped.
    pub fn suggest(
        mut self,
        tool: impl Into<Cow<'static, str>>,
        reason: impl Into<Cow<'static, str>>,
    ) -> Self {
        self.suggestions.push(Suggestion::new(tool, reason));
        self
    }

    /// Appends a suggestion value; a pair already in the list is dropped.
    pub fn suggestion(mut self, suggestion: Suggestion) -> Self {
        self.suggestions.push(suggestion);
        self
    }

    /// Mutable access to the parts, for the presentation engine.
    pub(crate) fn parts_mut(
        &mut self,
    ) -> (
        &mut Vec<UiBlock>,
        &mut Vec<EmbedBlock>,
        &mut Rules,
        &mut Suggestions,
    ) {
        (
            &mut self.ui,
            &mut self.embeds,
            &mut self.rules,
            &mut self.suggestions,
        )
    }

    /// The estimated tokens of the data block (wire format §17.2).
    #[cfg(feature = "budget")]
    pub(crate) fn data_tokens(&self) -> usize {
        tokens::estimate(&self.data.text)
    }

    /// The estimated tokens of every block but the data block, as [`ResponseBuilder::build`]
    /// writes them (wire format §17.2): what a budget leaves for the data.
    #[cfg(feature = "budget")]
    pub(crate) fn other_tokens(&self) -> usize {
        blocks_tokens(
            &self.ui,
            &self.embeds,
            &self.hints,
            &self.rules,
            &self.suggestions,
        )
    }

    /// The tokens of every block as [`ResponseBuilder::build`] writes them, by the exact
    /// `o200k_base` count (a budget kept exactly, `Presentation::exact_tokens`).
    #[cfg(feature = "exact-tokens")]
    pub(crate) fn exact_tokens(&self, exact: &tokens::ExactCounter) -> usize {
        use tokens::TokenCounter;
        let count = |text: &str| exact.count(text);
        count(&self.data.text)
            + blocks_counted(
                &self.ui,
                &self.embeds,
                &self.hints,
                &self.rules,
                &self.suggestions,
                &count,
            )
    }

    /// Writes every block, in the order of wire format §2.2, and returns the response.
    pub fn build(self) -> ToolResponse {
        let ResponseBuilder {
            data,
            structured,
            ui,
            embeds,
            hints,
            rules,
            suggestions,
            presented,
        } = self;
        let mut blocks = Vec::with_capacity(1 + ui.len() + embeds.len() + 3);
        blocks.push(data.text);
        blocks.extend(ui.iter().map(UiBlock::render));
        // The view takes the lists as they are; embeds add to them (no copies of texts).
        #[cfg(feature = "testing")]
        let (mut view_ui, mut view_rules, mut view_suggestions) = (
            ui,
            Vec::<Cow<'static, str>>::new(),
            Vec::<Suggestion>::new(),
        );
        for embed in embeds {
            #[cfg(feature = "testing")]
            match embed.kind {
                EmbedKind::Ui(block) => view_ui.push(block),
                EmbedKind::Rules(list) => view_rules.extend(list),
                EmbedKind::Suggestions(list) => view_suggestions.extend(list),
            }
            blocks.push(embed.text);
        }
        if !hints.is_empty() {
            blocks.push(list_block("llm_directives", &hints));
        }
        // The view holds what the blocks write: grouped lines as grouped (wire format §6.10, §14.2).
        let (rules, suggestions) = (rules.into_vec(), suggestions.into_vec());
        if !rules.is_empty() {
            blocks.push(list_block("domain_rules", &rules));
        }
        if !suggestions.is_empty() {
            blocks.push(suggestions_block(&suggestions));
        }
        let mut response = ToolResponse::of_blocks(blocks, data.format);
        response.structured_content = structured;
        response.value = data.value;
        response.presented = presented;
        #[cfg(feature = "testing")]
        {
            response.view = ViewParts {
                original: data.original,
                ui: view_ui,
                hints,
                rules: append(view_rules, rules),
                owned_rules: std::sync::OnceLock::new(),
                suggestions: append(view_suggestions, suggestions),
            };
        }
        response
    }
}

impl From<ResponseBuilder> for ToolResponse {
    fn from(builder: ResponseBuilder) -> Self {
        builder.build()
    }
}

/// The estimated tokens of the blocks a response writes besides its data block (wire format
/// §17.2), from their parts.
#[cfg(feature = "budget")]
pub(crate) fn blocks_tokens(
    ui: &[UiBlock],
    embeds: &[EmbedBlock],
    hints: &[String],
    rules: &Rules,
    suggestions: &Suggestions,
) -> usize {
    blocks_counted(ui, embeds, hints, rules, suggestions, &tokens::estimate)
}

/// The blocks besides the data block, each as [`ResponseBuilder::build`] writes it, counted by
/// `count`.
#[cfg(feature = "budget")]
fn blocks_counted(
    ui: &[UiBlock],
    embeds: &[EmbedBlock],
    hints: &[String],
    rules: &Rules,
    suggestions: &Suggestions,
    count: &dyn Fn(&str) -> usize,
) -> usize {
    let ui: usize = ui.iter().map(|b| count(&b.render())).sum();
    let embeds: usize = embeds.iter().map(|b| count(b.text())).sum();
    let hints = if hints.is_empty() {
        0
    } else {
        count(&list_block("llm_directives", hints))
    };
    let rules = if rules.is_empty() {
        0
    } else {
        count(&list_block("domain_rules", rules.written().iter()))
    };
    let suggestions = if suggestions.is_empty() {
        0
    } else {
        count(&suggestions_block(&suggestions.written()))
    };
    ui + embeds + hints + rules + suggestions
}

/// `first` then `then`, reusing `then` when `first` is empty.
#[cfg(feature = "testing")]
fn append<T>(mut first: Vec<T>, then: Vec<T>) -> Vec<T> {
    if first.is_empty() {
        return then;
    }
    first.extend(then);
    first
}

/// The TOON data block of a presented single value (wire format §9.1 with a presenter's wire value):
/// the generic encoding with the pipe delimiter, `OK` when empty (every member deselected).
pub(crate) fn toon_presented_one<T: Model>(
    item: &T,
    members: Members<'_>,
) -> Result<ResponseBuilder, EncodeError> {
    let wire = Row { item, members };
    let mut text = toon::encode(&wire, &ToonOptions::pipe()).map_err(EncodeError::from)?;
    if text.is_empty() {
        text.push_str("OK");
    }
    Ok(ResponseBuilder::with_data(DataBlock::new(
        text,
        Format::Toon,
        None,
    )))
}

/// The TOON data block of a presented collection: the compile-time path ([`toon::encode_table`](crate::toon::encode_table)),
/// which falls back on the generic encoder for rows that are no table.
pub(crate) fn toon_presented_all<T: Model>(
    items: &[T],
    members: Members<'_>,
) -> Result<ResponseBuilder, EncodeError> {
    let text = toon::table::encode_rows(items, members, &ToonOptions::pipe())
        .map_err(EncodeError::from)?;
    Ok(ResponseBuilder::with_data(DataBlock::new(
        text,
        Format::Toon,
        None,
    )))
}

/// The TOON data block `text` of a presented collection whose wire value is `wire`, written
/// elsewhere (fitting a collection to a budget writes the table row by row); the value is made
/// when `keep_value` says someone asks for it.
#[cfg(feature = "budget")]
pub(crate) fn toon_presented_text<W: Serialize + ?Sized>(
    text: String,
    wire: &W,
    keep_value: bool,
) -> Result<ResponseBuilder, EncodeError> {
    let value = if keep_value {
        Some(json::to_value(wire)?)
    } else {
        None
    };
    Ok(ResponseBuilder::with_data(DataBlock::new(
        text,
        Format::Toon,
        value,
    )))
}

/// How wire format §11.1 names a JSON value that is not an object.
fn json_kind(value: &serde_json::Value) -> &'static str {
    match value {
        serde_json::Value::Null => "null",
        serde_json::Value::Bool(_) => "a boolean",
        serde_json::Value::Number(_) => "a number",
        serde_json::Value::String(_) => "a string",
        serde_json::Value::Array(_) => "an array",
        serde_json::Value::Object(_) => "an object",
    }
}

/// Why a structured response (wire format §11.1) was refused. Nothing is sent for it; a handler that
/// lets it escape ends the call with `INTERNAL_ERROR` (wire format §13.7).
#[derive(Debug)]
#[non_exhaustive]
pub enum StructuredError {
    /// The value's JSON form is not an object.
    NotAnObject {
        /// What it is instead: `an array`, `a string`, `a number`, `a boolean` or `null`.
        found: &'static str,
    },
    /// The value cannot be written as JSON at all.
    Json(EncodeError),
}

impl fmt::Display for StructuredError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StructuredError::NotAnObject { found } => write!(
                f,
                "structured content must be a JSON object, but the value is {found}; return a \
                 struct or a map (put a list in a named field, e.g. `{{\"items\": [...]}}`), or \
                 use `success` for a JSON data block without structured content"
            ),
            StructuredError::Json(error) => {
                write!(f, "the structured content cannot be built: {error}")
            }
        }
    }
}

impl StdError for StructuredError {
    fn source(&self) -> Option<&(dyn StdError + 'static)> {
        match self {
            StructuredError::NotAnObject { .. } => None,
            StructuredError::Json(error) => Some(error),
        }
    }
}
