//! The checked model of a `#[derive(Tool)]` input: a discriminated tool (an internally tagged
//! enum) or a flat tool (a struct with named fields), with the rules that span attributes.

use syn::{Data, DeriveInput, Expr, Fields, LitStr, Path, Type};

use super::attr::{self, fusion_attr};
use super::valid;
use crate::common::args::Args;
use crate::common::case::{RenameRule, snake_case, unraw};
use crate::common::diag::{Error, Errors};
use crate::common::krate::runtime_path;
use crate::common::serde_attr;
use crate::common::symbol::{attr::FUSION, key};

/// The tool to generate.
pub struct Tool {
    /// The runtime crate path (`::fusion_runtime` unless `crate = ...`).
    pub krate: Path,
    /// The MCP tool name.
    pub name: String,
    /// `description = "..."`.
    pub description: Option<LitStr>,
    /// `select`: the tool takes `_select`.
    pub select: bool,
    /// `toon`: the description lays the actions out in TOON.
    pub toon: bool,
    /// `output = Type`: the type of the `outputSchema`.
    pub output: Option<Type>,
    /// `max_tokens = N`: the tool's response budget.
    pub max_tokens: Option<usize>,
    /// `title = "..."`: the tool's title for people (`title`, `annotations.title`).
    pub title: Option<LitStr>,
    /// `idempotent`: `idempotentHint: true`.
    pub idempotent: bool,
    /// `open_world` (`Some(true)`) or `closed_world` (`Some(false)`): `openWorldHint`.
    pub open_world: Option<bool>,
    /// `check = path` on the enum or struct: the check of every action.
    pub check: Option<Expr>,
    /// `format = compact_json`: the data block format of what the tool presents.
    pub format: Option<crate::presenter::attr::Format>,
    /// One per action, in declaration order (skipped variants left out).
    pub actions: Vec<Action>,
}

/// An input with mistakes: the errors, and the runtime path for the stub impl.
pub struct Rejected {
    /// Every mistake found.
    pub errors: Error,
    /// The path to `fusion_runtime`.
    pub krate: Path,
}

/// One action's declarations.
#[derive(Default)]
pub struct Action {
    /// `description = "..."`.
    pub description: Option<LitStr>,
    /// `returns = Model` or `returns = [Model]`.
    pub returns: Option<Returns>,
    /// `structured`: the result goes in `structuredContent`.
    pub structured: bool,
    /// `destructive`.
    pub destructive: bool,
    /// `read_only`.
    pub read_only: bool,
    /// `check = path`: the action's own check.
    pub check: Option<Expr>,
    /// The variant's name (`None` for a flat tool's one action).
    pub variant: Option<syn::Ident>,
    /// The action's suggestion target, `tool.action` (the discriminator value serde reads), for
    /// a variant.
    pub target: Option<String>,
}

/// The model an action presents: `returns = Model` (a single value) or `returns = [Model]` (a
/// collection).
pub struct Returns {
    /// The model type (the element type of `[Model]`).
    pub model: Type,
    /// Whether it is `[Model]`.
    pub collection: bool,
}

impl Tool {
    /// The model of `input`, or every mistake found.
    pub fn from_input(input: &DeriveInput) -> Result<Tool, Rejected> {
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
        valid::enum_tags(input, &tags, errors);
        let rename_all = tags.rename_all.as_deref().and_then(RenameRule::from_name);
        valid::shared_fields(input, data, errors);
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
    valid::exclusive_flags(destructive, read_only, errors);
    let returns = args.ty(key::RETURNS).map(|ty| valid::returns(ty, errors));
    let structured = args.flag(key::STRUCTURED);
    valid::structured(structured, returns.as_ref(), errors);
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
