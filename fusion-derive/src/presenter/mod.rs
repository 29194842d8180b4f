//! `#[derive(Presenter)]`: the model, serialization and presentation impls of a struct.
//!
//! The pipeline is a straight line, one file (or folder) per stage: [`attr`] parses the helper
//! attributes (the declarations in [`decl`], templates in [`template`], both worded through
//! [`voice`]); [`valid`] checks them and builds the model, [`ast`], which is plain data;
//! [`expand`] generates the code from it (it cannot fail); [`fallback`] turns errors into
//! compile errors plus stub impls, so a broken model gives its own errors and no cascade
//! elsewhere. [`items`] are what both the expansion and the fallback write.

mod ast;
pub(crate) mod attr;
mod decl;
mod expand;
mod fallback;
mod items;
mod template;
mod valid;
mod voice;

#[cfg(test)]
mod expand_tests;

use proc_macro2::TokenStream;
use syn::DeriveInput;

/// The derive on `proc_macro2` tokens (the expansion snapshots call it directly).
pub fn derive(input: &DeriveInput) -> TokenStream {
    match valid::model(input) {
        Ok(model) => expand::expand(&model),
        Err(rejected) => fallback::fallback(input, &rejected),
    }
}
