//! A collection's blocks besides the data block, for any prefix of its items (wire format
//! §17.3): the items' own embeds, rules and suggestions are presented once each, in order, and
//! kept with where the lists stood after every item; a prefix's blocks are those lists taken
//! back to its last item, plus its summary, UI and collection rules and suggestions, made for
//! it. A search that tries a long prefix and then shorter ones presents each item once; one that
//! goes up again presents only the items it had taken back.

use super::super::engine::{Cut, ItemParts, Items, Mark, Presenter, Scope, cut_items};
use crate::response::ResponseBuilder;

/// The other blocks of the prefixes of `all`.
pub(super) struct PrefixParts<'a, T, Ctx: ?Sized> {
    all: &'a [T],
    ctx: &'a Ctx,
    /// The budget the summary names.
    budget: usize,
    parts: ItemParts<'a>,
    /// Where the parts stood before the first item.
    start: Mark,
    /// Where they stood after each item pushed.
    marks: Vec<Mark>,
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
        self.parts.tokens()
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
        if kept < self.marks.len() {
            let mark = kept
                .checked_sub(1)
                .map_or(self.start, |last| self.marks[last]);
            self.parts.rewind(mark);
            self.marks.truncate(kept);
        }
        while self.marks.len() < kept {
            self.parts.push(&self.all[self.marks.len()], self.ctx);
            self.marks.push(self.parts.mark());
        }
    }
}
