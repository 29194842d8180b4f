//! The key-argument parser of both derives: it checks the items of an attribute (split by
//! [`super::meta`]) against the attribute's [`Spec`]s and hands back typed [`Value`]s. Every
//! mistake is reported, spanned at the user's tokens; a misspelled key gets a "did you mean".
//!
//! The keys are checked here rather than by darling's derived `FromMeta`, whose messages
//! ("Unknown field: ...") neither follow the derives' wording nor know which attribute they
//! are in. Each derive words its messages through a [`Voice`].

use proc_macro2::{Span, TokenStream};
use quote::ToTokens;
use syn::parse::Parser;
use syn::punctuated::Punctuated;
use syn::{Expr, Ident, Lit, LitStr, Path, Token, Type};

use super::case::unraw;
use super::diag::{Error, Errors, backticked, did_you_mean, error};
use super::meta::{Arg, Form, Meta};

/// What a key's value must be.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Kind {
    /// A bare word: `skip`.
    Flag,
    /// A string literal.
    Str,
    /// A non-negative integer literal.
    Int,
    /// A type (or a string holding one).
    Type,
    /// A function: a path or a closure.
    Callback,
    /// A path (or a string holding one).
    Path,
    /// An identifier (or a string holding one).
    Ident,
    /// A bare word, or an identifier as its value: `field_enum` or `field_enum = Name`.
    FlagOrIdent,
    /// `key(a, b)`: a list of field names.
    Idents,
}

/// One accepted key: its name, kind and an example of it written right.
#[derive(Clone, Copy, Debug)]
pub struct Spec {
    /// The key.
    pub name: &'static str,
    /// What its value must be.
    pub kind: Kind,
    /// How it is written, for messages.
    pub example: &'static str,
}

/// A [`Spec`].
pub const fn spec(name: &'static str, kind: Kind, example: &'static str) -> Spec {
    Spec {
        name,
        kind,
        example,
    }
}

/// A key's value, checked against its [`Kind`].
#[derive(Clone)]
pub enum Value {
    /// [`Kind::Flag`].
    Flag,
    /// [`Kind::Str`].
    Str(LitStr),
    /// [`Kind::Int`], with the literal's span.
    Int(usize, Span),
    /// [`Kind::Type`].
    Type(Type),
    /// [`Kind::Callback`].
    Expr(Expr),
    /// [`Kind::Path`].
    Path(Path),
    /// [`Kind::Ident`].
    Ident(Ident),
    /// [`Kind::Idents`].
    Idents(Vec<Ident>),
}

/// How one attribute words its key mistakes. The defaults are the wording of the presenter
/// attributes; `#[fusion]` keeps the few messages it has always had.
pub trait Voice {
    /// The attribute as messages name it: `` `#[rule(...)]` ``, `` `#[fusion]` on an enum ``.
    fn label(&self) -> String;

    /// The attribute without arguments: `` `#[embed]` ``.
    fn bare(&self) -> String;

    /// The message for a key that belongs in another place, if `key` is one.
    fn elsewhere(&self, key: &str) -> Option<String> {
        let _ = key;
        None
    }

    /// Whether a bare one-word path is the attribute's function (`#[ui(gauge)]`).
    fn word_is_function(&self) -> bool {
        false
    }

    /// A key given twice.
    fn duplicate(&self, key: &Ident) -> Error {
        error(
            key,
            format!(
                "duplicate `{}` in {}; keep only one",
                unraw(key),
                self.label()
            ),
        )
    }

    /// `flag = value`.
    fn takes_no_value(&self, spec: &Spec, meta: &Meta) -> Error {
        error(
            meta,
            format!("`{}` takes no value; write `{}`", spec.name, spec.example),
        )
    }

    /// A value of the wrong kind; `what` is what the key expects ("a string").
    fn wrong_value(&self, spec: &Spec, what: &str, at: &dyn ToTokens) -> Error {
        error(
            at,
            format!("`{}` expects {what}; write `{}`", spec.name, spec.example),
        )
    }
}

/// The keys seen so far on one item (several attributes of one kind share one set, so a key
/// repeated across them is a duplicate).
#[derive(Default)]
pub struct Seen(Vec<String>);

/// The checked arguments of one attribute (or of several of one kind): items without a key,
/// and one value per accepted key.
#[derive(Default)]
pub struct Args {
    /// Items that are not keys (literals, longer paths), in order.
    pub positional: Vec<Arg>,
    values: Vec<(&'static str, Ident, Value)>,
}

impl Args {
    fn get(&self, key: &str) -> Option<&(&'static str, Ident, Value)> {
        self.values.iter().find(|(k, _, _)| *k == key)
    }

    /// The span of the key `key`, if it was given.
    pub fn span(&self, key: &str) -> Option<Span> {
        self.get(key).map(|(_, ident, _)| ident.span())
    }

    /// The span of the flag `key`, if it is set.
    pub fn flag(&self, key: &str) -> Option<Span> {
        match self.get(key)? {
            (_, ident, Value::Flag) => Some(ident.span()),
            _ => None,
        }
    }

    /// The string of `key`.
    pub fn str(&self, key: &str) -> Option<&LitStr> {
        match self.get(key)? {
            (_, _, Value::Str(lit)) => Some(lit),
            _ => None,
        }
    }

    /// The integer of `key`, with its span.
    pub fn int(&self, key: &str) -> Option<(usize, Span)> {
        match self.get(key)? {
            (_, _, Value::Int(n, span)) => Some((*n, *span)),
            _ => None,
        }
    }

    /// The type of `key`.
    pub fn ty(&self, key: &str) -> Option<&Type> {
        match self.get(key)? {
            (_, _, Value::Type(ty)) => Some(ty),
            _ => None,
        }
    }

    /// The function of `key`.
    pub fn expr(&self, key: &str) -> Option<&Expr> {
        match self.get(key)? {
            (_, _, Value::Expr(expr)) => Some(expr),
            _ => None,
        }
    }

    /// The path of `key`.
    pub fn path(&self, key: &str) -> Option<&Path> {
        match self.get(key)? {
            (_, _, Value::Path(path)) => Some(path),
            _ => None,
        }
    }

    /// The identifier of `key`.
    pub fn ident(&self, key: &str) -> Option<&Ident> {
        match self.get(key)? {
            (_, _, Value::Ident(ident)) => Some(ident),
            _ => None,
        }
    }

    /// The identifiers of `key(a, b)`.
    pub fn idents(&self, key: &str) -> &[Ident] {
        match self.get(key) {
            Some((_, _, Value::Idents(idents))) => idents,
            _ => &[],
        }
    }

    /// Adds the arguments of another attribute of the same kind.
    pub fn extend(&mut self, other: Args) {
        self.positional.extend(other.positional);
        self.values.extend(other.values);
    }
}

/// Checks `items` against `specs`: unknown keys (with a "did you mean"), keys that belong
/// elsewhere, duplicates (also across attributes sharing `seen`) and values of the wrong kind.
pub fn check(
    items: Vec<Arg>,
    specs: &[Spec],
    seen: &mut Seen,
    voice: &dyn Voice,
    errors: &mut Errors,
) -> Args {
    let mut out = Args::default();
    for item in items {
        let Arg::Meta(meta) = &item else {
            out.positional.push(item);
            continue;
        };
        let Some(key) = meta.path.get_ident().cloned() else {
            out.positional.push(item);
            continue;
        };
        let key_text = unraw(&key);
        let Some(spec) = specs.iter().find(|s| s.name == key_text) else {
            if let Some(message) = voice.elsewhere(&key_text) {
                errors.spanned(&key, message);
            } else if matches!(meta.form, Form::Word)
                && voice.word_is_function()
                && key_text.chars().next().is_some_and(char::is_lowercase)
            {
                // `#[ui(gauge)]`: a one-segment function path.
                out.positional.push(item);
            } else {
                errors.push(unknown_key(&key, &key_text, specs, voice));
            }
            continue;
        };
        if seen.0.contains(&key_text) {
            errors.push(voice.duplicate(&key));
            continue;
        }
        seen.0.push(key_text);
        match value(meta, spec, voice) {
            Ok(value) => out.values.push((spec.name, key, value)),
            Err(error) => errors.push(error),
        }
    }
    out
}

fn unknown_key(key: &Ident, key_text: &str, specs: &[Spec], voice: &dyn Voice) -> Error {
    let names: Vec<&str> = specs.iter().map(|s| s.name).collect();
    let fix = match did_you_mean(key_text, names.iter().copied()) {
        Some(close) => format!("did you mean `{close}`?"),
        None if names.is_empty() => format!("{} takes no arguments", voice.bare()),
        None => format!("expected one of {}", backticked(names)),
    };
    error(
        key,
        format!("unknown key `{key_text}` in {}; {fix}", voice.label()),
    )
}

/// Checks one `key`, `key = value` or `key(...)` against its spec.
fn value(meta: &Meta, spec: &Spec, voice: &dyn Voice) -> syn::Result<Value> {
    let key = spec.name;
    let example = spec.example;
    let wrong = |what: &str, at: &dyn ToTokens| voice.wrong_value(spec, what, at);
    match (spec.kind, &meta.form) {
        (Kind::Flag | Kind::FlagOrIdent, Form::Word) => Ok(Value::Flag),
        (Kind::Flag, _) => Err(voice.takes_no_value(spec, meta)),
        (Kind::Idents, Form::List(tokens)) => {
            let parsed = Punctuated::<Ident, Token![,]>::parse_terminated.parse2(tokens.clone());
            match parsed {
                Ok(idents) if !idents.is_empty() => Ok(Value::Idents(idents.into_iter().collect())),
                Ok(_) => Err(wrong("field names", &meta.path)),
                Err(_) => Err(wrong("field names", tokens)),
            }
        }
        (Kind::Idents, _) => Err(wrong("a list of field names", meta)),
        (_, Form::Word) => Err(error(
            &meta.path,
            format!("`{key}` needs a value; write `{example}`"),
        )),
        (_, Form::List(_)) => Err(error(
            &meta.path,
            format!("`{key}(...)` is not a form of `{key}`; write `{example}`"),
        )),
        (kind, Form::Value(tokens)) => typed(kind, tokens, &wrong),
    }
}

/// The value `tokens` as `kind` wants it.
fn typed(
    kind: Kind,
    tokens: &TokenStream,
    wrong: &dyn Fn(&str, &dyn ToTokens) -> Error,
) -> syn::Result<Value> {
    let expr = syn::parse2::<Expr>(tokens.clone()).ok();
    let expr = expr.as_ref().map(unwrap_group);
    let string = match expr {
        Some(Expr::Lit(syn::ExprLit {
            lit: Lit::Str(lit), ..
        })) => Some(lit),
        _ => None,
    };
    let plain_path = match expr {
        Some(Expr::Path(path)) if path.qself.is_none() => Some(&path.path),
        _ => None,
    };
    // What to underline when the value is wrong: the expression, or the tokens as written.
    let at: &dyn ToTokens = match expr {
        Some(expr) => expr,
        None => tokens,
    };
    match kind {
        Kind::Str => string
            .cloned()
            .map(Value::Str)
            .ok_or_else(|| wrong("a string", at)),
        Kind::Int => match expr {
            Some(Expr::Lit(syn::ExprLit {
                lit: Lit::Int(lit), ..
            })) => lit
                .base10_parse::<usize>()
                .map(|n| Value::Int(n, lit.span()))
                .map_err(|_| wrong("a non-negative integer", lit)),
            _ => Err(wrong("a non-negative integer", at)),
        },
        Kind::Type => match string {
            Some(lit) => lit
                .parse::<Type>()
                .map(Value::Type)
                .map_err(|_| wrong("a type", lit)),
            None => syn::parse2::<Type>(tokens.clone())
                .map(Value::Type)
                .map_err(|_| wrong("a type", at)),
        },
        Kind::Callback => match expr {
            Some(Expr::Lit(lit)) => Err(wrong("a function", lit)),
            Some(expr @ (Expr::Path(_) | Expr::Closure(_))) => Ok(Value::Expr(expr.clone())),
            _ => Err(wrong("a function path or a closure", at)),
        },
        Kind::Path => match (plain_path, string) {
            (Some(path), _) => Ok(Value::Path(path.clone())),
            (None, Some(lit)) => lit
                .parse::<Path>()
                .map(Value::Path)
                .map_err(|_| wrong("a path", lit)),
            (None, None) => syn::parse2::<Path>(tokens.clone())
                .map(Value::Path)
                .map_err(|_| wrong("a path", at)),
        },
        Kind::Ident | Kind::FlagOrIdent => match (plain_path.and_then(Path::get_ident), string) {
            (Some(ident), _) => Ok(Value::Ident(ident.clone())),
            (None, Some(lit)) => lit
                .parse::<Ident>()
                .map(Value::Ident)
                .map_err(|_| wrong("a name", lit)),
            (None, None) => Err(wrong("a name", at)),
        },
        Kind::Flag | Kind::Idents => Err(wrong("something else", tokens)),
    }
}

/// Invisible groups appear when attributes come from `macro_rules!`.
pub fn unwrap_group(expr: &Expr) -> &Expr {
    match expr {
        Expr::Group(group) => unwrap_group(&group.expr),
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use quote::quote;

    struct TestVoice;

    impl Voice for TestVoice {
        fn label(&self) -> String {
            "`#[test(...)]`".to_owned()
        }

        fn bare(&self) -> String {
            "`#[test]`".to_owned()
        }
    }

    const SPECS: &[Spec] = &[
        spec("returns", Kind::Type, "returns = Invoice"),
        spec("when", Kind::Callback, "when = Self::is_open"),
        spec("limit", Kind::Int, "limit = 5"),
        spec("read_only", Kind::Flag, "read_only"),
    ];

    fn run(tokens: TokenStream, seen: &mut Seen) -> (Args, Vec<String>) {
        let mut errors = Errors::default();
        let items = super::super::meta::parse_items(tokens).unwrap();
        let args = check(items, SPECS, seen, &TestVoice, &mut errors);
        let messages = match errors.into_result() {
            Ok(()) => Vec::new(),
            Err(error) => error.into_iter().map(|e| e.to_string()).collect(),
        };
        (args, messages)
    }

    #[test]
    fn values_are_typed() {
        let (args, messages) = run(
            quote!(returns = Page<Invoice, 2>, when = |s: &Self| s.n < 3, limit = 5, read_only),
            &mut Seen::default(),
        );
        assert!(messages.is_empty(), "{messages:?}");
        let returns = args.ty("returns").map(|t| t.to_token_stream().to_string());
        assert_eq!(returns.as_deref(), Some("Page < Invoice , 2 >"));
        assert!(matches!(args.expr("when"), Some(Expr::Closure(_))));
        assert_eq!(args.int("limit").map(|(n, _)| n), Some(5));
        assert!(args.flag("read_only").is_some());
    }

    #[test]
    fn mistakes_are_all_reported() {
        let mut seen = Seen::default();
        let _ = run(quote!(limit = 1), &mut seen);
        let (_, messages) = run(
            quote!(limit = 2, retuns = X, read_only = true, when = "f", colour),
            &mut seen,
        );
        assert_eq!(
            messages,
            [
                "duplicate `limit` in `#[test(...)]`; keep only one",
                "unknown key `retuns` in `#[test(...)]`; did you mean `returns`?",
                "`read_only` takes no value; write `read_only`",
                "`when` expects a function; write `when = Self::is_open`",
                "unknown key `colour` in `#[test(...)]`; expected one of `returns`, `when`, `limit`, `read_only`",
            ]
        );
    }
}
