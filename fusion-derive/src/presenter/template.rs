//! The templates of rules, suggestions and UI blocks: a text with `{name}` placeholders,
//! split into text and names here and resolved against the fields in `valid.rs`.

use std::ops::Range;

use proc_macro2::Span;
use syn::{Ident, LitStr};

use crate::common::diag::{Result, error};

/// A text with `{name}` placeholders, as written.
#[derive(Clone)]
pub struct Template {
    /// The literal, for spans.
    pub lit: LitStr,
    /// Text and placeholders in order.
    pub pieces: Vec<Piece>,
}

/// One piece of a template.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Piece {
    /// Literal text (braces already unescaped).
    Text(String),
    /// `{name}`.
    Name(String),
}

impl Template {
    /// Whether the template has no placeholder.
    pub fn is_static(&self) -> bool {
        self.pieces.iter().all(|p| matches!(p, Piece::Text(_)))
    }

    /// The text of a template without placeholders.
    pub fn static_text(&self) -> String {
        let mut out = String::new();
        for piece in &self.pieces {
            if let Piece::Text(text) = piece {
                out.push_str(text);
            }
        }
        out
    }

    /// Whether the template names `name`.
    pub fn uses(&self, name: &str) -> bool {
        self.pieces
            .iter()
            .any(|p| matches!(p, Piece::Name(n) if n == name))
    }

    /// Where `{name}` is written inside the literal, so a mistake about one placeholder points
    /// at it; the whole literal where the compiler cannot narrow a span (`Literal::subspan` is
    /// still unstable, so on stable Rust this is always the whole literal, and the messages
    /// quote the placeholder instead).
    ///
    /// Not used, on purpose: making rustc itself report at the placeholder, by `format_args!`
    /// of the user's literal (rustc points each captured name at its placeholder) with a
    /// deprecated constant per wrong name and `#[deny(deprecated)]`. That gives one error at
    /// `{name}`, but prefixed "use of deprecated constant", and it fails open: Cargo caps lints
    /// of dependencies (`--cap-lints allow`), so a broken template would then compile. Without
    /// the constant, rustc's hard error is "cannot find value in this scope", in its voice.
    pub fn placeholder_span(&self, name: &str) -> Span {
        let token = self.lit.token();
        placeholder_range(&token.to_string(), name)
            .and_then(|range| token.subspan(range))
            .unwrap_or_else(|| self.lit.span())
    }
}

/// The byte range of the first `{name}` placeholder in `source`, a string literal as written
/// (quotes, `r#` and escapes included), or `None` if it cannot be found.
fn placeholder_range(source: &str, name: &str) -> Option<Range<usize>> {
    let raw = source.starts_with('r');
    let start = source.find('"')? + 1;
    let mut chars = source[start..].char_indices().map(|(i, c)| (i + start, c));
    let mut open: Option<usize> = None;
    while let Some((index, ch)) = chars.next() {
        match ch {
            // An escape: `\u{e9}` holds braces that are no placeholder, `\"` ends nothing.
            '\\' if !raw && open.is_none() => {
                if let Some((_, 'u')) = chars.next() {
                    chars.by_ref().find(|&(_, c)| c == '}');
                }
            }
            '{' if open.is_none() => {
                if source[index + 1..].starts_with('{') {
                    chars.next();
                } else {
                    open = Some(index);
                }
            }
            '}' => match open.take() {
                Some(from) => {
                    let written = source[from + 1..index].trim();
                    if written.trim_start_matches("r#") == name {
                        return Some(from..index + 1);
                    }
                }
                None if source[index + 1..].starts_with('}') => {
                    chars.next();
                }
                None => {}
            },
            _ => {}
        }
    }
    None
}

/// A template literal, parsed; syntax mistakes are reported on the literal.
pub fn template(lit: &LitStr) -> Result<Template> {
    let text = lit.value();
    let mut pieces = Vec::new();
    let mut literal = String::new();
    let mut chars = text.chars().peekable();
    while let Some(ch) = chars.next() {
        match ch {
            '{' if chars.peek() == Some(&'{') => {
                chars.next();
                literal.push('{');
            }
            '}' if chars.peek() == Some(&'}') => {
                chars.next();
                literal.push('}');
            }
            '{' => {
                let mut placeholder = String::new();
                let mut closed = false;
                for next in chars.by_ref() {
                    if next == '}' {
                        closed = true;
                        break;
                    }
                    placeholder.push(next);
                }
                if !closed {
                    return Err(error(
                        lit,
                        "this template has a `{` that is never closed; write `{{` for a literal brace",
                    ));
                }
                let name = placeholder.trim();
                if name.is_empty() {
                    return Err(error(
                        lit,
                        "this template has an empty `{}`; name a field, like `{id}`, or write `{{}}` for literal braces",
                    ));
                }
                if syn::parse_str::<Ident>(name).is_err() && name != "self" {
                    return Err(error(
                        lit,
                        format!(
                            "`{{{placeholder}}}` is not a field name; templates interpolate fields by name, like `{{id}}` (format values in a function with `call = ...`)"
                        ),
                    ));
                }
                if !literal.is_empty() {
                    pieces.push(Piece::Text(std::mem::take(&mut literal)));
                }
                pieces.push(Piece::Name(name.trim_start_matches("r#").to_owned()));
            }
            '}' => {
                return Err(error(
                    lit,
                    "this template has a `}` that closes nothing; write `}}` for a literal brace",
                ));
            }
            other => literal.push(other),
        }
    }
    if !literal.is_empty() || pieces.is_empty() {
        pieces.push(Piece::Text(literal));
    }
    Ok(Template {
        lit: lit.clone(),
        pieces,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use proc_macro2::Span;

    #[test]
    fn templates_split_text_and_names() {
        let lit: LitStr = syn::parse_quote!("Invoice {id} is {{late}} since {due_at}.");
        let template = template(&lit).unwrap();
        assert_eq!(
            template.pieces,
            vec![
                Piece::Text("Invoice ".into()),
                Piece::Name("id".into()),
                Piece::Text(" is {late} since ".into()),
                Piece::Name("due_at".into()),
                Piece::Text(".".into()),
            ]
        );
    }

    #[test]
    fn placeholders_are_found_where_written() {
        let source = r#""Invoice {id} is {{titel}} since { titel }.""#;
        let range = placeholder_range(source, "titel").unwrap();
        assert_eq!(&source[range], "{ titel }");
        let range = placeholder_range(source, "id").unwrap();
        assert_eq!(&source[range], "{id}");
        assert_eq!(placeholder_range(source, "due_at"), None);
    }

    #[test]
    fn placeholders_skip_escapes_and_raw_prefixes() {
        let source = r#""caf\u{e9} \" {e9} {r#type}""#;
        let range = placeholder_range(source, "e9").unwrap();
        assert_eq!(&source[range], "{e9}");
        let range = placeholder_range(source, "type").unwrap();
        assert_eq!(&source[range], "{r#type}");
        let raw = r##"r#"a "quoted" {name}"#"##;
        let range = placeholder_range(raw, "name").unwrap();
        assert_eq!(&raw[range], "{name}");
    }

    #[test]
    fn placeholder_span_falls_back_to_the_literal() {
        let lit: LitStr = syn::parse_quote!("Invoice {titel}.");
        let template = template(&lit).unwrap();
        // Outside a compiler-run macro no subspan exists; the literal's span stands in.
        let span = template.placeholder_span("titel");
        assert_eq!(format!("{span:?}"), format!("{:?}", lit.span()));
    }

    #[test]
    fn template_syntax_mistakes_are_errors() {
        for text in ["{id", "id}", "{}", "{a.b}"] {
            let lit = LitStr::new(text, Span::call_site());
            assert!(template(&lit).is_err(), "{text}");
        }
    }
}
