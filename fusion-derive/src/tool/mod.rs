//! `#[derive(Tool)]`: the `fusion_runtime::tool::Tool` impl of a tool's input type.
//!
//! The same stages as the presenter derive: [`attr`] parses `#[fusion(...)]` through the
//! shared key parser, [`ast`] builds the model (reading `#[serde(tag)]`), [`valid`] holds the
//! rules across attributes, [`expand`] writes the impl, [`fallback`] turns mistakes into compile
//! errors plus a stub impl, so a broken declaration gives its own errors only.

mod ast;
mod attr;
mod expand;
mod fallback;
mod items;
mod valid;

#[cfg(test)]
mod expand_tests;

use proc_macro2::TokenStream;
use syn::DeriveInput;

/// The derive on `proc_macro2` tokens (the expansion snapshots call it directly).
pub fn derive(input: &DeriveInput) -> TokenStream {
    match ast::Tool::from_input(input) {
        Ok(tool) => expand::expand(input, &tool),
        Err(rejected) => fallback::fallback(input, &rejected),
    }
}
