//! The list blocks of wire format §2.3 and the blocks an embedded child contributes (wire format §6.8).

use std::borrow::Cow;

use super::lists::Suggestion;
use super::ui::UiBlock;
use crate::encode::escape;

/// One block that an embedded child contributed (wire format §6.8), rendered, with what it was made of.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EmbedBlock {
    pub(super) text: String,
    pub(super) kind: EmbedKind,
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

    /// A block whose text is already written (it must be what [`EmbedBlock::new`] writes for
    /// `kind`).
    pub(crate) fn rendered(text: String, kind: EmbedKind) -> Self {
        EmbedBlock { text, kind }
    }

    /// The block text.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// Whether this is a `<ui_passthrough>` block.
    pub fn is_ui(&self) -> bool {
        matches!(self.kind, EmbedKind::Ui(_))
    }
}

/// A list block (wire format §2.3): `<NAME>\n- item\n- item\n</NAME>`.
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

/// The `<domain_rules>` block of `rules` (wire format §2.3), as an answer writes it.
#[cfg(feature = "tool")]
pub(crate) fn rules_block(rules: &[&str]) -> String {
    list_block("domain_rules", rules.iter().copied())
}

/// The list block of suggestions, each item `tool: reason`.
pub(crate) fn suggestions_block(suggestions: &[Suggestion]) -> String {
    const NAME: &str = "action_suggestions";
    let bodies: usize = suggestions
        .iter()
        .map(|s| s.tool.len() + s.reason.len() + 5)
        .sum();
    let mut out = open_list(NAME, bodies);
    // One body buffer for all items, sized for the longest: wire format §5.3 reads the whole
    // body (a tag start at the end of the tool is no tag start when `:` follows), so the body
    // is joined before it is escaped.
    let longest = suggestions
        .iter()
        .map(|s| s.tool.len() + s.reason.len() + 2)
        .max()
        .unwrap_or(0);
    let mut body = String::with_capacity(longest);
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
