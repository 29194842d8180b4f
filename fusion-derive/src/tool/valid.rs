//! The checks of a `#[derive(Tool)]` input, which build its model ([`super::ast`]) from the
//! parsed attributes: the keys each place accepts, the serde tag of a discriminated tool, flags
//! that exclude each other, what `returns` may name, and fields the actions share.

use proc_macro2::Span;
use syn::{Data, DeriveInput, Fields, LitStr, Type};

use super::ast::{Action, Rejected, Returns, Tool};
use super::attr::{self, fusion_attr};
use crate::common::args::Args;
use crate::common::case::{RenameRule, snake_case, unraw};
use crate::common::diag::Errors;
use crate::common::krate::runtime_path;
use crate::common::serde_attr::{self, Tags};
use crate::common::symbol::{attr::FUSION, key};

/// The model of `input`, or every mistake found.
pub fn tool(input: &DeriveInput) -> Result<Tool, Rejected> {
    Tool::from_input(input)
}

impl Tool {
    /// The model of `input`, or every mistake found.
    fn from_input(input: &DeriveInput) -> Result<Tool, Rejected> {
        let mut errors = Errors::default();
        let tool = match &input.data {
            Data::Enum(data) => Self::from_enum(input, data, &mut errors),
            Data::Struct(data) => Self::from_struct(input, data, &mut errors),
            Data::Union(data) => {
                errors.spanned(
                    data.union_token,
                    "`#[derive(Tool)]` is not expected on a union; use an internally tagged enum (one action per variant) or a struct (a flat tool)",
                );
                // Only the path of the stub is wanted: the keys are not checked on a union.
                let (_, tool) =
                    Self::container(input, attr::STRUCT_KEYS, "a struct", &mut Errors::default());
                tool
            }
        };
        match errors.into_result() {
            Ok(()) => Ok(tool),
            Err(errors) => Err(Rejected {
                errors,
                krate: tool.krate,
            }),
        }
    }

    fn container(
        input: &DeriveInput,
        allowed: &[&str],
        place: &str,
        errors: &mut Errors,
    ) -> (Args, Tool) {
        let hint = |name: &str| -> Option<String> {
            match name {
                key::TOON if place == "a struct" => Some(
                    "`toon` lays out the actions of a discriminated tool; a struct is a flat tool with none, so remove `toon`".to_owned(),
                ),
                key::RETURNS | key::STRUCTURED | key::DESTRUCTIVE | key::READ_ONLY
                    if place == "an enum" =>
                {
                    Some(format!(
                    "`{name}` is not expected on the enum; put it on the variant it is about: `#[{}({})]`",
                        FUSION,
                        attr::example(name)
                    ))
                }
                _ => None,
            }
        };
        let args = attr::parse(&input.attrs, allowed, place, &hint, errors);
        let name = args
            .str(key::NAME)
            .map_or_else(|| snake_case(&unraw(&input.ident)), LitStr::value);
        if let Some(text) = args.str(key::NAME).filter(|t| t.value().is_empty()) {
            errors.spanned(
                text,
                "the tool name is empty; write a name such as `name = \"billing\"`",
            );
        }
        let max_tokens = match args.int(key::MAX_TOKENS) {
            Some((0, span)) => {
                errors.at(
                    span,
                    "a budget of 0 tokens fits no response; write a budget such as `max_tokens = 8000`",
                );
                None
            }
            other => other.map(|(budget, _)| budget),
        };
        let format = args
            .ident(key::FORMAT)
            .and_then(|ident| errors.handle(crate::presenter::attr::data_format(ident)));
        let tool = Tool {
            krate: runtime_path(args.path(key::CRATE).cloned()),
            name,
            description: args.str(key::DESCRIPTION).cloned(),
            select: args.flag(key::SELECT).is_some(),
            toon: args.flag(key::TOON).is_some(),
            output: args.ty(key::OUTPUT).cloned(),
            max_tokens,
            title: args.str(key::TITLE).cloned(),
            check: if place == "a struct" {
                // A flat tool's one action holds it (read by `action`).
                None
            } else {
                args.expr(key::CHECK).cloned()
            },
            idempotent: args.flag(key::IDEMPOTENT).is_some(),
            open_world: match (args.flag(key::OPEN_WORLD), args.flag(key::CLOSED_WORLD)) {
                (Some(_), Some(closed)) => {
                    errors.at(
                        closed,
                        "`open_world` and `closed_world` contradict each other; keep one",
                    );
                    None
                }
                (Some(_), None) => Some(true),
                (None, Some(_)) => Some(false),
                (None, None) => None,
            },
            format,
            actions: Vec::new(),
        };
        (args, tool)
    }

    fn from_enum(input: &DeriveInput, data: &syn::DataEnum, errors: &mut Errors) -> Tool {
        let (_, mut tool) = Self::container(input, attr::ENUM_KEYS, "an enum", errors);
        let tags = serde_attr::tags(&input.attrs);
        enum_tags(input, &tags, errors);
        let rename_all = tags.rename_all.as_deref().and_then(RenameRule::from_name);
        shared_fields(input, data, errors);
        if data.variants.is_empty() {
            errors.spanned(
                &input.ident,
                "a tool enum needs at least one variant (one per action)",
            );
        }
        for variant in &data.variants {
            if let Some(attr) = variant.fields.iter().find_map(|f| fusion_attr(&f.attrs)) {
                errors.spanned(
                    attr,
                    "`#[fusion]` is not expected on a field; put it on the variant",
                );
            }
            let variant_tags = serde_attr::tags(&variant.attrs);
            if variant_tags.skip {
                if let Some(attr) = fusion_attr(&variant.attrs) {
                    errors.spanned(
                        attr,
                        "this variant is skipped by serde, so it is no action; remove `#[fusion]` or the `skip`",
                    );
                }
                continue;
            }
            let hint = |name: &str| -> Option<String> {
                matches!(
                    name,
                    key::NAME
                        | key::SELECT
                        | key::TOON
                        | key::OUTPUT
                        | key::CRATE
                        | key::TITLE
                        | key::IDEMPOTENT
                        | key::OPEN_WORLD
                        | key::CLOSED_WORLD
                )
                .then(|| {
                    format!(
                        "`{name}` is a tool option, not expected on a variant; put it on the enum: `#[{}({})]`",
                            FUSION,
                        attr::example(name)
                    )
                })
            };
            let args = attr::parse(
                &variant.attrs,
                attr::VARIANT_KEYS,
                "a variant",
                &hint,
                errors,
            );
            let mut action = action(&args, errors);
            action.variant = Some(variant.ident.clone());
            let key = variant_tags.rename.unwrap_or_else(|| {
                let name = unraw(&variant.ident);
                rename_all.map_or_else(|| name.clone(), |rule| rule.apply_to_variant(&name))
            });
            action.target = Some(format!("{}.{key}", tool.name));
            tool.actions.push(action);
        }
        tool
    }

    fn from_struct(input: &DeriveInput, data: &syn::DataStruct, errors: &mut Errors) -> Tool {
        let (args, mut tool) = Self::container(input, attr::STRUCT_KEYS, "a struct", errors);
        match &data.fields {
            Fields::Named(_) => {}
            Fields::Unnamed(fields) => errors.spanned(
                fields,
                "a flat tool's input needs named fields (the argument names); write `struct Input { field: Type }`",
            ),
            Fields::Unit => errors.spanned(
                &input.ident,
                "a flat tool's input needs braces, even without fields: write `struct Input {}`",
            ),
        }
        if let Some(attr) = data.fields.iter().find_map(|f| fusion_attr(&f.attrs)) {
            errors.spanned(
                attr,
                "`#[fusion]` is not expected on a field; put it on the struct",
            );
        }
        tool.actions.push(action(&args, errors));
        tool
    }
}

fn action(args: &Args, errors: &mut Errors) -> Action {
    let destructive = args.flag(key::DESTRUCTIVE);
    let read_only = args.flag(key::READ_ONLY);
    exclusive_flags(destructive, read_only, errors);
    let returns = args.ty(key::RETURNS).map(|ty| returns(ty, errors));
    let structured = args.flag(key::STRUCTURED);
    structured_single(structured, returns.as_ref(), errors);
    Action {
        description: args.str(key::DESCRIPTION).cloned(),
        returns,
        structured: structured.is_some(),
        destructive: destructive.is_some(),
        read_only: read_only.is_some(),
        check: args.expr(key::CHECK).cloned(),
        variant: None,
        target: None,
    }
}

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
pub fn structured_single(structured: Option<Span>, returns: Option<&Returns>, errors: &mut Errors) {
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
        if mentions(&variant.attrs, "rename_all") || serde_attr::tags(&variant.attrs).skip {
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
        let Data::Enum(data) = &input.data else {
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
