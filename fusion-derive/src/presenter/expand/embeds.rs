//! Embedded fields (wire format §6.8): the `Embed` impl of the model, the `DECLARES_UI` its
//! children contribute, and the `Embed` path every use of an `#[embed]` field goes through, so
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
    /// embedded field's model's `DECLARES_UI` is or-ed in. Nothing (the default, `false`) when
    /// neither applies.
    ///
    /// Read through `Embed::Model`, which names no context: proving that a child presents (its
    /// `Presenter<C>`) would prove its whole chain of embedded models, which const evaluation
    /// redid for every parent. A field type that is no presenter is reported here at its type,
    /// with the same error as its data write, which the compiler shows once.
    pub(super) fn declares_ui(&self) -> TokenStream {
        let p = &self.p;
        if self.declares_own_ui() {
            return quote!(const DECLARES_UI: #p::bool = true;);
        }
        let children = self.checked_embeds();
        if children.is_empty() {
            return quote!();
        }
        let terms = children.iter().map(|ty| {
            let embed = self.as_embed(ty);
            quote!(#embed::DECLARES_UI)
        });
        quote! {
            const DECLARES_UI: #p::bool = #(#terms)||*;
        }
    }

    /// `fn static_rules` of the `Model` impl (wire format §6.12): the model's own static item
    /// rules, then each embedded field's model's, read through `Embed` as `DECLARES_UI` is.
    /// Nothing (the default adds nothing) without either.
    pub(super) fn static_rules_fn(&self) -> TokenStream {
        let p = &self.p;
        let own: Vec<&str> = self
            .model
            .decls
            .iter()
            .filter_map(|decl| decl.static_item_rule())
            .collect();
        let children = self.checked_embeds();
        if own.is_empty() && children.is_empty() {
            return quote!();
        }
        let terms = children.iter().map(|ty| {
            let embed = self.as_embed(ty);
            quote!(#embed::embedded_static_rules(__fusion_out);)
        });
        // `#[inline]`: only a tool's definition calls it, so no code is generated for it (nor
        // for the `enter` and `embedded_static_rules` it instantiates) in the model's crate
        // unless that crate builds one; without it every model's crate compiled its copy.
        quote! {
            #[inline]
            fn static_rules(__fusion_out: &mut #p::StaticRules) {
                if #p::StaticRules::enter::<Self>(__fusion_out, &[#(#own),*]) {
                    #(#terms)*
                }
            }
        }
    }

    /// The path of the `Embed` trait spanned at an embedded field's type: every use of the field
    /// goes through it, so a type that is no presenter gets one error, there (the compiler drops
    /// the identical repeats).
    pub(super) fn as_embed(&self, ty: &syn::Type) -> TokenStream {
        let krate = &self.model.krate;
        let (first, last) = ends(ty);
        let api = present::respan(&quote!(#krate::present::Embed), first);
        let open = quote_spanned!(first=> <);
        let close = quote_spanned!(last=> >);
        quote!(#open #ty as #api #close)
    }

    /// A call of `Embed::method` on the field `member` of type `ty` with `args` after it, spanned
    /// over the field's type (its parentheses too: a call is reported over its whole text).
    pub(super) fn embed_call(
        &self,
        ty: &syn::Type,
        method: &str,
        args: TokenStream,
    ) -> TokenStream {
        let embed = self.as_embed(ty);
        let method = Ident::new(method, ends(ty).0);
        let mut args = proc_macro2::Group::new(proc_macro2::Delimiter::Parenthesis, args);
        args.set_span(ends(ty).1);
        quote!(#embed::#method #args)
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

    /// `Embed`: a field holding this model holds one child, the model itself (written by `items.rs`, which
    /// `fallback.rs` shares).
    pub(super) fn embed_impl(&self) -> TokenStream {
        crate::presenter::items::embed_impl(self.model.input, &self.p, &self.model_generics())
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
                // Only the path is spanned at the field's type (a type that is not a presenter
                // for the context is reported there); locals keep the call-site span, which
                // `macro_rules!` hygiene would otherwise hide.
                let children = self.embed_call(ty, "children", quote!(&self.#member));
                // The context named, so a child that presents with another one is reported at
                // the field's type as not a presenter for this context.
                let (first, last) = ends(ty);
                let embed = present::respan(&quote!(#p::EmbedSink::embed::<_, #ctx>), first);
                let mut args = proc_macro2::Group::new(
                    proc_macro2::Delimiter::Parenthesis,
                    quote!(__fusion_sink, #children, __fusion_ctx),
                );
                args.set_span(last);
                let call = quote!(#embed #args;);
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

/// The spans of the first and the last token of `ty`: a span from one to the other covers the
/// whole type (`Span::join` is not stable).
fn ends(ty: &syn::Type) -> (proc_macro2::Span, proc_macro2::Span) {
    let tokens = quote!(#ty);
    let first = tokens
        .clone()
        .into_iter()
        .next()
        .map_or(ty.span(), |t| t.span());
    let last = tokens.into_iter().last().map_or(first, |t| t.span());
    (first, last)
}
