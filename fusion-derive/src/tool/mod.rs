//! `#[derive(Tool)]`: the `fusion_runtime::tool::Tool` impl of a tool's input type.
//!
//! The same stages as the presenter derive, in a straight line: [`attr`] parses `#[fusion(...)]`
//! through the shared key parser, [`valid`] checks it and builds the model, [`ast`] (plain data,
//! reading `#[serde(tag)]`), [`expand`] writes the impls from it and cannot fail, [`fallback`]
//! turns mistakes into compile errors plus stub impls, so a broken declaration gives its own
//! errors only; [`items`] are the impls both write.

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
    match valid::tool(input) {
        Ok(tool) => expand::expand(input, &tool),
        Err(rejected) => fallback::fallback(input, &rejected),
    }
}
