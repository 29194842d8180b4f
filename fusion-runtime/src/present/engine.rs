//! Presenters (wire format §6–§8): the traits `#[derive(Presenter)]` implements, and the engine that
//! turns a single value or a collection into a response.
//!
//! The derive generates the per-model parts ([`Model`], [`Presenter`], [`Embed`](crate::model::Embed)); everything
//! that is the same for every model (truncation, block order, embed de-duplication) lives here.
//! One file, because the parts recurse into each other: a presenter embeds presenters through
//! the [`EmbedSink`], which presents them with the engine. What a call configures and how the
//! data block is written are `presentation`'s.

use std::borrow::Cow;

use crate::model::{Children, FieldMask, Model};
use crate::response::ui::{self, UiBlock};
use crate::response::{
    DedupIndex, EmbedBlock, EmbedKind, Format, ResponseBuilder, Rules, Suggestions,
};

/// The presenter of a model: rules, suggestions, UI and embeds for a request context `Ctx`.
///
/// A model that declares no context implements `Presenter<C>` for every `C`, so it can be
/// embedded in any parent; one that declares `#[presenter(context = T)]` implements
/// `Presenter<T>` only.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a presenter for the context `{Ctx}`",
    label = "not a presenter for this context",
    note = "derive `Presenter` on `{Self}`; if it declares `#[presenter(context = ...)]`, pass that context with `.context(&ctx)`, and declare the same context on every model that embeds it"
)]
pub trait Presenter<Ctx: ?Sized = ()>: Model + Sized {
    /// The format of the data block (`#[presenter(format = toon)]`); a call can override it with
    /// [`Presentation::format`](super::Presentation::format), and a tool with [`ToolSpec::format`](crate::tool::ToolSpec::format).
    const FORMAT: Format = Format::Json;

    /// Whether the presenter declares [`Presenter::FORMAT`] (`#[presenter(format = ...)]`): a
    /// declared format wins over the tool set's default ([`ToolSet::format`](crate::ToolSet::format)),
    /// an undeclared one gives way to it.
    const FORMAT_DECLARED: bool = false;

    /// The response budget in tokens (`#[presenter(max_tokens = N)]`, wire format §17.1), if any:
    /// a response presenting this model is fitted to it, or to a tighter budget of the tool, the
    /// tool set or the call.
    #[cfg(feature = "budget")]
    const MAX_TOKENS: Option<usize> = None;

    /// The static item rules, in declaration order.
    const STATIC_RULES: &'static [&'static str] = &[];

    /// Whether this presenter contributes nothing besides its data block and the rules of
    /// [`Presenter::STATIC_RULES`]: no agent limit, UI, dynamic or collection rules, suggestions
    /// or embeds.
    ///
    /// Its blocks are then the same for every value, single or collection, so a parent that
    /// embeds it presents it once per presentation instead of once per item (wire format §6.8
    /// drops the repeats anyway), and a budget's fit does not present its items one by one.
    /// `#[derive(Presenter)]` sets it; a presenter written by hand that sets it must keep that
    /// promise, or the blocks of its later embeds, and those its items would add to a fitted
    /// collection, are lost.
    const STATIC_ONLY: bool = false;

    /// The `<domain_rules>` block of [`Presenter::STATIC_RULES`] exactly as the engine would
    /// write it (wire format §2.3), when that is known at compile time: a static-only child
    /// then contributes this text instead of rendering its rules on every presentation.
    ///
    /// `#[derive(Presenter)]` sets it for a static-only model whose rules are distinct and hold
    /// no `<`, CR or LF (so §5.3 and §5.4 leave them as they are). A presenter written by hand
    /// that sets it must give the same text the engine writes, or its responses change.
    const STATIC_RULES_BLOCK: Option<&'static str> = None;

    /// Item UI declarations of a single value, in declaration order.
    fn item_ui(&self, ctx: &Ctx, out: &mut Vec<UiBlock>) {
        let _ = (ctx, out);
    }

    /// Dynamic item rules of one item, in declaration order.
    fn item_rules(&self, ctx: &Ctx, out: &mut Rules) {
        let _ = (ctx, out);
    }

    /// Item suggestions of one item, in declaration order.
    fn item_suggestions(&self, ctx: &Ctx, out: &mut Suggestions) {
        let _ = (ctx, out);
    }

    /// Collection UI declarations, evaluated once with all shown items.
    fn collection_ui(items: &[Self], ctx: &Ctx, out: &mut Vec<UiBlock>) {
        let _ = (items, ctx, out);
    }

    /// Collection rules (static and dynamic), in declaration order.
    fn collection_rules(items: &[Self], ctx: &Ctx, out: &mut Rules) {
        let _ = (items, ctx, out);
    }

    /// Collection suggestions, evaluated once with all shown items of a non-empty collection.
    fn collection_suggestions(items: &[Self], ctx: &Ctx, out: &mut Suggestions) {
        let _ = (items, ctx, out);
    }

    /// Presents each embed field of this item into `sink`, in declaration order.
    fn embeds(&self, ctx: &Ctx, sink: &mut EmbedSink<'_>) {
        let _ = (ctx, sink);
    }
}

/// Collects the blocks of embedded children for one parent item (wire format §6.8).
pub struct EmbedSink<'a> {
    /// Whether UI blocks are dropped: the parent item is not the first one, or the parent
    /// itself drops UI (a UI block counts as UI at every depth).
    skip_ui: bool,
    /// The budget's cut of the child collections (a fitted single value, wire format §17.4).
    cut: Cut,
    /// The call's selection of the parent's members (only for the top-level presenter's items):
    /// an embed the selection leaves out presents nothing (wire format §6.8).
    mask: Option<&'a FieldMask>,
    /// The static rules the tool's description says (wire format §6.12): no child repeats them.
    said: &'a [&'static str],
    seen: &'a mut Seen,
    out: &'a mut Vec<EmbedBlock>,
}

/// What the embeds of one presentation (all its items) already contributed.
#[derive(Default)]
struct Seen {
    /// Which texts are in the embed blocks so far (the `seen` set of wire format §6.8).
    texts: DedupIndex,
    /// The [`Presenter::STATIC_RULES`] of the static-only children presented so far: their
    /// blocks are in `texts`, and presenting an equal list again would add nothing. The first
    /// few are kept inline (most parents embed one or two static-only types).
    static_rules: [Option<&'static [&'static str]>; 4],
    more_static_rules: Vec<&'static [&'static str]>,
    /// Whether a budget's cap shortened some child collection (wire format §17.4).
    budget_cut: bool,
}

impl Seen {
    /// How many static-only children are recorded.
    fn static_children(&self) -> usize {
        self.static_rules.iter().flatten().count() + self.more_static_rules.len()
    }

    /// Forgets the static-only children recorded after the first `count`.
    fn forget_static_children(&mut self, count: usize) {
        self.more_static_rules
            .truncate(count.saturating_sub(self.static_rules.len()));
        for slot in self.static_rules.iter_mut().skip(count) {
            *slot = None;
        }
    }

    /// Whether a static-only child with these rules still has to be presented; records it.
    fn first_static(&mut self, rules: &'static [&'static str]) -> bool {
        let same = |seen: &&'static [&'static str]| std::ptr::eq(*seen, rules) || *seen == rules;
        let inline = self.static_rules.iter().flatten();
        if inline.chain(&self.more_static_rules).any(same) {
            return false;
        }
        if let Some(free) = self.static_rules.iter_mut().find(|slot| slot.is_none()) {
            *free = Some(rules);
        } else {
            self.more_static_rules.push(rules);
        }
        true
    }
}

impl EmbedSink<'_> {
    /// Whether the parent's data block keeps its member at `index` (its position in
    /// [`Model::WIRE_NAMES`]): `false` when the call's `_select` leaves it out, and then the
    /// embed there presents nothing (wire format §6.8). Generated `embeds` ask before each embed.
    #[inline]
    pub fn selected(&self, index: usize) -> bool {
        self.mask.is_none_or(|mask| mask.contains(index))
    }

    /// Presents the models an `#[embed]` field holds ([`Embed::children`](crate::model::Embed::children)): nothing for an
    /// absent value, a single child, or a child collection. Generated `embeds` call it once per
    /// embedded field.
    #[inline]
    pub fn embed<T: Presenter<Ctx>, Ctx: ?Sized>(&mut self, children: Children<'_, T>, ctx: &Ctx) {
        match children {
            Children::None => {}
            Children::One(child) => self.single(child, ctx),
            Children::Many(children) => self.collection(children, ctx),
        }
    }

    /// Presents `value` as a single child.
    pub fn single<T: Presenter<Ctx>, Ctx: ?Sized>(&mut self, value: &T, ctx: &Ctx) {
        if self.static_child::<T, Ctx>(true) {
            return;
        }
        let parts = Parts::of(
            Items::One(value),
            ctx,
            !self.skip_ui,
            Cut::NONE,
            Cut::NONE,
            self.child_scope(),
        );
        self.append(parts);
    }

    /// Presents `items` as a child collection; an empty one presents nothing (wire format §6.8).
    pub fn collection<T: Presenter<Ctx>, Ctx: ?Sized>(&mut self, items: &[T], ctx: &Ctx) {
        if items.is_empty() {
            return;
        }
        // A budget cut adds its summary (wire format §17.4): then the child is presented.
        let uncut = self.cut.cap.is_none_or(|cap| items.len() <= cap);
        if self.static_child::<T, Ctx>(uncut) {
            return;
        }
        let parts = Parts::of(
            Items::Many(items),
            ctx,
            !self.skip_ui,
            self.cut,
            Cut::NONE,
            self.child_scope(),
        );
        self.append(parts);
    }

    /// How a child is presented: whole (selection reaches only the top-level presenter's
    /// members), without the static rules the tool's description says.
    fn child_scope(&self) -> Scope<'_> {
        Scope {
            mask: None,
            said: self.said,
            projected: false,
        }
    }

    /// Whether a static-only child `T` is done without presenting it: an equal child was
    /// already presented, or (when `uncut`, and none of its rules is said by the description)
    /// its rules block comes from the derive.
    fn static_child<T: Presenter<Ctx>, Ctx: ?Sized>(&mut self, uncut: bool) -> bool {
        if !T::STATIC_ONLY {
            return false;
        }
        if !self.seen.first_static(T::STATIC_RULES) {
            return true;
        }
        let unsaid = !T::STATIC_RULES.iter().any(|rule| self.said.contains(rule));
        match T::STATIC_RULES_BLOCK {
            Some(text) if uncut && unsaid => {
                self.static_rules(text, T::STATIC_RULES);
                true
            }
            _ => false,
        }
    }

    /// The rules block of a static-only child, written at compile time
    /// ([`Presenter::STATIC_RULES_BLOCK`]): nothing to render, and nothing to allocate when an
    /// equal block is already there.
    fn static_rules(&mut self, text: &'static str, rules: &'static [&'static str]) {
        if self.seen.texts.admit(self.out, text, EmbedBlock::text) {
            let rules = rules.iter().map(|rule| Cow::Borrowed(*rule)).collect();
            self.out.push(EmbedBlock::rendered(
                text.to_owned(),
                EmbedKind::Rules(rules),
            ));
        }
    }

    fn append(&mut self, parts: Parts) {
        self.seen.budget_cut |= parts.budget_cut;
        let skip_ui = self.skip_ui;
        let mut push = |block: EmbedBlock| {
            if self
                .seen
                .texts
                .admit(self.out, block.text(), EmbedBlock::text)
            {
                self.out.push(block);
            }
        };
        if !skip_ui {
            for block in parts.ui {
                push(EmbedBlock::new(EmbedKind::Ui(block)));
            }
        }
        for block in parts.embeds {
            if !(skip_ui && block.is_ui()) {
                push(block);
            }
        }
        if !parts.rules.is_empty() {
            push(EmbedBlock::new(EmbedKind::Rules(parts.rules.into_vec())));
        }
        if !parts.suggestions.is_empty() {
            push(EmbedBlock::new(EmbedKind::Suggestions(
                parts.suggestions.into_vec(),
            )));
        }
    }
}

/// A single value or a collection.
#[derive(Debug)]
pub(crate) enum Items<'a, T> {
    One(&'a T),
    Many(&'a [T]),
}

impl<T> Clone for Items<'_, T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for Items<'_, T> {}

/// How far a response budget cuts a collection (wire format §17.3, §17.4).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Cut {
    /// The most items kept (after the agent limit); `None`: no budget cut.
    pub(crate) cap: Option<usize>,
    /// The budget the summary names.
    pub(crate) budget: usize,
}

impl Cut {
    /// No budget cut.
    pub(crate) const NONE: Cut = Cut {
        cap: None,
        budget: 0,
    };
}

/// What a presentation leaves out for the model (wire format §6.8, §6.12): the call's selection
/// of the top-level presenter's members, the static rules the tool's description already says,
/// and whether the presenters' dynamic rules and suggestions are left out (a lean call whose
/// `_select` leaves out a member: the answer is a projection).
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Scope<'a> {
    /// The selection; `None`: every member (and always for an embedded child).
    pub(crate) mask: Option<&'a FieldMask>,
    /// The static item rules the tool's description says, left out of the answer.
    pub(crate) said: &'a [&'static str],
    /// Whether item and collection rules and suggestions other than static item rules are left out.
    pub(crate) projected: bool,
}

/// Everything a presenter contributes besides its data block.
pub(crate) struct Parts {
    ui: Vec<UiBlock>,
    embeds: Vec<EmbedBlock>,
    rules: Rules,
    suggestions: Suggestions,
    /// Whether a budget cut this collection or one of its children.
    pub(crate) budget_cut: bool,
}

impl Parts {
    /// wire format §6.2 steps 1 and 3–6 for `items`.
    ///
    /// With `with_ui` false (an embedded child of a parent item other than the first, whose UI
    /// would be dropped anyway, wire format §6.8), UI callbacks are not evaluated at all. `cut`
    /// cuts `items` (a collection), `embed_cut` the child collections of each kept item; `scope`
    /// holds the call's selection (the top-level presenter's), which silences de-selected
    /// embeds, and what the tool's description says.
    pub(crate) fn of<T: Presenter<Ctx>, Ctx: ?Sized>(
        items: Items<'_, T>,
        ctx: &Ctx,
        with_ui: bool,
        cut: Cut,
        embed_cut: Cut,
        scope: Scope<'_>,
    ) -> Parts {
        let (shown, summary) = cut_items(items, cut);
        let each: &[T] = match shown {
            Items::One(item) => std::slice::from_ref(item),
            Items::Many(kept) => kept,
        };
        let mut growing = ItemParts::new::<T, Ctx>(with_ui, embed_cut, scope);
        for item in each {
            growing.push(item, ctx);
        }
        growing.collect(shown, summary, ctx);
        growing.into_parts()
    }

    /// `builder` with these as its other blocks.
    #[inline]
    pub(crate) fn into_builder(self, mut builder: ResponseBuilder) -> ResponseBuilder {
        let (ui, embeds, rules, suggestions) = builder.parts_mut();
        *ui = self.ui;
        *embeds = self.embeds;
        *rules = self.rules;
        *suggestions = self.suggestions;
        builder
    }
}

/// The parts of a presentation built one item at a time (wire format §6.2): the static rules,
/// then each item's embeds, rules and suggestions; [`ItemParts::collect`] adds the summary, the
/// UI and the collection's own rules and suggestions.
///
/// Every presentation is built this way. A budget's search (`fit`) also takes the parts back to
/// where they were after an earlier item ([`ItemParts::rewind`]) and takes the collection's
/// parts off again ([`ItemParts::uncollect`]), so that trying several prefixes presents each
/// item about once.
pub(crate) struct ItemParts<'m> {
    parts: Parts,
    seen: Seen,
    /// How many items are pushed.
    items: usize,
    /// Whether UI callbacks run (for the first item's embeds: wire format §6.8).
    with_ui: bool,
    embed_cut: Cut,
    /// The call's selection of the top-level presenter's members (a de-selected embed presents
    /// nothing, wire format §6.8) and what the tool's description says (§6.12).
    scope: Scope<'m>,
    /// When the collection's parts are in: where the items' parts ended, and `budget_cut` then.
    collected: Option<(Mark, bool)>,
}

/// Where the parts stood after some item: the lengths of their lists.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Mark {
    items: usize,
    embeds: usize,
    rules: usize,
    suggestions: usize,
    static_children: usize,
}

impl Mark {
    /// Whether a rule or a suggestion was pushed between `before` and this later mark.
    #[cfg(feature = "budget")]
    pub(crate) fn pushed_lines_since(self, before: Mark) -> bool {
        self.rules > before.rules || self.suggestions > before.suggestions
    }
}

impl<'m> ItemParts<'m> {
    /// No item yet: the static item rules of `T` only (those the tool's description does not say).
    pub(crate) fn new<T: Presenter<Ctx>, Ctx: ?Sized>(
        with_ui: bool,
        embed_cut: Cut,
        scope: Scope<'m>,
    ) -> Self {
        let mut parts = Parts {
            ui: Vec::new(),
            embeds: Vec::new(),
            rules: Rules::default(),
            suggestions: Suggestions::default(),
            budget_cut: false,
        };
        for rule in T::STATIC_RULES {
            if !scope.said.contains(rule) {
                parts.rules.push(Cow::Borrowed(rule));
            }
        }
        ItemParts {
            parts,
            seen: Seen::default(),
            items: 0,
            with_ui,
            embed_cut,
            scope,
            collected: None,
        }
    }

    /// Adds the next item's embeds, dynamic rules and suggestions (taking the collection's
    /// parts off first, if they are in).
    pub(crate) fn push<T: Presenter<Ctx>, Ctx: ?Sized>(&mut self, item: &T, ctx: &Ctx) {
        self.uncollect();
        item.embeds(
            ctx,
            &mut EmbedSink {
                skip_ui: !self.with_ui || self.items > 0,
                cut: self.embed_cut,
                mask: self.scope.mask,
                said: self.scope.said,
                seen: &mut self.seen,
                out: &mut self.parts.embeds,
            },
        );
        if !self.scope.projected {
            item.item_rules(ctx, &mut self.parts.rules);
            item.item_suggestions(ctx, &mut self.parts.suggestions);
        }
        self.items += 1;
    }

    /// Where the items' parts stand now.
    pub(crate) fn mark(&self) -> Mark {
        if let Some((mark, _)) = self.collected {
            return mark;
        }
        Mark {
            items: self.items,
            embeds: self.parts.embeds.len(),
            rules: self.parts.rules.as_slice().len(),
            suggestions: self.parts.suggestions.as_slice().len(),
            static_children: self.seen.static_children(),
        }
    }

    /// The items' parts as they were at `mark`, a mark of these parts taken when they held at
    /// least as many items as now or fewer (the items after it are forgotten).
    pub(crate) fn rewind(&mut self, mark: Mark) {
        self.collected = None;
        self.parts.ui.clear();
        self.items = mark.items;
        self.parts.embeds.truncate(mark.embeds);
        self.seen.texts.forget_from(mark.embeds);
        self.seen.forget_static_children(mark.static_children);
        self.parts.rules.truncate(mark.rules);
        self.parts.suggestions.truncate(mark.suggestions);
    }

    /// Adds the parts of the items pushed, shown as `shown` with `summary` (wire format §6.2):
    /// the summary and the UI, then the collection's rules and suggestions after the items'
    /// own. [`ItemParts::uncollect`] takes them off again.
    pub(crate) fn collect<T: Presenter<Ctx>, Ctx: ?Sized>(
        &mut self,
        shown: Items<'_, T>,
        summary: Option<(UiBlock, bool)>,
        ctx: &Ctx,
    ) {
        self.uncollect();
        self.collected = Some((self.mark(), self.parts.budget_cut));
        let parts = &mut self.parts;
        if let Some((summary, by_budget)) = summary {
            parts.budget_cut |= by_budget;
            if self.with_ui {
                parts.ui.push(summary);
            }
        }
        match shown {
            Items::One(item) if self.with_ui => item.item_ui(ctx, &mut parts.ui),
            Items::One(_) => {}
            Items::Many(kept) => {
                if self.with_ui {
                    T::collection_ui(kept, ctx, &mut parts.ui);
                }
                if !self.scope.projected {
                    T::collection_rules(kept, ctx, &mut parts.rules);
                    if !kept.is_empty() {
                        T::collection_suggestions(kept, ctx, &mut parts.suggestions);
                    }
                }
            }
        }
    }

    /// Takes the collection's parts off, if they are in.
    pub(crate) fn uncollect(&mut self) {
        if let Some((mark, budget_cut)) = self.collected {
            self.rewind(mark);
            self.parts.budget_cut = budget_cut;
        }
    }

    /// The blocks as they stand (the collection's, if they are in): UI, embeds, rules and
    /// suggestions (a budget's fit counts them).
    #[cfg(feature = "budget")]
    pub(crate) fn blocks(&self) -> (&[UiBlock], &[EmbedBlock], &Rules, &Suggestions) {
        let parts = &self.parts;
        (&parts.ui, &parts.embeds, &parts.rules, &parts.suggestions)
    }

    /// The rules and suggestions pushed since `since` that are lines of their own (wire format
    /// §6.10): those no grouping declaration said once with others.
    #[cfg(feature = "budget")]
    pub(crate) fn own_lines_since(
        &self,
        since: Mark,
    ) -> (
        impl Iterator<Item = &Cow<'static, str>>,
        impl Iterator<Item = &crate::response::Suggestion>,
    ) {
        (
            self.parts.rules.ungrouped_from(since.rules),
            self.parts.suggestions.ungrouped_from(since.suggestions),
        )
    }

    /// The parts as they stand, with whether a budget cut something.
    pub(crate) fn into_parts(mut self) -> Parts {
        self.parts.budget_cut |= self.seen.budget_cut;
        self.parts
    }
}

/// wire format §6.7 and §17.3: a collection longer than the agent limit, or than a budget's cap,
/// keeps its first items; with the summary to show, and whether the budget made it.
pub(crate) fn cut_items<T: Model>(
    items: Items<'_, T>,
    cut: Cut,
) -> (Items<'_, T>, Option<(UiBlock, bool)>) {
    let Items::Many(all) = items else {
        return (items, None);
    };
    let by_limit = all.len().min(T::AGENT_LIMIT.unwrap_or(usize::MAX));
    let kept = by_limit.min(cut.cap.unwrap_or(usize::MAX));
    let shown = Items::Many(&all[..kept]);
    if kept == all.len() {
        (items, None)
    } else if kept < by_limit {
        (
            shown,
            Some((budget_summary(kept, all.len(), cut.budget), true)),
        )
    } else {
        (
            shown,
            Some((truncation_summary(kept, all.len() - kept), false)),
        )
    }
}

/// The truncation summary of wire format §4.5.
fn truncation_summary(shown: usize, hidden: usize) -> UiBlock {
    ui::summary(format!(
        "\u{26A0}\u{FE0F} Dataset truncated. {shown} shown, {hidden} hidden. Use filters to narrow results."
    ))
}

/// The budget's truncation summary of wire format §17.3, written in one piece (a fit makes one
/// for every prefix it probes).
fn budget_summary(shown: usize, total: usize, budget: usize) -> UiBlock {
    const HEAD: &str = "\u{26A0}\u{FE0F} Dataset truncated. ";
    const TAIL: &str = " tokens; use filters or `_select` to see others.";
    ui::summary_written(HEAD.len() + TAIL.len() + 96, |text| {
        let mut number = itoa::Buffer::new();
        text.push_str(HEAD);
        text.push_str(number.format(shown));
        text.push_str(" of ");
        text.push_str(number.format(total));
        text.push_str(" shown to stay within ");
        Thousands(budget).push_to(text);
        text.push_str(TAIL);
    })
}

/// `n` with a comma between groups of three digits (`25,000`), written where it is displayed
/// (a budget summary is made for every prefix a fit probes: no string of its own).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Thousands(pub(crate) usize);

impl Thousands {
    /// Appends the number, grouped, to `out`.
    pub(crate) fn push_to(self, out: &mut String) {
        out.push_str(self.grouped(&mut [0; 26]));
    }

    /// The number, grouped, written at the end of `buffer` (room for any `usize`'s 20 digits
    /// and 6 commas).
    fn grouped(self, buffer: &mut [u8; 26]) -> &str {
        let mut start = buffer.len();
        let mut n = self.0;
        let mut digits = 0;
        loop {
            if digits > 0 && digits % 3 == 0 {
                start -= 1;
                buffer[start] = b',';
            }
            start -= 1;
            // A decimal digit: below 10, a valid `u8`.
            buffer[start] = b'0' + u8::try_from(n % 10).unwrap_or(0);
            digits += 1;
            n /= 10;
            if n == 0 {
                break;
            }
        }
        // Only ASCII digits and commas were written.
        std::str::from_utf8(&buffer[start..]).unwrap_or_default()
    }
}

impl std::fmt::Display for Thousands {
    fn fmt(&self, out: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        out.write_str(self.grouped(&mut [0; 26]))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_budget_summary_is_the_summary_of_its_sentence() {
        for (shown, total, budget) in [(0, 1, 0), (8, 10_000, 2_000), (782, 20_000, 25_000)] {
            let sentence = format!(
                "\u{26A0}\u{FE0F} Dataset truncated. {shown} of {total} shown to stay within {} tokens; use filters or `_select` to see others.",
                Thousands(budget)
            );
            assert_eq!(budget_summary(shown, total, budget), ui::summary(sentence));
        }
    }
}
