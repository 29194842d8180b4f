//! `_select` (wire format §7): the checked selection of a call.

/// The names a call selected with `_select`, already checked against the tool's names.
///
/// An empty selection means "no selection" (wire format §7.4).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Selection {
    names: Vec<String>,
}

impl Selection {
    /// A selection of `names` (duplicates allowed).
    pub fn new<I>(names: I) -> Self
    where
        I: IntoIterator,
        I::Item: Into<String>,
    {
        Selection {
            names: names.into_iter().map(Into::into).collect(),
        }
    }

    /// Whether nothing is selected.
    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }

    /// The selected names, as sent.
    pub fn names(&self) -> &[String] {
        &self.names
    }
}
