//! What the derive emits when the input has mistakes: every error, plus stub impls of the
//! traits (and the field enum and inherent methods), so code that uses the model elsewhere
//! compiles on and the user sees the derive's own errors rather than a cascade of "trait not
//! implemented" and "no variant named" errors.

use proc_macro2::TokenStream;
use quote::quote;
use syn::{Data, DeriveInput, Fields, GenericParam, Ident};

use super::ast::{Rejected, variant_name};
use super::items::{embed_impl, field_enum_declaration, inherent};
use crate::common::case::unraw;

/// The errors and the stubs.
pub fn fallback(input: &DeriveInput, rejected: &Rejected) -> TokenStream {
    let errors = rejected.errors.to_compile_error();
    let krate = &rejected.krate;
    let p = quote!(#krate::__private);
    let ident = &input.ident;
    let name = unraw(ident);
    let (impl_generics, ty_generics, where_clause) = input.generics.split_for_impl();
    let mut with_ctx = input.generics.clone();
    with_ctx.params.push(GenericParam::Type(
        syn::parse_quote!(__FusionCtx: ?::core::marker::Sized),
    ));
    let (ctx_impl_generics, _, ctx_where_clause) = with_ctx.split_for_impl();
    let (field_type, field_enum) = match field_enum(input, rejected.field_enum.as_ref(), &p) {
        Some((name, tokens)) => (quote!(#name), tokens),
        None => (quote!(#p::NoField), quote!()),
    };
    let inherent = inherent(input, &p, &input.generics);
    let embed = embed_impl(input, &p, &input.generics);
    // None when the user derives `Serialize` too: that mistake is reported, and a second impl
    // would add rustc's "conflicting implementations" to it.
    let serialize = (!rejected.serialize_derived).then(|| {
        quote! {
        #[automatically_derived]
        impl #impl_generics #p::serde::Serialize for #ident #ty_generics #where_clause {
            fn serialize<__S: #p::serde::Serializer>(
                &self,
                __fusion_serializer: __S,
            ) -> #p::Result<__S::Ok, __S::Error> {
                #p::stub_serialize(__fusion_serializer)
            }
        }
        }
    });
    quote! {
        #errors
        #field_enum

        #serialize

        #[automatically_derived]
        impl #impl_generics #p::Model for #ident #ty_generics #where_clause {
            type Field = #field_type;
            const NAME: &'static #p::str = #name;
            const WIRE_NAMES: &'static [&'static #p::str] = &[];

            fn serialize_selected<__S: #p::serde::Serializer>(
                &self,
                _: &#p::FieldMask,
                __fusion_serializer: __S,
            ) -> #p::Result<__S::Ok, __S::Error> {
                #p::stub_serialize(__fusion_serializer)
            }
        }

        #[automatically_derived]
        impl #ctx_impl_generics #p::Presenter<__FusionCtx> for #ident #ty_generics #ctx_where_clause {}

        #embed
        #inherent
    }
}

/// The field enum, best effort, if `field_enum` asked for it: one variant per named field
/// (attributes may be the broken part, so every field is listed).
fn field_enum(
    input: &DeriveInput,
    name: Option<&Ident>,
    p: &TokenStream,
) -> Option<(Ident, TokenStream)> {
    let name = name?.clone();
    let Data::Struct(data) = &input.data else {
        return None;
    };
    let Fields::Named(named) = &data.fields else {
        return None;
    };
    let mut variants: Vec<Ident> = Vec::new();
    for field in &named.named {
        let Some(ident) = &field.ident else { continue };
        let variant = Ident::new(&variant_name(&unraw(ident)), ident.span());
        if !variants.contains(&variant) {
            variants.push(variant);
        }
    }
    let vis = &input.vis;
    let doc = format!(" The `_select` fields of [`{}`].", input.ident);
    let variants: Vec<TokenStream> = variants
        .iter()
        .map(|variant| quote!(#[doc = " A member."] #variant))
        .collect();
    let declaration = field_enum_declaration(&doc, vis, &name, &variants);
    let tokens = quote! {
        #declaration

        #[automatically_derived]
        impl #p::Field for #name {
            const ALL: &'static [Self] = &[];

            fn wire_name(self) -> &'static #p::str {
                ""
            }

            fn from_wire_name(_: &#p::str) -> #p::Option<Self> {
                #p::None
            }

            fn index(self) -> #p::usize {
                0
            }
        }
    };
    Some((name, tokens))
}
