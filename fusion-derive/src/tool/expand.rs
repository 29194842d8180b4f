//! Generation of the `Tool` impl from the checked model (cannot fail).

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::DeriveInput;
use syn::spanned::Spanned;

use super::ast::{Action, Tool};

/// `impl Tool for Input { fn spec() -> ToolSpec { ... } }`.
pub fn expand(input: &DeriveInput, tool: &Tool) -> TokenStream {
    let krate = &tool.krate;
    let p = quote!(#krate::__private);
    let name = &tool.name;
    let description = tool.description.as_ref().map(|d| quote!(.description(#d)));
    let select = tool.select.then(|| quote!(.select()));
    let layout = tool.toon.then(|| quote!(.toon()));
    let output = tool.output.as_ref().map(|ty| {
        // Spanned at the user's type, so a type without `JsonSchema` is reported there.
        quote_spanned!(ty.span()=> .output::<#ty>())
    });
    let actions = tool.actions.iter().map(|action| {
        let spec = action_spec(&p, action);
        quote!(.variant(#spec))
    });
    impl_tool(
        input,
        &p,
        &quote! {
            #p::ToolSpec::new(#name) #description #select #layout #output #(#actions)*
        },
    )
}

fn action_spec(p: &TokenStream, action: &Action) -> TokenStream {
    let description = action
        .description
        .as_ref()
        .map(|d| quote!(.description(#d)));
    let returns = action
        .returns
        .as_ref()
        .map(|ty| quote_spanned!(ty.span()=> .returns::<#ty>()));
    let destructive = action.destructive.then(|| quote!(.destructive()));
    let read_only = action.read_only.then(|| quote!(.read_only()));
    quote!(#p::ActionSpec::new() #description #returns #destructive #read_only)
}

/// The impl block around a `spec()` body.
pub fn impl_tool(input: &DeriveInput, p: &TokenStream, body: &TokenStream) -> TokenStream {
    let ident = &input.ident;
    let (impl_generics, ty_generics, where_clause) = input.generics.split_for_impl();
    quote! {
        #[automatically_derived]
        impl #impl_generics #p::Tool for #ident #ty_generics #where_clause {
            fn spec() -> #p::ToolSpec {
                #body
            }
        }
    }
}
