//! The search for the longest cut that fits (wire format §17.3, §17.4), whatever the sizes of the
//! blocks besides the data.
//!
//! The cuts are numbered 1, 2, 3, ... (a collection's prefix of k items is cut k; a single
//! value's cap c on its embedded lists is cut c + 1). The search keeps a bracket: the longest cut
//! known to fit (0 before any, standing for "nothing fits") and the shortest known not to (none
//! before any). Every probe lands strictly inside the bracket and moves one of its ends onto
//! itself, so the search ends with the two ends adjacent: a cut that fits next to one that does
//! not, or the whole response fitting. That is the answer however the response grows with the
//! cut: nothing here assumes it grows by a fixed amount, or at all.
//!
//! A caller's `aim` may guess where the answer is (a line through two probes, say: a response
//! grows about linearly with its cut, so a good guess lands next to the answer in two or three
//! probes). A guess is only used while it pays: after three guessed probes in a row that neither
//! halved the bracket nor doubled the cut known to fit, the next probe is the bracket's middle
//! (or, with no end known above, the double). So the search takes at most about 4 log₂ n
//! probes for an answer of n, and two to four with a good aim.

/// What a probe of one cut found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Probe {
    /// The estimated tokens of the whole response at this cut.
    pub(super) tokens: usize,
    /// Whether the response at this cut is the whole response (nothing was cut), so every
    /// longer cut gives the same response.
    pub(super) whole: bool,
}

/// The ends of the bracket a guess is asked within: the longest cut known to fit and the
/// shortest known not to, each with its tokens when it was probed.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(super) struct Bracket {
    /// The longest cut known to fit (0: none yet) and its tokens, if probed.
    pub(super) fits: (usize, Option<usize>),
    /// The shortest cut known not to fit (`None`: none yet) and its tokens, if probed.
    pub(super) over: Option<(usize, Option<usize>)>,
    /// The last two probes, the latest first: (cut, tokens).
    pub(super) last: [Option<(usize, usize)>; 2],
}

impl Bracket {
    /// What an aim that found `guess` probes: the cut past it, unless that is known not to
    /// fit, then the guess. The search usually ends on the guess then, the last cut probed,
    /// whose response is at hand (probed the other way round, the answer is made again).
    pub(super) fn past(&self, guess: usize) -> usize {
        let past = guess.saturating_add(1);
        if self.over.is_some_and(|(over, _)| over <= past) {
            guess
        } else {
            past
        }
    }
}

/// The longest cut whose response's estimate is within `room` tokens, or 0 when not even cut 1
/// fits; `probe(cut)` renders (or counts) the response at a cut.
///
/// `most` is the longest cut there is, when known (a collection's items): its probe is whole.
/// `aim` guesses the answer within a bracket (`None`: no guess). A probe that finds the response
/// whole and fitting ends the search.
pub(super) fn longest_fitting<E>(
    room: usize,
    most: Option<usize>,
    mut aim: impl FnMut(&Bracket) -> Option<usize>,
    mut probe: impl FnMut(usize) -> Result<Probe, E>,
) -> Result<usize, E> {
    let mut bracket = Bracket {
        fits: (0, None),
        over: None,
        last: [None; 2],
    };
    // Guessed probes in a row that neither halved the bracket nor doubled the cut known to fit:
    // after three, the next probe is the middle (or the double), so the search ends.
    let mut misses = 0;
    loop {
        let low = bracket.fits.0;
        let high = bracket.over.map(|(cut, _)| cut);
        if high.is_some_and(|high| high <= low + 1) || most.is_some_and(|most| low >= most) {
            return Ok(low);
        }
        let guess = if misses >= 3 { None } else { aim(&bracket) };
        let cut = next_cut(low, high, most, guess);
        let found = probe(cut)?;
        bracket.last = [Some((cut, found.tokens)), bracket.last[0]];
        let halved = |left: usize| high.is_some_and(|high| left.saturating_mul(2) <= high - low);
        let progress = if found.tokens <= room {
            if found.whole {
                return Ok(cut);
            }
            bracket.fits = (cut, Some(found.tokens));
            halved(high.map_or(0, |high| high - cut)) || (high.is_none() && cut >= 2 * low)
        } else {
            bracket.over = Some((cut, Some(found.tokens)));
            high.is_none() || halved(cut - low)
        };
        misses = if guess.is_none() || progress {
            0
        } else {
            misses + 1
        };
    }
}

/// The cut to probe next, strictly inside the bracket `(low, high)` and at most `most`: the
/// guess when there is one, else the middle; with no known end above, doubling (from 1). With
/// neither an end above nor a longest cut (a single value's cap), a guess goes no further than
/// 64 times what is known to fit (256 at first), since a probe past the answer costs
/// everything it renders.
fn next_cut(low: usize, high: Option<usize>, most: Option<usize>, guess: Option<usize>) -> usize {
    let (fallback, top) = match (high, most) {
        (Some(high), _) => (low + (high - low) / 2, high - 1),
        (None, Some(most)) => (low.saturating_mul(2).max(1).min(most), most),
        (None, None) => (
            low.saturating_mul(2).max(1),
            low.saturating_mul(64).max(256),
        ),
    };
    guess.unwrap_or(fallback).clamp(low + 1, top.max(low + 1))
}

/// Where the line through two probes `(cut, tokens)` reaches `room` tokens, rounded down; `None`
/// when the line does not rise (tokens that do not grow with the cut say nothing) or `room` is
/// below the lower point.
pub(super) fn aim_line(a: (usize, usize), b: (usize, usize), room: usize) -> Option<usize> {
    let ((low_cut, low_tokens), (high_cut, high_tokens)) = if a.0 < b.0 { (a, b) } else { (b, a) };
    let rise = high_tokens
        .checked_sub(low_tokens)
        .filter(|&rise| rise > 0)?;
    let run = high_cut - low_cut;
    // cut = low_cut + (room − low_tokens) × run / rise, in u128 so that nothing overflows.
    let above = u128::try_from(room.checked_sub(low_tokens)?).ok()?;
    let steps = above * u128::try_from(run).ok()? / u128::try_from(rise).ok()?;
    usize::try_from(steps)
        .ok()
        .map(|steps| low_cut.saturating_add(steps))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Runs the search over a table of tokens per cut (the last cut is whole, and so is every
    /// longer one), counting probes; `bounded`: the search is told that no cut past the last
    /// fits (as a collection's is), else it finds the end itself (as a single value's does).
    fn search(
        tokens: &[usize],
        room: usize,
        bounded: bool,
        aim: impl FnMut(&Bracket) -> Option<usize>,
    ) -> (usize, usize) {
        let mut probes = 0;
        let most = bounded.then_some(tokens.len());
        let found = longest_fitting::<()>(room, most, aim, |cut| {
            probes += 1;
            let at = cut.min(tokens.len());
            Ok(Probe {
                tokens: tokens[at - 1],
                whole: at == tokens.len(),
            })
        })
        .unwrap();
        (found.min(tokens.len()), probes)
    }

    /// The answer's defining property: `found` fits (or is 0) and `found + 1` does not (or
    /// `found` is every cut).
    fn is_answer(tokens: &[usize], room: usize, found: usize) -> bool {
        let fits = |cut: usize| tokens[cut - 1] <= room;
        (found == 0 || fits(found)) && (found == tokens.len() || !fits(found + 1))
    }

    #[test]
    fn a_line_meets_the_room_where_it_should() {
        assert_eq!(aim_line((10, 100), (20, 200), 150), Some(15));
        assert_eq!(aim_line((20, 200), (10, 100), 155), Some(15));
        assert_eq!(aim_line((10, 100), (20, 100), 150), None);
        assert_eq!(aim_line((10, 100), (20, 200), 50), None);
    }

    #[test]
    fn swinging_responses_end_at_an_answer() {
        // The other blocks as large as the data and not proportional to it (the case the fixed
        // number of rounds gave up on): tokens rise by 100 a cut, plus 10,000 from cut 50 on.
        let tokens: Vec<usize> = (1..=300)
            .map(|cut| cut * 100 + if cut >= 50 { 10_000 } else { 0 })
            .collect();
        for room in [150, 4_900, 5_000, 15_000, 21_000, 40_000, 50_000] {
            let (found, probes) = search(&tokens, room, true, |_| None);
            assert!(is_answer(&tokens, room, found), "{room}: {found}");
            assert!(probes <= 2 * 9 + 3, "{room}: {probes} probes");
        }
    }

    proptest! {
        /// Whatever the tokens per cut (rising, falling, jumping) and whatever the guesses (even
        /// wrong ones), the search ends at an answer within about 2 log₂ n probes.
        #[test]
        fn any_tokens_any_guesses_an_answer(
            steps in prop::collection::vec(0usize..400, 1..400),
            falls in prop::collection::vec(any::<bool>(), 400),
            guesses in prop::collection::vec(prop::option::of(0usize..1_000), 64),
            room in 0usize..40_000,
            bounded in any::<bool>(),
        ) {
            let mut total = 0usize;
            let tokens: Vec<usize> = steps
                .iter()
                .zip(&falls)
                .map(|(step, falls)| {
                    total = if *falls { total.saturating_sub(*step / 4) } else { total + step };
                    total
                })
                .collect();
            let mut next = guesses.iter().cycle();
            let (found, probes) = search(&tokens, room, bounded, |_| *next.next().unwrap());
            prop_assert!(is_answer(&tokens, room, found), "found {found}");
            let log = usize::BITS - tokens.len().leading_zeros();
            prop_assert!(probes <= 4 * log as usize + 12, "{probes} probes for {}", tokens.len());
        }
    }
}
