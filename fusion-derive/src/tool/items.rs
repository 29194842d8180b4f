//! The items both the expansion and the fallback write, so a tool with mistakes has the same
//! impls (with stub bodies) as one without: the `Tool` impl around a `spec()` body, and the
//! `ToolActions` impl that suggestion targets written as paths (`Billing::Remind`) read.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use syn::{DeriveInput, Ident};

/// The impl block around a `spec()` body (and the `check` items, if any).
pub fn impl_tool(
    input: &DeriveInput,
    p: &TokenStream,
    body: &TokenStream,
    check: &TokenStream,
) -> TokenStream {
    let ident = &input.ident;
    let (impl_generics, ty_generics, where_clause) = input.generics.split_for_impl();
    quote! {
        #[automatically_derived]
        impl #impl_generics #p::Tool for #ident #ty_generics #where_clause {
            fn spec() -> #p::ToolSpec {
                #body
            }
            #check
        }
    }
}

/// `ToolActions`: a struct with one field per action, named like its variant, holding the
/// action's target `tool.action`, inside an anonymous `const` so it adds no name to the user's
/// module. A suggestion's `Billing::Remind` reads `<Billing as ToolActions>::ACTIONS.Remind`: an
/// action the tool lacks is rustc's "no field `Remind` on type `BillingActions`", with its
/// did-you-mean and the list of the actions.
pub fn impl_tool_actions(
    input: &DeriveInput,
    p: &TokenStream,
    actions: &[(&Ident, &str)],
) -> TokenStream {
    let ident = &input.ident;
    let (impl_generics, ty_generics, where_clause) = input.generics.split_for_impl();
    let holder = format_ident!("{}Actions", ident);
    let fields = actions.iter().map(|(variant, _)| variant);
    let values = actions
        .iter()
        .map(|(variant, target)| quote!(#variant: #target));
    quote! {
        const _: () = {
            #[doc(hidden)]
            #[allow(non_snake_case, reason = "one field per action, named like its variant")]
            pub struct #holder {
                #(pub #fields: &'static #p::str,)*
            }

            #[automatically_derived]
            impl #impl_generics #p::ToolActions for #ident #ty_generics #where_clause {
                type Actions = #holder;
                const ACTIONS: #holder = #holder { #(#values,)* };
            }
        };
    }
}
