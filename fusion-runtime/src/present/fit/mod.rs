//! Fitting a presented response to a token budget (wire format §17): a collection keeps the
//! longest prefix of items whose whole response fits, a single value cuts its embedded
//! collections, and nothing is ever cut inside an item, so the data block always parses.
//!
//! The seam between presenting and fitting: the engine renders a response for a cut
//! ([`Shape::render`]) and builds a collection's other blocks item by item ([`ItemParts`]); this
//! module decides which cut to send. The presentation calls [`fit`] when a budget is set, and
//! only then (`Presentation::fitted`); without the feature `budget` this module is not compiled.
//!
//! - [`search`]: the longest cut that fits, by a bracket that every probe narrows (correct
//!   whatever the sizes of the blocks besides the data; at most about 4 log₂ n probes). A
//!   collection's search is aimed by its data block's counted tokens and a guess of the other
//!   blocks' (the lines the items' rules and suggestions bring, counted as the items are
//!   pushed, and the rest on a line through earlier probes), so it usually takes two: the
//!   prefix past the answer, then the answer;
//! - [`prefix`]: a collection's data block (the JSON list, pretty or compact, the rows of a TOON table, or the
//!   elements of a TOON list of nested items) written once, item by item, with each item's tokens counted as it is appended, so the data block of
//!   any prefix, and its estimate, is at hand without writing anything again; writing stops as
//!   soon as the items alone are over the budget;
//! - [`parts`]: a collection's other blocks for any prefix, each item presented about once;
//! - `exact` (feature `exact-tokens`): a budget kept by the exact count
//!   (`Presentation::exact_tokens`), the estimate's search aiming the exact count's probes.
//!
//! A TOON collection whose first item could be a table row but a later one is not (so whether a
//! prefix is a table depends on where it ends), and a single value, are probed by full renders
//! of the candidate: a single value's embedded collections are only reachable through its
//! serializer. So is every presentation whose budget is kept by the exact count (`fit_exactly`,
//! feature `exact-tokens`): the same search, each probe counted by the tokenizer, the room the
//! whole budget, each guess the cut the estimate's own search finds.
//!
//! [`ItemParts`]: super::engine::ItemParts

use std::cell::RefCell;

#[cfg(feature = "exact-tokens")]
pub(super) mod exact;
mod parts;
mod prefix;
mod search;

use self::parts::PrefixParts;
use self::prefix::{DataPrefix, JsonPrefix, ToonListPrefix, ToonPrefix};
use self::search::{Bracket, Probe, aim_line, longest_fitting};
use super::engine::{Cut, Items, Presenter, Thousands};
use super::presentation::{Fitted, Shape};
use crate::encode::EncodeError;
use crate::response::{Format, ResponseBuilder, ToolError};

/// The response of `items` fitted to `budget` tokens.
pub(crate) fn fit<T: Presenter<Ctx>, Ctx: ?Sized>(
    shape: &Shape<'_, Ctx>,
    items: Items<'_, T>,
    budget: usize,
) -> Result<Fitted, EncodeError> {
    let room = room(budget).saturating_sub(shape.reserved);
    estimated(shape, items, budget, room).map(|answer| answer.fitted)
}

/// A fitted response and the cut it keeps (0: not even cut 1 fits; for a single value that
/// fits whole, `usize::MAX`).
struct Answer {
    fitted: Fitted,
    #[cfg_attr(
        not(feature = "exact-tokens"),
        expect(dead_code, reason = "read by the exact count's aim only")
    )]
    cut: usize,
}

/// The response of `items` cut to the longest cut whose estimate is within `room` tokens (the
/// budget's own room for a fit; another room when the exact count aims with it), its summary
/// and its `RESPONSE_TOO_LARGE` figures those of `budget`.
fn estimated<T: Presenter<Ctx>, Ctx: ?Sized>(
    shape: &Shape<'_, Ctx>,
    items: Items<'_, T>,
    budget: usize,
    room: usize,
) -> Result<Answer, EncodeError> {
    let prefixed = match items {
        Items::Many(all) if matches!(shape.format, Format::Json | Format::CompactJson) => {
            collection(shape, all, budget, room, JsonPrefix::new(shape))?
        }
        Items::Many(all) => {
            let table = match ToonPrefix::new::<T, Ctx>(shape) {
                Some(rows) => collection(shape, all, budget, room, rows)?,
                None => None,
            };
            match table {
                Some(answer) => Some(answer),
                None => collection(shape, all, budget, room, ToonListPrefix::new(shape))?,
            }
        }
        Items::One(_) => None,
    };
    match prefixed {
        Some(answer) => Ok(answer),
        None => rendered(shape, items, budget, &Count::estimate(room), None),
    }
}

/// The estimate a response may reach under `budget` (wire format §17.2): B − (2⌈√B⌉ + 4).
///
/// The estimate is an upper bound of the exact count on average (fitted so, about 2% over), but
/// each piece of text errs a little either way, and over n tokens those errors add up like √n,
/// not like n: responses below 1,000 tokens were found up to 17 tokens under, below 3,000 up to
/// 31, below 10,000 up to 34, above up to 101 (`budget_margin`, wire format A.24, A.27). So the
/// margin is at least twice that spread, and leaves less on the table the larger the budget
/// (4.7% of 2,000 tokens, 1.3% of 25,000) while staying safe for small ones.
fn room(budget: usize) -> usize {
    budget.saturating_sub(margin(budget))
}

/// 2⌈√B⌉ + 4: the tokens a fit keeps free under a budget of B.
fn margin(budget: usize) -> usize {
    // The integer square root rounded up, exact for any budget (no float rounding).
    let mut root = budget.isqrt();
    if root * root < budget {
        root += 1;
    }
    2 * root + 4
}

/// How far `builder`, a fitted response the caller has added to (a page's envelope), is over
/// what a fit to `budget` may reach: its estimate past the room (§17.2), or its exact count past
/// the budget when the budget is kept by the exact count; 0 when within.
pub(crate) fn over_by(builder: &ResponseBuilder, budget: usize, exact: bool) -> usize {
    #[cfg(feature = "exact-tokens")]
    if exact && let Some(counter) = exact::counter() {
        return builder.exact_tokens(counter).saturating_sub(budget);
    }
    let _ = exact;
    tokens_of(builder).saturating_sub(room(budget))
}

/// The estimated tokens of a response (wire format §17.2).
fn tokens_of(builder: &ResponseBuilder) -> usize {
    builder.data_tokens() + builder.other_tokens()
}

/// A collection: the longest prefix whose response fits, its data block written once, item by
/// item, as far as the search asks; `None` when an item cannot be written so (a TOON row that
/// is no table row) or there is no item to keep or drop (then [`rendered`] answers with the
/// response as it is).
fn collection<T: Presenter<Ctx>, Ctx: ?Sized>(
    shape: &Shape<'_, Ctx>,
    all: &[T],
    budget: usize,
    room: usize,
    data: impl DataPrefix<T>,
) -> Result<Option<Answer>, EncodeError> {
    let by_limit = all.len().min(T::AGENT_LIMIT.unwrap_or(usize::MAX));
    if by_limit == 0 {
        return Ok(None);
    }
    let items = &all[..by_limit];
    let mut data = data;
    data.reserve_tokens(room);
    let data = RefCell::new(data);
    let parts = RefCell::new(PrefixParts::new(all, shape.ctx, shape.scope(), budget));
    // The other blocks' tokens at a prefix, for the aim: the lines of their own that the items'
    // rules and suggestions hold, counted as the items are pushed, plus the rest (the static
    // rules, the summary, UI, grouped lines, collection rules and suggestions) taken on the line
    // through the last two prefixes probed. Before any probe, the rest is that of one item,
    // taken to stay as it is: a grouped line mostly appears with the first item it concerns
    // and then grows by a name at most (wire format §6.10). Taken from no item and without the
    // lines, the first guess overshot by all of them, and a search of a collection whose other
    // blocks grow with its items took a probe or two more (PERFORMANCE.md, "Issue #20, round
    // nine").
    let measured = RefCell::new(Measured::default());
    let record = |kept: usize, others: usize| {
        let lines = parts.borrow_mut().lines(kept);
        measured
            .borrow_mut()
            .record(kept, wide(others) - wide(lines));
    };
    // The first item before the other blocks: when it is no row of the TOON table (billing's
    // invoices, with their nested customer), the collection is fitted as a list instead, and
    // the other blocks made for the table were made for nothing (a fit of billing as TOON made
    // them four times, where three do).
    if !data.borrow_mut().extend(items, 1)? {
        return Ok(None);
    }
    let first = parts.borrow_mut().tokens(1);
    record(1, first);
    let mut others_at =
        |kept: usize| (measured.borrow().at(kept) + wide(parts.borrow_mut().lines(kept))).max(0);
    let kept = longest_fitting(
        room,
        Some(by_limit),
        |bracket| {
            aim_prefix(
                &mut *data.borrow_mut(),
                items,
                &mut others_at,
                bracket,
                room,
            )
        },
        |kept| {
            let mut data = data.borrow_mut();
            if !data.extend(items, kept)? {
                return Err(Stop::NoPrefix);
            }
            let data_tokens = data.tokens(kept);
            if data_tokens > room {
                // The data alone is over: no need to make the other blocks.
                return Ok(Probe {
                    tokens: data_tokens,
                    whole: false,
                });
            }
            let others = parts.borrow_mut().tokens(kept);
            record(kept, others);
            Ok(Probe {
                tokens: data_tokens + others,
                whole: kept == by_limit,
            })
        },
    );
    let kept = match kept {
        Ok(kept) => kept,
        Err(Stop::NoPrefix) => return Ok(None),
        Err(Stop::Encode(error)) => return Err(error),
    };
    // Not even one item fits: where the other blocks shrink as items are added (a collection
    // rule that only speaks of a short list), a longer prefix may, so the longest whose data
    // block alone fits is tried before the answer is `RESPONSE_TOO_LARGE` (§17.3's decision): the
    // whole list when every item's does. The data block is written on only until it alone is
    // over the room. Past a prefix that fits, the search does not look (writing the data on
    // until it alone is over cost the TOON table's fit at 2,000 tokens 0.2x its render).
    let kept = if kept == 0 {
        let longest = match longest_by_data(&mut *data.borrow_mut(), items, room) {
            Ok(longest) => longest,
            Err(Stop::NoPrefix) => return Ok(None),
            Err(Stop::Encode(error)) => return Err(error),
        };
        if longest > 1 && data.borrow().tokens(longest) + parts.borrow_mut().tokens(longest) <= room
        {
            longest
        } else {
            0
        }
    } else {
        kept
    };
    if kept == 0 {
        let (builder, _) = shape.render(Items::Many(all), smallest_cut(budget), Cut::NONE)?;
        let tokens = tokens_of(&builder);
        return Ok(Some(Answer {
            fitted: too_large(shape, builder, budget, Smallest::OneItem, tokens),
            cut: 0,
        }));
    }
    let data = data.into_inner().into_data(kept, all)?;
    Ok(Some(Answer {
        fitted: Fitted {
            builder: parts.into_inner().into_builder(kept, data),
            too_large: None,
        },
        cut: kept,
    }))
}

/// The longest prefix of `items` whose data block alone is within `room` tokens (0 when not
/// even one item's is): the data block is written on, an item at a time, until it is over the
/// room or holds every item, so the prefix one item longer is over by its data alone.
fn longest_by_data<T>(
    data: &mut impl DataPrefix<T>,
    items: &[T],
    room: usize,
) -> Result<usize, Stop> {
    while data.len() < items.len() && (data.len() == 0 || data.tokens(data.len()) <= room) {
        if !data.extend(items, data.len() + 1)? {
            return Err(Stop::NoPrefix);
        }
    }
    let mut longest = data.len().min(items.len());
    while longest > 0 && data.tokens(longest) > room {
        longest -= 1;
    }
    Ok(longest)
}

/// Why a collection's prefix search stopped early.
enum Stop {
    /// An item cannot be written into the data block as it grows (a TOON row that is no table
    /// row): the collection is fitted by renders instead.
    NoPrefix,
    Encode(EncodeError),
}

impl From<EncodeError> for Stop {
    fn from(error: EncodeError) -> Self {
        Stop::Encode(error)
    }
}

/// What the other blocks' tokens are besides the lines the aim counts ([`PrefixParts::lines`]),
/// at the last two prefixes that made them.
#[derive(Default)]
struct Measured {
    last: [Option<(usize, i128)>; 2],
}

impl Measured {
    fn record(&mut self, kept: usize, rest: i128) {
        self.last = [Some((kept, rest)), self.last[0]];
    }

    /// The rest at `kept` on the line through the two measurements (as it is with one, none
    /// with none).
    fn at(&self, kept: usize) -> i128 {
        let (low, high) = match self.last {
            [Some(a), Some(b)] if a.0 != b.0 => (a.min(b), a.max(b)),
            [Some((_, rest)), _] => return rest,
            _ => return 0,
        };
        let run = wide(high.0 - low.0).max(1);
        let rise = high.1 - low.1;
        low.1 + rise * (wide(kept) - wide(low.0)) / run
    }
}

/// `n` in the arithmetic of the aim, which may go below zero.
fn wide(n: usize) -> i128 {
    i128::try_from(n).unwrap_or(i128::MAX)
}

/// Where to probe next: one past where the longest prefix that fits probably ends, within the
/// bracket (the search then probes the guess itself last). `others(kept)` guesses the other
/// blocks' tokens at a prefix, and the data block, whose first item [`collection`] has written,
/// is written on until it and they are over the room, so its tokens are counted, not guessed.
/// `None` when the data block cannot be written (the probe then says why).
fn aim_prefix<T>(
    data: &mut impl DataPrefix<T>,
    items: &[T],
    others: &mut dyn FnMut(usize) -> i128,
    bracket: &Bracket,
    room: usize,
) -> Option<usize> {
    let lowest = bracket.fits.0;
    let highest = bracket
        .over
        .map_or(items.len(), |(cut, _)| cut - 1)
        .min(items.len());
    let none = others(0);
    // Write on while the prefix written still fits by the guess (so one item past the answer),
    // in batches of as many items as the room left seems to hold at the rate so far (the data's
    // and the other blocks' growth).
    loop {
        let written = data.len();
        let counted = wide(data.tokens(written));
        let others_now = others(written);
        let left = wide(room) - counted - others_now;
        if written >= highest || left < 0 {
            break;
        }
        let per_item = (counted + others_now - none) / wide(written.max(1));
        let batch = usize::try_from(left / per_item.max(1)).unwrap_or(0).max(1);
        if !data
            .extend(items, written.saturating_add(batch).min(highest))
            .ok()?
        {
            return None;
        }
    }
    let (mut good, mut bad) = (lowest, data.len().min(highest) + 1);
    while bad - good > 1 {
        let middle = good + (bad - good) / 2;
        if wide(data.tokens(middle)) + others(middle) <= wide(room) {
            good = middle;
        } else {
            bad = middle;
        }
    }
    // The item past the guess first, then the guess: the answer's other blocks are then at hand
    // for the response (a cut past the items is probed as the whole collection).
    Some(bracket.past(good))
}

/// The cut of a collection's smallest honest answer: one item and the summary (wire format §17.5).
fn smallest_cut(budget: usize) -> Cut {
    Cut {
        cap: Some(1),
        budget,
    }
}

/// A guess of the next cut to probe, within a search's bracket (`None`: no guess).
type Aim<'a> = dyn FnMut(&Bracket) -> Option<usize> + 'a;

/// How a fit counts a response's tokens, and how many it may reach.
struct Count<'c> {
    /// The most a fitted response may count.
    room: usize,
    /// The tokens of a response.
    tokens: &'c dyn Fn(&ResponseBuilder) -> usize,
}

impl Count<'_> {
    /// The estimate (wire format §17.2), within `room` tokens.
    fn estimate(room: usize) -> Count<'static> {
        Count {
            room,
            tokens: &tokens_of,
        }
    }
}

/// A single value (its embedded collections cut), or a collection whose data block cannot be
/// grown item by item: the longest cut that fits, each probe a full render of that cut.
///
/// Cut j is a prefix of j items for a collection, and a cap of j − 1 items on every embedded
/// collection for a single value (cut 1 empties them: its smallest honest answer). `aim`
/// guesses the next cut to probe within the bracket; `None`: the line through the last two
/// probes.
fn rendered<T: Presenter<Ctx>, Ctx: ?Sized>(
    shape: &Shape<'_, Ctx>,
    items: Items<'_, T>,
    budget: usize,
    count: &Count<'_>,
    mut aim: Option<&mut Aim<'_>>,
) -> Result<Answer, EncodeError> {
    let room = count.room;
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
    let most = match items {
        Items::Many(all) if all.is_empty() || T::AGENT_LIMIT == Some(0) => {
            // No item to keep or drop: the response is what it is.
            let (builder, _) = shape.render(items, Cut::NONE, Cut::NONE)?;
            return Ok(Answer {
                fitted: whole_or_too_large(shape, builder, budget, count),
                cut: 0,
            });
        }
        // Cut L is the whole collection; the search probes it like any other.
        Items::Many(all) => Some(all.len().min(T::AGENT_LIMIT.unwrap_or(usize::MAX))),
        Items::One(_) => {
            // Most single values fit whole: one render.
            let (whole, _) = shape.render(items, Cut::NONE, Cut::NONE)?;
            if (count.tokens)(&whole) <= room {
                return Ok(Answer {
                    fitted: Fitted {
                        builder: whole,
                        too_large: None,
                    },
                    cut: usize::MAX,
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
        most,
        |bracket| match aim.as_mut() {
            Some(aim) => aim(bracket),
            None => aim_rendered(bracket, room, single),
        },
        |cut| {
            let (builder, by_budget) = render(cut)?;
            let tokens = (count.tokens)(&builder);
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
        Some(builder) if found > 0 => Ok(Answer {
            fitted: Fitted {
                builder,
                too_large: None,
            },
            cut: found,
        }),
        _ => {
            let (smallest, _) = render(1)?;
            let tokens = (count.tokens)(&smallest);
            Ok(Answer {
                fitted: too_large(shape, smallest, budget, Smallest::of(single), tokens),
                cut: 0,
            })
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

/// The response of a collection with no item to show (nothing to cut) as it is when it fits, or
/// `RESPONSE_TOO_LARGE`.
fn whole_or_too_large<Ctx: ?Sized>(
    shape: &Shape<'_, Ctx>,
    builder: ResponseBuilder,
    budget: usize,
    count: &Count<'_>,
) -> Fitted {
    let tokens = (count.tokens)(&builder);
    if tokens <= count.room {
        Fitted {
            builder,
            too_large: None,
        }
    } else {
        too_large(shape, builder, budget, Smallest::NoItems, tokens)
    }
}

/// What the smallest honest answer of a call is (wire format §17.5), as its
/// `RESPONSE_TOO_LARGE` names it.
#[derive(Debug, Clone, Copy)]
enum Smallest {
    /// A collection cut to its first item, with the budget's summary.
    OneItem,
    /// A single value with its embedded collections emptied.
    ValueEmptied,
    /// A collection with no item to show (empty, or an agent limit of 0): nothing to cut.
    NoItems,
}

impl Smallest {
    /// The smallest answer of a single value (`single`) or of a collection with items.
    fn of(single: bool) -> Smallest {
        if single {
            Smallest::ValueEmptied
        } else {
            Smallest::OneItem
        }
    }

    fn text(self) -> &'static str {
        match self {
            Smallest::OneItem => "One item with the truncation summary",
            Smallest::ValueEmptied => "The value with its embedded lists emptied",
            Smallest::NoItems => "The answer with no items",
        }
    }
}

/// The answer when not even the smallest response fits: `RESPONSE_TOO_LARGE` (wire format §17.5),
/// with the smallest response kept for [`Presentation::into_builder`](super::Presentation::into_builder);
/// `tokens` is that response's count, as the fit counted it; the figure adds what the fit left
/// free for the caller ([`Shape::reserved`]), which the answer sent would hold too.
fn too_large<Ctx: ?Sized>(
    shape: &Shape<'_, Ctx>,
    builder: ResponseBuilder,
    budget: usize,
    smallest: Smallest,
    tokens: usize,
) -> Fitted {
    let tokens = tokens + shape.reserved;
    // Whether the data is most of it, by the estimate (however the fit counted).
    let data_is_most = builder.data_tokens() >= builder.other_tokens();
    let smallest = smallest.text();
    // A narrower `_select` shrinks the data block only: offer it when that is what is large.
    let recovery = if data_is_most {
        "Call again with a `_select` of fewer fields, or with filters that match smaller items."
    } else {
        "Most of it is not the data (summary, UI, rules, suggestions), so a narrower `_select` \
         will not help: tell the user that this answer does not fit the tool's response budget."
    };
    let error = ToolError::new(
        "RESPONSE_TOO_LARGE",
        format!(
            "{smallest} takes about {} tokens, more than fits a response budget of {} tokens.",
            Thousands(tokens),
            Thousands(budget),
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
    fn the_room_keeps_twice_the_spread_free() {
        assert_eq!(room(0), 0);
        assert_eq!(room(10), 0);
        assert_eq!(room(100), 100 - 24);
        assert_eq!(room(101), 101 - 26);
        assert_eq!(room(2_000), 2_000 - 94);
        assert_eq!(room(25_000), 25_000 - 322);
        assert_eq!(room(usize::MAX), usize::MAX - (2 * (1 << 32) + 4));
    }

    #[test]
    fn thousands_groups_digits() {
        for (n, text) in [
            (0, "0"),
            (7, "7"),
            (999, "999"),
            (1_000, "1,000"),
            (8000, "8,000"),
            (25_000, "25,000"),
            (100_000, "100,000"),
            (1_234_567, "1,234,567"),
            (usize::MAX, "18,446,744,073,709,551,615"),
        ] {
            assert_eq!(Thousands(n).to_string(), text);
        }
    }
}
