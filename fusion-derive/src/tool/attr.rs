//! Parsing of `#[fusion(...)]` (and the few `#[serde(...)]` keys the tool derive reads).
//!
//! Every mistake is collected and spanned at the user's tokens; messages are lowercase, say the
//! problem first, then what to write instead.

use proc_macro2::{Span, TokenStream, TokenTree};
use quote::ToTokens;
use syn::parse::{ParseStream, Parser};
use syn::punctuated::Punctuated;
use syn::{Attribute, Ident, LitStr, Token, Type};

/// The helper attribute of `#[derive(Tool)]`. (Not `tool`: rmcp's `#[tool]` attribute macro is
/// usually in scope next to a tool's input type, and a derive helper of the same name would be
/// ambiguous.)
pub const ATTR: &str = "fusion";

/// The keys `#[fusion(...)]` accepts, in one place.
pub mod key {
    /// The MCP tool name.
    pub const NAME: &str = "name";
    /// The tool's (or an action's) description.
    pub const DESCRIPTION: &str = "description";
    /// Enables `_select`.
    pub const SELECT: &str = "select";
    /// The TOON description layout.
    pub const TOON: &str = "toon";
    /// The output type (`outputSchema`).
    pub const OUTPUT: &str = "output";
    /// The presented model of an action.
    pub const RETURNS: &str = "returns";
    /// A destructive action.
    pub const DESTRUCTIVE: &str = "destructive";
    /// A read-only action.
    pub const READ_ONLY: &str = "read_only";
    /// An action that asks for `structuredContent`.
    pub const STRUCTURED: &str = "structured";
    /// The path of the runtime crate when it is re-exported under another name.
    pub const CRATE: &str = "crate";
}

/// Keys of the container of an enum (a discriminated tool).
pub const ENUM_KEYS: &[&str] = &[
    key::NAME,
    key::DESCRIPTION,
    key::SELECT,
    key::TOON,
    key::OUTPUT,
    key::CRATE,
];
/// Keys of the container of a struct (a flat tool: the tool and its one action).
pub const STRUCT_KEYS: &[&str] = &[
    key::NAME,
    key::DESCRIPTION,
    key::SELECT,
    key::OUTPUT,
    key::RETURNS,
    key::STRUCTURED,
    key::DESTRUCTIVE,
    key::READ_ONLY,
    key::CRATE,
];
/// Keys of a variant (an action).
pub const VARIANT_KEYS: &[&str] = &[
    key::DESCRIPTION,
    key::RETURNS,
    key::STRUCTURED,
    key::DESTRUCTIVE,
    key::READ_ONLY,
];

/// What a key's value is.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// A bare word: `select`.
    Flag,
    /// A string literal: `name = "billing"`.
    Text,
    /// A type: `returns = Invoice`.
    Type,
    /// A path: `crate = ::my_fusion`.
    Path,
}

fn kind(key: &str) -> Kind {
    match key {
        key::SELECT | key::TOON | key::STRUCTURED | key::DESTRUCTIVE | key::READ_ONLY => Kind::Flag,
        key::NAME | key::DESCRIPTION => Kind::Text,
        key::CRATE => Kind::Path,
        _ => Kind::Type,
    }
}

/// How `key` is written, for messages: `select`, `name = "..."`, `returns = MyType`.
pub fn example(key: &str) -> String {
    match kind(key) {
        Kind::Flag => key.to_owned(),
        Kind::Text => format!("{key} = \"...\""),
        Kind::Type => format!("{key} = MyType"),
        Kind::Path => format!("{key} = ::fusion_runtime"),
    }
}

/// One parsed value.
#[derive(Clone)]
pub enum Value {
    Flag,
    Text(LitStr),
    Type(Box<Type>),
    Path(syn::Path),
}

/// One `key` or `key = value` of `#[fusion(...)]`.
#[derive(Clone)]
pub struct Arg {
    pub key: Ident,
    pub value: Value,
}

/// The arguments of every `#[fusion(...)]` on one item, checked against `allowed`.
pub struct Args {
    pub args: Vec<Arg>,
}

impl Args {
    /// The argument `key`, if given.
    pub fn get(&self, key: &str) -> Option<&Arg> {
        self.args.iter().find(|a| a.key == key)
    }

    /// Whether the flag `key` is set.
    pub fn flag(&self, key: &str) -> Option<Span> {
        self.get(key).map(|a| a.key.span())
    }

    /// The text of `key`.
    pub fn text(&self, key: &str) -> Option<&LitStr> {
        match &self.get(key)?.value {
            Value::Text(text) => Some(text),
            _ => None,
        }
    }

    /// The type of `key`.
    pub fn ty(&self, key: &str) -> Option<&Type> {
        match &self.get(key)?.value {
            Value::Type(ty) => Some(ty),
            _ => None,
        }
    }

    /// The path of `key`.
    pub fn path(&self, key: &str) -> Option<&syn::Path> {
        match &self.get(key)?.value {
            Value::Path(path) => Some(path),
            _ => None,
        }
    }
}

/// Collects mistakes to report them all at once.
#[derive(Default)]
pub struct Errors(Option<syn::Error>);

impl Errors {
    pub fn push(&mut self, error: syn::Error) {
        match &mut self.0 {
            Some(first) => first.combine(error),
            None => self.0 = Some(error),
        }
    }

    pub fn at(&mut self, span: Span, message: impl std::fmt::Display) {
        self.push(syn::Error::new(span, message));
    }

    pub fn spanned<T: ToTokens>(&mut self, node: T, message: impl std::fmt::Display) {
        self.push(syn::Error::new_spanned(node, message));
    }

    pub fn into_result(self) -> Result<(), syn::Error> {
        self.0.map_or(Ok(()), Err)
    }
}

/// One raw argument: the key and the tokens of its value, if any.
struct RawArg {
    key: Ident,
    eq: Option<Token![=]>,
    value: TokenStream,
}

fn parse_raw(input: ParseStream<'_>) -> syn::Result<Punctuated<RawArg, Token![,]>> {
    let mut args = Punctuated::new();
    while !input.is_empty() {
        let key = input.call(Ident::parse_any_key)?;
        let eq: Option<Token![=]> = input.parse()?;
        let mut value = TokenStream::new();
        // The value runs to the next top-level comma: a type like `Page<Invoice, 2>` is kept
        // whole because its comma sits between `<` and `>`.
        let mut depth = 0usize;
        while !input.is_empty() {
            if depth == 0 && input.peek(Token![,]) {
                break;
            }
            let tree: TokenTree = input.parse()?;
            if let TokenTree::Punct(p) = &tree {
                match p.as_char() {
                    '<' => depth += 1,
                    '>' => depth = depth.saturating_sub(1),
                    _ => {}
                }
            }
            value.extend(std::iter::once(tree));
        }
        args.push_value(RawArg { key, eq, value });
        if input.is_empty() {
            break;
        }
        args.push_punct(input.parse()?);
    }
    Ok(args)
}

/// `Ident::parse_any`, so `crate` is accepted as a key.
trait ParseAnyKey {
    fn parse_any_key(input: ParseStream<'_>) -> syn::Result<Ident>;
}

impl ParseAnyKey for Ident {
    fn parse_any_key(input: ParseStream<'_>) -> syn::Result<Ident> {
        use syn::ext::IdentExt;
        Ident::parse_any(input)
    }
}

/// Parses every `#[fusion(...)]` in `attrs`. `allowed` lists the keys valid here; `place` names
/// the item kind for messages ("an enum", "a variant", ...); a key valid elsewhere gets `hint`.
pub fn parse(
    attrs: &[Attribute],
    allowed: &[&str],
    place: &str,
    hint: &dyn Fn(&str) -> Option<String>,
    errors: &mut Errors,
) -> Args {
    let mut args: Vec<Arg> = Vec::new();
    for attr in attrs.iter().filter(|a| a.path().is_ident(ATTR)) {
        let list = match &attr.meta {
            syn::Meta::List(list) => list,
            other => {
                errors.spanned(
                    other,
                    format!("`#[{ATTR}]` needs arguments; write `#[{ATTR}(...)]`"),
                );
                continue;
            }
        };
        let raw = match parse_raw.parse2(list.tokens.clone()) {
            Ok(raw) => raw,
            Err(error) => {
                errors.push(error);
                continue;
            }
        };
        for raw in raw {
            let name = raw.key.to_string();
            let name = name.strip_prefix("r#").unwrap_or(&name).to_owned();
            if !allowed.contains(&name.as_str()) {
                let message = match hint(&name) {
                    Some(hint) => hint,
                    None => format!(
                        "unknown key `{name}` in `#[{ATTR}]` on {place}; expected one of {}",
                        allowed
                            .iter()
                            .map(|k| format!("`{k}`"))
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                };
                errors.at(raw.key.span(), message);
                continue;
            }
            if args.iter().any(|a| a.key == name) {
                errors.at(raw.key.span(), format!("duplicate `{name}`; give it once"));
                continue;
            }
            let value = read_value(&name, &raw, errors);
            if let Some(value) = value {
                args.push(Arg {
                    key: Ident::new(&name, raw.key.span()),
                    value,
                });
            }
        }
    }
    Args { args }
}

/// The value of `raw` as its key's kind wants it, or the mistake.
fn read_value(name: &str, raw: &RawArg, errors: &mut Errors) -> Option<Value> {
    let kind = kind(name);
    let Some(eq) = raw.eq else {
        if kind == Kind::Flag {
            return Some(Value::Flag);
        }
        let example = example(name);
        errors.at(
            raw.key.span(),
            format!("`{name}` needs a value; write `{example}`"),
        );
        return None;
    };
    let value = raw.value.clone();
    let parsed = match kind {
        Kind::Flag => {
            errors.spanned(
                quote::quote!(#eq #value),
                format!("`{name}` takes no value; write `#[{ATTR}({name})]`"),
            );
            return None;
        }
        Kind::Text => syn::parse2::<LitStr>(value).map(Value::Text),
        Kind::Type => parse_type(value).map(|ty| Value::Type(Box::new(ty))),
        Kind::Path => syn::parse2::<syn::Path>(value).map(Value::Path),
    };
    let what = match kind {
        Kind::Text => "a string",
        Kind::Type => "a type",
        _ => "a path",
    };
    parsed
        .map_err(|_| {
            errors.spanned(
                &raw.value,
                format!("`{name}` takes {what}; write `{}`", example(name)),
            );
        })
        .ok()
}

/// A type, also accepted as a string literal (`returns = "Page<Invoice>"`).
fn parse_type(tokens: TokenStream) -> syn::Result<Type> {
    if let Ok(text) = syn::parse2::<LitStr>(tokens.clone()) {
        return text.parse();
    }
    syn::parse2(tokens)
}

/// What the derive needs from `#[serde(...)]` on the container or a variant.
#[derive(Default)]
pub struct Serde {
    /// `tag = "..."`.
    pub tag: Option<LitStr>,
    /// `content = "..."` (adjacently tagged; not a tool shape).
    pub content: Option<Span>,
    /// `untagged`.
    pub untagged: Option<Span>,
    /// `skip` or `skip_deserializing` (a variant that is no action).
    pub skip: bool,
}

/// Reads the serde keys the derive cares about and steps over the others.
pub fn serde(attrs: &[Attribute]) -> Serde {
    let mut found = Serde::default();
    for attr in attrs.iter().filter(|a| a.path().is_ident("serde")) {
        // serde reports its own syntax errors; anything unreadable here is left to it.
        let _ = attr.parse_nested_meta(|meta| {
            let name = meta
                .path
                .get_ident()
                .map(ToString::to_string)
                .unwrap_or_default();
            match name.as_str() {
                "tag" => found.tag = Some(meta.value()?.parse()?),
                "content" => {
                    found.content = Some(
                        meta.path
                            .get_ident()
                            .map_or_else(Span::call_site, Ident::span),
                    );
                }
                "untagged" => {
                    found.untagged = Some(
                        meta.path
                            .get_ident()
                            .map_or_else(Span::call_site, Ident::span),
                    );
                }
                "skip" | "skip_deserializing" => found.skip = true,
                _ => {}
            }
            if meta.input.peek(Token![=]) {
                let _: syn::Expr = meta.value()?.parse()?;
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
