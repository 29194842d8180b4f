//! The templates of rules, suggestions and UI blocks: a text with `{name}` placeholders,
//! split into text and names here and resolved against the fields in `valid.rs`.

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
    fn template_syntax_mistakes_are_errors() {
        for text in ["{id", "id}", "{}", "{a.b}"] {
            let lit = LitStr::new(text, Span::call_site());
            assert!(template(&lit).is_err(), "{text}");
        }
    }
}
