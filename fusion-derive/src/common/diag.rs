//! Diagnostics: one accumulator of spanned errors, so a derive reports every mistake in one
//! compile, and the "did you mean" search for misspelled names.

use proc_macro2::Span;
use quote::ToTokens;

/// The error type of both derives: one `syn::Error` can hold many.
pub type Error = syn::Error;

/// A result whose error is the derive's.
pub type Result<T> = std::result::Result<T, Error>;

/// All mistakes found so far, reported together, in the order they were found.
#[derive(Default)]
pub struct Errors {
    first: Option<Error>,
}

impl Errors {
    /// Adds one mistake (or several, if `error` holds several).
    pub fn push(&mut self, error: Error) {
        match &mut self.first {
            Some(first) => first.combine(error),
            None => self.first = Some(error),
        }
    }

    /// Adds every mistake of `other`, after the ones already here.
    pub fn append(&mut self, other: Errors) {
        if let Some(error) = other.first {
            self.push(error);
        }
    }

    /// Adds a mistake spanned over all of `node`'s tokens.
    pub fn spanned<T: ToTokens>(&mut self, node: T, message: impl std::fmt::Display) {
        self.push(error(node, message));
    }

    /// Adds a mistake at `span`.
    pub fn at(&mut self, span: Span, message: impl std::fmt::Display) {
        self.push(error_at(span, message));
    }

    /// Keeps the value of `result`, or its error.
    pub fn handle<T>(&mut self, result: Result<T>) -> Option<T> {
        match result {
            Ok(value) => Some(value),
            Err(error) => {
                self.push(error);
                None
            }
        }
    }

    /// Whether no mistake was found.
    pub fn is_empty(&self) -> bool {
        self.first.is_none()
    }

    /// The mistakes, if any.
    pub fn into_result(self) -> Result<()> {
        match self.first {
            Some(error) => Err(error),
            None => Ok(()),
        }
    }
}

/// A spanned error over all of `node`'s tokens.
pub fn error<T: ToTokens>(node: T, message: impl std::fmt::Display) -> Error {
    Error::new_spanned(node, message)
}

/// A spanned error at `span`.
pub fn error_at(span: Span, message: impl std::fmt::Display) -> Error {
    Error::new(span, message)
}

/// The closest of `candidates` to `given`, if it is close enough to be a likely typo; of equally
/// close candidates, the first wins, so callers list the likelier names first.
pub fn did_you_mean<'c>(
    given: &str,
    candidates: impl IntoIterator<Item = &'c str>,
) -> Option<&'c str> {
    let limit = accepted_distance(given.chars().count());
    let mut best: Option<(usize, &str)> = None;
    for candidate in candidates {
        let distance = edit_distance(given, candidate);
        if distance <= limit && best.is_none_or(|(d, _)| distance < d) {
            best = Some((distance, candidate));
        }
    }
    best.map(|(_, c)| c)
}

/// How many edits a typo of a word this long may plausibly hold: short names leave little room
/// before an unrelated name would match, long ones tolerate a few slips.
fn accepted_distance(length: usize) -> usize {
    match length {
        0..=4 => 1,
        5..=8 => 2,
        _ => 3,
    }
}
/// `` `a`, `b`, `c` ``, for "expected one of" lists.
pub fn backticked<'n>(names: impl IntoIterator<Item = &'n str>) -> String {
    names
        .into_iter()
        .map(|n| format!("`{n}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Optimal-string-alignment edit distance: insertions, deletions, substitutions and swaps of
/// two neighbouring characters each cost one, so `stauts` is one edit from `status`, as a
/// typing slip is, not two.
fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    // Three rows of the distance table: two back (for swaps), the previous one, and this one.
    let mut before: Vec<usize> = vec![0; b.len() + 1];
    let mut previous: Vec<usize> = (0..=b.len()).collect();
    let mut current: Vec<usize> = vec![0; b.len() + 1];
    for i in 1..=a.len() {
        current[0] = i;
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut distance = (previous[j] + 1)
                .min(current[j - 1] + 1)
                .min(previous[j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                distance = distance.min(before[j - 2] + 1);
            }
            current[j] = distance;
        }
        std::mem::swap(&mut before, &mut previous);
        std::mem::swap(&mut previous, &mut current);
    }
    previous[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn did_you_mean_finds_close_names() {
        assert_eq!(did_you_mean("due", ["id", "due_at", "status"]), None);
        assert_eq!(
            did_you_mean("dueat", ["id", "due_at", "status"]),
            Some("due_at")
        );
        assert_eq!(
            did_you_mean("stauts", ["id", "due_at", "status"]),
            Some("status")
        );
        assert_eq!(did_you_mean("tex", ["text", "when"]), Some("text"));
        assert_eq!(did_you_mean("zzz", ["text", "when"]), None);
    }

    #[test]
    fn did_you_mean_handles_swaps_and_near_misses() {
        assert_eq!(did_you_mean("titel", ["id", "title"]), Some("title"));
        assert_eq!(
            did_you_mean("destructve", ["title", "destructive", "read_only"]),
            Some("destructive")
        );
        assert_eq!(
            did_you_mean("retuns", ["name", "returns", "description"]),
            Some("returns")
        );
        assert_eq!(did_you_mean("nmae", ["name", "returns"]), Some("name"));
        assert_eq!(
            did_you_mean("descriptoin", ["name", "description"]),
            Some("description")
        );
    }

    #[test]
    fn did_you_mean_ignores_unrelated_names() {
        assert_eq!(did_you_mean("colour", ["title", "returns", "name"]), None);
        assert_eq!(did_you_mean("amount", ["id", "status", "due_at"]), None);
        assert_eq!(did_you_mean("xy", ["id", "name"]), None);
    }

    #[test]
    fn did_you_mean_breaks_ties_by_order() {
        assert_eq!(did_you_mean("cat", ["bat", "hat"]), Some("bat"));
        assert_eq!(did_you_mean("cat", ["hat", "bat"]), Some("hat"));
    }

    #[test]
    fn edit_distance_counts_a_swap_as_one_edit() {
        assert_eq!(edit_distance("titel", "title"), 1);
        assert_eq!(edit_distance("ab", "ba"), 1);
        assert_eq!(edit_distance("kitten", "sitting"), 3);
        assert_eq!(edit_distance("", "abc"), 3);
        assert_eq!(edit_distance("abc", ""), 3);
        assert_eq!(edit_distance("same", "same"), 0);
        // Optimal string alignment edits no substring twice: `ca` -> `abc` is 3, not 2.
        assert_eq!(edit_distance("ca", "abc"), 3);
    }

    #[test]
    fn accepted_distance_grows_with_the_word() {
        assert_eq!(accepted_distance(4), 1);
        assert_eq!(accepted_distance(5), 2);
        assert_eq!(accepted_distance(8), 2);
        assert_eq!(accepted_distance(9), 3);
    }

    #[test]
    fn errors_keep_every_mistake_in_order() {
        let mut errors = Errors::default();
        assert!(errors.is_empty());
        errors.at(Span::call_site(), "first");
        let mut more = Errors::default();
        more.at(Span::call_site(), "second");
        errors.append(more);
        let messages: Vec<String> = errors
            .into_result()
            .unwrap_err()
            .into_iter()
            .map(|e| e.to_string())
            .collect();
        assert_eq!(messages, ["first", "second"]);
    }
}
