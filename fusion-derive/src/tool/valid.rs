//! Rules of `#[derive(Tool)]` that span several attributes: the serde tag of a discriminated
//! tool, flags that exclude each other, and what `returns` may name.

use proc_macro2::Span;
use syn::{DeriveInput, Type};

use super::ast::Returns;
use crate::common::case::unraw;
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

/// A field name the actions share must have one type in all of them, `T` and `Option<T>`
/// counting as one (wire format §7.1). Only what the derive can read for sure is compared:
/// fields without `#[serde]` or `#[schemars]` attributes, in variants whose field names serde
/// does not rename, whose types are standard scalars, texts or `Vec`s of them. Every other clash
/// is left to the definition, which sees the schemas. One error per clash, at the later field.
pub fn shared_fields(input: &DeriveInput, data: &syn::DataEnum, errors: &mut Errors) {
    if mentions(&input.attrs, "rename_all_fields") {
        return;
    }
    // The first field of each name: its wire name, variant, type, and the kind compared.
    let mut seen: Vec<(String, &syn::Ident, &Type, String)> = Vec::new();
    for variant in &data.variants {
        if mentions(&variant.attrs, "rename_all")
            || crate::common::serde_attr::tags(&variant.attrs).skip
        {
            continue;
        }
        for field in &variant.fields {
            let Some(ident) = &field.ident else { continue };
            let attributed = field
                .attrs
                .iter()
                .any(|a| a.path().is_ident("serde") || a.path().is_ident("schemars"));
            let Some(kind) = known_kind(without_option(&field.ty)).filter(|_| !attributed) else {
                continue;
            };
            let name = unraw(ident);
            match seen.iter().find(|(n, ..)| *n == name) {
                Some((_, first, first_ty, first_kind)) if *first_kind != kind => {
                    let plain = type_text(without_option(first_ty));
                    errors.spanned(
                        &field.ty,
                        format!(
                            "the field `{name}` is `{}` here, in `{}`, but `{}` in `{first}`; a field the actions share has one type in all of them: write `{ident}: {plain}` here, or `{ident}: Option<{plain}>` if `{}` can go without it, or give the field another name",
                            type_text(&field.ty),
                            variant.ident,
                            type_text(first_ty),
                            variant.ident
                        ),
                    );
                }
                Some(_) => {}
                None => seen.push((name, &variant.ident, &field.ty, kind)),
            }
        }
    }
}

/// Whether a `#[serde(...)]` or `#[schemars(...)]` attribute among `attrs` (schemars reads
/// both) has the key `key` at its top level, where values are string literals, so an identifier
/// is a key.
fn mentions(attrs: &[syn::Attribute], key: &str) -> bool {
    attrs
        .iter()
        .filter(|a| a.path().is_ident("serde") || a.path().is_ident("schemars"))
        .filter_map(|a| a.meta.require_list().ok())
        .flat_map(|list| list.tokens.clone())
        .any(|token| matches!(token, proc_macro2::TokenTree::Ident(ident) if ident == key))
}

/// `T` of `Option<T>` (any path ending in `Option`), or the type itself.
fn without_option(ty: &Type) -> &Type {
    single_argument(ty, "Option").unwrap_or(ty)
}

/// `T` of `Wrapper<T>` for a path ending in `wrapper`.
fn single_argument<'t>(ty: &'t Type, wrapper: &str) -> Option<&'t Type> {
    let Type::Path(path) = ty else { return None };
    let last = path.path.segments.last()?;
    if last.ident != wrapper {
        return None;
    }
    let syn::PathArguments::AngleBracketed(args) = &last.arguments else {
        return None;
    };
    match args.args.first()? {
        syn::GenericArgument::Type(inner) if args.args.len() == 1 => Some(inner),
        _ => None,
    }
}

/// The standard types whose schema the derive knows from their name alone.
const KNOWN_TYPES: &[&str] = &[
    "String", "char", "bool", "u8", "u16", "u32", "u64", "u128", "usize", "i8", "i16", "i32",
    "i64", "i128", "isize", "f32", "f64",
];

/// What a standard type is for comparison (`String`, `u64`, `Vec<bool>`…), or `None` for a type
/// the derive cannot judge by its name (the user's own types, aliases, generics).
fn known_kind(ty: &Type) -> Option<String> {
    if let Some(element) = single_argument(ty, "Vec") {
        return known_kind(element).map(|kind| format!("Vec<{kind}>"));
    }
    let ident = match ty {
        Type::Path(path) if path.qself.is_none() => {
            let last = path.path.segments.last()?;
            if !matches!(last.arguments, syn::PathArguments::None) {
                return None;
            }
            last.ident.to_string()
        }
        Type::Reference(reference) => match &*reference.elem {
            Type::Path(path) if path.path.is_ident("str") => "String".to_owned(),
            _ => return None,
        },
        _ => return None,
    };
    KNOWN_TYPES.contains(&ident.as_str()).then_some(ident)
}

/// A type as the user wrote it, without the spaces of a token stream.
fn type_text(ty: &Type) -> String {
    quote::ToTokens::to_token_stream(ty)
        .to_string()
        .replace(" :: ", "::")
        .replace(":: ", "::")
        .replace(" <", "<")
        .replace("< ", "<")
        .replace(" >", ">")
        .replace("& ", "&")
        .replace(" ,", ",")
}

#[cfg(test)]
mod tests {
    use super::*;
    use syn::parse_quote;

    /// The messages `shared_fields` reports for `input`.
    fn clashes(input: &DeriveInput) -> Vec<String> {
        let syn::Data::Enum(data) = &input.data else {
            panic!("an enum")
        };
        let mut errors = Errors::default();
        shared_fields(input, data, &mut errors);
        match errors.into_result() {
            Ok(()) => Vec::new(),
            Err(error) => error.into_iter().map(|e| e.to_string()).collect(),
        }
    }

    #[test]
    fn the_same_type_written_two_ways_is_no_clash() {
        let input: DeriveInput = parse_quote! {
            enum Tool {
                A { tags: Option<Vec<String>>, name: std::string::String, note: &'static str },
                B { tags: Vec<String>, name: String, note: Option<String> },
            }
        };
        assert!(clashes(&input).is_empty());
    }

    #[test]
    fn what_serde_or_schemars_may_change_is_left_to_the_definition() {
        let input: DeriveInput = parse_quote! {
            enum Tool {
                A { id: String, status: Status },
                B { #[serde(rename = "key")] id: u64, status: Priority },
                #[serde(rename_all = "camelCase")]
                C { id: bool },
                #[schemars(rename_all = "camelCase")]
                D { id: bool },
                #[serde(skip)]
                E { id: f64 },
            }
        };
        assert!(clashes(&input).is_empty());
        let renamed: DeriveInput = parse_quote! {
            #[serde(tag = "action", rename_all_fields = "camelCase")]
            enum Tool { A { id: String }, B { id: u64 } }
        };
        assert!(clashes(&renamed).is_empty());
    }

    #[test]
    fn standard_types_that_differ_clash_with_the_first_field() {
        let input: DeriveInput = parse_quote! {
            enum Tool {
                A { n: u64, x: f32 },
                B { n: usize, x: f64 },
                C { n: Option<u64>, x: Option<f64> },
            }
        };
        let found = clashes(&input);
        // `C`'s `n` is `Option<u64>`, the same type as `A`'s: no clash.
        assert_eq!(found.len(), 3, "{found:?}");
        assert!(found[0].starts_with("the field `n` is `usize` here, in `B`, but `u64` in `A`"));
    }
}
