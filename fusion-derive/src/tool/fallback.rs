//! What the tool derive emits on mistakes: the errors, and a stub `Tool` impl so that code
//! registering the tool elsewhere compiles on and reports nothing of its own.

use proc_macro2::TokenStream;
use quote::quote;
use syn::DeriveInput;

use super::attr::{self, Errors};
use super::expand::impl_tool;

/// The errors and the stub impl.
pub fn fallback(input: &DeriveInput, errors: &syn::Error) -> TokenStream {
    let errors = errors.to_compile_error();
    let krate = runtime_path(input);
    let p = quote!(#krate::__private);
    let name = input.ident.to_string();
    let stub = impl_tool(input, &p, &quote!(#p::ToolSpec::new(#name)));
    quote! {
        #errors
        #stub
    }
}

/// `crate = ...` if it can be read, else `::fusion_runtime`.
fn runtime_path(input: &DeriveInput) -> syn::Path {
    // The errors were reported already; this reading only looks for the path.
    let mut ignored = Errors::default();
    let args = attr::parse(&input.attrs, attr::STRUCT_KEYS, "", &|_| None, &mut ignored);
    args.path(attr::key::CRATE)
        .cloned()
        .unwrap_or_else(|| syn::parse_quote!(::fusion_runtime))
}
