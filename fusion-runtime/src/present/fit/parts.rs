//! A collection's blocks besides the data block, for any prefix of its items (wire format
//! §17.3): the items' own embeds, rules and suggestions are presented once each, in order, and
//! kept with where the lists stood after every item; a prefix's blocks are those lists taken
//! back to its last item, plus its summary, UI and collection rules and suggestions, made for
//! it. A search that tries a long prefix and then shorter ones presents each item once; one that
//! goes up again presents only the items it had taken back.
//!
//! As each item is pushed, the lines of their own that its rules and suggestions add (those no
//! grouping declaration said once, wire format §6.10) are estimated, so that the search's aim
//! knows how the rules and suggestions blocks grow before it probes a prefix
//! ([`PrefixParts::lines`]).

use super::super::engine::{Cut, ItemParts, Items, Mark, Presenter, Scope, cut_items};
use crate::encode::tokens::TokenTally;
use crate::response::{ResponseBuilder, blocks_tokens};

/// The other blocks of the prefixes of `all`.
pub(super) struct PrefixParts<'a, T, Ctx: ?Sized> {
    all: &'a [T],
    ctx: &'a Ctx,
    /// The budget the summary names.
    budget: usize,
    parts: ItemParts<'a>,
    /// Where the parts stood before the first item.
    start: Mark,
    /// Where they stood after each item pushed, with the tally of the lines of their own that
    /// the items' rules and suggestions held then ([`lines_since`]).
    marks: Vec<(Mark, TokenTally)>,
    /// The prefix whose collection's parts are in, if any.
    collected: Option<usize>,
}

impl<'a, T: Presenter<Ctx>, Ctx: ?Sized> PrefixParts<'a, T, Ctx> {
    pub(super) fn new(all: &'a [T], ctx: &'a Ctx, scope: Scope<'a>, budget: usize) -> Self {
        let parts = ItemParts::new::<T, Ctx>(true, Cut::NONE, scope);
        PrefixParts {
            all,
            ctx,
            budget,
            start: parts.mark(),
            parts,
            marks: Vec::new(),
            collected: None,
        }
    }

    /// The estimated tokens of the other blocks of the first `kept` items (wire format §17.2).
    pub(super) fn tokens(&mut self, kept: usize) -> usize {
        self.collect(kept);
        other_tokens(&self.parts)
    }

    /// The estimated tokens of the lines of their own in the rules and suggestions of the first
    /// `kept` items: how those blocks grow with the items, for the search's aim. The items'
    /// parts are pushed that far first, if they are not yet (never taken back).
    pub(super) fn lines(&mut self, kept: usize) -> usize {
        if T::STATIC_ONLY {
            // No item adds a rule or a suggestion: nothing to push or count.
            return 0;
        }
        let kept = kept.min(self.all.len());
        if kept > self.marks.len() {
            self.reach(kept);
        }
        kept.checked_sub(1)
            .map_or(0, |last| self.marks[last].1.tokens())
    }

    /// `data` (the data block of the first `kept` items) with their other blocks.
    pub(super) fn into_builder(mut self, kept: usize, data: ResponseBuilder) -> ResponseBuilder {
        self.collect(kept);
        self.parts.into_parts().into_builder(data)
    }

    /// The parts of the first `kept` items with the collection's parts for them: kept from the
    /// last probe when it was of the same prefix.
    fn collect(&mut self, kept: usize) {
        if self.collected == Some(kept) {
            return;
        }
        self.reach(kept);
        let (shown, summary) = cut_items(Items::Many(self.all), self.cut(kept));
        self.parts.collect(shown, summary, self.ctx);
        self.collected = Some(kept);
    }

    fn cut(&self, kept: usize) -> Cut {
        Cut {
            cap: Some(kept),
            budget: self.budget,
        }
    }

    /// The items' own parts for exactly the first `kept` items.
    fn reach(&mut self, kept: usize) {
        self.collected = None;
        self.parts.uncollect();
        if T::STATIC_ONLY {
            // No item adds anything (its blocks are the static rules, already in): nothing to
            // push, for any prefix (a fit of wide rows at 8,000 tokens pushed 47 items for
            // nothing, 3% of its time).
            return;
        }
        if kept < self.marks.len() {
            let mark = kept
                .checked_sub(1)
                .map_or(self.start, |last| self.marks[last].0);
            self.parts.rewind(mark);
            self.marks.truncate(kept);
        }
        while self.marks.len() < kept {
            let (before, lines) = self
                .marks
                .last()
                .copied()
                .unwrap_or((self.start, TokenTally::new()));
            self.parts.push(&self.all[self.marks.len()], self.ctx);
            let after = self.parts.mark();
            // Most items add no rule or suggestion (5 of the first 58 invoices do): nothing to
            // look through then (looking cost the TOON table's fit at 2,000 tokens 5% of its work).
            let lines = if after.pushed_lines_since(before) {
                lines_since(&self.parts, before, lines)
            } else {
                lines
            };
            self.marks.push((after, lines));
        }
    }
}

/// The estimated tokens of a response's blocks besides the data block, as
/// [`ResponseBuilder::build`] writes them (wire format §17.2).
fn other_tokens(parts: &ItemParts<'_>) -> usize {
    let (ui, embeds, rules, suggestions) = parts.blocks();
    blocks_tokens(ui, embeds, &[], rules, suggestions)
}

/// `lines` with the rules and suggestions pushed since `since` that are lines of their own
/// (wire format §6.10): how those blocks grow with the items, for the search's aim. Each line
/// is tallied as its block writes it, after a line break and `- ` (a suggestion's tool, `: ` and
/// reason), and the lines are tallied on from each other, so their estimate is rounded once.
/// A token for each line's mark and break, and each line rounded up, guessed the blocks too
/// large: 3,000 notes, two in three flagged, as TOON at 25,000 tokens were probed at 804 items
/// first where 868 fit, and took four probes where two do now (`budget_search.rs`).
fn lines_since(parts: &ItemParts<'_>, since: Mark, mut lines: TokenTally) -> TokenTally {
    let (rules, suggestions) = parts.own_lines_since(since);
    for rule in rules {
        lines.push("\n- ");
        lines.push(rule);
    }
    for suggestion in suggestions {
        lines.push("\n- ");
        lines.push(&suggestion.tool);
        lines.push(": ");
        lines.push(&suggestion.reason);
    }
    lines
}
