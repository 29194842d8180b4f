//! `_select` (SPEC §7): the checked selection of a call and the per-model field mask.

use crate::present::{Field, Model};

/// The names a call selected with `_select`, already checked against the tool's names.
///
/// An empty selection means "no selection" (SPEC §7.4).
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

/// Which members of one model a selection keeps, by field index.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FieldMask {
    kept: Vec<bool>,
}

impl FieldMask {
    /// The members of `M` named in `selection`; names `M` does not have match nothing.
    pub fn of<M: Model>(selection: &Selection) -> Self {
        let mut kept = vec![false; M::Field::ALL.len()];
        for name in selection.names() {
            if let Some(field) = M::Field::from_wire_name(name) {
                kept[field.index()] = true;
            }
        }
        FieldMask { kept }
    }

    /// A mask that keeps every member of `M`.
    pub fn all<M: Model>() -> Self {
        FieldMask {
            kept: vec![true; M::Field::ALL.len()],
        }
    }

    /// Whether the field at `index` is kept.
    pub fn contains(&self, index: usize) -> bool {
        self.kept.get(index).copied().unwrap_or(false)
    }

    /// How many members are kept.
    pub fn count(&self) -> usize {
        self.kept.iter().filter(|k| **k).count()
    }
}
