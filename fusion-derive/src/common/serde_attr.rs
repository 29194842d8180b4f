//! The derives' copy of serde's attribute grammar: what `#[serde(...)]` keys mean for the
//! wire, which ones a derive cannot follow, and which ones only matter when deserializing.
//!
//! [`container`] and [`field`] read it strictly for `#[derive(Presenter)]`, which writes the
//! wire form itself; [`tags`] reads it tolerantly for `#[derive(Tool)]`, which leaves serde's
//! own syntax errors to serde.

use proc_macro2::{Span, TokenStream};
use syn::meta::ParseNestedMeta;
use syn::{Attribute, Expr, ExprPath, Ident, LitStr, Token};

use super::case::RenameRule;
use super::diag::{Error, Errors, backticked, did_you_mean, error};
use super::symbol::attr;

/// `#[serde(...)]` on the struct, the parts that change the wire.
#[derive(Default)]
pub struct SerdeContainer {
    /// `rename = "..."`.
    pub rename: Option<LitStr>,
    /// `rename_all = "..."`.
    pub rename_all: Option<RenameRule>,
}

/// `#[serde(...)]` on a field, the parts that change the wire.
#[derive(Default)]
pub struct SerdeField {
    /// `rename = "..."`.
    pub rename: Option<LitStr>,
    /// `skip` or `skip_serializing`, with its span.
    pub skip: Option<Span>,
    /// `skip_serializing_if = "path"`.
    pub skip_if: Option<ExprPath>,
}

/// serde keys that only matter when deserializing (or that the derive has no use for): read and
/// ignored.
const IGNORED_CONTAINER: &[&str] = &[
    "default",
    "deny_unknown_fields",
    "bound",
    "crate",
    "expecting",
    "from",
    "try_from",
    "variant_identifier",
    "field_identifier",
    "rename_all_fields",
];
const IGNORED_FIELD: &[&str] = &[
    "default",
    "alias",
    "skip_deserializing",
    "deserialize_with",
    "borrow",
    "bound",
];
/// serde keys that change the wire in ways the derive cannot follow.
const UNSUPPORTED_CONTAINER: &[(&str, &str)] = &[
    ("tag", "internal tags apply to enums; remove it"),
    ("content", "adjacent tags apply to enums; remove it"),
    ("untagged", "it applies to enums; remove it"),
    ("transparent", "present the inner value's own model instead"),
    ("into", "derive `Presenter` on the type it converts into"),
    ("remote", "derive `Presenter` on a local struct instead"),
];
const UNSUPPORTED_FIELD: &[(&str, &str)] = &[
    (
        "flatten",
        "declare the inner fields on this struct, or `#[embed]` the inner model",
    ),
    (
        "serialize_with",
        "use `#[redact(with = path)]` to replace the value, or change the field's type",
    ),
    (
        "with",
        "use `#[redact(with = path)]` to replace the value, or change the field's type",
    ),
    ("getter", "derive `Presenter` on a local struct instead"),
];
/// serde's field attributes.
const FIELD_KEYS: &[&str] = &[
    "skip",
    "skip_serializing",
    "skip_serializing_if",
    "alias",
    "flatten",
    "serialize_with",
    "with",
    "getter",
    "skip_deserializing",
    "deserialize_with",
    "borrow",
];

/// Consumes the value of a serde key we do not read (`= expr` or `(...)`).
fn skip_value(meta: &ParseNestedMeta<'_>) -> syn::Result<()> {
    if meta.input.peek(Token![=]) {
        let _: Expr = meta.value()?.parse()?;
    } else if meta.input.peek(syn::token::Paren) {
        meta.parse_nested_meta(|inner| skip_value(&inner))?;
    }
    Ok(())
}

/// `rename = "x"` or `rename(serialize = "x", deserialize = "y")`: the serialize name.
fn serialize_name(meta: &ParseNestedMeta<'_>) -> syn::Result<Option<LitStr>> {
    if meta.input.peek(Token![=]) {
        return meta.value()?.parse().map(Some);
    }
    let mut out = None;
    meta.parse_nested_meta(|inner| {
        if inner.path.is_ident("serialize") {
            out = Some(inner.value()?.parse()?);
        } else {
            skip_value(&inner)?;
        }
        Ok(())
    })?;
    Ok(out)
}

fn unsupported(key: &Ident, fix: &str) -> Error {
    error(
        key,
        format!(
            "`#[serde({key})]` is not supported by `#[derive(Presenter)]`, which writes the wire form itself; {fix}"
        ),
    )
}

fn unknown(key: &Ident, known: &[&str]) -> Error {
    let key_text = key.to_string();
    let message = match did_you_mean(&key_text, known.iter().copied()) {
        Some(close) => {
            format!("unknown key `{key_text}` in `#[serde(...)]`; did you mean `{close}`?")
        }
        None => format!(
            "unknown key `{key_text}` in `#[serde(...)]`; see serde's container and field attributes"
        ),
    };
    error(key, message)
}

/// Reads one `#[serde(...)]`, handing each key to `read`; syntax errors and the mistakes
/// `read` collects are reported in that order.
fn each_key(
    attr: &Attribute,
    errors: &mut Errors,
    mut read: impl FnMut(&Ident, &ParseNestedMeta<'_>, &mut Errors) -> syn::Result<()>,
) {
    let mut local = Errors::default();
    let result = attr.parse_nested_meta(|meta| {
        let Some(key) = meta.path.get_ident().cloned() else {
            return skip_value(&meta);
        };
        read(&key, &meta, &mut local)
    });
    if let Err(error) = result {
        errors.push(error);
    }
    errors.append(local);
}

/// Container `#[serde(...)]` of a presenter.
pub fn container(attr: &Attribute, out: &mut SerdeContainer, errors: &mut Errors) {
    each_key(attr, errors, |key, meta, local| {
        let key_text = key.to_string();
        match key_text.as_str() {
            "rename" => {
                if let Some(name) = serialize_name(meta)? {
                    out.rename = Some(name);
                }
            }
            "rename_all" => {
                if let Some(rule) = serialize_name(meta)? {
                    match RenameRule::from_name(&rule.value()) {
                        Some(found) => out.rename_all = Some(found),
                        None => local.spanned(
                            &rule,
                            format!(
                                "unknown `rename_all` rule `{}`; use one of {}",
                                rule.value(),
                                backticked(RenameRule::ALL.iter().map(|(n, _)| *n))
                            ),
                        ),
                    }
                }
            }
            other => {
                if let Some((_, fix)) = UNSUPPORTED_CONTAINER.iter().find(|(k, _)| *k == other) {
                    local.push(unsupported(key, fix));
                } else if FIELD_KEYS.contains(&other) {
                    local.spanned(
                        key,
                        format!("`{other}` is a serde field attribute; put `#[serde({other} ...)]` on a field"),
                    );
                } else if !IGNORED_CONTAINER.contains(&other) {
                    let mut known: Vec<&str> = vec!["rename", "rename_all"];
                    known.extend(IGNORED_CONTAINER);
                    known.extend(UNSUPPORTED_CONTAINER.iter().map(|(k, _)| *k));
                    local.push(unknown(key, &known));
                }
                skip_value(meta)?;
            }
        }
        Ok(())
    });
}

/// Field `#[serde(...)]` of a presenter.
pub fn field(attr: &Attribute, out: &mut SerdeField, errors: &mut Errors) {
    each_key(attr, errors, |key, meta, local| {
        let key_text = key.to_string();
        match key_text.as_str() {
            "rename" => {
                if let Some(name) = serialize_name(meta)? {
                    out.rename = Some(name);
                }
            }
            "skip" | "skip_serializing" => {
                out.skip.get_or_insert(key.span());
            }
            "skip_serializing_if" => {
                let lit: LitStr = meta.value()?.parse()?;
                match lit.parse::<ExprPath>() {
                    Ok(path) => out.skip_if = Some(path),
                    Err(_) => local.spanned(
                        lit,
                        "`skip_serializing_if` expects a function path in a string; write `skip_serializing_if = \"Option::is_none\"`",
                    ),
                }
            }
            other => {
                if let Some((_, fix)) = UNSUPPORTED_FIELD.iter().find(|(k, _)| *k == other) {
                    local.push(unsupported(key, fix));
                } else if other == "rename_all" || other == "deny_unknown_fields" {
                    local.spanned(
                        key,
                        format!("`{other}` is a serde container attribute; put `#[serde({other} ...)]` on the struct"),
                    );
                } else if !IGNORED_FIELD.contains(&other) {
                    let mut known: Vec<&str> =
                        vec!["rename", "skip", "skip_serializing", "skip_serializing_if"];
                    known.extend(IGNORED_FIELD);
                    known.extend(UNSUPPORTED_FIELD.iter().map(|(k, _)| *k));
                    local.push(unknown(key, &known));
                }
                skip_value(meta)?;
            }
        }
        Ok(())
    });
}

/// What the tool derive needs from `#[serde(...)]` on the container or a variant.
#[derive(Default)]
pub struct Tags {
    /// `tag = "..."`.
    pub tag: Option<LitStr>,
    /// `content = "..."` (adjacently tagged; not a tool shape).
    pub content: Option<Span>,
    /// `untagged`.
    pub untagged: Option<Span>,
    /// `skip` or `skip_deserializing` (a variant that is no action).
    pub skip: bool,
    /// `rename = "..."` (or its `deserialize = "..."`): a variant's discriminator value.
    pub rename: Option<String>,
    /// `rename_all = "..."` (or its `deserialize = "..."`): the rule of the variants' values.
    pub rename_all: Option<String>,
}

/// The name of `key = "..."` or `key(deserialize = "...")`, the form serde reads an input by.
fn deserialize_name(meta: &ParseNestedMeta<'_>) -> syn::Result<Option<String>> {
    if meta.input.peek(Token![=]) {
        let lit: LitStr = meta.value()?.parse()?;
        return Ok(Some(lit.value()));
    }
    let mut found = None;
    meta.parse_nested_meta(|inner| {
        let lit: LitStr = inner.value()?.parse()?;
        if inner.path.is_ident("deserialize") {
            found = Some(lit.value());
        }
        Ok(())
    })?;
    Ok(found)
}

/// Reads the serde keys the tool derive cares about and steps over the others.
pub fn tags(attrs: &[Attribute]) -> Tags {
    let mut found = Tags::default();
    for attr in attrs.iter().filter(|a| a.path().is_ident(attr::SERDE)) {
        // serde reports its own syntax errors; anything unreadable here is left to it.
        let _ = attr.parse_nested_meta(|meta| {
            let key = meta.path.get_ident();
            let name = key.map(ToString::to_string).unwrap_or_default();
            let span = key.map_or_else(Span::call_site, Ident::span);
            match name.as_str() {
                "tag" => found.tag = Some(meta.value()?.parse()?),
                "content" => found.content = Some(span),
                "untagged" => found.untagged = Some(span),
                "skip" | "skip_deserializing" => found.skip = true,
                "rename" | "rename_all" => {
                    if let Some(value) = deserialize_name(&meta)? {
                        if name == "rename" {
                            found.rename = Some(value);
                        } else {
                            found.rename_all = Some(value);
                        }
                    }
                    return Ok(());
                }
                _ => {}
            }
            if meta.input.peek(Token![=]) {
                let _: Expr = meta.value()?.parse()?;
            } else if meta.input.peek(syn::token::Paren) {
                let content;
                syn::parenthesized!(content in meta.input);
                let _: TokenStream = content.parse()?;
            }
            Ok(())
        });
    }
    found
}
