//! Rules of `#[derive(Tool)]` that span several attributes: the serde tag of a discriminated
//! tool, flags that exclude each other, and what `returns` may name.
//!
//! Fields that several actions share are not compared here: their types are the schemas serde
//! and schemars make of them, which only the runtime sees, so the one rule on clashes is the
//! definition's (`tool/merge.rs` in the runtime), reported when the tool set is built.

use proc_macro2::Span;
use syn::{DeriveInput, Type};

use super::ast::Returns;
use crate::common::diag::Errors;
use crate::common::serde_attr::Tags;

/// A discriminated tool is an internally tagged enum: `#[serde(tag = "...")]`, no `content`,
/// not `untagged`.
pub fn enum_tags(input: &DeriveInput, tags: &Tags, errors: &mut Errors) {
    if let Some(span) = tags.untagged {
        errors.at(
            span,
            "an untagged enum has no discriminator; a tool needs `#[serde(tag = \"action\")]` instead of `untagged`",
        );
    } else if let Some(span) = tags.content {
        errors.at(
            span,
            "an adjacently tagged enum keeps the fields under `content`; remove `content` so the fields sit next to the `tag`",
        );
    } else if tags.tag.is_none() {
        errors.spanned(
            &input.ident,
            "the actions of a tool enum are chosen by a discriminator; add `#[serde(tag = \"action\")]` to the enum",
        );
    }
}

/// `destructive` and `read_only` contradict each other.
pub fn exclusive_flags(destructive: Option<Span>, read_only: Option<Span>, errors: &mut Errors) {
    if let (Some(_), Some(span)) = (destructive, read_only) {
        errors.at(
            span,
            "an action cannot be both `destructive` and `read_only`; keep the one that is true",
        );
    }
}

/// `structuredContent` is an object, so a collection cannot be structured.
pub fn structured(structured: Option<Span>, returns: Option<&Returns>, errors: &mut Errors) {
    if let (
        Some(span),
        Some(Returns {
            model,
            collection: true,
        }),
    ) = (structured, returns)
    {
        errors.at(
            span,
            format!(
                "a collection cannot be structured content: `structuredContent` is a JSON object and a collection's root is a list (wire format §11.2); remove `structured`, or return a single value: `returns = {}`",
                quote::ToTokens::to_token_stream(model)
            ),
        );
    }
}

/// `returns = Model` or `returns = [Model]`; a `Vec<Model>` gets a hint, since the key names
/// the presented model and not the handler's return type.
pub fn returns(ty: &Type, errors: &mut Errors) -> Returns {
    // A type passed through a `macro_rules!` fragment arrives wrapped in an invisible group.
    let mut ty = ty;
    while let Type::Group(syn::TypeGroup { elem, .. }) | Type::Paren(syn::TypeParen { elem, .. }) =
        ty
    {
        ty = elem;
    }
    if let Type::Slice(slice) = ty {
        return Returns {
            model: (*slice.elem).clone(),
            collection: true,
        };
    }
    if let Some(element) = vec_element(ty) {
        errors.spanned(
            ty,
            format!(
                "`returns` names the presented model; write a collection of it as `returns = [{}]`",
                quote::ToTokens::to_token_stream(element)
            ),
        );
    }
    Returns {
        model: ty.clone(),
        collection: false,
    }
}

/// `T` of `Vec<T>` (any path ending in `Vec`).
fn vec_element(ty: &Type) -> Option<&Type> {
    let Type::Path(path) = ty else { return None };
    let last = path.path.segments.last()?;
    if last.ident != "Vec" {
        return None;
    }
    let syn::PathArguments::AngleBracketed(args) = &last.arguments else {
        return None;
    };
    match args.args.first()? {
        syn::GenericArgument::Type(element) if args.args.len() == 1 => Some(element),
        _ => None,
    }
}
