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

/// The closest of `candidates` to `given`, if it is close enough to be a likely typo.
pub fn did_you_mean<'c>(
    given: &str,
    candidates: impl IntoIterator<Item = &'c str>,
) -> Option<&'c str> {
    let mut best: Option<(usize, &str)> = None;
    for candidate in candidates {
        let distance = levenshtein(given, candidate);
        let limit = (given.chars().count().max(candidate.chars().count()) / 3).max(1);
        if distance <= limit && best.is_none_or(|(d, _)| distance < d) {
            best = Some((distance, candidate));
        }
    }
    best.map(|(_, c)| c)
}

/// `` `a`, `b`, `c` ``, for "expected one of" lists.
pub fn backticked<'n>(names: impl IntoIterator<Item = &'n str>) -> String {
    names
        .into_iter()
        .map(|n| format!("`{n}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Edit distance (insertions, deletions, substitutions) between two strings.
fn levenshtein(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut previous = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let current = row[j + 1];
            row[j + 1] = if ca == *cb {
                previous
            } else {
                1 + previous.min(row[j]).min(current)
            };
            previous = current;
        }
    }
    row[b.len()]
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
