//! The lists of a response that drop repeats (wire format §6.4, §6.5): rules and suggestions,
//! and the grouping of one item declaration's entries into one line (wire format §6.10).
//!
//! A list keeps one entry per item that pushed it, each tagged with its declaration's
//! [`ItemGroup`] and the item's label; the grouped lines are made when the list is written
//! ([`DedupList::written`]), so a list cut back to an earlier length (a budget's shorter prefix)
//! writes exactly what a list built for that prefix writes.

use std::borrow::Cow;
use std::fmt::Write as _;
use std::hash::Hash;

use super::dedup_index::DedupIndex;

/// A suggested next action: the tool to call and why (wire format §6.5).
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

/// A list that drops entries equal to one already in it (wire format §6.4, §6.5), in insertion order.
///
/// Entries pushed by an item declaration that groups (wire format §6.10) carry their group and
/// the item's label; [`DedupList::written`] gives the entries as the block writes them.
#[derive(Debug, Clone)]
pub struct DedupList<T> {
    items: Vec<T>,
    index: DedupIndex,
    /// The group and label of each entry; empty until a grouped entry is pushed, then as long
    /// as `items`.
    members: Vec<Option<Member>>,
}

impl<T> Default for DedupList<T> {
    fn default() -> Self {
        DedupList {
            items: Vec::new(),
            index: DedupIndex::default(),
            members: Vec::new(),
        }
    }
}

/// How the entries of one item declaration read when it fires for several items of a collection
/// (wire format §6.10): its `many = "..."` template, or the first entry followed by
/// `(likewise for ...)`.
///
/// `#[derive(Presenter)]` writes one `static` per grouping declaration; entries belong to one
/// group when they point at the same `ItemGroup`.
#[derive(Debug)]
pub struct ItemGroup {
    many: Option<&'static [ManyPiece]>,
}

/// One piece of a `many = "..."` template (wire format §6.10).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ManyPiece {
    /// Literal text.
    Text(&'static str),
    /// `{items}`: the list of the items' labels.
    Items,
    /// `{n}`: how many items the declaration fired for.
    Count,
}

impl ItemGroup {
    /// A group written as its first entry followed by ` (likewise for ...)`.
    pub const LIKEWISE: ItemGroup = ItemGroup { many: None };

    /// A group written with the template `pieces`.
    pub const fn many(pieces: &'static [ManyPiece]) -> Self {
        ItemGroup { many: Some(pieces) }
    }
}

/// The group and the label of one entry.
#[derive(Debug, Clone)]
struct Member {
    group: &'static ItemGroup,
    label: Box<str>,
}

/// What labels an item in a grouped line (wire format §6.10): every `Display` type.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot label the items of a grouped rule or suggestion",
    label = "the key field of this declaration is not `Display`",
    note = "name a field whose type is `Display` with `key = field`, or write `each` to keep one line per item"
)]
pub trait ItemKey {
    /// Writes the label.
    fn write_key(&self, out: &mut String);
}

impl<T: std::fmt::Display + ?Sized> ItemKey for T {
    fn write_key(&self, out: &mut String) {
        let _ = write!(out, "{self}");
    }
}

/// The longest label, in characters (wire format §6.10).
const LABEL_CHARS: usize = 40;
/// The most labels a grouped line lists (wire format §6.10).
const LABELS_LISTED: usize = 5;

/// The label of `key` (wire format §6.10): one line, at most [`LABEL_CHARS`] characters.
fn label(key: &dyn ItemKey) -> Box<str> {
    let mut text = String::new();
    key.write_key(&mut text);
    let long = text.chars().nth(LABEL_CHARS).is_some();
    let keep = if long { LABEL_CHARS - 1 } else { LABEL_CHARS };
    let mut out: String = text
        .chars()
        .take(keep)
        .map(|ch| {
            if matches!(ch, '\r' | '\n' | '\t') {
                ' '
            } else {
                ch
            }
        })
        .collect();
    if long {
        out.push('\u{2026}');
    }
    out.into_boxed_str()
}

/// LIST of wire format §6.10: `a`, `a and b`, `a, b and c`, ..., `a, b, c, d, e and 3 more`.
fn push_list(out: &mut String, labels: &[&str]) {
    let (shown, more) = if labels.len() > LABELS_LISTED {
        (&labels[..LABELS_LISTED], labels.len() - LABELS_LISTED)
    } else {
        (labels, 0)
    };
    for (at, label) in shown.iter().enumerate() {
        if at > 0 {
            let last = more == 0 && at + 1 == shown.len();
            out.push_str(if last { " and " } else { ", " });
        }
        out.push_str(label);
    }
    if more > 0 {
        let _ = write!(out, " and {more} more");
    }
}

/// The grouped body of wire format §6.10: `first` is the first entry's text.
fn grouped_body(group: &ItemGroup, first: &str, labels: &[&str]) -> String {
    let mut out = String::new();
    if let Some(pieces) = group.many {
        for piece in pieces {
            match piece {
                ManyPiece::Text(text) => out.push_str(text),
                ManyPiece::Items => push_list(&mut out, labels),
                ManyPiece::Count => {
                    let _ = write!(out, "{}", labels.len());
                }
            }
        }
    } else {
        out.push_str(first);
        out.push_str(" (likewise for ");
        push_list(&mut out, &labels[1..]);
        out.push(')');
    }
    out
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

impl DedupList<Cow<'static, str>> {
    /// [`DedupList::push_fmt`] for an item of a grouping declaration (wire format §6.10): the
    /// entry belongs to `group`, labelled by `key`.
    pub fn push_item_fmt(
        &mut self,
        group: &'static ItemGroup,
        key: &dyn ItemKey,
        args: std::fmt::Arguments<'_>,
    ) -> bool {
        let added = self.push_fmt(args);
        if added {
            self.mark_last(group, key);
        }
        added
    }

    /// The rules as the `<domain_rules>` block writes them: one line per grouped declaration
    /// (wire format §6.10).
    pub fn written(&self) -> Cow<'_, [Cow<'static, str>]> {
        self.written_by(|rule| rule, |_, _| true, |_, body| Cow::Owned(body))
    }

    /// [`DedupList::written`], owned.
    pub fn into_vec(self) -> Vec<Cow<'static, str>> {
        if self.members.iter().all(Option::is_none) {
            return self.items;
        }
        self.written().into_owned()
    }
}

impl DedupList<Suggestion> {
    /// [`DedupList::push`] for an item of a grouping declaration (wire format §6.10): the
    /// suggestion belongs to `group`, labelled by `key`.
    pub fn push_item(
        &mut self,
        group: &'static ItemGroup,
        key: &dyn ItemKey,
        suggestion: Suggestion,
    ) -> bool {
        let added = self.push(suggestion);
        if added {
            self.mark_last(group, key);
        }
        added
    }

    /// The suggestions as the `<action_suggestions>` block writes them: one per grouped
    /// declaration and tool (wire format §6.10), its reason grouped.
    pub fn written(&self) -> Cow<'_, [Suggestion]> {
        self.written_by(
            |suggestion| &suggestion.reason,
            |a, b| a.tool == b.tool,
            |first, reason| Suggestion::new(first.tool.clone(), reason),
        )
    }

    /// [`DedupList::written`], owned.
    pub fn into_vec(self) -> Vec<Suggestion> {
        if self.members.iter().all(Option::is_none) {
            return self.items;
        }
        self.written().into_owned()
    }
}

thread_local! {
    /// The buffer [`DedupList::push_fmt`] formats into.
    static RULE_SCRATCH: std::cell::RefCell<String> = const { std::cell::RefCell::new(String::new()) };
}

impl<T> DedupList<T> {
    /// Keeps the first `len` entries (all when there are fewer): the list as it was when it
    /// held `len`.
    pub(crate) fn truncate(&mut self, len: usize) {
        self.items.truncate(len);
        self.members.truncate(len);
        self.index.forget_from(len);
    }

    /// The entries, in insertion order, one per item that pushed it (not grouped; see
    /// [`DedupList::written`]).
    pub fn as_slice(&self) -> &[T] {
        &self.items
    }

    /// Whether the list is empty.
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    /// The entries from the `from`th on that no grouping declaration pushed (wire format
    /// §6.10): each is a line of its own, where a grouped entry mostly adds a name to its
    /// declaration's line.
    #[cfg(feature = "budget")]
    pub(crate) fn ungrouped_from(&self, from: usize) -> impl Iterator<Item = &T> {
        self.items
            .iter()
            .enumerate()
            .skip(from)
            .filter(|(at, _)| self.members.get(*at).is_none_or(Option::is_none))
            .map(|(_, item)| item)
    }

    /// Tags the last entry with `group` and the label of `key`.
    fn mark_last(&mut self, group: &'static ItemGroup, key: &dyn ItemKey) {
        self.members.resize_with(self.items.len() - 1, || None);
        self.members.push(Some(Member {
            group,
            label: label(key),
        }));
    }

    /// The entries as the list block writes them (wire format §6.10): where one declaration's
    /// entries of a class (`same`) number two or more, the first becomes the grouped line
    /// (`regroup` puts the grouped body in it) and the others are left out.
    fn written_by(
        &self,
        body: impl Fn(&T) -> &str,
        same: impl Fn(&T, &T) -> bool,
        regroup: impl Fn(&T, String) -> T,
    ) -> Cow<'_, [T]>
    where
        T: Clone,
    {
        if self.members.iter().all(Option::is_none) {
            return Cow::Borrowed(&self.items);
        }
        // The classes: a group and the entries that share it, first one first.
        let mut classes: Vec<(&'static ItemGroup, Vec<usize>)> = Vec::new();
        let mut class_of = vec![usize::MAX; self.items.len()];
        for (at, member) in self.members.iter().enumerate() {
            let Some(member) = member else { continue };
            let found = classes.iter().position(|(group, entries)| {
                std::ptr::eq(*group, member.group) && same(&self.items[entries[0]], &self.items[at])
            });
            let class = found.unwrap_or_else(|| {
                classes.push((member.group, Vec::new()));
                classes.len() - 1
            });
            classes[class].1.push(at);
            class_of[at] = class;
        }
        let mut out = Vec::with_capacity(self.items.len());
        for (at, item) in self.items.iter().enumerate() {
            let Some((group, entries)) = classes.get(class_of[at]) else {
                out.push(item.clone());
                continue;
            };
            if entries.len() == 1 {
                out.push(item.clone());
            } else if entries[0] == at {
                let labels: Vec<&str> = entries
                    .iter()
                    .filter_map(|&entry| self.members[entry].as_ref())
                    .map(|member| &*member.label)
                    .collect();
                out.push(regroup(item, grouped_body(group, body(item), &labels)));
            }
        }
        Cow::Owned(out)
    }
}

/// The list of rules of a response.
pub type Rules = DedupList<Cow<'static, str>>;
/// The list of suggestions of a response.
pub type Suggestions = DedupList<Suggestion>;

#[cfg(test)]
mod tests {
    use std::borrow::Cow;

    use proptest::prelude::*;

    use super::super::dedup_index::DEDUP_SCAN_LIMIT;
    use super::{DedupList, ItemGroup, ManyPiece, Rules, Suggestion, Suggestions};

    static LIKEWISE: ItemGroup = ItemGroup::LIKEWISE;
    static MANY: ItemGroup = ItemGroup::many(&[
        ManyPiece::Text("SKUs "),
        ManyPiece::Items,
        ManyPiece::Text(" are low ("),
        ManyPiece::Count,
        ManyPiece::Text(")."),
    ]);

    fn rules_of(labels: &[&str], group: &'static ItemGroup) -> Rules {
        let mut rules = Rules::default();
        rules.push(Cow::Borrowed("static"));
        for label in labels {
            rules.push_item_fmt(group, label, format_args!("SKU {label} is low."));
        }
        rules
    }

    #[cfg(feature = "budget")]
    #[test]
    fn entries_of_no_grouping_declaration_are_lines_of_their_own() {
        let mut rules = rules_of(&["A", "B"], &LIKEWISE);
        rules.push(Cow::Borrowed("dynamic"));
        let ungrouped: Vec<&str> = rules.ungrouped_from(0).map(AsRef::as_ref).collect();
        assert_eq!(ungrouped, ["static", "dynamic"]);
        let ungrouped: Vec<&str> = rules.ungrouped_from(1).map(AsRef::as_ref).collect();
        assert_eq!(ungrouped, ["dynamic"]);
        assert_eq!(rules.ungrouped_from(4).count(), 0);
        // Before any grouped entry the list keeps no tags at all: every entry is its own line.
        let plain = rules_of(&[], &LIKEWISE);
        assert_eq!(plain.ungrouped_from(0).count(), 1);
    }

    #[test]
    fn a_declaration_firing_for_several_items_is_one_line() {
        let one = rules_of(&["A"], &LIKEWISE);
        assert_eq!(one.written().as_ref(), ["static", "SKU A is low."]);
        let two = rules_of(&["A", "B"], &LIKEWISE);
        assert_eq!(
            two.written().as_ref(),
            ["static", "SKU A is low. (likewise for B)"]
        );
        let seven = rules_of(&["A", "B", "C", "D", "E", "F", "G"], &LIKEWISE);
        assert_eq!(
            seven.written().as_ref(),
            [
                "static",
                "SKU A is low. (likewise for B, C, D, E, F and 1 more)"
            ]
        );
        let many = rules_of(&["A", "B", "C"], &MANY);
        assert_eq!(
            many.written().as_ref(),
            ["static", "SKUs A, B and C are low (3)."]
        );
        let more = rules_of(&["A", "B", "C", "D", "E", "F", "G", "A"], &MANY);
        assert_eq!(
            more.into_vec(),
            ["static", "SKUs A, B, C, D, E and 2 more are low (7)."]
        );
    }

    #[test]
    fn labels_are_one_line_and_cut() {
        let long = "x".repeat(41);
        let exact = "y".repeat(40);
        let rules = rules_of(&["a\nb\tc\rd", &long, &exact], &MANY);
        let expected = format!(
            "SKUs a b c d, {}\u{2026} and {exact} are low (3).",
            "x".repeat(39)
        );
        assert_eq!(rules.written().as_ref(), ["static", expected.as_str()]);
    }

    #[test]
    fn suggestions_group_by_declaration_and_tool() {
        let mut list = Suggestions::default();
        for (tool, label) in [("t.a", "1"), ("t.b", "2"), ("t.a", "3"), ("t.a", "4")] {
            list.push_item(
                &LIKEWISE,
                &label,
                Suggestion::new(tool, format!("Open {label}")),
            );
        }
        list.push(Suggestion::new("t.c", "by hand"));
        assert_eq!(
            list.into_vec(),
            [
                Suggestion::new("t.a", "Open 1 (likewise for 3 and 4)"),
                Suggestion::new("t.b", "Open 2"),
                Suggestion::new("t.c", "by hand"),
            ]
        );
    }

    /// One item's pushes: (group 0 none / 1 likewise / 2 many, text, label).
    type Push = (u8, u8, u8);

    fn push_rules(rules: &mut Rules, pushes: &[Push]) {
        for &(group, text, label) in pushes {
            let group = match group {
                0 => None,
                1 => Some(&LIKEWISE),
                _ => Some(&MANY),
            };
            match group {
                None => {
                    rules.push_fmt(format_args!("rule {text}"));
                }
                Some(group) => {
                    rules.push_item_fmt(group, &label, format_args!("rule {text} of {label}"));
                }
            }
        }
    }

    fn push_suggestions(list: &mut Suggestions, pushes: &[Push]) {
        for &(group, text, label) in pushes {
            let suggestion = Suggestion::new(format!("tool{}", text % 2), format!("r{text}"));
            match group {
                0 => {
                    list.push(suggestion);
                }
                1 => {
                    list.push_item(&LIKEWISE, &label, suggestion);
                }
                _ => {
                    list.push_item(&MANY, &label, suggestion);
                }
            }
        }
    }

    proptest! {
        /// A list cut back to where item k left it writes what a list of the first k items
        /// writes (the budget's shorter prefixes, wire format §17.3).
        #[test]
        fn truncate_then_write_is_build_fresh_then_write(
            items in prop::collection::vec(
                prop::collection::vec((0u8..3, 0u8..6, 0u8..8), 0..4), 0..24),
            cut in 0usize..24,
        ) {
            let k = cut.min(items.len());
            let (mut rules, mut suggestions) = (Rules::default(), Suggestions::default());
            let mut ends = Vec::new();
            for item in &items {
                push_rules(&mut rules, item);
                push_suggestions(&mut suggestions, item);
                ends.push((rules.as_slice().len(), suggestions.as_slice().len()));
            }
            let (rule_end, suggestion_end) = k.checked_sub(1).map_or((0, 0), |last| ends[last]);
            rules.truncate(rule_end);
            suggestions.truncate(suggestion_end);
            // Pushes after the cut see the list as it was (the collection rules of the prefix).
            push_rules(&mut rules, &[(0, 9, 0), (1, 7, 1)]);
            let (mut fresh_rules, mut fresh_suggestions) = (Rules::default(), Suggestions::default());
            for item in &items[..k] {
                push_rules(&mut fresh_rules, item);
                push_suggestions(&mut fresh_suggestions, item);
            }
            push_rules(&mut fresh_rules, &[(0, 9, 0), (1, 7, 1)]);
            prop_assert_eq!(rules.written(), fresh_rules.written());
            prop_assert_eq!(suggestions.written(), fresh_suggestions.written());
        }
    }

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
        assert_eq!(list.as_slice(), expected);
    }
}
