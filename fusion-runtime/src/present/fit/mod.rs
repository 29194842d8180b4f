//! Fitting a presented response to a token budget (wire format §17): a collection keeps the
//! longest prefix of items whose whole response fits, a single value cuts its embedded
//! collections, and nothing is ever cut inside an item, so the data block always parses.
//!
//! The seam between presenting and fitting: the engine renders a response for a cut
//! ([`Shape::render`]) and builds a collection's other blocks item by item ([`ItemParts`]); this
//! module decides which cut to send.
//!
//! - [`search`]: the longest cut that fits, by a bracket that every probe narrows (correct
//!   whatever the sizes of the blocks besides the data; at most about 2 log₂ n probes, usually
//!   three or four, aimed by a line through earlier probes);
//! - [`prefix`]: a collection's data block (the JSON list, the rows of a TOON table, or the
//!   elements of a TOON list of nested items) written once, item by item, with each item's tokens counted as it is appended, so the data block of
//!   any prefix, and its estimate, is at hand without writing anything again; writing stops as
//!   soon as the items alone are over the budget;
//! - [`parts`]: a collection's other blocks for any prefix, each item presented about once.
//!
//! A TOON collection whose first item could be a table row but a later one is not (so whether a
//! prefix is a table depends on where it ends), and a single value, are probed by full renders
//! of the candidate: a single value's embedded collections are only reachable through its
//! serializer.
//!
//! [`ItemParts`]: super::engine::ItemParts

mod parts;
mod prefix;
mod search;

use self::parts::PrefixParts;
use self::prefix::{DataPrefix, JsonPrefix, ToonListPrefix, ToonPrefix};
use self::search::{Bracket, Probe, aim_line, longest_fitting};
use super::engine::{Cut, Items, Presentation, Presenter, Shape, thousands, tightest};
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
    let prefixed = match items {
        Items::Many(all) if shape.format == Format::Json => {
            collection(shape, all, budget, JsonPrefix::new(shape))?
        }
        Items::Many(all) => {
            let table = match ToonPrefix::new::<T, Ctx>(shape) {
                Some(rows) => collection(shape, all, budget, rows)?,
                None => None,
            };
            match table {
                Some(fitted) => Some(fitted),
                None => collection(shape, all, budget, ToonListPrefix::new(shape))?,
            }
        }
        Items::One(_) => return rendered(shape, items, budget),
    };
    match prefixed {
        Some(fitted) => Ok(fitted),
        None => rendered(shape, items, budget),
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
    let room = room(budget);
    let by_limit = all.len().min(T::AGENT_LIMIT.unwrap_or(usize::MAX));
    if by_limit == 0 {
        // No item to keep or drop: the response is what it is.
        let (builder, _) = shape.render(Items::Many(all), Cut::NONE, Cut::NONE)?;
        return Ok(Some(whole_or_too_large(builder, budget, false)));
    }
    if !data.write(&all[..by_limit], room)? {
        return Ok(None);
    }
    // Writing stops at the first item past the room: that prefix's data alone is over it.
    // Otherwise every item is written and only the other blocks can be over.
    let written = data.len();
    let over = if data.tokens(written) > room {
        written
    } else {
        written + 1
    };
    let mut parts = PrefixParts::new(all, shape.ctx, budget);
    let kept = longest_fitting(
        room,
        Some(over),
        |bracket| Some(aim_prefix(&data, bracket, room)),
        |kept| {
            Ok::<_, EncodeError>(Probe {
                tokens: data.tokens(kept) + parts.tokens(kept),
                whole: kept == by_limit,
            })
        },
    )?;
    if kept == 0 {
        let (builder, _) = shape.render(Items::Many(all), smallest_cut(budget), Cut::NONE)?;
        return Ok(Some(too_large(builder, budget, false)));
    }
    Ok(Some(Fitted {
        builder: parts.into_builder(kept, data.into_data(kept, all)?),
        too_large: None,
    }))
}

/// Where the longest prefix that fits probably ends, within the bracket: the data block of
/// every prefix is counted already, and the other blocks are taken to grow along the line
/// through the two ends of the bracket, or in proportion to the items from the one end probed.
fn aim_prefix<T>(data: &impl DataPrefix<T>, bracket: &Bracket, room: usize) -> usize {
    let others = |(cut, tokens): (usize, usize)| (cut, tokens.saturating_sub(data.tokens(cut)));
    let fits = bracket
        .fits
        .1
        .map(|tokens| others((bracket.fits.0, tokens)));
    let over = bracket
        .over
        .and_then(|(cut, tokens)| Some(others((cut, tokens?))));
    let (a, b) = match (fits, over) {
        (Some(a), Some(b)) => (a, b),
        (Some(one), None) | (None, Some(one)) => ((0, 0), one),
        // Nothing probed: the data alone, the longest prefix that could fit.
        (None, None) => ((0, 0), (1, 0)),
    };
    // The other blocks at `cut` on that line (never below zero).
    let (low, high) = if a.0 < b.0 { (a, b) } else { (b, a) };
    let wide = |n: usize| i128::try_from(n).unwrap_or(i128::MAX);
    let others_at = |cut: usize| {
        let run = wide(high.0 - low.0).max(1);
        let rise = wide(high.1) - wide(low.1);
        (wide(low.1) + rise * (wide(cut) - wide(low.0)) / run).max(0)
    };
    let lowest = bracket.fits.0;
    let highest = bracket
        .over
        .map_or(data.len(), |(cut, _)| cut - 1)
        .min(data.len());
    let fits_at = |cut: usize| wide(data.tokens(cut)) + others_at(cut) <= wide(room);
    let (mut good, mut bad) = (lowest, highest + 1);
    while bad - good > 1 {
        let middle = good + (bad - good) / 2;
        if fits_at(middle) {
            good = middle;
        } else {
            bad = middle;
        }
    }
    good
}

/// The cut of a collection's smallest honest answer: one item and the summary (wire format §17.5).
fn smallest_cut(budget: usize) -> Cut {
    Cut {
        cap: Some(1),
        budget,
    }
}

/// A single value (its embedded collections cut), or a collection whose data block cannot be
/// grown item by item: the longest cut that fits, each probe a full render of that cut.
///
/// Cut j is a prefix of j items for a collection, and a cap of j − 1 items on every embedded
/// collection for a single value (cut 1 empties them: its smallest honest answer).
fn rendered<T: Presenter<Ctx>, Ctx: ?Sized>(
    shape: &Shape<'_, Ctx>,
    items: Items<'_, T>,
    budget: usize,
) -> Result<Fitted, EncodeError> {
    let room = room(budget);
    let single = matches!(items, Items::One(_));
    let render = |cut: usize| {
        if single {
            let cap = Cut {
                cap: Some(cut - 1),
                budget,
            };
            shape.render(items, Cut::NONE, cap)
        } else {
            let cap = Cut {
                cap: Some(cut),
                budget,
            };
            shape.render(items, cap, Cut::NONE)
        }
    };
    let over = match items {
        Items::Many(all) if all.is_empty() || T::AGENT_LIMIT == Some(0) => {
            // No item to keep or drop: the response is what it is.
            let (builder, _) = shape.render(items, Cut::NONE, Cut::NONE)?;
            return Ok(whole_or_too_large(builder, budget, false));
        }
        // Cut L is the whole collection; the search probes it like any other.
        Items::Many(all) => Some(all.len().min(T::AGENT_LIMIT.unwrap_or(usize::MAX)) + 1),
        Items::One(_) => {
            // Most single values fit whole: one render.
            let (whole, _) = shape.render(items, Cut::NONE, Cut::NONE)?;
            if tokens_of(&whole) <= room {
                return Ok(Fitted {
                    builder: whole,
                    too_large: None,
                });
            }
            // Unknown: the longest embedded collection is only known to the serializer.
            None
        }
    };
    // The builder of the longest cut probed that fits (the search's answer is the last one).
    let mut kept: Option<ResponseBuilder> = None;
    let found = longest_fitting(
        room,
        over,
        |bracket| aim_rendered(bracket, room, single),
        |cut| {
            let (builder, by_budget) = render(cut)?;
            let tokens = tokens_of(&builder);
            if tokens <= room {
                kept = Some(builder);
            }
            Ok::<_, EncodeError>(Probe {
                tokens,
                whole: !by_budget,
            })
        },
    )?;
    match kept {
        Some(builder) if found > 0 => Ok(Fitted {
            builder,
            too_large: None,
        }),
        _ => {
            let (smallest, _) = render(1)?;
            Ok(too_large(smallest, budget, single))
        }
    }
}

/// Where the longest cut that fits probably is: on the line through the last two probes, or,
/// for a collection probed once, in proportion to that probe's tokens.
fn aim_rendered(bracket: &Bracket, room: usize, single: bool) -> Option<usize> {
    match bracket.last {
        [Some(latest), Some(before)] => aim_line(latest, before, room),
        [Some((cut, tokens)), None] if !single && tokens > 0 => {
            Some(cut.saturating_mul(room) / tokens)
        }
        _ => None,
    }
}

/// The response as it is when it fits, or `RESPONSE_TOO_LARGE`.
fn whole_or_too_large(builder: ResponseBuilder, budget: usize, single: bool) -> Fitted {
    if tokens_of(&builder) <= room(budget) {
        Fitted {
            builder,
            too_large: None,
        }
    } else {
        too_large(builder, budget, single)
    }
}

/// The answer when not even the smallest response fits: `RESPONSE_TOO_LARGE` (wire format §17.5),
/// with the smallest response kept for [`Presentation::into_builder`](super::Presentation::into_builder).
fn too_large(builder: ResponseBuilder, budget: usize, single: bool) -> Fitted {
    let data = builder.data_tokens();
    let tokens = data + builder.other_tokens();
    let smallest = if single {
        "The value with its embedded lists emptied"
    } else {
        "One item with the truncation summary"
    };
    // A narrower `_select` shrinks the data block only: offer it when that is what is large.
    let recovery = if data * 2 >= tokens {
        "Call again with a `_select` of fewer fields, or with filters that match smaller items."
    } else {
        "Most of it is not the data (summary, UI, rules, suggestions), so a narrower `_select` \
         will not help: tell the user that this answer does not fit the tool's response budget."
    };
    let error = ToolError::new(
        "RESPONSE_TOO_LARGE",
        format!(
            "{smallest} takes about {} tokens, more than fits a response budget of {} tokens.",
            thousands(tokens),
            thousands(budget),
        ),
    )
    .recovery(recovery);
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
