//! The checks of a `#[derive(Tool)]` input, which build its model ([`super::ast`]) from the
//! parsed attributes: the keys each place accepts, the serde tag of a discriminated tool, flags
//! that exclude each other, and what `returns` may name. Fields that several actions share are
//! not compared here: their types are the schemas serde and schemars make of them, which only the
//! runtime sees, so the one rule on clashes is the definition's (`tool/merge.rs` in the runtime),
//! reported when the tool set is built.

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
            lean: args.flag(key::LEAN).is_some(),
            actions: Vec::new(),
        };
        (args, tool)
    }

    fn from_enum(input: &DeriveInput, data: &syn::DataEnum, errors: &mut Errors) -> Tool {
        let (_, mut tool) = Self::container(input, attr::ENUM_KEYS, "an enum", errors);
        let tags = serde_attr::tags(&input.attrs);
        enum_tags(input, &tags, errors);
        let rename_all = tags.rename_all.as_deref().and_then(RenameRule::from_name);
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
                        | key::LEAN
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
