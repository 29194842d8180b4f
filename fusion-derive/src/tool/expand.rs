//! Generation of the `Tool` impl from the checked model (cannot fail).

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::DeriveInput;
use syn::spanned::Spanned;

use super::ast::{Action, Tool};
use super::items::{impl_tool, impl_tool_actions};

/// `impl Tool for Input { fn spec() -> ToolSpec { ... } }`.
pub fn expand(input: &DeriveInput, tool: &Tool) -> TokenStream {
    let krate = &tool.krate;
    let p = quote!(#krate::__private);
    let name = &tool.name;
    let description = tool.description.as_ref().map(|d| quote!(.description(#d)));
    let select = tool.select.then(|| quote!(.select()));
    let layout = tool.toon.then(|| quote!(.toon()));
    let max_tokens = tool.max_tokens.map(|budget| quote!(.max_tokens(#budget)));
    let title = tool.title.as_ref().map(|t| quote!(.title(#t)));
    let idempotent = tool.idempotent.then(|| quote!(.idempotent()));
    let lean = tool.lean.then(|| quote!(.lean()));
    let open_world = tool.open_world.map(|open| quote!(.open_world(#open)));
    let format = tool.format.map(|format| {
        let variant = format.variant();
        quote!(.format(#p::Format::#variant))
    });
    let spec = quote!(#p::ToolSpec::new(#name) #description #select #layout #title #idempotent #open_world);
    // Spanned at the user's type, so a type without `JsonSchema` is reported there.
    let spec = match (&tool.output, structured_model(tool)) {
        (Some(ty), _) => {
            let output = quote_spanned!(ty.span()=> .output::<#ty>());
            quote!(#spec #output)
        }
        (None, Some(model)) => {
            quote_spanned!(model.span()=> <#model as #p::StructuredModel>::output(#spec))
        }
        (None, None) => spec,
    };
    let actions = tool.actions.iter().map(|action| {
        let spec = action_spec(&p, action);
        quote!(.variant(#spec))
    });
    let check = check(&p, tool);
    let tool_impl = impl_tool(
        input,
        &p,
        &quote!(#spec #max_tokens #format #lean #(#actions)*),
        &check,
    );
    let targets: Vec<(&syn::Ident, &str)> = tool
        .actions
        .iter()
        .filter_map(|action| Some((action.variant.as_ref()?, action.target.as_deref()?)))
        .collect();
    let actions_impl = impl_tool_actions(input, &p, &targets);
    quote! {
        #tool_impl
        #actions_impl
    }
}

/// `const CHECKS` and `fn check` of the `check = path` declarations: the tool's for every call,
/// then the called variant's. Each function is bound to `fn(&Self, &mut Checks)` at the user's
/// path, so one of another shape is reported there.
fn check(p: &TokenStream, tool: &Tool) -> TokenStream {
    let bind = |path: &syn::Expr| {
        quote_spanned! {path.span()=>
            let check: fn(&Self, &mut #p::Checks) = #path;
        }
    };
    let mut calls = Vec::new();
    if let Some(path) = &tool.check {
        let bind = bind(path);
        calls.push(quote!({ #bind check(self, checks); }));
    }
    for action in &tool.actions {
        let Some(path) = &action.check else { continue };
        let bind = bind(path);
        calls.push(if let Some(variant) = &action.variant {
            quote! {
                if let Self::#variant { .. } = self {
                    #bind
                    check(self, checks);
                }
            }
        } else {
            quote!({ #bind check(self, checks); })
        });
    }
    if calls.is_empty() {
        return TokenStream::new();
    }
    quote! {
        const CHECKS: #p::bool = true;
        fn check(&self, checks: &mut #p::Checks) {
            #(#calls)*
        }
    }
}

/// The model the `outputSchema` is generated from when the tool declares no `output`: the one
/// model that every action presents as a structured single value. (With actions that differ,
/// no one schema describes every `structuredContent`, so none is generated.)
fn structured_model(tool: &Tool) -> Option<&syn::Type> {
    let mut models = tool.actions.iter().map(|action| match &action.returns {
        Some(returns) if action.structured && !returns.collection => Some(&returns.model),
        _ => None,
    });
    let first = models.next()??;
    let key = |ty: &syn::Type| quote!(#ty).to_string();
    models
        .all(|model| model.is_some_and(|model| key(model) == key(first)))
        .then_some(first)
}

fn action_spec(p: &TokenStream, action: &Action) -> TokenStream {
    let description = action
        .description
        .as_ref()
        .map(|d| quote!(.description(#d)));
    let mut spec = quote!(#p::ActionSpec::new() #description);
    if let Some(returns) = &action.returns {
        let model = &returns.model;
        // Called through the trait at the user's type: a type that is not a presenter is one
        // error there, in the trait's words, with no note into the runtime's sources.
        spec = if returns.collection {
            quote_spanned!(model.span()=> <#model as #p::Presentable>::returns_all(#spec))
        } else {
            quote_spanned!(model.span()=> <#model as #p::Presentable>::returns(#spec))
        };
    }
    let structured = action.structured.then(|| quote!(.structured()));
    let destructive = action.destructive.then(|| quote!(.destructive()));
    let read_only = action.read_only.then(|| quote!(.read_only()));
    quote!(#spec #structured #destructive #read_only)
}
