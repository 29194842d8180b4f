//! Fitting a presented response to a token budget (wire format §17): a collection keeps the
//! longest prefix of items whose whole response fits, a single value cuts its embedded
//! collections, and nothing is ever cut inside an item, so the data block always parses.
//!
//! A collection is written once, item by item, straight into one buffer (the JSON list as the
//! collection writer writes its elements, or the rows of the TOON table), each item's tokens
//! counted as it is appended ([`prefix`]): the data block of any prefix is a slice of that text
//! (and, for TOON, the header of its row count), and its estimate a saved tally. Writing stops
//! as soon as the items alone exceed the budget, so a 10,000-item collection fitted to 25,000
//! tokens writes only the items it can keep (plus one or two). The other blocks depend on the
//! kept items (collection rules, the summary), so they are computed for a candidate prefix and
//! the prefix corrected, usually once or twice; each item's own blocks are made once, and a
//! shorter candidate's are cut from a longer one's ([`PrefixParts`]). That costs about 1.2x
//! rendering the kept items (PERFORMANCE.md, "Fitting to a budget").
//!
//! A TOON collection whose rows are no table rows (a nested member, say), and a single value,
//! are fitted by a search over the cut, each step a full render of that candidate, aimed where
//! the line through the last two renders meets the budget (usually two renders near the
//! answer): the generic TOON encoding of a list is only known whole, and a single value's
//! embedded collections are only reachable through its serializer.

mod prefix;

use self::prefix::{DataPrefix, JsonPrefix, ToonPrefix, longest};
use super::engine::{Cut, Items, PrefixParts, Presentation, Presenter, Shape, thousands, tightest};
use crate::encode::EncodeError;
use crate::model::FieldMask;
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
    pub(crate) fn fitted(self) -> Result<Fitted, EncodeError> {
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
            format: self.resolved_format(),
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
    let prefixed = match items {
        Items::Many(all) if shape.format == Format::Json => {
            collection(shape, all, budget, JsonPrefix::new(shape))?
        }
        // Compact JSON is fitted by the search (the incremental writer writes §3's layout).
        Items::Many(_) if shape.format == Format::CompactJson => None,
        Items::Many(all) => match ToonPrefix::new::<T, Ctx>(shape) {
            Some(rows) => collection(shape, all, budget, rows)?,
            None => None,
        },
        Items::One(_) => return searched(shape, items, budget, true),
    };
    match prefixed {
        Some(fitted) => Ok(fitted),
        None => searched(shape, items, budget, false),
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

/// A collection: the longest prefix whose response fits, from one incremental write of its
/// data block; `None` when an item cannot be written so (a TOON row that is no table row).
fn collection<T: Presenter<Ctx>, Ctx: ?Sized>(
    shape: &Shape<'_, Ctx>,
    all: &[T],
    budget: usize,
    mut data: impl DataPrefix<T>,
) -> Result<Option<Fitted>, EncodeError> {
    let by_limit = all.len().min(T::AGENT_LIMIT.unwrap_or(usize::MAX));
    if by_limit == 0 {
        // No item to keep or drop: the response is what it is.
        let (builder, _) = shape.render(Items::Many(all), Cut::NONE, Cut::NONE)?;
        return Ok(Some(if tokens_of(&builder) <= room(budget) {
            Fitted {
                builder,
                too_large: None,
            }
        } else {
            too_large(builder, budget, false)
        }));
    }
    if !data.write(&all[..by_limit], room(budget))? {
        return Ok(None);
    }
    // No prefix longer than `upper` fits; `best` is the longest one seen to fit, with its other
    // blocks; `over` the other blocks of the last prefix seen not to fit, which a shorter
    // candidate's are cut from (each item is presented once).
    let mut upper = data.len();
    let mut best: Option<(usize, PrefixParts)> = None;
    let mut over: Option<PrefixParts> = None;
    let mut kept = longest(&data, upper, room(budget), 0);
    // Each round either finds a longer fitting prefix or lowers `upper`; a few rounds settle it
    // (the blocks besides the data grow with the prefix, so the first correction is close).
    for _ in 0..8 {
        if kept == 0 || best.as_ref().is_some_and(|(at, _)| kept <= *at) {
            break;
        }
        let cut = Cut {
            cap: Some(kept),
            budget,
        };
        let parts = match over.take() {
            Some(mut longer) if longer.kept() >= kept => {
                shape.cut_prefix_parts(&mut longer, all, cut);
                longer
            }
            _ => shape.prefix_parts(all, cut),
        };
        let others = parts.tokens();
        if data.tokens(kept) + others <= room(budget) {
            best = Some((kept, parts));
        } else {
            upper = kept - 1;
            over = Some(parts);
        }
        kept = longest(&data, upper, room(budget), others);
    }
    if let Some((kept, parts)) = best {
        return Ok(Some(Fitted {
            builder: parts.into_builder(data.into_data(kept, all)?),
            too_large: None,
        }));
    }
    let cut = Cut {
        cap: Some(1),
        budget,
    };
    let (builder, _) = shape.render(Items::Many(all), cut, Cut::NONE)?;
    Ok(Some(too_large(builder, budget, false)))
}

/// A collection that is not fitted from one write (`single` false) or a single value (`single`
/// true): the largest cut whose response fits, by a search over the cut, each step a full render.
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thousands_groups_digits() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(8000), "8,000");
        assert_eq!(thousands(1_234_567), "1,234,567");
    }
}
