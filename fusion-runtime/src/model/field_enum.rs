//! What the generated field enum (`<Model>Field`) is built from: the error of its `FromStr`, the
//! look-ups its methods call, and the empty field enum of a model whose derive failed.

use super::Field;

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

/// The name at a variant's index: the generated `wire_name` (always in range: the derive writes
/// both lists). One body for every model costs the compiler less than a `match` per model.
#[inline]
pub fn wire_name(names: &'static [&'static str], index: usize) -> &'static str {
    names.get(index).copied().unwrap_or_default()
}

/// The variant whose wire name is `name`: the generated `from_wire_name`.
#[inline]
pub fn field_named<F: Field>(names: &[&str], name: &str) -> Option<F> {
    let index = names.iter().position(|n| *n == name)?;
    F::ALL.get(index).copied()
}

/// The generated `from_str`: [`field_named`], or the error listing the valid names.
#[inline]
pub fn parse_field<F: Field>(
    names: &'static [&'static str],
    name: &str,
) -> Result<F, UnknownField> {
    field_named(names, name).ok_or_else(|| UnknownField::new(name, names))
}

/// The field type of a model without a field enum: `Model::Field` of a derived model that does
/// not ask for one with `#[presenter(field_enum)]` (its `_select` goes by `Model::WIRE_NAMES`),
/// and of a model whose derive failed (so the compile error is the derive's own, not a cascade
/// of missing impls).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum NoField {}

impl Field for NoField {
    const ALL: &'static [Self] = &[];

    fn wire_name(self) -> &'static str {
        match self {}
    }

    fn from_wire_name(_name: &str) -> Option<Self> {
        None
    }

    fn index(self) -> usize {
        match self {}
    }
}

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
}
