//! Checks of the repository itself, rather than of behaviour: properties of the source that a
//! review would otherwise have to keep true by hand.

mod layers;
