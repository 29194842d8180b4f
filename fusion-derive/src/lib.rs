//! Derive macros of fusion. Use them through `fusion_runtime`, which re-exports them.

mod tool;

use proc_macro::TokenStream;

/// Derives the presenter of a model (work in progress: the derive issue fills this in).
#[proc_macro_derive(
    Presenter,
    attributes(presenter, rule, redact, embed, suggest, ui, serde)
)]
pub fn derive_presenter(input: TokenStream) -> TokenStream {
    let input = syn::parse_macro_input!(input as syn::DeriveInput);
    syn::Error::new_spanned(
        &input.ident,
        "`#[derive(Presenter)]` is not implemented yet",
    )
    .to_compile_error()
    .into()
}

/// Derives `fusion_runtime::tool::Tool` for a tool's input type; documented on
/// `fusion_runtime::Tool`.
#[proc_macro_derive(Tool, attributes(fusion))]
pub fn derive_tool(input: TokenStream) -> TokenStream {
    let input = syn::parse_macro_input!(input as syn::DeriveInput);
    tool::derive(&input).into()
}
