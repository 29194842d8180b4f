//! The `Presenter<Ctx>` impl: the agent limit, rules, suggestions, UI blocks and embeds, with
//! the templates formatted in place.

use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote, quote_spanned};
use syn::LitStr;
use syn::spanned::Spanned;

use super::Gen;
use crate::presenter::ast::{
    DeclKind, Declaration, Format, Group, ManyPart, Part, Scope, Target, Text,
};

impl Gen<'_, '_> {
    /// `MAX_TOKENS`, `FORMAT`, `STATIC_RULES`, and `STATIC_ONLY` with `STATIC_RULES_BLOCK` when
    /// the model has nothing but static item rules.
    fn static_items(&self) -> Vec<TokenStream> {
        let p = &self.p;
        let mut items = Vec::new();
        if let Some(budget) = self.model.max_tokens {
            items.push(quote!(const MAX_TOKENS: #p::Option<#p::usize> = #p::Some(#budget);));
        }
        if let Some(format) = self.model.format {
            let variant = match format {
                Format::Json => quote!(Json),
                Format::CompactJson => quote!(CompactJson),
                Format::Toon => quote!(Toon),
            };
            items.push(quote!(const FORMAT: #p::Format = #p::Format::#variant;));
            items.push(quote!(const FORMAT_DECLARED: #p::bool = true;));
        }
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
        let mut items = self.static_items();

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
        items.extend(self.embeds_method());
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
        // hygiene would hide them otherwise). They go through the public traits of
        // `fusion_runtime::present` by their trait paths, so an error names only those traits.
        let out = quote!(__fusion_out);
        let krate = &self.model.krate;
        let invoke = |f: &syn::Expr, returns: TokenStream| {
            let api = respan(&quote!(#krate::present), f.span());
            if self.model.context.is_none() {
                // No context declared: the model is presented with any context, so a callback
                // cannot read one, and the error says to declare one.
                quote_spanned! {f.span()=>
                    #api::ValueCallback::<#target, #returns, _>::call(&(#f), #value)
                }
            } else {
                quote_spanned! {f.span()=>
                    #api::Callback::<#target, #ctx, #returns, _>::call(&(#f), #value, __fusion_ctx)
                }
            }
        };
        // `IntoRules::push_rules(result, out)` and its suggestion and UI twins.
        let call = |f: &syn::Expr, into: &str, push: &str| {
            let api = respan(&quote!(#krate::present), f.span());
            let trait_name = format_ident!("{into}", span = f.span());
            let method = format_ident!("{push}", span = f.span());
            let result = invoke(f, quote!(_));
            quote_spanned! {f.span()=>
                #api::#trait_name::#method(#result, #out);
            }
        };
        // The push of a declared block, with its `title = "..."` if given.
        let titled = |block: TokenStream| {
            if let Some(title) = &decl.title {
                quote!(__fusion_out.push(#p::UiBlock::title(#block, #title));)
            } else {
                quote!(__fusion_out.push(#block);)
            }
        };
        let push = match (&decl.kind, &decl.group) {
            (DeclKind::Rule(Text::Template(parts, span)), Some(group)) => {
                let (fmt, args) = self.format_parts(parts, *span, decl.scope);
                self.grouped(
                    group,
                    "push_item_fmt",
                    &quote!(::core::format_args!(#fmt, #(#args),*)),
                )
            }
            (DeclKind::Suggest(tool, reason), Some(group)) => {
                let tool = self.target(tool, decl.scope);
                let reason = self.text(reason, decl.scope);
                self.grouped(
                    group,
                    "push_item",
                    &quote!(#p::Suggestion::new(#tool, #reason)),
                )
            }
            (DeclKind::Rule(text), _) => self.rule(text, decl.scope),
            (DeclKind::RuleCall(f), _) => call(f, "IntoRules", "push_rules"),
            (DeclKind::Suggest(tool, reason), None) => {
                let tool = self.target(tool, decl.scope);
                let reason = self.text(reason, decl.scope);
                quote!(__fusion_out.push(#p::Suggestion::new(#tool, #reason));)
            }
            (DeclKind::SuggestCall(f), _) => call(f, "IntoSuggestions", "push_suggestions"),
            (DeclKind::UiCall(f), _) => call(f, "IntoUi", "push_ui"),
            (DeclKind::Markdown(text), _) => {
                let text = self.text(text, decl.scope);
                titled(quote!(#p::ui_markdown(#text)))
            }
            (DeclKind::Summary(text), _) => {
                let text = self.text(text, decl.scope);
                titled(quote!(#p::ui_summary(#text)))
            }
            (DeclKind::Table(columns), _) => titled(self.table(columns, decl.scope)),
        };
        match &decl.when {
            None => push,
            Some(when) => {
                let guard = invoke(when, quote!(#p::bool));
                quote!(if #guard { #push })
            }
        }
    }

    /// The push of an item rule or suggestion that groups (wire format §6.10): its group is a
    /// `static` (entries of one group point at it), its label the key field, which is reported
    /// at `key = ...` (or the template) when it is not `Display`.
    fn grouped(&self, group: &Group, method: &str, entry: &TokenStream) -> TokenStream {
        let p = &self.p;
        let make = match &group.many {
            None => quote!(#p::ItemGroup::LIKEWISE),
            Some(parts) => {
                let pieces = parts.iter().map(|part| match part {
                    ManyPart::Lit(text) => quote!(#p::ManyPiece::Text(#text)),
                    ManyPart::Items => quote!(#p::ManyPiece::Items),
                    ManyPart::Count => quote!(#p::ManyPiece::Count),
                });
                quote!(#p::ItemGroup::many(&[#(#pieces),*]))
            }
        };
        let member = self.model.fields[group.key].ident;
        let key = respan(&quote!(&self.#member as &dyn #p::ItemKey), group.key_span);
        let method = format_ident!("{method}");
        quote! {
            {
                static __FUSION_GROUP: #p::ItemGroup = #make;
                __fusion_out.#method(&__FUSION_GROUP, (#key), #entry);
            }
        }
    }

    /// A generated table (wire format §4.4): the headers are the wire names; each
    /// cell is the member's wire value (its censor when redacted, empty when skipped by value)
    /// as `ui::cell` writes it; one row for an item, one per shown item for a collection.
    fn table(&self, columns: &[usize], scope: Scope) -> TokenStream {
        let p = &self.p;
        let fields: Vec<_> = columns.iter().map(|&i| &self.model.fields[i]).collect();
        let headers = fields
            .iter()
            .filter_map(|field| field.wire.as_ref().map(|wire| &wire.name));
        let receiver = quote!(__fusion_item);
        let cells = fields.iter().map(|field| {
            let cell = {
                let value = self.wire_value(field, &receiver);
                quote!(#p::ui_cell(#value))
            };
            let member = field.ident;
            let cell = match field.wire.as_ref().and_then(|wire| wire.skip_if.as_ref()) {
                Some(skip_if) => {
                    quote!(if #skip_if(&#receiver.#member) { #p::String::new() } else { #cell })
                }
                None => cell,
            };
            quote!(__fusion_cells.push(#cell);)
        });
        // A closure that captures nothing: a function pointer for the runtime's one helper.
        let (items, collection) = match scope {
            Scope::Item => (quote!(::core::slice::from_ref(self)), false),
            Scope::Collection => (quote!(__fusion_items), true),
        };
        quote! {
            #p::ui_table_of(
                &[#(#headers),*],
                #items,
                #collection,
                |__fusion_item: &Self, __fusion_cells: &mut #p::Vec<#p::String>| { #(#cells)* },
            )
        }
    }

    /// A suggestion's target: its text, or for `Billing::Remind` the action's target constant,
    /// `<Billing as ToolActions>::ACTIONS.Remind`. The type is spanned as written, so a type
    /// that is no tool is reported there (in the trait's words), and the action is the field,
    /// so an action the tool lacks is reported at it, with rustc's did-you-mean.
    pub(super) fn target(&self, target: &Target, scope: Scope) -> TokenStream {
        match target {
            Target::Text(text) => self.text(text, scope),
            Target::Action(tool, action) => {
                let p = &self.p;
                let actions = respan(&quote!(#p::ToolActions), tool.span());
                quote_spanned!(tool.span()=> <#tool as #actions>::ACTIONS.#action)
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
        let mut fmt = String::new();
        let mut args = Vec::new();
        for part in parts {
            match part {
                Part::Lit(text) => fmt.push_str(&text.replace('{', "{{").replace('}', "}}")),
                Part::Field(index) => {
                    fmt.push_str("{}");
                    let field = &self.model.fields[*index];
                    // A cast to `&dyn Display`, every token at the literal: a field that is
                    // not `Display` is reported there, naming only std's trait.
                    let member = field.ident;
                    let value = respan(&quote!(&self.#member as &dyn ::core::fmt::Display), span);
                    args.push(quote!((#value)));
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
pub(super) fn respan(tokens: &TokenStream, span: Span) -> TokenStream {
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
        DeclKind::UiCall(_) | DeclKind::Markdown(_) | DeclKind::Summary(_) | DeclKind::Table(_)
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
