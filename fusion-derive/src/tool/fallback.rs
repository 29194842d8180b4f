//! What the tool derive emits on mistakes: the errors, and stub `Tool` and `ToolActions` impls
//! so that code registering the tool or naming its actions elsewhere compiles on and reports
//! nothing of its own.

use proc_macro2::TokenStream;
use quote::quote;
use syn::DeriveInput;

use super::ast::Rejected;
use super::items::{impl_tool, impl_tool_actions};

/// The errors and the stub impl.
pub fn fallback(input: &DeriveInput, rejected: &Rejected) -> TokenStream {
    let errors = rejected.errors.to_compile_error();
    let krate = &rejected.krate;
    let p = quote!(#krate::__private);
    let name = input.ident.to_string();
    let stub = impl_tool(
        input,
        &p,
        &quote!(#p::ToolSpec::new(#name)),
        &TokenStream::new(),
    );
    // Every variant, best effort (the attributes may be the broken part).
    let variants: Vec<(&syn::Ident, &str)> = match &input.data {
        syn::Data::Enum(data) => data.variants.iter().map(|v| (&v.ident, "")).collect(),
        _ => Vec::new(),
    };
    let actions = impl_tool_actions(input, &p, &variants);
    quote! {
        #errors
        #stub
        #actions
    }
}
