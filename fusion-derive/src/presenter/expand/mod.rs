//! Code generation from a checked [`Model`]; it cannot fail.
//!
//! Everything is named by absolute path: runtime items through `#krate::__private` (aliased
//! `__fusion` inside the anonymous `const` that holds the impls), std through `::core`, so a user
//! module that shadows `Option`, `String` or `fusion_runtime` changes nothing. Locals start with
//! `__fusion_` so they never meet the user's names.

use proc_macro2::TokenStream;
use quote::quote;
use syn::spanned::Spanned;
use syn::{GenericParam, Generics, Ident, WherePredicate};

use super::ast::{Censor, DeclKind, Field, Model, Part, Target, Text, Wire};

mod embeds;
mod present;

use super::items::{field_enum_declaration, inherent};

/// Everything the derive generates for one model.
pub fn expand(model: &Model<'_>) -> TokenStream {
    let generator = Gen::new(model);
    let (field_enum, field_enum_impls) = generator.field_enum();
    let model_impl = generator.model_impl();
    let serialize_impl = generator.serialize_impl();
    let presenter_impl = generator.presenter_impl();
    let embed_impl = generator.embed_impl();
    let inherent = generator.inherent_impl();
    let krate = &model.krate;
    let p = &generator.p;
    // The impls inside an anonymous `const`, naming the runtime through one short alias: the
    // same absolute path, a third of the tokens for the compiler to read and resolve.
    quote! {
        #field_enum
        const _: () = {
            #[allow(unused_imports)]
            use #krate::__private as #p;
            #field_enum_impls
            #model_impl
            #serialize_impl
            #presenter_impl
            #embed_impl
            #inherent
        };
    }
}

/// `__FusionCtx: ?::core::marker::Sized`, the context parameter of a model that declares none:
/// built rather than parsed (a `parse_quote!` per impl is a measurable part of the derive's run).
fn ctx_param() -> GenericParam {
    let span = proc_macro2::Span::call_site();
    let sized = syn::Path {
        leading_colon: Some(syn::token::PathSep::default()),
        segments: ["core", "marker", "Sized"]
            .into_iter()
            .map(|name| syn::PathSegment::from(Ident::new(name, span)))
            .collect(),
    };
    let mut param = syn::TypeParam::from(Ident::new("__FusionCtx", span));
    param.colon_token = Some(syn::token::Colon::default());
    param
        .bounds
        .push(syn::TypeParamBound::Trait(syn::TraitBound {
            paren_token: None,
            modifier: syn::TraitBoundModifier::Maybe(syn::token::Question::default()),
            lifetimes: None,
            path: sized,
        }));
    GenericParam::Type(param)
}

/// The pieces every generated impl shares.
struct Gen<'m, 'a> {
    model: &'m Model<'a>,
    /// `__fusion`: the alias of `#krate::__private` that `expand` declares around the impls.
    /// An `Ident`, not a `TokenStream`: `quote!` pushes an ident as one token, where every
    /// interpolated stream is a clone and a concatenation across the proc-macro bridge.
    p: Ident,
    /// The request context type as generated code writes it: the declared one, or the
    /// parameter `__FusionCtx` (a type, not a `TokenStream`, for the same reason as `p`).
    ctx: syn::Type,
    /// The type parameters of the model.
    params: Vec<&'m Ident>,
}

impl<'m, 'a> Gen<'m, 'a> {
    fn new(model: &'m Model<'a>) -> Self {
        let ctx = model.context.clone().unwrap_or_else(|| {
            syn::Type::Path(syn::TypePath {
                qself: None,
                path: Ident::new("__FusionCtx", proc_macro2::Span::call_site()).into(),
            })
        });
        Gen {
            model,
            p: Ident::new("__fusion", proc_macro2::Span::call_site()),
            ctx,
            params: model
                .input
                .generics
                .type_params()
                .map(|p| &p.ident)
                .collect(),
        }
    }

    fn ident(&self) -> &Ident {
        &self.model.input.ident
    }

    /// The model's where-clause plus `T: Serialize` for each type parameter written as is.
    fn model_generics(&self) -> Generics {
        let p = &self.p;
        let mut generics = self.model.input.generics.clone();
        let serialized: Vec<&Ident> = self
            .params
            .iter()
            .copied()
            .filter(|param| {
                self.model.wire_fields().any(|(field, _)| {
                    field.redact.is_none() && super::ast::mentions(field.ty, &[param])
                })
            })
            .collect();
        let where_clause = generics.make_where_clause();
        for param in serialized {
            where_clause
                .predicates
                .push(syn::parse_quote!(#param: #p::serde::Serialize));
        }
        // An embedded field is written cut to its child's agent limit (wire format §6.8).
        for field in &self.model.fields {
            if field.embed && super::ast::mentions(field.ty, &self.params) {
                let ty = field.ty;
                where_clause
                    .predicates
                    .push(syn::parse_quote!(#ty: #p::Embed));
            }
        }
        generics
    }

    /// The model's generics plus the context parameter (when no context is declared) and the
    /// bounds that embeds and templates of generic fields need.
    fn presenter_generics(&self) -> Generics {
        let p = &self.p;
        let ctx = &self.ctx;
        let mut generics = self.model_generics();
        if self.model.context.is_none() {
            generics.params.push(ctx_param());
        }
        let mut predicates: Vec<WherePredicate> = Vec::new();
        for field in &self.model.fields {
            // A field whose type mentions a type parameter presents with the contexts its
            // model presents with. Any other embedded type is no bound: its model presents with
            // every context (a derived child without a declared context) or with the declared
            // one, so the impl needs no proof that it does, which for a chain of models
            // embedding each other would be a proof the length of the chain per model.
            if field.embed && super::ast::mentions(field.ty, &self.params) {
                let ty = field.ty;
                // Spanned at the field's type: a type that is no presenter is reported there.
                let embed = self.as_embed(ty);
                // The `Presenter` path keeps the call site's span: at the field's, a user module
                // that imports `Presenter` would get `unused_qualifications` on it.
                predicates.push(
                    syn::parse_quote_spanned!(ty.span()=> #embed::Model: #p::Presenter<#ctx>),
                );
            }
        }
        for index in self.template_fields() {
            let ty = self.model.fields[index].ty;
            if super::ast::mentions(ty, &self.params) {
                predicates.push(syn::parse_quote!(#ty: #p::Display));
            }
        }
        generics.make_where_clause().predicates.extend(predicates);
        generics
    }

    /// Fields that some template interpolates.
    fn template_fields(&self) -> Vec<usize> {
        let mut out = Vec::new();
        let mut add = |text: &Text| {
            if let Text::Template(parts, _) = text {
                for part in parts {
                    if let Part::Field(index) = part
                        && !out.contains(index)
                    {
                        out.push(*index);
                    }
                }
            }
        };
        for decl in &self.model.decls {
            match &decl.kind {
                DeclKind::Rule(text) | DeclKind::Markdown(text) | DeclKind::Summary(text) => {
                    add(text);
                }
                DeclKind::Suggest(tool, reason) => {
                    if let Target::Text(tool) = tool {
                        add(tool);
                    }
                    add(reason);
                }
                DeclKind::RuleCall(_)
                | DeclKind::SuggestCall(_)
                | DeclKind::UiCall(_)
                | DeclKind::Table(_) => {}
            }
        }
        out
    }

    /// The wire names in declaration order: the value of a `&'static [&'static str]` constant.
    fn wire_names(&self) -> TokenStream {
        let names = self.model.wire_fields().map(|(_, wire)| &wire.name);
        quote!(&[#(#names),*])
    }

    /// `<Model>Field`, if `#[presenter(field_enum)]` asks for it: one variant per wire member,
    /// with `Field`, `Display` and `FromStr`. Only then: `_select` itself needs only the wire
    /// names, and the enum with its impls is a third of what the derive costs the compiler.
    fn field_enum(&self) -> (TokenStream, TokenStream) {
        let Some(name) = &self.model.field_enum else {
            return (TokenStream::new(), TokenStream::new());
        };
        let p = &self.p;
        let vis = &self.model.input.vis;
        let model = self.ident();
        let doc = format!(
            " The `_select` fields of [`{model}`]: one variant per wire member, in declaration order."
        );
        let mut variants = Vec::new();
        for (field, wire) in self.model.wire_fields() {
            let variant = &wire.variant;
            let wire_name = &wire.name;
            let doc = if wire.name == field.name {
                format!(" The member `{wire_name}`.")
            } else {
                format!(" The member `{wire_name}` (field `{}`).", field.name)
            };
            variants.push(quote!(#[doc = #doc] #variant));
        }
        let wire_names = self.wire_names();
        let idents: Vec<&Ident> = self.model.wire_fields().map(|(_, w)| &w.variant).collect();
        let index_body = if idents.is_empty() {
            quote!(match self {})
        } else {
            quote!(self as #p::usize)
        };
        let names = quote!(#name::__FUSION_WIRE_NAMES);
        // Small bodies, each `#[inline]`: no code is generated for them in the model's crate
        // unless it calls them, and the runtime helpers are the same for every model (a `match`
        // over the names per model costs the compiler more than these calls).
        let declaration = field_enum_declaration(&doc, vis, name, &variants);
        let impls = quote! {
            impl #name {
                /// The wire names, in the order of the variants.
                const __FUSION_WIRE_NAMES: &'static [&'static #p::str] = #wire_names;
            }

            #[automatically_derived]
            impl #p::Field for #name {
                const ALL: &'static [Self] = &[#(Self::#idents),*];

                #[inline]
                fn wire_name(self) -> &'static #p::str {
                    #p::wire_name(#names, #p::Field::index(self))
                }

                #[inline]
                fn from_wire_name(__fusion_name: &#p::str) -> #p::Option<Self> {
                    #p::field_named(#names, __fusion_name)
                }

                #[inline]
                fn index(self) -> #p::usize {
                    #index_body
                }
            }

            #[automatically_derived]
            impl ::core::fmt::Display for #name {
                #[inline]
                fn fmt(&self, __fusion_f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                    __fusion_f.write_str(#p::Field::wire_name(*self))
                }
            }

            #[automatically_derived]
            impl ::core::str::FromStr for #name {
                type Err = #p::UnknownField;

                #[inline]
                fn from_str(__fusion_name: &#p::str) -> #p::Result<Self, Self::Err> {
                    #p::parse_field(#names, __fusion_name)
                }
            }
        };
        (declaration, impls)
    }

    /// `const SUGGESTS`: the fixed suggestion targets (no template), texts and paths, for the
    /// tool set's check; nothing when there are none.
    fn suggests(&self) -> TokenStream {
        let p = &self.p;
        let mut texts: Vec<&str> = Vec::new();
        let mut targets: Vec<TokenStream> = Vec::new();
        for decl in &self.model.decls {
            match &decl.kind {
                DeclKind::Suggest(Target::Text(Text::Static(tool)), _)
                    if !texts.contains(&tool.as_str()) =>
                {
                    texts.push(tool);
                    targets.push(quote!(#tool));
                }
                DeclKind::Suggest(target @ Target::Action(..), _) => {
                    targets.push(self.target(target, decl.scope));
                }
                _ => {}
            }
        }
        if targets.is_empty() {
            return TokenStream::new();
        }
        quote!(const SUGGESTS: &'static [&'static #p::str] = &[#(#targets),*];)
    }

    /// `Model`: the names and the selected, redacted wire writer.
    fn model_impl(&self) -> TokenStream {
        let p = &self.p;
        let ident = self.ident();
        let generics = self.model_generics();
        let (impl_generics, _, where_clause) = generics.split_for_impl();
        let (_, ty_generics, _) = self.model.input.generics.split_for_impl();
        let (field_type, wire_names) = match &self.model.field_enum {
            Some(field_enum) => (
                quote!(#field_enum),
                quote!(#field_enum::__FUSION_WIRE_NAMES),
            ),
            None => (quote!(#p::NoField), self.wire_names()),
        };
        let name = &self.model.name;
        let serde_name = &self.model.serde_name;
        let declares_ui = self.declares_ui();
        let static_rules = self.static_rules_fn();
        let lean_const = self
            .model
            .lean
            .then(|| quote!(const LEAN: #p::bool = true;));
        let suggests = self.suggests();
        let agent_limit = self
            .model
            .agent_limit
            .map(|limit| quote!(const AGENT_LIMIT: #p::Option<#p::usize> = #p::Some(#limit);));
        let mut skipped = Vec::new();
        let mut writes = Vec::new();
        let mut reads = Vec::new();
        for (field, wire) in self.model.wire_fields() {
            let (skip, write) = self.field_write(field, wire);
            skipped.extend(skip);
            writes.push(write);
            if field.redact.is_some() {
                // A redacted field is otherwise never read by the expansion.
                let member = field.ident;
                reads.push(quote!(let _ = &self.#member;));
            }
        }
        let mask_param = if writes.is_empty() {
            quote!(_)
        } else {
            quote!(__fusion_mask)
        };
        // The struct length: one runtime count of the kept members (a sum of one term per
        // field costs the compiler a type check per field), less the members skipped by value.
        let total = writes.len();
        let len = if writes.is_empty() {
            quote!(0)
        } else if skipped.is_empty() {
            quote!(#p::FieldMask::count(__fusion_mask, #total))
        } else {
            quote!(#p::FieldMask::count(__fusion_mask, #total) - (#(#skipped)+*))
        };
        let state_mut = if writes.is_empty() {
            quote!()
        } else {
            quote!(mut)
        };
        quote! {
            #[automatically_derived]
            impl #impl_generics #p::Model for #ident #ty_generics #where_clause {
                type Field = #field_type;

                const NAME: &'static #p::str = #name;

                const WIRE_NAMES: &'static [&'static #p::str] = #wire_names;
                #declares_ui
                #suggests
                #agent_limit
                #lean_const
                #static_rules

                fn serialize_selected<__S: #p::serde::Serializer>(
                    &self,
                    #mask_param: &#p::FieldMask,
                    __fusion_serializer: __S,
                ) -> #p::Result<__S::Ok, __S::Error> {
                    #(#reads)*
                    let #state_mut __fusion_state = match #p::serde::Serializer::serialize_struct(
                        __fusion_serializer,
                        #serde_name,
                        #len,
                    ) {
                        #p::Ok(__fusion_state) => __fusion_state,
                        #p::Err(__fusion_error) => return #p::Err(__fusion_error),
                    };
                    #(#writes)*
                    #p::serde::ser::SerializeStruct::end(__fusion_state)
                }
            }
        }
    }

    /// One member of the wire writer: its write, and for a member skipped by value (`skip_serializing_if`)
    /// whether it is kept but skipped (1 or 0), which the struct length subtracts.
    fn field_write(&self, field: &Field<'_>, wire: &Wire) -> (Option<TokenStream>, TokenStream) {
        let p = &self.p;
        let member = field.ident;
        let index = wire.index;
        let wire_name = &wire.name;
        let kept = quote!(#p::FieldMask::contains(__fusion_mask, #index));
        // Cut to the child's agent limit and the mask's cap (wire format §6.8), through the
        // `Embed` path spanned at the field's type: a type that is no presenter is one error.
        let embedded = field.embed && field.redact.is_none();
        if wire.skip_if.is_none() && !embedded {
            // The common member: one call that tests the mask and writes. `if let Err` rather
            // than `?`, which costs the compiler a `From` conversion per field (as serde's own
            // derive does). Only what the member needs is built: the derive's own run is a
            // sixth of what it costs a crate to compile, most of it tokens.
            let value = self.wire_value(field, &quote!(self));
            return (
                None,
                quote! {
                    if let #p::Err(__fusion_error) = #p::serialize_member(
                        &mut __fusion_state, __fusion_mask, #index, #wire_name, #value,
                    ) {
                        return #p::Err(__fusion_error);
                    }
                },
            );
        }
        let serialize = if embedded {
            self.embed_call(
                field.ty,
                "write_member",
                quote!(&self.#member, &mut __fusion_state, #wire_name, __fusion_mask),
            )
        } else {
            let value = self.wire_value(field, &quote!(self));
            quote! {
                #p::serde::ser::SerializeStruct::serialize_field(
                    &mut __fusion_state,
                    #wire_name,
                    #value,
                )
            }
        };
        let write = quote! {
            if let #p::Err(__fusion_error) = #serialize {
                return #p::Err(__fusion_error);
            }
        };
        match &wire.skip_if {
            None => (None, quote!(if #kept { #write })),
            Some(skip_if) => {
                let skipped = quote!(#skip_if(&self.#member));
                (
                    Some(quote!(#p::usize::from(#kept && #skipped))),
                    quote! {
                        if #kept {
                            if #skipped {
                                if let #p::Err(__fusion_error) = #p::serde::ser::SerializeStruct::skip_field(
                                    &mut __fusion_state,
                                    #wire_name,
                                ) {
                                    return #p::Err(__fusion_error);
                                }
                            } else {
                                #write
                            }
                        }
                    },
                )
            }
        }
    }

    /// The value a field's member holds on the wire, as `&T`: the field of `receiver` (`self`,
    /// or an item of a collection), or its censor (wire format §8.3). The data block writes
    /// it; a generated table shows it.
    fn wire_value(&self, field: &Field<'_>, receiver: &TokenStream) -> TokenStream {
        let p = &self.p;
        let member = field.ident;
        match (&field.redact, field.is_option) {
            (None, _) => quote!(&#receiver.#member),
            (Some(Censor::Default), true) => {
                quote!(&#p::censor_option(&#receiver.#member, #p::REDACTED))
            }
            (Some(Censor::Default), false) => quote!(#p::REDACTED),
            (Some(Censor::Text(text)), true) => {
                quote!(&#p::censor_option(&#receiver.#member, #text))
            }
            (Some(Censor::Text(text)), false) => quote!(#text),
            // A direct call, so `&String` coerces to a censor taking `&str`.
            (Some(Censor::With(with)), true) => quote! {
                &#p::Option::map(
                    #p::Option::as_ref(&#receiver.#member),
                    |__fusion_value| (#with)(__fusion_value),
                )
            },
            (Some(Censor::With(with)), false) => quote!(&(#with)(&#receiver.#member)),
        }
    }

    /// `Serialize`: the redacted wire form, every member.
    fn serialize_impl(&self) -> TokenStream {
        let p = &self.p;
        let ident = self.ident();
        let generics = self.model_generics();
        let (impl_generics, _, where_clause) = generics.split_for_impl();
        let (_, ty_generics, _) = self.model.input.generics.split_for_impl();
        quote! {
            #[automatically_derived]
            impl #impl_generics #p::serde::Serialize for #ident #ty_generics #where_clause {
                fn serialize<__S: #p::serde::Serializer>(
                    &self,
                    __fusion_serializer: __S,
                ) -> #p::Result<__S::Ok, __S::Error> {
                    <Self as #p::Model>::serialize_selected(self, &#p::ALL_FIELDS, __fusion_serializer)
                }
            }
        }
    }

    /// `Model::present()` and `Model::present_all()`, usable without importing a trait.
    fn inherent_impl(&self) -> TokenStream {
        inherent(self.model.input, &self.p, &self.model_generics())
    }
}
