//! `#[derive(Presenter)]`: the model, serialization and presentation impls of a struct.
//!
//! The pipeline has one file per stage: [`attr`] parses the helper attributes (the
//! declarations in [`decl`], templates in [`template`]), [`ast`] builds the checked model,
//! [`valid`] holds the rules that span several attributes, [`expand`] generates the code (it
//! cannot fail), and [`fallback`] turns errors into compile errors plus stub impls, so a broken
//! model gives its own errors and no cascade elsewhere.

mod ast;
pub(crate) mod attr;
mod decl;
mod expand;
mod fallback;
mod template;
mod valid;

#[cfg(test)]
mod expand_tests;

use proc_macro2::TokenStream;
use syn::DeriveInput;

/// The derive on `proc_macro2` tokens (the expansion snapshots call it directly).
pub fn derive(input: &DeriveInput) -> TokenStream {
    match ast::Model::from_input(input) {
        Ok(model) => expand::expand(&model),
        Err(rejected) => fallback::fallback(input, &rejected),
    }
}
