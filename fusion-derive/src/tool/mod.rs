//! `#[derive(Tool)]`: the `fusion_runtime::tool::Tool` impl of a tool's input type.
//!
//! The pipeline: [`attr`] parses `#[fusion(...)]` (and reads `#[serde(tag)]`), [`ast`] checks
//! the input and builds the model, [`expand`] writes the impl, [`fallback`] turns mistakes into
//! compile errors plus a stub impl, so a broken declaration gives its own errors only.

mod ast;
mod attr;
mod expand;
mod fallback;

#[cfg(test)]
mod expand_tests;

use proc_macro2::TokenStream;
use syn::DeriveInput;

/// The derive on `proc_macro2` tokens.
pub fn derive(input: &DeriveInput) -> TokenStream {
    match ast::Tool::from_input(input) {
        Ok(tool) => expand::expand(input, &tool),
        Err(errors) => fallback::fallback(input, &errors),
    }
}
