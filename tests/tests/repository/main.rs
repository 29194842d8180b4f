//! Checks on the repository itself rather than on the toolkit's behaviour: properties of the
//! source that a review would otherwise have to keep true by hand. Every file is found from this
//! crate's manifest directory, so the tests run from any working directory.

mod citations;
mod fresh_crate;
mod layers;
