//! Derive macros of fusion. Use them through `fusion_runtime`, which re-exports them.
//!
//! The pipeline has one file per stage: [`attr`] parses the helper attributes, [`ast`] builds
//! the checked model, [`valid`] holds the rules that span several attributes, [`expand`]
//! generates the code (it cannot fail), and [`fallback`] turns errors into compile errors plus
//! stub impls, so a broken model gives its own errors and no cascade elsewhere.

mod ast;
mod attr;
mod expand;
mod fallback;
mod valid;

use proc_macro::TokenStream;

/// Derives the presenter of a model; documented on `fusion_runtime::Presenter`.
// Keep this list equal to `attr::name::ALL` (a unit test checks it).
#[proc_macro_derive(
    Presenter,
    attributes(
        presenter,
        rule,
        suggest,
        ui,
        collection_rule,
        collection_suggest,
        collection_ui,
        redact,
        embed,
        serde
    )
)]
pub fn derive_presenter(input: TokenStream) -> TokenStream {
    let input = syn::parse_macro_input!(input as syn::DeriveInput);
    derive(&input).into()
}

/// The derive on `proc_macro2` tokens (used by the expansion snapshots).
fn derive(input: &syn::DeriveInput) -> proc_macro2::TokenStream {
    match ast::Model::from_input(input) {
        Ok(model) => expand::expand(&model),
        Err(errors) => fallback::fallback(input, &errors),
    }
}


// Expansion snapshots (prettyplease + insta); they call `derive` directly.
#[cfg(test)]
#[path = "../tests/expand.rs"]
mod expand_snapshots;
