//! What the derive emits when the input has mistakes: every error, plus stub impls of the
//! traits (and the field enum and inherent methods), so code that uses the model elsewhere
//! compiles on and the user sees the derive's own errors rather than a cascade of "trait not
//! implemented" and "no variant named" errors.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use syn::{Data, DeriveInput, Fields, GenericParam, Ident};

use crate::ast;
use crate::attr::Error;

/// The errors and the stubs.
pub fn fallback(input: &DeriveInput, errors: &Error) -> TokenStream {
    let errors = errors.to_compile_error();
    let krate = runtime_path(input);
    let p = quote!(#krate::__private);
    let ident = &input.ident;
    let name = ast::unraw(ident);
    let (impl_generics, ty_generics, where_clause) = input.generics.split_for_impl();
    let mut with_ctx = input.generics.clone();
    with_ctx.params.push(GenericParam::Type(
        syn::parse_quote!(__FusionCtx: ?::core::marker::Sized),
    ));
    let (ctx_impl_generics, _, ctx_where_clause) = with_ctx.split_for_impl();
    let (field_type, field_enum) = match field_enum(input, &p) {
        Some((name, tokens)) => (quote!(#name), tokens),
        None => (quote!(#p::NoField), quote!()),
    };
    let inherent = crate::expand::inherent(input, &p, &input.generics);
    quote! {
        #errors
        #field_enum

        #[automatically_derived]
        impl #impl_generics #p::serde::Serialize for #ident #ty_generics #where_clause {
            fn serialize<__S: #p::serde::Serializer>(
                &self,
                __fusion_serializer: __S,
            ) -> #p::Result<__S::Ok, __S::Error> {
                #p::stub_serialize(__fusion_serializer)
            }
        }

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

        #[automatically_derived]
        impl #ctx_impl_generics #p::Embed<__FusionCtx> for #ident #ty_generics #ctx_where_clause {
            fn embed_into(&self, _: &__FusionCtx, _: &mut #p::EmbedSink<'_>) {}
        }

        #inherent
    }
}

/// `crate = path` if it can be read, else `::fusion_runtime`.
fn runtime_path(input: &DeriveInput) -> syn::Path {
    let mut found = None;
    for attr in input
        .attrs
        .iter()
        .filter(|a| a.path().is_ident("presenter"))
    {
        let _ = attr.parse_nested_meta(|meta| {
            if meta.path.is_ident("crate") {
                if let Ok(value) = meta.value()
                    && let Ok(path) = value.parse::<syn::Path>()
                {
                    found = Some(path);
                }
            } else if meta.input.peek(syn::Token![=]) {
                let _: syn::Expr = meta.value()?.parse()?;
            }
            Ok(())
        });
    }
    found.unwrap_or_else(|| syn::parse_quote!(::fusion_runtime))
}

/// The field enum, best effort: one variant per named field (attributes may be the broken
/// part, so every field is listed), under `field_enum = Name` if that can be read.
fn field_enum(input: &DeriveInput, p: &TokenStream) -> Option<(Ident, TokenStream)> {
    let Data::Struct(data) = &input.data else {
        return None;
    };
    let Fields::Named(named) = &data.fields else {
        return None;
    };
    let mut name = format_ident!("{}Field", input.ident);
    for attr in input
        .attrs
        .iter()
        .filter(|a| a.path().is_ident("presenter"))
    {
        let _ = attr.parse_nested_meta(|meta| {
            if meta.path.is_ident("field_enum") {
                if let Ok(value) = meta.value()
                    && let Ok(ident) = value.parse::<Ident>()
                {
                    name = ident;
                }
            } else if meta.input.peek(syn::Token![=]) {
                let _: syn::Expr = meta.value()?.parse()?;
            }
            Ok(())
        });
    }
    let mut variants: Vec<Ident> = Vec::new();
    for field in &named.named {
        let Some(ident) = &field.ident else { continue };
        let variant = Ident::new(&ast::variant_name(&ast::unraw(ident)), ident.span());
        if !variants.contains(&variant) {
            variants.push(variant);
        }
    }
    let vis = &input.vis;
    let doc = format!(" The `_select` fields of [`{}`].", input.ident);
    let tokens = quote! {
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
            #(
                #[doc = " A member."]
                #variants,
            )*
        }

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
