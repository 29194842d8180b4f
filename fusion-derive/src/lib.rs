//! Derive macros of fusion. Use them through `fusion_runtime`, which re-exports them.
//!
//! The pipeline has one file per stage: `attr.rs` parses the helper attributes, `ast.rs` builds
//! the checked model, `valid.rs` holds the rules that span several attributes, `expand.rs`
//! generates the code (it cannot fail), and `fallback.rs` turns errors into compile errors plus
//! stub impls, so a broken model gives its own errors and no cascade elsewhere.

mod ast;
mod attr;
mod expand;
mod fallback;
mod valid;

use proc_macro::TokenStream;

#[doc = include_str!("../presenter.md")]
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

#[cfg(test)]
mod tests {
    /// The `attributes(...)` list above and `attr::name::ALL` name the same attributes.
    #[test]
    fn helper_attributes_are_listed_once() {
        let source = include_str!("lib.rs");
        let start = source.find("attributes(").map(|i| i + "attributes(".len());
        let list = start.and_then(|s| source[s..].find(')').map(|e| &source[s..s + e]));
        let mut declared: Vec<&str> = list
            .unwrap_or_default()
            .split(',')
            .map(str::trim)
            .filter(|n| !n.is_empty())
            .collect();
        let mut known = crate::attr::name::ALL.to_vec();
        declared.sort_unstable();
        known.sort_unstable();
        assert_eq!(declared, known);
    }
}

// Expansion snapshots (prettyplease + insta); they call `derive` directly.
#[cfg(test)]
#[path = "../tests/expand.rs"]
mod expand_snapshots;
