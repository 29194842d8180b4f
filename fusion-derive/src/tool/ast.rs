//! The checked model of a `#[derive(Tool)]` input: a discriminated tool (an internally tagged
//! enum) or a flat tool (a struct with named fields), with the rules that span attributes.

use proc_macro2::Span;
use syn::{Data, DeriveInput, Fields, LitStr, Type};

use super::attr::{self, Args, Errors, key};

/// The tool to generate.
pub struct Tool {
    /// The runtime crate path (`::fusion_runtime` unless `crate = ...`).
    pub krate: syn::Path,
    /// The MCP tool name.
    pub name: String,
    pub description: Option<LitStr>,
    pub select: bool,
    pub toon: bool,
    pub output: Option<Type>,
    /// One per action, in declaration order (skipped variants left out).
    pub actions: Vec<Action>,
}

/// One action's declarations.
#[derive(Default)]
pub struct Action {
    pub description: Option<LitStr>,
    pub returns: Option<Returns>,
    pub structured: bool,
    pub destructive: bool,
    pub read_only: bool,
}

/// The model an action presents: `returns = Model` (a single value) or `returns = [Model]` (a
/// collection).
pub struct Returns {
    /// The model type (the element type of `[Model]`).
    pub model: Type,
    pub collection: bool,
}

impl Tool {
    /// The model of `input`, or every mistake found.
    pub fn from_input(input: &DeriveInput) -> Result<Tool, syn::Error> {
        let mut errors = Errors::default();
        let tool = match &input.data {
            Data::Enum(data) => Some(Self::from_enum(input, data, &mut errors)),
            Data::Struct(data) => Some(Self::from_struct(input, data, &mut errors)),
            Data::Union(data) => {
                errors.spanned(
                    data.union_token,
                    "`#[derive(Tool)]` is not expected on a union; use an internally tagged enum (one action per variant) or a struct (a flat tool)",
                );
                None
            }
        };
        errors.into_result()?;
        tool.ok_or_else(|| syn::Error::new(Span::call_site(), "invalid tool"))
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
                    attr::ATTR,
                        attr::example(name)
                    ))
                }
                _ => None,
            }
        };
        let args = attr::parse(&input.attrs, allowed, place, &hint, errors);
        let ident = input.ident.to_string();
        let name = args.text(key::NAME).map_or_else(
            || snake_case(ident.strip_prefix("r#").unwrap_or(&ident)),
            LitStr::value,
        );
        if let Some(text) = args.text(key::NAME).filter(|t| t.value().is_empty()) {
            errors.spanned(
                text,
                "the tool name is empty; write a name such as `name = \"billing\"`",
            );
        }
        let tool = Tool {
            krate: args
                .path(key::CRATE)
                .cloned()
                .unwrap_or_else(|| syn::parse_quote!(::fusion_runtime)),
            name,
            description: args.text(key::DESCRIPTION).cloned(),
            select: args.flag(key::SELECT).is_some(),
            toon: args.flag(key::TOON).is_some(),
            output: args.ty(key::OUTPUT).cloned(),
            actions: Vec::new(),
        };
        (args, tool)
    }

    fn from_enum(input: &DeriveInput, data: &syn::DataEnum, errors: &mut Errors) -> Tool {
        let (_, mut tool) = Self::container(input, attr::ENUM_KEYS, "an enum", errors);
        let serde = attr::serde(&input.attrs);
        if let Some(span) = serde.untagged {
            errors.at(
                span,
                "an untagged enum has no discriminator; a tool needs `#[serde(tag = \"action\")]` instead of `untagged`",
            );
        } else if let Some(span) = serde.content {
            errors.at(
                span,
                "an adjacently tagged enum keeps the fields under `content`; remove `content` so the fields sit next to the `tag`",
            );
        } else if serde.tag.is_none() {
            errors.spanned(
                &input.ident,
                "the actions of a tool enum are chosen by a discriminator; add `#[serde(tag = \"action\")]` to the enum",
            );
        }
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
            if attr::serde(&variant.attrs).skip {
                if let Some(attr) = fusion_attr(&variant.attrs) {
                    errors.spanned(
                        attr,
                        "this variant is skipped by serde, so it is no action; remove `#[fusion]` or the `skip`",
                    );
                }
                continue;
            }
            let hint = |name: &str| -> Option<String> {
                matches!(name, key::NAME | key::SELECT | key::TOON | key::OUTPUT | key::CRATE).then(|| {
                    format!(
                        "`{name}` is a tool option, not expected on a variant; put it on the enum: `#[{}({})]`",
                        attr::ATTR,
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
            tool.actions.push(action(&args, errors));
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
    if let (Some(_), Some(span)) = (destructive, read_only) {
        errors.at(
            span,
            "an action cannot be both `destructive` and `read_only`; keep the one that is true",
        );
    }
    let returns = args.ty(key::RETURNS).map(|ty| returns(ty, errors));
    let structured = args.flag(key::STRUCTURED);
    if let (
        Some(span),
        Some(Returns {
            model,
            collection: true,
        }),
    ) = (structured, &returns)
    {
        errors.at(
            span,
            format!(
                "a collection cannot be structured content: `structuredContent` is a JSON object and a collection's root is a list (SPEC §11.2); remove `structured`, or return a single value: `returns = {}`",
                quote::ToTokens::to_token_stream(model)
            ),
        );
    }
    Action {
        description: args.text(key::DESCRIPTION).cloned(),
        returns,
        structured: structured.is_some(),
        destructive: destructive.is_some(),
        read_only: read_only.is_some(),
    }
}

/// `returns = Model` or `returns = [Model]`; a `Vec<Model>` gets a hint, since the key names
/// the presented model and not the handler's return type.
fn returns(ty: &Type, errors: &mut Errors) -> Returns {
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

/// The first `#[fusion]` among `attrs`.
fn fusion_attr(attrs: &[syn::Attribute]) -> Option<&syn::Attribute> {
    attrs.iter().find(|a| a.path().is_ident(attr::ATTR))
}

/// `InvoiceStats` → `invoice_stats` (the default tool name).
fn snake_case(ident: &str) -> String {
    let mut out = String::with_capacity(ident.len() + 4);
    let chars: Vec<char> = ident.chars().collect();
    for (i, c) in chars.iter().enumerate() {
        if c.is_uppercase() {
            let after_lower =
                i > 0 && (chars[i - 1].is_lowercase() || chars[i - 1].is_ascii_digit());
            let before_lower = i > 0
                && chars.get(i + 1).is_some_and(|n| n.is_lowercase())
                && chars[i - 1].is_uppercase();
            if after_lower || before_lower {
                out.push('_');
            }
            out.extend(c.to_lowercase());
        } else {
            out.push(*c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::snake_case;

    #[test]
    fn default_names() {
        assert_eq!(snake_case("InvoiceStats"), "invoice_stats");
        assert_eq!(snake_case("Billing"), "billing");
        assert_eq!(snake_case("HTTPProbe"), "http_probe");
        assert_eq!(snake_case("V2Tool"), "v2_tool");
    }
}
