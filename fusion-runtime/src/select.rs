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
///
/// [`FieldMask::ALL`] keeps everything without allocating; the generated
/// [`Model::serialize_selected`] asks [`FieldMask::contains`] once per field.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FieldMask {
    all: bool,
    kept: Vec<bool>,
}

impl FieldMask {
    /// The mask that keeps every member of any model (what the plain `Serialize` impl uses).
    pub const ALL: FieldMask = FieldMask {
        all: true,
        kept: Vec::new(),
    };

    /// The members of `M` named in `selection`; names `M` does not have match nothing.
    ///
    /// An empty selection means "no selection" (SPEC §7.4), so it keeps everything.
    pub fn of<M: Model>(selection: &Selection) -> Self {
        if selection.is_empty() {
            return Self::ALL;
        }
        Self::keeping(
            selection
                .names()
                .iter()
                .filter_map(|name| M::Field::from_wire_name(name)),
        )
    }

    /// A mask that keeps exactly `fields`.
    pub fn fields<F: Field>(fields: &[F]) -> Self {
        Self::keeping(fields.iter().copied())
    }

    /// A mask of `F`'s fields keeping those yielded by `fields`. An index past `F::ALL` (possible only
    /// from a hand-written `Field` impl) keeps nothing rather than panicking.
    fn keeping<F: Field>(fields: impl Iterator<Item = F>) -> Self {
        let mut kept = vec![false; F::ALL.len()];
        for field in fields {
            if let Some(slot) = kept.get_mut(field.index()) {
                *slot = true;
            }
        }
        FieldMask { all: false, kept }
    }

    /// A mask that keeps every member of `M`.
    pub fn all<M: Model>() -> Self {
        Self::ALL
    }

    /// Whether the field at `index` is kept.
    #[inline]
    pub fn contains(&self, index: usize) -> bool {
        self.all || self.kept.get(index).copied().unwrap_or(false)
    }

    /// How many of the `total` members of a model are kept.
    pub fn count(&self, total: usize) -> usize {
        if self.all {
            total
        } else {
            self.kept.iter().take(total).filter(|k| **k).count()
        }
    }
}

/// A name that is not a member of a model: the error of the field enum's `FromStr`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownField {
    name: String,
    valid: &'static [&'static str],
}

impl UnknownField {
    /// `name` is not one of `valid`.
    pub fn new(name: &str, valid: &'static [&'static str]) -> Self {
        UnknownField {
            name: name.to_owned(),
            valid,
        }
    }

    /// The name that was given.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The names that would have been accepted, in declaration order.
    pub fn valid(&self) -> &'static [&'static str] {
        self.valid
    }
}

impl std::fmt::Display for UnknownField {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "unknown field name `{}`; use one of", self.name)?;
        for (i, name) in self.valid.iter().enumerate() {
            f.write_str(if i == 0 { " `" } else { ", `" })?;
            f.write_str(name)?;
            f.write_str("`")?;
        }
        if self.valid.is_empty() {
            f.write_str(" nothing: the model has no wire members")?;
        }
        Ok(())
    }
}

impl std::error::Error for UnknownField {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unknown_field_lists_the_valid_names() {
        let error = UnknownField::new("bogus", &["id", "status"]);
        assert_eq!(
            error.to_string(),
            "unknown field name `bogus`; use one of `id`, `status`"
        );
    }

    #[test]
    fn the_all_mask_keeps_any_index() {
        assert!(FieldMask::ALL.contains(0));
        assert!(FieldMask::ALL.contains(1000));
        assert_eq!(FieldMask::ALL.count(3), 3);
    }
}
