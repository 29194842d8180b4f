//! What the tool derive emits on mistakes: the errors, and a stub `Tool` impl so that code
//! registering the tool elsewhere compiles on and reports nothing of its own.

use proc_macro2::TokenStream;
use quote::quote;
use syn::DeriveInput;

use super::ast::Rejected;
use super::expand::impl_tool;

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
    quote! {
        #errors
        #stub
    }
}
