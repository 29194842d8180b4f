//! The items of an attribute as written: `#[name(...)]` split at its commas into literals,
//! paths, `key`, `key = value` and `key(...)`, every token kept for spans. [`super::args`]
//! checks them against the attribute's keys.
//!
//! A value runs to the next comma of the list, except where the comma belongs to the value: a
//! type such as `Page<Invoice, 2>` keeps its comma (see [`value_end`]).

use proc_macro2::{TokenStream, TokenTree};
use quote::{ToTokens, TokenStreamExt};
use syn::ext::IdentExt;
use syn::parse::{ParseStream, Parser};
use syn::punctuated::Punctuated;
use syn::{Expr, Ident, Lit, Path, PathSegment, Token, Type};

use super::diag::error;

/// One comma-separated item of an attribute, as written.
#[derive(Clone)]
pub enum Arg {
    /// A literal: `#[rule("...")]`.
    Lit(Lit),
    /// A path, possibly with a value or a list: `Self::gauge`, `skip`, `when = f`, `reveal(a)`.
    Meta(Meta),
}

/// A path with what follows it.
#[derive(Clone)]
pub struct Meta {
    /// The path (a key when it is one identifier).
    pub path: Path,
    /// What follows the path.
    pub form: Form,
    /// The whole item as written, for spans.
    tokens: TokenStream,
}

/// What follows the path of a [`Meta`].
#[derive(Clone)]
pub enum Form {
    /// Nothing: `skip`.
    Word,
    /// `= value`: the tokens of the value.
    Value(TokenStream),
    /// `(...)`: the tokens inside the delimiters.
    List(TokenStream),
}

impl ToTokens for Arg {
    fn to_tokens(&self, tokens: &mut TokenStream) {
        match self {
            Arg::Lit(lit) => lit.to_tokens(tokens),
            Arg::Meta(meta) => meta.to_tokens(tokens),
        }
    }
}

impl ToTokens for Meta {
    fn to_tokens(&self, tokens: &mut TokenStream) {
        tokens.extend(self.tokens.clone());
    }
}

impl Meta {
    /// The `= value` part of `key = value`, for spans (empty for other forms).
    pub fn eq_and_value(&self) -> TokenStream {
        let path_len = self.path.to_token_stream().into_iter().count();
        self.tokens.clone().into_iter().skip(path_len).collect()
    }
}

/// Splits the tokens inside `#[name(...)]` into items.
pub fn parse_items(tokens: TokenStream) -> syn::Result<Vec<Arg>> {
    items.parse2(tokens)
}

fn items(input: ParseStream<'_>) -> syn::Result<Vec<Arg>> {
    let mut out = Vec::new();
    while !input.is_empty() {
        if input.peek(Lit) && !(input.peek(syn::LitBool) && input.peek2(Token![=])) {
            out.push(Arg::Lit(input.parse()?));
        } else {
            let path = meta_path(input)?;
            let mut tokens = path.to_token_stream();
            let form = if input.peek(Token![=]) && !input.peek(Token![==]) {
                let eq: Token![=] = input.parse()?;
                eq.to_tokens(&mut tokens);
                let rest: Vec<TokenTree> = input.parse::<TokenStream>()?.into_iter().collect();
                let end = value_end(&rest);
                let value: TokenStream = rest[..end].iter().cloned().collect();
                tokens.extend(value.clone());
                out.push(Arg::Meta(Meta {
                    path,
                    form: Form::Value(value),
                    tokens,
                }));
                // The rest starts at the comma after the value: read it as a list of its own.
                let mut rest = rest[end..].iter().cloned();
                if rest.next().is_some() {
                    out.extend(parse_items(rest.collect())?);
                }
                return Ok(out);
            } else if let Some(group) = delimited(input)? {
                tokens.append(TokenTree::Group(group.clone()));
                Form::List(group.stream())
            } else {
                Form::Word
            };
            out.push(Arg::Meta(Meta { path, form, tokens }));
        }
        if input.is_empty() {
            break;
        }
        input.parse::<Token![,]>()?;
    }
    Ok(out)
}

/// A path whose segments may be keywords (`crate = ...`), without generics.
fn meta_path(input: ParseStream<'_>) -> syn::Result<Path> {
    let leading_colon: Option<Token![::]> = input.parse()?;
    let mut segments = Punctuated::new();
    loop {
        segments.push_value(PathSegment::from(Ident::parse_any(input)?));
        if !input.peek(Token![::]) {
            break;
        }
        segments.push_punct(input.parse()?);
    }
    Ok(Path {
        leading_colon,
        segments,
    })
}

/// A `(...)`, `[...]` or `{...}` group next in `input`, if there is one.
fn delimited(input: ParseStream<'_>) -> syn::Result<Option<proc_macro2::Group>> {
    if !(input.peek(syn::token::Paren)
        || input.peek(syn::token::Bracket)
        || input.peek(syn::token::Brace))
    {
        return Ok(None);
    }
    match input.parse::<TokenTree>()? {
        TokenTree::Group(group) => Ok(Some(group)),
        other => Err(error(other, "expected a list")),
    }
}

/// Where the value at the start of `tokens` ends: at the first comma after which the tokens
/// read as a type (so `Page<Invoice, 2>` stays whole), else the first after which they read
/// as an expression (so `|s| s.n < 3` ends at its comma), else the first comma outside `<>`.
fn value_end(tokens: &[TokenTree]) -> usize {
    // The common value (a literal, a path, a call) has no `<` or `|` before its first comma,
    // and so no comma of its own: it ends there, without a parse per comma.
    let first = tokens
        .iter()
        .position(|t| matches!(t, TokenTree::Punct(p) if p.as_char() == ','))
        .unwrap_or(tokens.len());
    if !tokens[..first]
        .iter()
        .any(|t| matches!(t, TokenTree::Punct(p) if matches!(p.as_char(), '<' | '|')))
    {
        return first;
    }
    let ends: Vec<usize> = tokens
        .iter()
        .enumerate()
        .filter(|(_, t)| matches!(t, TokenTree::Punct(p) if p.as_char() == ','))
        .map(|(i, _)| i)
        .chain(std::iter::once(tokens.len()))
        .collect();
    let reads_as =
        |end: usize, parse: fn(TokenStream) -> bool| parse(tokens[..end].iter().cloned().collect());
    let is_type: fn(TokenStream) -> bool = |t| syn::parse2::<Type>(t).is_ok();
    let is_expr: fn(TokenStream) -> bool = |t| syn::parse2::<Expr>(t).is_ok();
    if let Some(end) = ends.iter().copied().find(|&e| reads_as(e, is_type)) {
        return end;
    }
    if let Some(end) = ends.iter().copied().find(|&e| reads_as(e, is_expr)) {
        return end;
    }
    let mut depth = 0usize;
    for (i, tree) in tokens.iter().enumerate() {
        if let TokenTree::Punct(p) = tree {
            match p.as_char() {
                ',' if depth == 0 => return i,
                '<' => depth += 1,
                '>' => depth = depth.saturating_sub(1),
                _ => {}
            }
        }
    }
    tokens.len()
}

#[cfg(test)]
mod tests {
    use super::*;
    use quote::quote;

    fn texts(tokens: TokenStream) -> Vec<String> {
        parse_items(tokens)
            .unwrap()
            .iter()
            .map(|item| item.to_token_stream().to_string())
            .collect()
    }

    #[test]
    fn values_end_at_the_right_comma() {
        assert_eq!(
            texts(quote!(returns = Page<Invoice, 2>, read_only)),
            ["returns = Page < Invoice , 2 >", "read_only"]
        );
        assert_eq!(
            texts(quote!("text", when = |s: &Self| s.n < 3, reveal(a, b))),
            [
                "\"text\"",
                "when = | s : & Self | s . n < 3",
                "reveal (a , b)"
            ]
        );
        assert_eq!(
            texts(quote!(crate = ::x, Self::gauge)),
            ["crate = :: x", "Self :: gauge"]
        );
    }

    #[test]
    fn eq_and_value_is_what_follows_the_key() {
        let items = parse_items(quote!(toon = 1)).unwrap();
        let Arg::Meta(meta) = &items[0] else {
            panic!("a meta")
        };
        assert_eq!(meta.eq_and_value().to_string(), "= 1");
    }
}
