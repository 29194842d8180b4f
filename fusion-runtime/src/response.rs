//! The tool response (SPEC §1) and the builder that composes its blocks in the fixed order of
//! SPEC §2.
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
use std::collections::HashMap;
use std::collections::hash_map::Entry;
use std::fmt::Write as _;
use std::hash::{BuildHasher, BuildHasherDefault, Hash, Hasher, RandomState};
use std::sync::OnceLock;

use serde::Serialize;
use serde::ser::{SerializeMap, SerializeSeq, SerializeStruct};

use crate::content::Content;
use crate::escape;
use crate::json::{self, JsonError};
use crate::ui::UiBlock;
use crate::view::{TestingView, ViewData, ViewParts};

/// A suggested next action: the tool to call and why (SPEC §6.5).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Suggestion {
    /// The tool (or `tool.action`) to call next.
    pub tool: Cow<'static, str>,
    /// Why the model should call it.
    pub reason: Cow<'static, str>,
}

impl Suggestion {
    /// A suggestion of `tool` for `reason`.
    pub fn new(tool: impl Into<Cow<'static, str>>, reason: impl Into<Cow<'static, str>>) -> Self {
        Suggestion {
            tool: tool.into(),
            reason: reason.into(),
        }
    }

    /// The item body `tool: reason` before escaping.
    pub fn body(&self) -> String {
        format!("{}: {}", self.tool, self.reason)
    }
}

/// A list that drops entries equal to one already in it (SPEC §6.4, §6.5), in insertion order.
#[derive(Debug, Clone)]
pub struct DedupList<T> {
    items: Vec<T>,
    index: DedupIndex,
}

impl<T> Default for DedupList<T> {
    fn default() -> Self {
        DedupList {
            items: Vec::new(),
            index: DedupIndex::default(),
        }
    }
}

impl<T: Eq + Hash> DedupList<T> {
    /// Appends `item` unless an equal one is already in the list; returns whether it was added.
    pub fn push(&mut self, item: T) -> bool {
        if !self.index.admit(&self.items, &item, |entry| entry) {
            return false;
        }
        self.items.push(item);
        true
    }
}

impl DedupList<Cow<'static, str>> {
    /// Appends the text of `args` unless an equal text is already in the list; returns whether
    /// it was added.
    ///
    /// The text is written into a reused buffer first, so a repeated rule allocates nothing
    /// (`#[derive(Presenter)]` pushes its rule templates this way).
    pub fn push_fmt(&mut self, args: std::fmt::Arguments<'_>) -> bool {
        if let Some(text) = args.as_str() {
            return self.push(Cow::Borrowed(text));
        }
        RULE_SCRATCH.with(|scratch| {
            // A `Display` impl that itself pushes a formatted rule finds the buffer taken.
            let Ok(mut text) = scratch.try_borrow_mut() else {
                let mut owned = String::new();
                let _ = owned.write_fmt(args);
                return self.push(Cow::Owned(owned));
            };
            text.clear();
            // A `Display` impl that fails leaves the text it wrote (`format!` would panic).
            let _ = text.write_fmt(args);
            if !self.index.admit(&self.items, text.as_str(), AsRef::as_ref) {
                return false;
            }
            self.items.push(Cow::Owned(text.as_str().to_owned()));
            true
        })
    }
}

thread_local! {
    /// The buffer [`DedupList::push_fmt`] formats into.
    static RULE_SCRATCH: std::cell::RefCell<String> = const { std::cell::RefCell::new(String::new()) };
}

impl<T> DedupList<T> {
    /// The entries, in insertion order.
    pub fn as_slice(&self) -> &[T] {
        &self.items
    }

    /// Whether the list is empty.
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    /// The entries, in insertion order.
    pub fn into_vec(self) -> Vec<T> {
        self.items
    }
}

/// Past this many entries a hash index answers "seen?" instead of a linear scan.
const DEDUP_SCAN_LIMIT: usize = 16;

/// Answers "is an entry with this key already in the list?" for a list that only grows: a scan
/// while the list is short, then an index from key hashes to positions, so no key is cloned.
#[derive(Debug, Clone, Default)]
pub(crate) struct DedupIndex {
    index: Option<HashIndex>,
}

impl DedupIndex {
    /// Whether no entry of `items` has the key `key`. When it returns `true` the caller must push
    /// an entry with that key (at `items.len()`); entries are never removed or changed.
    pub(crate) fn admit<T, Q: Eq + Hash + ?Sized>(
        &mut self,
        items: &[T],
        key: &Q,
        key_of: impl Fn(&T) -> &Q,
    ) -> bool {
        if let Some(index) = &mut self.index {
            return index.admit(items, key, &key_of);
        }
        if items.iter().any(|entry| key_of(entry) == key) {
            return false;
        }
        if items.len() >= DEDUP_SCAN_LIMIT {
            let mut index = HashIndex::default();
            for (at, entry) in items.iter().enumerate() {
                index.record(key_of(entry), at);
            }
            index.record(key, items.len());
            self.index = Some(index);
        }
        true
    }
}

/// Positions of a list's entries by the (keyed, `SipHash`) hash of their key.
#[derive(Debug, Clone, Default)]
struct HashIndex {
    state: RandomState,
    positions: HashMap<u64, usize, BuildHasherDefault<Prehashed>>,
}

impl HashIndex {
    fn record<Q: Hash + ?Sized>(&mut self, key: &Q, at: usize) {
        let hash = self.state.hash_one(key);
        self.positions.entry(hash).or_insert(at);
    }

    fn admit<T, Q: Eq + Hash + ?Sized>(
        &mut self,
        items: &[T],
        key: &Q,
        key_of: &impl Fn(&T) -> &Q,
    ) -> bool {
        let hash = self.state.hash_one(key);
        match self.positions.entry(hash) {
            Entry::Vacant(slot) => {
                slot.insert(items.len());
                true
            }
            Entry::Occupied(slot) => {
                if items
                    .get(*slot.get())
                    .is_some_and(|entry| key_of(entry) == key)
                {
                    return false;
                }
                // Two keys with one 64-bit hash: the exact answer by a scan (never in practice).
                !items.iter().any(|entry| key_of(entry) == key)
            }
        }
    }
}

/// The hasher of keys that already are keyed hashes: it passes them through.
#[derive(Debug, Clone, Copy, Default)]
struct Prehashed(u64);

impl Hasher for Prehashed {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        // Only `u64` keys are hashed with it; fold anything else in rather than panic.
        for &byte in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(byte);
        }
    }

    fn write_u64(&mut self, value: u64) {
        self.0 = value;
    }
}

/// The list of rules of a response.
pub type Rules = DedupList<Cow<'static, str>>;
/// The list of suggestions of a response.
pub type Suggestions = DedupList<Suggestion>;

/// One block that an embedded child contributed (SPEC §6.8), rendered, with what it was made of.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EmbedBlock {
    text: String,
    kind: EmbedKind,
}

/// What an embed block was made of, for the testing view.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EmbedKind {
    /// A `<ui_passthrough>` block.
    Ui(UiBlock),
    /// A `<domain_rules>` block.
    Rules(Vec<Cow<'static, str>>),
    /// An `<action_suggestions>` block.
    Suggestions(Vec<Suggestion>),
}

impl EmbedBlock {
    /// Renders `kind` into its block text.
    pub fn new(kind: EmbedKind) -> Self {
        let text = match &kind {
            EmbedKind::Ui(block) => block.render(),
            EmbedKind::Rules(rules) => list_block("domain_rules", rules.iter().map(|r| &**r)),
            EmbedKind::Suggestions(suggestions) => suggestions_block(suggestions),
        };
        EmbedBlock { text, kind }
    }

    /// The block text.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// What the block was made of.
    pub fn kind(&self) -> &EmbedKind {
        &self.kind
    }

    /// Whether this is a `<ui_passthrough>` block.
    pub fn is_ui(&self) -> bool {
        matches!(self.kind, EmbedKind::Ui(_))
    }
}

/// A list block (SPEC §2.3): `<NAME>\n- item\n- item\n</NAME>`.
pub(crate) fn list_block<I, S>(name: &str, items: I) -> String
where
    I: IntoIterator<Item = S> + Clone,
    S: AsRef<str>,
{
    // Sized up front: escaping rarely lengthens an item, so the block is written in one piece.
    let bodies: usize = items
        .clone()
        .into_iter()
        .map(|i| i.as_ref().len() + 3)
        .sum();
    let mut out = open_list(name, bodies);
    for (i, item) in items.into_iter().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        escape::push_item(&mut out, item.as_ref());
    }
    close_list(out, name)
}

/// The list block of suggestions, each item `tool: reason`.
pub(crate) fn suggestions_block(suggestions: &[Suggestion]) -> String {
    const NAME: &str = "action_suggestions";
    let bodies: usize = suggestions
        .iter()
        .map(|s| s.tool.len() + s.reason.len() + 5)
        .sum();
    let mut out = open_list(NAME, bodies);
    // One body buffer for all items: SPEC §5.3 reads the whole body (a tag start at the end of
    // the tool is no tag start when `:` follows), so the body is joined before it is escaped.
    let mut body = String::new();
    for (i, suggestion) in suggestions.iter().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        body.clear();
        body.push_str(&suggestion.tool);
        body.push_str(": ");
        body.push_str(&suggestion.reason);
        escape::push_item(&mut out, &body);
    }
    close_list(out, NAME)
}

fn open_list(name: &str, bodies: usize) -> String {
    let mut out = String::with_capacity(2 * name.len() + 6 + bodies);
    out.push('<');
    out.push_str(name);
    out.push_str(">\n");
    out
}

fn close_list(mut out: String, name: &str) -> String {
    out.push_str("\n</");
    out.push_str(name);
    out.push('>');
    out
}

/// The data block of a response, already written, and what the testing view shows of it.
#[derive(Debug, Clone)]
pub(crate) struct DataBlock {
    pub(crate) text: String,
    pub(crate) view: ViewData,
}

/// Composes a successful response: one data block, then UI, embed, hint, rule and suggestion
/// blocks in the fixed order of SPEC §2.2, whatever order they were added in.
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
        }
    }

    /// A text data block: the text after SPEC §5.3, `OK` when empty.
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
        Self::with_data(DataBlock {
            view: ViewData::text(text, &wire),
            text: wire,
        })
    }

    /// A JSON data block (SPEC §3) of any serializable value.
    ///
    /// ```
    /// use fusion_runtime::ResponseBuilder;
    /// let response = ResponseBuilder::json(&[1.5, 2.0]).unwrap().hint("Amounts are in EUR.").build();
    /// assert_eq!(response.blocks(), ["[\n  1.5,\n  2\n]", "<llm_directives>\n- Amounts are in EUR.\n</llm_directives>"]);
    /// ```
    pub fn json<T: Serialize + ?Sized>(value: &T) -> Result<Self, JsonError> {
        let text = json::to_string(value)?;
        Ok(Self::json_text(text))
    }

    /// A JSON data block from text this crate's JSON writer produced.
    pub(crate) fn json_text(text: String) -> Self {
        Self::with_data(DataBlock {
            text,
            view: ViewData::json(),
        })
    }

    /// A data block of any kind, already written.
    pub(crate) fn from_data(text: String, view: ViewData) -> Self {
        Self::with_data(DataBlock { text, view })
    }

    /// Attaches `structuredContent` (SPEC §11); the caller checked it is an object.
    pub(crate) fn set_structured(&mut self, value: serde_json::Value) {
        self.structured = Some(value);
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

    /// Writes every block, in the order of SPEC §2.2, and returns the response.
    pub fn build(self) -> ToolResponse {
        let ResponseBuilder {
            data,
            structured,
            ui,
            embeds,
            hints,
            rules,
            suggestions,
        } = self;
        let mut blocks = Vec::with_capacity(1 + ui.len() + embeds.len() + 3);
        blocks.push(data.text);
        blocks.extend(ui.iter().map(UiBlock::render));
        // The view takes the lists as they are; embeds add to them (no copies of texts).
        let mut view_ui = ui;
        let mut view_rules: Vec<Cow<'static, str>> = Vec::new();
        let mut view_suggestions: Vec<Suggestion> = Vec::new();
        for embed in embeds {
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
        if !rules.is_empty() {
            blocks.push(list_block("domain_rules", rules.as_slice()));
        }
        if !suggestions.is_empty() {
            blocks.push(suggestions_block(suggestions.as_slice()));
        }
        let view_rules = append(view_rules, rules.into_vec());
        let view_suggestions = append(view_suggestions, suggestions.into_vec());
        ToolResponse {
            blocks,
            structured_content: structured,
            is_error: None,
            view_data: data.view,
            contents: Vec::new(),
            view_parts: ViewParts {
                ui: view_ui,
                hints,
                rules: view_rules,
                owned_rules: OnceLock::new(),
                suggestions: view_suggestions,
            },
        }
    }
}

/// `first` then `then`, reusing `then` when `first` is empty.
fn append<T>(mut first: Vec<T>, then: Vec<T>) -> Vec<T> {
    if first.is_empty() {
        return then;
    }
    first.extend(then);
    first
}

/// One MCP tool result: ordered text blocks, optional `structuredContent`, the three-state
/// `isError`, and a testing view that is never serialized (SPEC §1, §14); optionally image,
/// audio and resource content after the text blocks ([`crate::content`]).
///
/// It serializes exactly as an MCP `CallToolResult`: members `content`, `structuredContent` (only
/// when present) and `isError` (only when set), each block `{"type":"text","text":...}`, then
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
    pub(crate) view_data: ViewData,
    pub(crate) view_parts: ViewParts,
}

impl ToolResponse {
    /// An error response of one block (SPEC §1.3).
    pub(crate) fn error_block(text: String, is_error: bool) -> Self {
        ToolResponse {
            blocks: vec![text],
            structured_content: None,
            is_error: Some(is_error),
            contents: Vec::new(),
            view_data: ViewData::Text(None),
            view_parts: ViewParts::default(),
        }
    }

    /// The block texts, in wire order.
    pub fn blocks(&self) -> &[String] {
        &self.blocks
    }

    /// The block texts joined by LF (what SPEC §5.10's properties read).
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

    /// The typed testing view (SPEC §14).
    pub fn view(&self) -> TestingView<'_> {
        TestingView { response: self }
    }

    /// The `CallToolResult` as compact JSON.
    pub fn to_json(&self) -> String {
        // A CallToolResult holds only strings, booleans and a JSON object: it always serializes.
        serde_json::to_string(self).unwrap_or_default()
    }
}

impl From<ResponseBuilder> for ToolResponse {
    fn from(builder: ResponseBuilder) -> Self {
        builder.build()
    }
}

impl std::fmt::Debug for ToolResponse {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Shows exactly the wire: the view holds nothing the blocks do not.
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
            + usize::from(self.is_error.is_some());
        let mut result = serializer.serialize_struct("CallToolResult", len)?;
        result.serialize_field("content", &Blocks(&self.blocks, &self.contents))?;
        if let Some(structured) = &self.structured_content {
            result.serialize_field("structuredContent", structured)?;
        }
        if let Some(is_error) = self.is_error {
            result.serialize_field("isError", &is_error)?;
        }
        result.end()
    }
}

#[cfg(test)]
mod tests {
    use std::borrow::Cow;

    use super::{DEDUP_SCAN_LIMIT, DedupList};

    #[test]
    fn dedup_list_drops_repeats_before_and_after_the_index() {
        let mut list: DedupList<Cow<'static, str>> = DedupList::default();
        for round in 0..3 {
            for i in 0..(3 * DEDUP_SCAN_LIMIT) {
                // Owned and borrowed texts compare equal; only the first of each is kept.
                let text = format!("rule {i}");
                let added = if i % 2 == 0 {
                    list.push(Cow::Owned(text))
                } else {
                    list.push(Cow::Borrowed(Box::leak(text.into_boxed_str())))
                };
                assert_eq!(added, round == 0, "round {round}, rule {i}");
            }
        }
        let expected: Vec<String> = (0..3 * DEDUP_SCAN_LIMIT)
            .map(|i| format!("rule {i}"))
            .collect();
        assert_eq!(list.as_slice(), expected.as_slice());
    }

    #[test]
    fn push_fmt_dedups_like_push() {
        let mut list: DedupList<Cow<'static, str>> = DedupList::default();
        for round in 0..2 {
            for i in 0..(2 * DEDUP_SCAN_LIMIT) {
                let added = if round == 0 {
                    list.push_fmt(format_args!("Invoice {i} is overdue."))
                } else {
                    list.push(Cow::Owned(format!("Invoice {i} is overdue.")))
                };
                assert_eq!(added, round == 0, "round {round}, rule {i}");
                assert!(!list.push_fmt(format_args!("Invoice {i} is overdue.")));
            }
        }
        assert!(list.push_fmt(format_args!("static text")));
        assert!(!list.push(Cow::Borrowed("static text")));
        assert_eq!(list.as_slice().len(), 2 * DEDUP_SCAN_LIMIT + 1);
        assert_eq!(list.as_slice()[3], "Invoice 3 is overdue.");
    }

    #[test]
    fn dedup_list_keeps_insertion_order_across_the_switch() {
        let mut list = DedupList::default();
        for i in (0..40).rev().chain(0..40) {
            list.push(i % 25);
        }
        let expected: Vec<i32> = (0..15).rev().chain((15..25).rev()).collect();
        assert_eq!(list.into_vec(), expected);
    }
}
