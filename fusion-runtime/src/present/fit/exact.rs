//! A budget kept by the exact `o200k_base` count (`Presentation::exact_tokens`, feature
//! `exact-tokens`): the estimate aims, the exact count decides.
//!
//! The answer is the longest cut whose response counts at most the budget exactly, found by the
//! same bracket as every fit ([`longest_fitting`]), each probe a full render counted by the
//! tokenizer, with no room left free. Only the probes are counted exactly (milliseconds each),
//! and a good aim makes them few: the estimate's own search (microseconds) finds the cut whose
//! estimate reaches the budget, scaled by how far the estimate was from the exact count on the
//! latest response counted, and the search probes the cut past it, then the cut itself. The
//! estimate runs within a few percent of the exact count, and about as high on every prefix of
//! one collection, so the guesses land next to the answer: two or three exact counts where a
//! line through earlier probes took four to six (PERFORMANCE.md, "round seven"). On text the
//! estimate is far under (characters drawn at random from a script) the first guess is long,
//! the scale then corrects it, and a guess that does not pay is dropped by the search for its
//! middle, as always.
//!
//! [`longest_fitting`]: super::search::longest_fitting

use std::cell::Cell;
use std::sync::OnceLock;

use super::search::Bracket;
use super::{Count, estimated, fit, rendered, tokens_of};
use crate::encode::EncodeError;
use crate::encode::tokens::ExactCounter;
use crate::present::engine::{Items, Presenter};
use crate::present::presentation::{Fitted, Shape};
use crate::response::ResponseBuilder;

/// Estimate / exact of a response, as a fraction, before any response of this call is counted:
/// the estimate runs about 2% over on the responses of its corpus (`token_calibration`, medians
/// 1.017 to 1.028). Aimed so, the first guess lands next to the answer in most responses: two
/// exact counts instead of three (21 of the 30 cases of `budget_report`). A wrong prior costs a
/// probe, never the answer.
const TYPICAL: (usize, usize) = (102, 100);

/// The response of `items` fitted to `budget` tokens by the exact `o200k_base` count. Should the
/// vocabulary not load, the estimate keeps the budget instead.
pub(crate) fn fit_exactly<T: Presenter<Ctx>, Ctx: ?Sized>(
    shape: &Shape<'_, Ctx>,
    items: Items<'_, T>,
    budget: usize,
) -> Result<Fitted, EncodeError> {
    let Some(exact) = counter() else {
        return fit(shape, items, budget);
    };
    // What the fit may count exactly: the budget less what the caller adds around it.
    let limit = budget.saturating_sub(shape.reserved);
    // The estimate and the exact count of the latest response counted: how far the estimate
    // is from the exact count on this text.
    let latest: Cell<Option<(usize, usize)>> = Cell::new(None);
    let tokens = |builder: &ResponseBuilder| {
        let counted = builder.exact_tokens(exact);
        latest.set(Some((tokens_of(builder), counted)));
        counted
    };
    let count = Count {
        room: limit,
        tokens: &tokens,
    };
    let mut aim = |bracket: &Bracket| {
        let room = match latest.get() {
            Some((estimate, counted)) => scaled(limit, estimate, counted),
            None => scaled(limit, TYPICAL.0, TYPICAL.1),
        };
        // The estimate's whole fit, of which only the cut is kept: tens of microseconds, against
        // milliseconds for each exact count it spares.
        let cut = estimated(shape, items, budget, room).ok()?.cut;
        Some(bracket.past(cut))
    };
    rendered(shape, items, budget, &count, Some(&mut aim)).map(|answer| answer.fitted)
}

/// The `o200k_base` counter, loaded once (`None` when its vocabulary does not load).
pub(crate) fn counter() -> Option<&'static ExactCounter> {
    static EXACT: OnceLock<Option<ExactCounter>> = OnceLock::new();
    EXACT.get_or_init(|| ExactCounter::o200k().ok()).as_ref()
}

/// `budget × estimate / counted`: the estimate a response reaches when its exact count reaches
/// the budget, if the estimate stays as far from the exact count as on the response counted.
fn scaled(budget: usize, estimate: usize, counted: usize) -> usize {
    let wide = |n: usize| u128::try_from(n).unwrap_or(u128::MAX);
    let room = wide(budget).saturating_mul(wide(estimate)) / wide(counted.max(1));
    usize::try_from(room).unwrap_or(usize::MAX)
}

#[cfg(test)]
mod tests {
    use super::scaled;

    #[test]
    fn the_room_scales_with_the_estimate_s_error() {
        assert_eq!(scaled(1_000, 110, 100), 1_100);
        assert_eq!(scaled(1_000, 57, 100), 570);
        assert_eq!(scaled(1_000, 5, 0), 5_000);
        assert_eq!(scaled(usize::MAX, usize::MAX, 1), usize::MAX);
    }
}
