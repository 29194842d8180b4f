//! The `Presenter<Ctx>` impl: the agent limit, rules, suggestions, UI blocks and embeds, with
//! the templates formatted in place.

use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote, quote_spanned};
use syn::LitStr;
use syn::spanned::Spanned;

use super::Gen;
use crate::presenter::ast::{DeclKind, Declaration, Format, Part, Scope, Text};

impl Gen<'_, '_> {
    /// `STATIC_RULES`, and `STATIC_ONLY` with `STATIC_RULES_BLOCK` when the model has nothing
    /// but static item rules.
    fn static_items(&self) -> Vec<TokenStream> {
        let p = &self.p;
        let mut items = Vec::new();
        let static_rules: Vec<&str> = self
            .model
            .decls
            .iter()
            .filter_map(Declaration::static_item_rule)
            .collect();
        if !static_rules.is_empty() {
            items.push(
                quote!(const STATIC_RULES: &'static [&'static #p::str] = &[#(#static_rules),*];),
            );
        }
        // Nothing but static item rules: the blocks are the same for every value, so an
        // embedding parent presents this model once per presentation, not once per item.
        let static_only = self.model.agent_limit.is_none()
            && !self.model.fields.iter().any(|f| f.embed)
            && self
                .model
                .decls
                .iter()
                .all(|d| d.static_item_rule().is_some());
        if static_only {
            items.push(quote!(const STATIC_ONLY: #p::bool = true;));
            if let Some(block) = static_rules_block(&static_rules) {
                items.push(quote!(
                    const STATIC_RULES_BLOCK: #p::Option<&'static #p::str> = #p::Some(#block);
                ));
            }
        }
        items
    }

    /// `Presenter<Ctx>`: limit, rules, suggestions, UI and embeds.
    pub(super) fn presenter_impl(&self) -> TokenStream {
        let p = &self.p;
        let ctx = &self.ctx;
        let ident = self.ident();
        let generics = self.presenter_generics();
        let (impl_generics, _, where_clause) = generics.split_for_impl();
        let (_, ty_generics, _) = self.model.input.generics.split_for_impl();
        let mut items = Vec::new();
        if let Some(limit) = self.model.agent_limit {
            items.push(quote!(const AGENT_LIMIT: #p::Option<#p::usize> = #p::Some(#limit);));
        }
        if let Some(format) = self.model.format {
            let variant = match format {
                Format::Json => quote!(Json),
                Format::Toon => quote!(Toon),
            };
            items.push(quote!(const FORMAT: #p::Format = #p::Format::#variant;));
        }
        items.extend(self.static_items());

        let vec_ui = quote!(#p::Vec<#p::UiBlock>);
        let rules = quote!(#p::Rules);
        let suggestions = quote!(#p::Suggestions);
        let methods: [Method<'_>; 6] = [
            ("item_ui", Scope::Item, is_ui, &vec_ui),
            ("item_rules", Scope::Item, is_rule, &rules),
            ("item_suggestions", Scope::Item, is_suggestion, &suggestions),
            ("collection_ui", Scope::Collection, is_ui, &vec_ui),
            ("collection_rules", Scope::Collection, is_rule, &rules),
            (
                "collection_suggestions",
                Scope::Collection,
                is_suggestion,
                &suggestions,
            ),
        ];
        for (name, scope, filter, out) in methods {
            let body: Vec<TokenStream> = self
                .model
                .decls(scope)
                .filter(|d| filter(&d.kind) && d.static_item_rule().is_none())
                .map(|d| self.declaration(d))
                .collect();
            if body.is_empty() {
                continue;
            }
            let name = format_ident!("{name}");
            let receiver = match scope {
                Scope::Item => quote!(&self),
                Scope::Collection => quote!(__fusion_items: &[Self]),
            };
            items.push(quote! {
                fn #name(#receiver, __fusion_ctx: &#ctx, __fusion_out: &mut #out) {
                    #(#body)*
                }
            });
        }
        let embeds: Vec<TokenStream> = self
            .model
            .fields
            .iter()
            .filter(|f| f.embed)
            .map(|field| {
                let member = field.ident;
                let ty = field.ty;
                // Only the function is spanned at the field's type (a type that is not a
                // presenter is reported there); locals keep the call-site span, which
                // `macro_rules!` hygiene would otherwise hide.
                let embed = quote_spanned!(ty.span()=> #p::embed::<#ty, #ctx>);
                quote!(#embed(&self.#member, __fusion_ctx, __fusion_sink);)
            })
            .collect();
        if !embeds.is_empty() {
            items.push(quote! {
                fn embeds(&self, __fusion_ctx: &#ctx, __fusion_sink: &mut #p::EmbedSink<'_>) {
                    #(#embeds)*
                }
            });
        }
        quote! {
            #[automatically_derived]
            impl #impl_generics #p::Presenter<#ctx> for #ident #ty_generics #where_clause {
                #(#items)*
            }
        }
    }

    /// The statement of one declaration inside its `Presenter` method.
    fn declaration(&self, decl: &Declaration) -> TokenStream {
        let p = &self.p;
        let ctx = &self.ctx;
        let (target, value) = match decl.scope {
            Scope::Item => (quote!(Self), quote!(self)),
            Scope::Collection => (quote!([Self]), quote!(__fusion_items)),
        };
        // Callback calls are spanned at the callback, so a callback of the wrong shape or
        // return type is reported there; locals keep the call-site span (`macro_rules!`
        // hygiene would hide them otherwise).
        let out = quote!(__fusion_out);
        let ctx_local = quote!(__fusion_ctx);
        let call = |f: &syn::Expr, push: TokenStream| {
            let p = respan(p, f.span());
            let push = respan(&push, f.span());
            quote_spanned! {f.span()=>
                #p::#push(#out, #p::call::<#target, #ctx, _, _, _>(&(#f), #value, #ctx_local));
            }
        };
        let push = match &decl.kind {
            DeclKind::Rule(text) => self.rule(text, decl.scope),
            DeclKind::RuleCall(f) => call(f, quote!(push_rules)),
            DeclKind::Suggest(tool, reason) => {
                let tool = self.text(tool, decl.scope);
                let reason = self.text(reason, decl.scope);
                quote!(__fusion_out.push(#p::Suggestion::new(#tool, #reason));)
            }
            DeclKind::SuggestCall(f) => call(f, quote!(push_suggestions)),
            DeclKind::UiCall(f) => call(f, quote!(push_ui)),
            DeclKind::Markdown(text) => {
                let text = self.text(text, decl.scope);
                quote!(__fusion_out.push(#p::ui_markdown(#text));)
            }
            DeclKind::Summary(text) => {
                let text = self.text(text, decl.scope);
                quote!(__fusion_out.push(#p::ui_summary(#text));)
            }
        };
        match &decl.when {
            None => push,
            Some(when) => {
                let p = respan(p, when.span());
                let guard = quote_spanned! {when.span()=>
                    #p::when::<#target, #ctx, _, _>(&(#when), #value, #ctx_local)
                };
                quote!(if #guard { #push })
            }
        }
    }

    /// A text as `&'static str` (static) or `String` (template).
    fn text(&self, text: &Text, scope: Scope) -> TokenStream {
        match text {
            Text::Static(text) => quote!(#text),
            Text::Template(parts, span) => self.format(parts, *span, scope),
        }
    }

    /// The push of a rule text: a static text borrowed; a template formatted into the list's
    /// scratch buffer, so a rule that is already in the list allocates nothing.
    fn rule(&self, text: &Text, scope: Scope) -> TokenStream {
        let p = &self.p;
        match text {
            Text::Static(text) => quote!(__fusion_out.push(#p::Cow::Borrowed(#text));),
            Text::Template(parts, span) => {
                let (fmt, args) = self.format_parts(parts, *span, scope);
                quote!(__fusion_out.push_fmt(::core::format_args!(#fmt, #(#args),*));)
            }
        }
    }

    /// `format!` of a resolved template; arguments are spanned at the template literal, so a
    /// field that is not `Display` is reported there.
    fn format(&self, parts: &[Part], span: Span, scope: Scope) -> TokenStream {
        let p = &self.p;
        let (fmt, args) = self.format_parts(parts, span, scope);
        quote!(#p::format!(#fmt, #(#args),*))
    }

    /// The format string and arguments of a resolved template.
    fn format_parts(&self, parts: &[Part], span: Span, scope: Scope) -> (LitStr, Vec<TokenStream>) {
        let p = &self.p;
        let mut fmt = String::new();
        let mut args = Vec::new();
        for part in parts {
            match part {
                Part::Lit(text) => fmt.push_str(&text.replace('{', "{{").replace('}', "}}")),
                Part::Field(index) => {
                    fmt.push_str("{}");
                    let field = &self.model.fields[*index];
                    let member = field.ident;
                    let ty = field.ty;
                    let ty = respan(&quote!(#ty), span);
                    let p = respan(p, span);
                    args.push(quote!(#p::display::<#ty>(&self.#member)));
                }
                Part::Count => {
                    fmt.push_str("{}");
                    debug_assert_eq!(scope, Scope::Collection);
                    let items = quote!(__fusion_items);
                    args.push(quote_spanned!(span=> <[Self]>::len(#items)));
                }
            }
        }
        (LitStr::new(&fmt, span), args)
    }
}

/// `tokens` with every span set to `span`, so an error in a generated call points at the user's
/// tokens rather than at the derive. Only for paths (never locals: hygiene).
fn respan(tokens: &TokenStream, span: Span) -> TokenStream {
    tokens
        .clone()
        .into_iter()
        .map(|mut tt| {
            if let proc_macro2::TokenTree::Group(group) = &tt {
                let mut inner =
                    proc_macro2::Group::new(group.delimiter(), respan(&group.stream(), span));
                inner.set_span(span);
                tt = proc_macro2::TokenTree::Group(inner);
            } else {
                tt.set_span(span);
            }
            tt
        })
        .collect()
}

/// One `Presenter` method: its name, scope, which declarations it runs and its output list.
type Method<'t> = (&'static str, Scope, fn(&DeclKind) -> bool, &'t TokenStream);

fn is_ui(kind: &DeclKind) -> bool {
    matches!(
        kind,
        DeclKind::UiCall(_) | DeclKind::Markdown(_) | DeclKind::Summary(_)
    )
}

fn is_rule(kind: &DeclKind) -> bool {
    matches!(kind, DeclKind::Rule(_) | DeclKind::RuleCall(_))
}

fn is_suggestion(kind: &DeclKind) -> bool {
    matches!(kind, DeclKind::Suggest(..) | DeclKind::SuggestCall(_))
}

/// The `<domain_rules>` block the engine writes for `rules` (wire format §2.3), when it can be
/// written here: at least one rule, no two equal (the engine drops repeats) and none holding
/// `<`, CR or LF (so wire format §5.3 and §5.4 leave every body as it is).
fn static_rules_block(rules: &[&str]) -> Option<String> {
    let plain = |rule: &&str| !rule.contains(['<', '\r', '\n']);
    let distinct = rules
        .iter()
        .enumerate()
        .all(|(at, rule)| !rules[..at].contains(rule));
    (!rules.is_empty() && distinct && rules.iter().all(plain))
        .then(|| format!("<domain_rules>\n- {}\n</domain_rules>", rules.join("\n- ")))
}
