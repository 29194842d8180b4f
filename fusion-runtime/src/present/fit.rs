//! Fitting a presented response to a token budget (wire format §17): a collection keeps the
//! longest prefix of items whose whole response fits, a single value cuts its embedded
//! collections, and nothing is ever cut inside an item, so the data block always parses.
//!
//! A JSON collection is written once, item by item, straight into one buffer as the collection
//! writer would (one level deep), each item's tokens tallied as it is appended ([`JsonPrefix`]):
//! the data block of any prefix is a slice of that text, and its estimate a saved
//! [`TokenTally`]. Writing stops as soon as the items alone exceed the budget, so a 10,000-item
//! collection fitted to 25,000 tokens writes only the items it can keep (plus one). The other
//! blocks depend on the kept items (collection rules, the summary), so they are computed for a
//! candidate prefix and the prefix corrected, usually once or twice; a candidate's blocks are
//! computed without its data text, which the chosen prefix takes over without a copy. What
//! remains is one estimate of every kept byte (PERFORMANCE.md, "Fitting to a budget"). TOON data
//! and single values are fitted by a search over the cut, each step a full render of that
//! candidate, aimed where the line through the last two renders meets the budget (usually two
//! renders near the answer): TOON's table header holds the row count and a table is written
//! only if every row fits it, and a single value's embedded collections are only reachable
//! through its serializer.

use super::engine::{Cut, Items, Presentation, Presenter, Selected, Shape, thousands, tightest};
use crate::encode::tokens::{TokenTally, estimate};
use crate::encode::{EncodeError, json};
use crate::model::{FieldMask, Model};
use crate::response::{
    Format, IntoToolResponse, Presented, ResponseBuilder, ToolError, ToolResponse, WrapError,
};

impl<T: Presenter<Ctx>, Ctx: ?Sized> Presentation<'_, T, Ctx> {
    /// The response builder, so a handler can append UI, hints, rules and suggestions.
    ///
    /// With a budget (wire format §17), the builder holds the fitted response; what the handler
    /// appends afterwards is not fitted. When not even the smallest answer fits, it holds that
    /// smallest answer (one item and the summary), which [`Presentation::build`] would refuse.
    pub fn into_builder(self) -> Result<ResponseBuilder, EncodeError> {
        self.fitted().map(|fitted| fitted.builder)
    }

    /// Builds the response; with a budget that not even one item fits, the `RESPONSE_TOO_LARGE`
    /// error of wire format §17.5.
    #[inline]
    pub fn build(self) -> Result<ToolResponse, EncodeError> {
        let fitted = self.fitted()?;
        Ok(match fitted.too_large {
            Some(too_large) => too_large.into_response(),
            None => fitted.builder.build(),
        })
    }

    /// The response, fitted to the budget when there is one, recording its model.
    ///
    /// One function on purpose: a single value is rendered here millions of times a second, and
    /// every extra `Result` of a builder is a copy of it (about 100 instructions each).
    #[inline]
    fn fitted(self) -> Result<Fitted, EncodeError> {
        // Recorded for the tool layer, which checks it against the action's `returns`.
        let presented = Presented {
            model: std::any::type_name::<T>(),
            collection: matches!(self.items, Items::Many(_)),
        };
        let mask = self
            .selection
            .filter(|s| !s.is_empty())
            .map(|s| FieldMask::of::<T>(s));
        let shape = Shape {
            ctx: self.ctx,
            mask: mask.as_ref(),
            format: self.format.unwrap_or(T::FORMAT),
        };
        let mut fitted = match tightest(self.max_tokens, T::MAX_TOKENS) {
            None => Fitted {
                builder: shape.render(self.items, Cut::NONE, Cut::NONE)?.0,
                too_large: None,
            },
            Some(budget) => fit(&shape, self.items, budget)?,
        };
        fitted.builder.set_presented(presented);
        Ok(fitted)
    }
}

/// A presentation configured by the handler (selection, context) is built as it stands.
impl<T: Presenter<Ctx>, Ctx: ?Sized> IntoToolResponse for Presentation<'_, T, Ctx> {
    fn into_tool_response(self) -> Result<ToolResponse, WrapError> {
        Ok(self.build()?)
    }

    /// Fitted to the tightest of `max_tokens` and the presentation's own budgets (wire format §17).
    fn into_tool_response_within(
        self,
        max_tokens: Option<usize>,
    ) -> Result<ToolResponse, WrapError> {
        Ok(self.within(max_tokens).build()?)
    }
}

/// A fitted response: the builder, and the error to answer with instead when not even the
/// smallest answer fits (wire format §17.5).
pub(crate) struct Fitted {
    pub(crate) builder: ResponseBuilder,
    /// Boxed: the error is rare, and a smaller `Fitted` is cheaper to move on the common path.
    pub(crate) too_large: Option<Box<ToolError>>,
}

/// The response of `items` fitted to `budget` tokens.
pub(crate) fn fit<T: Presenter<Ctx>, Ctx: ?Sized>(
    shape: &Shape<'_, Ctx>,
    items: Items<'_, T>,
    budget: usize,
) -> Result<Fitted, EncodeError> {
    match items {
        Items::Many(all) if shape.format == Format::Json => json_collection(shape, all, budget),
        Items::Many(_) => searched(shape, items, budget, false),
        Items::One(_) => searched(shape, items, budget, true),
    }
}

/// The estimate a response may reach under `budget` (wire format §17.2): 95% of it, since the
/// estimate can be up to 5% under the exact count; the exact count then stays within the budget.
fn room(budget: usize) -> usize {
    budget - budget / 20
}

/// The estimated tokens of a response (wire format §17.2).
fn tokens_of(builder: &ResponseBuilder) -> usize {
    builder.data_tokens() + builder.other_tokens()
}

/// A JSON collection: the longest prefix whose response fits, from one incremental write.
fn json_collection<T: Presenter<Ctx>, Ctx: ?Sized>(
    shape: &Shape<'_, Ctx>,
    all: &[T],
    budget: usize,
) -> Result<Fitted, EncodeError> {
    let by_limit = all.len().min(T::AGENT_LIMIT.unwrap_or(usize::MAX));
    if by_limit == 0 {
        // No item to keep or drop: the response is what it is.
        let (builder, _) = shape.render(Items::Many(all), Cut::NONE, Cut::NONE)?;
        return Ok(if tokens_of(&builder) <= room(budget) {
            Fitted {
                builder,
                too_large: None,
            }
        } else {
            too_large(builder, budget, false)
        });
    }
    let mut data = JsonPrefix::new();
    for item in &all[..by_limit] {
        data.push(item, shape)?;
        if data.tokens_so_far() > room(budget) {
            break;
        }
        data.reserve_for(room(budget), by_limit);
    }
    // No prefix longer than `upper` fits; `best` is the longest one seen to fit.
    let mut upper = data.len();
    let mut best: Option<(usize, ResponseBuilder)> = None;
    let mut kept = data.longest(upper, room(budget), 0);
    // Each round either finds a longer fitting prefix or lowers `upper`; a few rounds settle it
    // (the blocks besides the data grow with the prefix, so the first correction is close).
    for _ in 0..8 {
        if kept == 0 || best.as_ref().is_some_and(|(at, _)| kept <= *at) {
            break;
        }
        let data_tokens = data.tokens(kept);
        // The other blocks only: the data block is put in once the prefix is chosen.
        let (builder, _) = shape.with_parts(
            ResponseBuilder::json_text(String::new()),
            Items::Many(all),
            Cut {
                cap: Some(kept),
                budget,
            },
            Cut::NONE,
        );
        let others = builder.other_tokens();
        if data_tokens + others <= room(budget) {
            best = Some((kept, builder));
        } else {
            upper = kept - 1;
        }
        kept = data.longest(upper, room(budget), others);
    }
    if let Some((kept, others)) = best {
        return Ok(Fitted {
            builder: with_data(others, data.into_text(kept)),
            too_large: None,
        });
    }
    let cut = Cut {
        cap: Some(1),
        budget,
    };
    let (builder, _) = shape.render(Items::Many(all), cut, Cut::NONE)?;
    Ok(too_large(builder, budget, false))
}

/// The response of `others` (every block but the data block) with `data` as its data block.
fn with_data(mut others: ResponseBuilder, data: String) -> ResponseBuilder {
    let mut builder = ResponseBuilder::json_text(data);
    let (ui, embeds, rules, suggestions) = builder.parts_mut();
    let (other_ui, other_embeds, other_rules, other_suggestions) = others.parts_mut();
    std::mem::swap(ui, other_ui);
    std::mem::swap(embeds, other_embeds);
    std::mem::swap(rules, other_rules);
    std::mem::swap(suggestions, other_suggestions);
    builder
}

/// A TOON collection (`single` false) or a single value (`single` true): the largest cut whose
/// response fits, by a search over the cut, each step a full render.
///
/// A response's tokens grow about linearly with the cut (each kept item adds its own), so each
/// next cut is aimed where the line through the last two renders meets the budget: a couple of
/// renders near the answer, instead of a doubling and halving search of about 2 log k. The
/// search keeps a cut known to fit and one known not to, and every step lands strictly between
/// them (at the middle when aiming made no halving progress the step before), so it ends.
fn searched<T: Presenter<Ctx>, Ctx: ?Sized>(
    shape: &Shape<'_, Ctx>,
    items: Items<'_, T>,
    budget: usize,
    single: bool,
) -> Result<Fitted, EncodeError> {
    let room = room(budget);
    let attempt = |cap: usize| {
        let cut = Cut {
            cap: Some(cap),
            budget,
        };
        let (cut, embed_cut) = if single {
            (Cut::NONE, cut)
        } else {
            (cut, Cut::NONE)
        };
        shape
            .render(items, cut, embed_cut)
            .map(|(builder, by_budget)| {
                let tokens = tokens_of(&builder);
                (builder, by_budget, tokens)
            })
    };
    let whole = |builder| {
        Ok(Fitted {
            builder,
            too_large: None,
        })
    };
    if single {
        // Most single values fit whole: one render.
        let (builder, _) = shape.render(items, Cut::NONE, Cut::NONE)?;
        if tokens_of(&builder) <= room {
            return whole(builder);
        }
    }
    let smallest = usize::from(!single);
    let (builder, by_budget, tokens) = attempt(smallest)?;
    if tokens > room {
        return Ok(too_large(builder, budget, single));
    }
    if !by_budget {
        // Nothing was cut: the whole response is this one.
        return whole(builder);
    }
    // The largest cut known to fit, with its response and tokens; the smallest known not to.
    let mut good = (smallest, builder, tokens);
    let mut bad: Option<(usize, usize)> = None;
    // The render before the last one that fitted, for the line when no cut is known not to fit.
    let mut earlier: Option<(usize, usize)> = None;
    let mut halving = true;
    loop {
        let upper = bad.map_or(usize::MAX, |(cap, _)| cap);
        if upper - good.0 <= 1 {
            return whole(good.1);
        }
        let other = bad.or(earlier);
        let aimed = other.and_then(|(cap, tokens)| aim((good.0, good.2), (cap, tokens), room));
        let cap = match aimed {
            // Past every render so far, at most 64 times the cut known to fit (or 256): a line
            // through two small cuts can be flat, and a render past the answer costs all it keeps.
            Some(aimed) if bad.is_none() => aimed.min(good.0.saturating_mul(64).max(256)),
            Some(aimed) if halving => aimed,
            // Aiming made no halving progress: the middle, so the search ends.
            _ if bad.is_some() => good.0 + (upper - good.0) / 2,
            _ => good.0.saturating_mul(2).max(1),
        }
        .clamp(good.0 + 1, upper - 1);
        let (builder, by_budget, tokens) = attempt(cap)?;
        let width = upper - good.0;
        if tokens > room {
            bad = Some((cap, tokens));
            halving = (cap - good.0).saturating_mul(2) <= width;
        } else if !by_budget {
            return whole(builder);
        } else {
            halving = (upper - cap).saturating_mul(2) <= width;
            earlier = Some((good.0, good.2));
            good = (cap, builder, tokens);
        }
    }
}

/// Where the line through two renders (cut, tokens) reaches `room` tokens, rounded down; `None`
/// when the line does not rise (tokens that do not grow with the cut say nothing).
fn aim(a: (usize, usize), b: (usize, usize), room: usize) -> Option<usize> {
    let ((low_cap, low_tokens), (high_cap, high_tokens)) = if a.0 < b.0 { (a, b) } else { (b, a) };
    let rise = high_tokens
        .checked_sub(low_tokens)
        .filter(|&rise| rise > 0)?;
    let run = high_cap - low_cap;
    // cap = low_cap + (room − low_tokens) × run / rise, in u128 so that nothing overflows.
    let above = u128::try_from(room.checked_sub(low_tokens)?).ok()?;
    let steps = above * u128::try_from(run).ok()? / u128::try_from(rise).ok()?;
    usize::try_from(steps)
        .ok()
        .map(|steps| low_cap.saturating_add(steps))
}

/// The answer when not even the smallest response fits: `RESPONSE_TOO_LARGE` (wire format §17.5),
/// with the smallest response kept for [`Presentation::into_builder`](super::Presentation::into_builder).
fn too_large(builder: ResponseBuilder, budget: usize, single: bool) -> Fitted {
    let tokens = tokens_of(&builder);
    let smallest = if single {
        "The value with its embedded lists emptied"
    } else {
        "One item"
    };
    let error = ToolError::new(
        "RESPONSE_TOO_LARGE",
        format!(
            "{smallest} takes about {} tokens, more than the response budget of {} tokens.",
            thousands(tokens),
            thousands(budget)
        ),
    )
    .recovery(
        "Call again with a `_select` of fewer fields, or with filters that match smaller items.",
    );
    Fitted {
        builder,
        too_large: Some(Box::new(error)),
    }
}

/// The JSON data block of a collection, written item by item: each item's end and the token
/// tally there, so any prefix's text and estimate is at hand without writing it again.
///
/// The tally counts the text in whole blocks as it grows ([`TokenTally::push_blocks`]), so
/// every byte is counted once and at block speed wherever the items end; an item's saved tally
/// covers the text up to the last whole block before its end, and the few bytes after it are
/// counted when that prefix's estimate is asked for.
struct JsonPrefix {
    /// `[`, then each item after `\n  ` or `,\n  `, indented one level.
    text: String,
    /// The tally of `text[..counted]`.
    tally: TokenTally,
    counted: usize,
    /// Per item written: where it ends in `text`, and `counted` and the tally then.
    ends: Vec<(usize, usize, TokenTally)>,
}

/// After this many items the buffer is sized for the items the budget will take.
const SIZING_SAMPLE: usize = 16;

impl JsonPrefix {
    fn new() -> Self {
        JsonPrefix {
            text: String::from("["),
            tally: TokenTally::new(),
            counted: 0,
            ends: Vec::new(),
        }
    }

    /// How many items are written.
    fn len(&self) -> usize {
        self.ends.len()
    }

    /// Appends `item` as the collection's next element (wire format §3: two-space indentation),
    /// written in place one level deep, as the collection writer writes its elements.
    fn push<T: Model, Ctx: ?Sized>(
        &mut self,
        item: &T,
        shape: &Shape<'_, Ctx>,
    ) -> Result<(), EncodeError> {
        self.text.push_str(if self.ends.is_empty() {
            "\n  "
        } else {
            ",\n  "
        });
        match shape.mask {
            None => json::append_element(&mut self.text, item)?,
            Some(mask) => json::append_element(&mut self.text, &Selected { item, mask })?,
        }
        self.counted += self.tally.push_blocks(&self.text[self.counted..]);
        self.ends.push((self.text.len(), self.counted, self.tally));
        Ok(())
    }

    /// Sizes the buffer, once the first items are written, for as many as `room` tokens and
    /// `most` items allow, by their average: growing it by doubling would copy it about twice.
    fn reserve_for(&mut self, room: usize, most: usize) {
        if self.len() != SIZING_SAMPLE {
            return;
        }
        let tokens = self.tokens_so_far().max(1);
        let items = (room.saturating_mul(SIZING_SAMPLE) / tokens).min(most) + 1;
        let bytes = (self.text.len() / SIZING_SAMPLE).saturating_mul(items);
        self.text.reserve(bytes.saturating_sub(self.text.len()));
    }

    /// At most the estimated tokens of every item written (the bytes after the last whole
    /// block are not counted yet): enough to see that the items alone are over the budget.
    fn tokens_so_far(&self) -> usize {
        self.tally.tokens()
    }

    /// The data block of the first `kept` items.
    #[cfg(test)]
    fn text(&self, kept: usize) -> String {
        match kept.checked_sub(1).and_then(|last| self.ends.get(last)) {
            None => "[]".to_owned(),
            Some(&(end, _, _)) => {
                let mut text = String::with_capacity(end + 2);
                text.push_str(&self.text[..end]);
                text.push_str("\n]");
                text
            }
        }
    }

    /// [`JsonPrefix::text`]`(kept)`, in the buffer the items were written to (no copy).
    fn into_text(self, kept: usize) -> String {
        match kept.checked_sub(1).and_then(|last| self.ends.get(last)) {
            None => "[]".to_owned(),
            Some(&(end, _, _)) => {
                let mut text = self.text;
                text.truncate(end);
                text.push_str("\n]");
                text
            }
        }
    }

    /// The estimated tokens of [`JsonPrefix::text`]`(kept)`.
    fn tokens(&self, kept: usize) -> usize {
        match kept.checked_sub(1).and_then(|last| self.ends.get(last)) {
            None => estimate("[]"),
            Some(&(end, counted, mut tally)) => {
                tally.push(&self.text[counted..end]);
                tally.push("\n]");
                tally.tokens()
            }
        }
    }

    /// The longest prefix of at most `upper` items whose data, with `others` tokens of other
    /// blocks, fits `budget` (0 when none does). Tallies only grow, so this is a binary search.
    fn longest(&self, upper: usize, budget: usize, others: usize) -> usize {
        let upper = upper.min(self.len());
        let fits = |kept: usize| kept == 0 || self.tokens(kept) + others <= budget;
        let (mut good, mut bad) = (0, upper + 1);
        while bad - good > 1 {
            let middle = good + (bad - good) / 2;
            if fits(middle) {
                good = middle;
            } else {
                bad = middle;
            }
        }
        good
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A hand-written model of two members, one holding line feeds and a nested list.
    struct Row(u32, &'static str);

    impl serde::Serialize for Row {
        fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
            self.serialize_selected(&FieldMask::ALL, serializer)
        }
    }

    impl Model for Row {
        type Field = crate::model::NoField;
        const NAME: &'static str = "Row";
        const WIRE_NAMES: &'static [&'static str] = &[];

        fn serialize_selected<S: serde::Serializer>(
            &self,
            _: &FieldMask,
            serializer: S,
        ) -> Result<S::Ok, S::Error> {
            use serde::ser::SerializeStruct;
            let mut state = serializer.serialize_struct("Row", 3)?;
            state.serialize_field("id", &self.0)?;
            state.serialize_field("note", self.1)?;
            state.serialize_field("tags", &[self.1, "x"])?;
            state.end()
        }
    }

    #[test]
    fn every_prefix_is_the_json_of_that_many_items_and_its_estimate() {
        let rows = [Row(1, "a\nb"), Row(2, "</domain_rules>"), Row(3, "")];
        let shape = Shape {
            ctx: &(),
            mask: None,
            format: Format::Json,
        };
        let mut data = JsonPrefix::new();
        for row in &rows {
            data.push(row, &shape).unwrap();
        }
        for kept in 0..=rows.len() {
            let whole = json::to_string(&rows[..kept]).unwrap();
            assert_eq!(data.text(kept), whole);
            assert_eq!(data.tokens(kept), estimate(&whole));
        }
        assert_eq!(data.longest(3, data.tokens(2), 0), 2);
        assert_eq!(data.longest(3, data.tokens(2) + 5, 5), 2);
        assert_eq!(data.longest(1, usize::MAX, 0), 1);
        assert_eq!(data.longest(3, 0, 0), 0);
        let last = data.text(2);
        assert_eq!(data.into_text(2), last);
    }

    #[test]
    fn thousands_groups_digits() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(8000), "8,000");
        assert_eq!(thousands(1_234_567), "1,234,567");
    }
}
