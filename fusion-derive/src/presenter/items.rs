//! The items both the expansion and the fallback write, so that a model with mistakes has the
//! same items (with stub bodies) as one without: the field enum's declaration, `Embed`, and
//! the inherent `present` / `present_all`.

use proc_macro2::TokenStream;
use quote::{ToTokens, format_ident, quote};
use syn::{Generics, Ident};

/// The field enum's declaration, shared by the real enum and the fallback's stub so both have
/// the same derives.
pub fn field_enum_declaration(
    doc: &str,
    vis: &syn::Visibility,
    name: &Ident,
    variants: &[TokenStream],
) -> TokenStream {
    quote! {
        #[doc = #doc]
        #[derive(
            ::core::clone::Clone,
            ::core::marker::Copy,
            ::core::cmp::PartialEq,
            ::core::cmp::Eq,
            ::core::hash::Hash,
            ::core::fmt::Debug
        )]
        #vis enum #name {
            #(#variants,)*
        }
    }
}

/// `Embed` of a model: a field holding it holds one child, the model itself.
pub fn embed_impl(input: &syn::DeriveInput, p: &impl ToTokens, generics: &Generics) -> TokenStream {
    let ident = &input.ident;
    let (impl_generics, _, where_clause) = generics.split_for_impl();
    let (_, ty_generics, _) = input.generics.split_for_impl();
    quote! {
        #[automatically_derived]
        #[diagnostic::do_not_recommend]
        impl #impl_generics #p::Embed for #ident #ty_generics #where_clause {
            type Model = Self;

            #[inline]
            fn children(&self) -> #p::Children<'_, Self> {
                #p::Children::One(self)
            }
        }
    }
}

/// The inherent `present` / `present_all`.
pub fn inherent(input: &syn::DeriveInput, p: &impl ToTokens, generics: &Generics) -> TokenStream {
    let ident = &input.ident;
    let vis = &input.vis;
    let (impl_generics, _, where_clause) = generics.split_for_impl();
    let (_, ty_generics, _) = input.generics.split_for_impl();
    let items = format_ident!("__fusion_items");
    // No `#[automatically_derived]`: rustc takes it on trait impls only, and warns that it
    // will refuse it on an inherent one.
    quote! {
        impl #impl_generics #ident #ty_generics #where_clause {
            /// Presents this value: its data block, UI, embeds, rules and suggestions.
            ///
            /// Chain `.select(&selection)`, `.context(&ctx)`, then `.build()`.
            #[allow(dead_code, reason = "generated for callers; a model may not use it")]
            #[inline]
            #vis fn present(&self) -> #p::Presentation<'_, Self> {
                #p::present(self)
            }

            /// Presents a collection: agent limit, collection UI, rules and suggestions.
            ///
            /// Chain `.select(&selection)`, `.context(&ctx)`, then `.build()`.
            #[allow(dead_code, reason = "generated for callers; a model may not use it")]
            #[inline]
            #vis fn present_all(#items: &[Self]) -> #p::Presentation<'_, Self> {
                #p::present_all(#items)
            }
        }
    }
}
