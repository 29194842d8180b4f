//! Embedded fields (wire format §6.8): the `Embed` and `EmbedData` impls of the model, the `DECLARES_UI` its
//! children contribute, and the trait paths every use of an `#[embed]` field goes through, so
//! a field that holds no presenter gets one error, at its type. The data write of every
//! embedded field (`serialize_selected`) is the check that always runs.

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::Ident;
use syn::spanned::Spanned;

use super::{Gen, present};
use crate::presenter::ast::DeclKind;

impl<'a> Gen<'_, 'a> {
    /// `const DECLARES_UI` of the `Model` impl, when presenting the model can produce UI blocks
    /// (what makes a tool that returns it name the MCP Apps view): its own UI declarations or
    /// agent limit (the truncation summary is a UI block) make it `true`; otherwise each
    /// embedded field's `DECLARES_UI` is or-ed in. Nothing (the default, `false`) when neither
    /// applies.
    ///
    /// Each field is read through a probe of its `EmbedData` that is `false` for a type that
    /// embeds nothing, since the data write (and the embed call) report that type. Not through
    /// `Embeddable` or `Embed<C>`: proving those for a model proves its whole chain of embedded
    /// models, which const evaluation redid for every parent (a fifth of the compile time of
    /// a crate whose 100 models embed each other in a chain, PERFORMANCE.md).
    pub(super) fn declares_ui(&self) -> TokenStream {
        let p = &self.p;
        if self.declares_own_ui() {
            return quote!(const DECLARES_UI: #p::bool = true;);
        }
        let children = self.checked_embeds();
        if children.is_empty() {
            return quote!();
        }
        let terms = children
            .iter()
            .map(|ty| quote!(<#p::DeclaresUiProbe<#ty>>::DECLARES_UI));
        quote! {
            const DECLARES_UI: #p::bool = {
                use #p::DeclaresUiFallback as _;
                #(#terms)||*
            };
        }
    }

    /// `<Ty as Embeddable>` (no declared context) or `<Ty as EmbeddableIn<Ctx>>`, spanned at
    /// the field's type, for an embedded type a constant can name: every use of the field
    /// goes through it, so a type that is no presenter gets one error there (the compiler
    /// drops the identical repeats). `None` for the other types (see `checked_embeds`).
    pub(super) fn embeddable_as(&self, ty: &syn::Type) -> Option<TokenStream> {
        if !self.nameable(ty) {
            return None;
        }
        let krate = &self.model.krate;
        let api = present::respan(&quote!(#krate::present), ty.span());
        Some(match &self.model.context {
            None => quote_spanned!(ty.span()=> <#ty as #api::Embeddable>),
            Some(ctx) => quote_spanned!(ty.span()=> <#ty as #api::EmbeddableIn<#ctx>>),
        })
    }

    /// Whether the model's own declarations produce UI blocks.
    pub(super) fn declares_own_ui(&self) -> bool {
        self.model.agent_limit.is_some()
            || self.model.decls.iter().any(|decl| {
                matches!(
                    decl.kind,
                    DeclKind::UiCall(_)
                        | DeclKind::Markdown(_)
                        | DeclKind::Summary(_)
                        | DeclKind::Table(_)
                )
            })
    }

    /// The types of the embedded fields a constant can name: not one that mentions a type
    /// parameter (its `Embed` impl would need a bound the `Model` impl cannot have), nor one that
    /// mentions the model itself (a recursive model would make the constant depend on itself);
    /// for those, `ToolSpec::ui_app()` says it by hand.
    fn checked_embeds(&self) -> Vec<&'a syn::Type> {
        self.model
            .fields
            .iter()
            .filter(|field| field.embed && self.nameable(field.ty))
            .map(|field| field.ty)
            .collect()
    }

    /// Whether `ty` mentions neither a type parameter nor the model itself.
    pub(super) fn nameable(&self, ty: &syn::Type) -> bool {
        let ident = self.ident();
        let self_ident = Ident::new("Self", ident.span());
        !crate::presenter::ast::mentions(ty, &self.params)
            && !crate::presenter::ast::mentions(ty, &[ident, &self_ident])
    }

    /// `Embed<Ctx>`: a model field holding this model presents it as a single child.
    pub(super) fn embed_impl(&self) -> TokenStream {
        let p = &self.p;
        let ctx = &self.ctx;
        let ident = self.ident();
        let mut generics = self.model.input.generics.clone();
        if self.model.context.is_none() {
            generics.params.push(super::ctx_param());
        }
        generics
            .make_where_clause()
            .predicates
            .push(syn::parse_quote!(Self: #p::Presenter<#ctx>));
        let (impl_generics, _, where_clause) = generics.split_for_impl();
        let (_, ty_generics, _) = self.model.input.generics.split_for_impl();
        let embed_data = super::embed_data_impl(self.model.input, p, &self.model_generics());
        quote! {
            #[automatically_derived]
            impl #impl_generics #p::Embed<#ctx> for #ident #ty_generics #where_clause {
                const DECLARES_UI: #p::bool = <Self as #p::Model>::DECLARES_UI;

                fn embed_into(&self, __fusion_ctx: &#ctx, __fusion_sink: &mut #p::EmbedSink<'_>) {
                    __fusion_sink.single(self, __fusion_ctx);
                }
            }

            #embed_data
        }
    }

    /// `Presenter::embeds`: each embedded field handed to the sink, or nothing without one.
    pub(super) fn embeds_method(&self) -> Option<TokenStream> {
        let p = &self.p;
        let ctx = &self.ctx;
        let embeds: Vec<TokenStream> = self
            .model
            .fields
            .iter()
            .filter(|f| f.embed)
            .map(|field| {
                let member = field.ident;
                let ty = field.ty;
                // Only the trait path is spanned at the field's type (a type that is not a
                // presenter is reported there); locals keep the call-site span, which
                // `macro_rules!` hygiene would otherwise hide.
                let krate = &self.model.krate;
                let api = present::respan(&quote!(#krate::present), ty.span());
                let embed = if let (Some(_), Some(embeddable)) =
                    (&self.model.context, self.embeddable_as(ty))
                {
                    quote!(#embeddable::embed_field)
                } else {
                    quote_spanned!(ty.span()=> <#ty as #api::Embed<#ctx>>::embed_into)
                };
                let call = quote!(#embed(&self.#member, __fusion_ctx, __fusion_sink););
                // An embed the call's `_select` leaves out presents nothing (wire format §6.8).
                match &field.wire {
                    Some(wire) => {
                        let index = wire.index;
                        quote! {
                            if #p::EmbedSink::selected(__fusion_sink, #index) {
                                #call
                            }
                        }
                    }
                    None => call,
                }
            })
            .collect();
        (!embeds.is_empty()).then(|| {
            quote! {
                fn embeds(&self, __fusion_ctx: &#ctx, __fusion_sink: &mut #p::EmbedSink<'_>) {
                    #(#embeds)*
                }
            }
        })
    }
}
