//! Derive macros of fusion. Use them through `fusion_runtime`, which re-exports them.
//!
//! `common` holds what both derives share (diagnostics, the names of attributes and keys,
//! the key-argument parser, case conversion, the runtime path, serde's attribute grammar);
//! `presenter` and `tool` each run the same stages in a straight line: `attr` (parse), `valid`
//! (the checks, which build the model), `ast` (the model: plain data), `expand` (generation,
//! which cannot fail) and `fallback` (the errors plus stub impls, so a broken input gives its own
//! errors and no cascade); `items` is what `expand` and `fallback` both write. No module imports
//! one that imports it back (the repository test checks it).

mod common;
mod presenter;
mod tool;

use proc_macro::TokenStream;

#[doc = include_str!("../presenter.md")]
// Keep this list equal to `common::symbol::attr::PRESENTER_ALL` (a unit test checks it).
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
    presenter::derive(&input).into()
}

#[doc = include_str!("../tool.md")]
// Keep this list equal to `common::symbol::attr::TOOL_ALL` (a unit test checks it).
#[proc_macro_derive(Tool, attributes(fusion))]
pub fn derive_tool(input: TokenStream) -> TokenStream {
    let input = syn::parse_macro_input!(input as syn::DeriveInput);
    tool::derive(&input).into()
}
