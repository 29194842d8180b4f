//! Parsing of the helper attributes: one type per attribute, every mistake reported, spanned at
//! the user's token and worded the same way (lowercase, the problem, then what to write).
//!
//! darling supplies the argument lists ([`NestedMeta`]: literals, words, `key = value` and
//! `key(...)`). The keys are checked here rather than by darling's derived `FromMeta`, whose
//! messages ("Unknown field: ...") neither follow the wording above nor know which attribute they
//! are in; errors are `syn::Error`s, which underline the whole offending tokens (darling's keep
//! only the first token's span on stable).

use darling::ast::NestedMeta;
use proc_macro2::Span;
use quote::ToTokens;
use syn::spanned::Spanned;
use syn::{Attribute, Expr, ExprPath, Ident, Lit, LitStr, Meta, Path, Type};

use crate::valid::did_you_mean;

/// The error type of the whole derive: one `syn::Error` can hold many.
pub type Error = syn::Error;

/// A result whose error is the derive's.
pub type Result<T> = std::result::Result<T, Error>;

/// All mistakes found so far, reported together.
#[derive(Default)]
pub struct Errors {
    first: Option<Error>,
}

impl Errors {
    /// Adds one mistake (or several, if `error` holds several).
    pub fn push(&mut self, error: Error) {
        match &mut self.first {
            Some(first) => first.combine(error),
            None => self.first = Some(error),
        }
    }

    /// Keeps the value of `result`, or its error.
    pub fn handle<T>(&mut self, result: Result<T>) -> Option<T> {
        match result {
            Ok(value) => Some(value),
            Err(error) => {
                self.push(error);
                None
            }
        }
    }

    /// The mistakes, if any.
    pub fn into_result(self) -> Result<()> {
        match self.first {
            Some(error) => Err(error),
            None => Ok(()),
        }
    }
}

/// A spanned error over all of `node`'s tokens.
pub fn error<T: ToTokens>(node: T, message: impl std::fmt::Display) -> Error {
    Error::new_spanned(node, message)
}

/// A spanned error at `span`.
pub fn error_at(span: Span, message: impl std::fmt::Display) -> Error {
    Error::new(span, message)
}

/// The helper attributes, in one place (`lib.rs` lists the same names in `attributes(...)`).
pub mod name {
    /// Container options (`agent_limit`, `context`, ...) and the field flag `skip`.
    pub const PRESENTER: &str = "presenter";
    /// An item rule.
    pub const RULE: &str = "rule";
    /// An item suggestion.
    pub const SUGGEST: &str = "suggest";
    /// An item UI declaration.
    pub const UI: &str = "ui";
    /// A collection rule.
    pub const COLLECTION_RULE: &str = "collection_rule";
    /// A collection suggestion.
    pub const COLLECTION_SUGGEST: &str = "collection_suggest";
    /// A collection UI declaration.
    pub const COLLECTION_UI: &str = "collection_ui";
    /// A redacted field.
    pub const REDACT: &str = "redact";
    /// An embedded field.
    pub const EMBED: &str = "embed";
    /// serde's own attribute, read for wire names and presence.
    pub const SERDE: &str = "serde";

    /// Every helper attribute of the derive.
    pub const ALL: &[&str] = &[
        PRESENTER,
        RULE,
        SUGGEST,
        UI,
        COLLECTION_RULE,
        COLLECTION_SUGGEST,
        COLLECTION_UI,
        REDACT,
        EMBED,
        SERDE,
    ];

    /// The attributes that belong on the struct.
    pub const ON_STRUCT: &[&str] = &[
        RULE,
        SUGGEST,
        UI,
        COLLECTION_RULE,
        COLLECTION_SUGGEST,
        COLLECTION_UI,
    ];

    /// The attributes that belong on a field.
    pub const ON_FIELD: &[&str] = &[REDACT, EMBED];
}

/// Where an attribute was written.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Place {
    /// On the struct.
    Struct,
    /// On a field.
    Field,
}

impl Place {
    /// `a struct` / `a field`, for messages.
    pub fn noun(self) -> &'static str {
        match self {
            Place::Struct => "a struct",
            Place::Field => "a field",
        }
    }
}

/// The attributes of the struct.
#[derive(Default)]
pub struct ContainerAttrs {
    /// `#[presenter(...)]` options.
    pub presenter: PresenterOpts,
    /// `#[rule]`, `#[suggest]`, `#[ui]` and their collection forms, in declaration order.
    pub decls: Vec<Decl>,
    /// `#[serde(...)]` options that change the wire.
    pub serde: SerdeContainer,
}

/// One struct-level declaration: `#[rule]`, `#[suggest]`, `#[ui]` or a collection form.
pub struct Decl {
    /// Which attribute it came from (`rule`, `collection_ui`, ...).
    pub attr: &'static str,
    /// What it produces.
    pub body: DeclBody,
    /// `when = predicate`.
    pub when: Option<Expr>,
    /// `reveal(field, ...)`.
    pub reveal: Vec<Ident>,
}

/// What a declaration produces, as written.
pub enum DeclBody {
    /// A rule text template.
    RuleText(Template),
    /// `#[rule(call = f)]`.
    RuleCall(Expr),
    /// `#[suggest(tool = "...", reason = "...")]` (both templates).
    SuggestPair(Template, Template),
    /// `#[suggest(call = f)]`.
    SuggestCall(Expr),
    /// `#[ui(f)]` or `#[ui(call = f)]`.
    UiCall(Expr),
    /// `#[ui(markdown = "...")]`.
    UiMarkdown(Template),
    /// `#[ui(summary = "...")]`.
    UiSummary(Template),
}

impl DeclBody {
    /// The templates of the declaration.
    pub fn templates(&self) -> Vec<&Template> {
        match self {
            DeclBody::RuleText(t) | DeclBody::UiMarkdown(t) | DeclBody::UiSummary(t) => vec![t],
            DeclBody::SuggestPair(tool, reason) => vec![tool, reason],
            DeclBody::RuleCall(_) | DeclBody::SuggestCall(_) | DeclBody::UiCall(_) => Vec::new(),
        }
    }
}

/// The data block format of `#[presenter(format = ...)]`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// `format = json`.
    Json,
    /// `format = toon`.
    Toon,
}

impl Format {
    /// The names `format = ...` accepts, with their formats.
    const NAMES: [(&'static str, Format); 2] = [("json", Format::Json), ("toon", Format::Toon)];
}

/// `#[presenter(agent_limit = 50, context = AppCtx, name = "Invoice", crate = path,
/// field_enum = Name, format = toon)]`.
#[derive(Default)]
pub struct PresenterOpts {
    /// The agent limit and the literal it came from.
    pub agent_limit: Option<(usize, Span)>,
    /// The request context type.
    pub context: Option<Type>,
    /// The model's name.
    pub name: Option<LitStr>,
    /// The path to `fusion_runtime`.
    pub krate: Option<Path>,
    /// The name of the field enum.
    pub field_enum: Option<Ident>,
    /// The data block format.
    pub format: Option<Format>,
}

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
}

/// The attributes of one field.
#[derive(Default)]
pub struct FieldAttrs {
    /// `#[presenter(skip)]`, with its span.
    pub skip: Option<Span>,
    /// `#[redact(...)]`.
    pub redact: Option<RedactAttr>,
    /// `#[embed]`, kept for spans.
    pub embed: Option<Attribute>,
    /// `#[serde(...)]` options that change the wire.
    pub serde: SerdeField,
}

/// `#[redact]`, `#[redact(censor = "***")]`, `#[redact(with = path)]`.
pub struct RedactAttr {
    /// The attribute, for spans.
    pub attr: Attribute,
    /// Which censor.
    pub censor: Censor,
}

/// What replaces a redacted value (SPEC §8.1).
pub enum Censor {
    /// `"[REDACTED]"`.
    Default,
    /// A fixed text.
    Text(LitStr),
    /// A function of the field's value.
    With(Expr),
}

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

/// serde's `rename_all` rules, applied to field names exactly as serde does.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum RenameRule {
    /// `lowercase`
    Lower,
    /// `UPPERCASE`
    Upper,
    /// `PascalCase`
    Pascal,
    /// `camelCase`
    Camel,
    /// `snake_case`
    Snake,
    /// `SCREAMING_SNAKE_CASE`
    ScreamingSnake,
    /// `kebab-case`
    Kebab,
    /// `SCREAMING-KEBAB-CASE`
    ScreamingKebab,
}

impl RenameRule {
    const ALL: &'static [(&'static str, RenameRule)] = &[
        ("lowercase", RenameRule::Lower),
        ("UPPERCASE", RenameRule::Upper),
        ("PascalCase", RenameRule::Pascal),
        ("camelCase", RenameRule::Camel),
        ("snake_case", RenameRule::Snake),
        ("SCREAMING_SNAKE_CASE", RenameRule::ScreamingSnake),
        ("kebab-case", RenameRule::Kebab),
        ("SCREAMING-KEBAB-CASE", RenameRule::ScreamingKebab),
    ];

    /// Applies the rule to a field name (serde's `apply_to_field`).
    pub fn apply(self, field: &str) -> String {
        match self {
            RenameRule::Lower | RenameRule::Snake => field.to_owned(),
            RenameRule::Upper | RenameRule::ScreamingSnake => field.to_ascii_uppercase(),
            RenameRule::Pascal => {
                let mut pascal = String::new();
                let mut capitalize = true;
                for ch in field.chars() {
                    if ch == '_' {
                        capitalize = true;
                    } else if capitalize {
                        pascal.push(ch.to_ascii_uppercase());
                        capitalize = false;
                    } else {
                        pascal.push(ch);
                    }
                }
                pascal
            }
            RenameRule::Camel => {
                let pascal = RenameRule::Pascal.apply(field);
                let mut chars = pascal.chars();
                match chars.next() {
                    Some(first) => first.to_ascii_lowercase().to_string() + chars.as_str(),
                    None => pascal,
                }
            }
            RenameRule::Kebab => field.replace('_', "-"),
            RenameRule::ScreamingKebab => field.to_ascii_uppercase().replace('_', "-"),
        }
    }
}

/// Parses every helper attribute of the struct.
pub fn container(attrs: &[Attribute], errors: &mut Errors) -> ContainerAttrs {
    let mut out = ContainerAttrs::default();
    let mut presenter_keys = Keys::new(name::PRESENTER);
    for attr in attrs {
        let Some(ident) = attr.path().get_ident() else {
            continue;
        };
        let attr_name = ident.to_string();
        match attr_name.as_str() {
            name::PRESENTER => {
                presenter_opts(attr, &mut presenter_keys, &mut out.presenter, errors);
            }
            name::RULE | name::COLLECTION_RULE => {
                if let Some(rule) = errors.handle(rule(attr, static_name(&attr_name))) {
                    out.decls.push(rule);
                }
            }
            name::SUGGEST | name::COLLECTION_SUGGEST => {
                if let Some(suggest) = errors.handle(suggest(attr, static_name(&attr_name))) {
                    out.decls.push(suggest);
                }
            }
            name::UI | name::COLLECTION_UI => {
                if let Some(ui) = errors.handle(ui(attr, static_name(&attr_name))) {
                    out.decls.push(ui);
                }
            }
            name::SERDE => serde_container(attr, &mut out.serde, errors),
            other if name::ON_FIELD.contains(&other) => {
                errors.push(misplaced(attr, other, Place::Struct));
            }
            _ => {}
        }
    }
    out
}

/// Parses every helper attribute of one field.
pub fn field(attrs: &[Attribute], errors: &mut Errors) -> FieldAttrs {
    let mut out = FieldAttrs::default();
    let mut presenter_keys = Keys::new(name::PRESENTER);
    for attr in attrs {
        let Some(ident) = attr.path().get_ident() else {
            continue;
        };
        let attr_name = ident.to_string();
        match attr_name.as_str() {
            name::PRESENTER => {
                if let Some(span) = field_presenter(attr, &mut presenter_keys, errors) {
                    out.skip.get_or_insert(span);
                }
            }
            name::REDACT => {
                if out.redact.is_some() {
                    errors.push(duplicate_attr(attr, name::REDACT));
                } else if let Some(redact) = errors.handle(redact(attr)) {
                    out.redact = Some(redact);
                }
            }
            name::EMBED => {
                if out.embed.is_some() {
                    errors.push(duplicate_attr(attr, name::EMBED));
                } else if errors.handle(embed(attr)).is_some() {
                    out.embed = Some(attr.clone());
                }
            }
            name::SERDE => serde_field(attr, &mut out.serde, errors),
            other if name::ON_STRUCT.contains(&other) => {
                errors.push(misplaced(attr, other, Place::Field));
            }
            _ => {}
        }
    }
    out
}

/// The `&'static str` of a helper attribute's name.
fn static_name(attr_name: &str) -> &'static str {
    name::ALL
        .iter()
        .copied()
        .find(|n| *n == attr_name)
        .unwrap_or(name::RULE)
}

/// "`#[redact]` is not expected on a struct; put it on a field".
fn misplaced(attr: &Attribute, attr_name: &str, place: Place) -> Error {
    let fix = match place {
        Place::Struct => "put it on a field",
        Place::Field => "put it on the struct",
    };
    error(
        attr,
        format!(
            "`#[{attr_name}]` is not expected on {}; {fix}",
            place.noun()
        ),
    )
}

/// "duplicate `#[redact]` on this field; keep only one".
fn duplicate_attr(attr: &Attribute, attr_name: &str) -> Error {
    error(
        attr,
        format!("duplicate `#[{attr_name}]` on this field; keep only one"),
    )
}

/// The argument list of `#[name(...)]`; `#[name]` has none, `#[name = ...]` is an error.
fn list(attr: &Attribute, attr_name: &str, example: &str) -> Result<Vec<NestedMeta>> {
    match &attr.meta {
        Meta::Path(_) => Ok(Vec::new()),
        Meta::List(list) => NestedMeta::parse_meta_list(list.tokens.clone()).map_err(|e| {
            error_at(
                e.span(),
                format!("`#[{attr_name}(...)]` cannot be read: {e}; write `{example}`"),
            )
        }),
        Meta::NameValue(nv) => Err(error(
            &nv.value,
            format!("`#[{attr_name} = ...]` is not a form of `#[{attr_name}]`; write `{example}`"),
        )),
    }
}

/// What a key's value must be.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// A bare word: `skip`.
    Flag,
    /// A string literal.
    Str,
    /// A non-negative integer literal.
    Int,
    /// A type (a path, or a string holding a type).
    Type,
    /// A function: a path or a closure.
    Callback,
    /// A path (or a string holding one).
    Path,
    /// An identifier (or a string holding one).
    Ident,
    /// `key(a, b)`: a list of field names.
    Idents,
}

/// One accepted key: its name, kind and an example of it written right.
struct Spec {
    name: &'static str,
    kind: Kind,
    example: &'static str,
}

const fn spec(name: &'static str, kind: Kind, example: &'static str) -> Spec {
    Spec {
        name,
        kind,
        example,
    }
}

/// A key's value, checked against its [`Kind`].
enum Value {
    Flag(Span),
    Str(LitStr),
    Int(usize, Span),
    Type(Type),
    Expr(Expr),
    Path(Path),
    Ident(Ident),
    Idents(Vec<Ident>),
}

/// The keys seen so far in one attribute (several `#[presenter(...)]` share one set, so a key
/// repeated across them is a duplicate).
struct Keys {
    attr: &'static str,
    seen: Vec<String>,
}

impl Keys {
    fn new(attr: &'static str) -> Self {
        Keys {
            attr,
            seen: Vec::new(),
        }
    }
}

/// The arguments of one attribute: positional items and checked keys.
struct Args {
    positional: Vec<NestedMeta>,
    values: Vec<(&'static str, Ident, Value)>,
}

impl Args {
    fn take(&mut self, key: &str) -> Option<(Ident, Value)> {
        let at = self.values.iter().position(|(k, _, _)| *k == key)?;
        let (_, ident, value) = self.values.remove(at);
        Some((ident, value))
    }

    fn str(&mut self, key: &str) -> Option<LitStr> {
        match self.take(key)? {
            (_, Value::Str(lit)) => Some(lit),
            _ => None,
        }
    }

    fn expr(&mut self, key: &str) -> Option<Expr> {
        match self.take(key)? {
            (_, Value::Expr(expr)) => Some(expr),
            _ => None,
        }
    }

    fn idents(&mut self, key: &str) -> Vec<Ident> {
        match self.take(key) {
            Some((_, Value::Idents(idents))) => idents,
            _ => Vec::new(),
        }
    }

    fn has(&self, key: &str) -> Option<Span> {
        self.values
            .iter()
            .find(|(k, _, _)| *k == key)
            .map(|(_, ident, _)| ident.span())
    }
}

/// Checks the keys of `items` against `specs`. Keys listed in `elsewhere` are reported as
/// misplaced with the given fix; other unknown keys get a "did you mean".
fn args(
    items: Vec<NestedMeta>,
    keys: &mut Keys,
    specs: &[Spec],
    elsewhere: &[(&str, &str)],
    errors: &mut Vec<Error>,
) -> Args {
    let mut out = Args {
        positional: Vec::new(),
        values: Vec::new(),
    };
    let attr = keys.attr;
    for item in items {
        let (path, meta) = match &item {
            NestedMeta::Lit(_) => {
                out.positional.push(item);
                continue;
            }
            NestedMeta::Meta(meta) => (meta.path().clone(), meta.clone()),
        };
        let Some(key) = path.get_ident().cloned() else {
            out.positional.push(item);
            continue;
        };
        let key_text = key.to_string();
        let Some(spec) = specs.iter().find(|s| s.name == key_text) else {
            if let Some((_, fix)) = elsewhere.iter().find(|(k, _)| *k == key_text) {
                errors.push(error(key, format!("`{key_text}` {fix}")));
            } else if matches!(meta, Meta::Path(_))
                && specs.iter().any(|s| s.kind == Kind::Callback)
                && key_text.chars().next().is_some_and(char::is_lowercase)
                && !specs.iter().any(|s| s.kind == Kind::Flag)
                && attr_accepts_positional_path(attr)
            {
                // `#[ui(gauge)]`: a one-segment function path.
                out.positional.push(item);
            } else {
                errors.push(unknown_key(attr, &key, specs));
            }
            continue;
        };
        if keys.seen.contains(&key_text) {
            errors.push(error(
                key,
                format!("duplicate `{key_text}` in `#[{attr}(...)]`; keep only one"),
            ));
            continue;
        }
        keys.seen.push(key_text);
        match value(&meta, spec) {
            Ok(value) => out.values.push((spec.name, key, value)),
            Err(error) => errors.push(error),
        }
    }
    out
}

/// Whether a bare path in this attribute is its function (`#[ui(Self::gauge)]`).
fn attr_accepts_positional_path(attr: &str) -> bool {
    attr == name::UI || attr == name::COLLECTION_UI
}

fn unknown_key(attr: &str, key: &Ident, specs: &[Spec]) -> Error {
    let key_text = key.to_string();
    let names: Vec<&str> = specs.iter().map(|s| s.name).collect();
    let message = match did_you_mean(&key_text, names.iter().copied()) {
        Some(close) => {
            format!("unknown key `{key_text}` in `#[{attr}(...)]`; did you mean `{close}`?")
        }
        None if names.is_empty() => {
            format!("unknown key `{key_text}` in `#[{attr}(...)]`; `#[{attr}]` takes no arguments")
        }
        None => format!(
            "unknown key `{key_text}` in `#[{attr}(...)]`; expected one of {}",
            names
                .iter()
                .map(|n| format!("`{n}`"))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    };
    error(key, message)
}

/// Checks one `key`, `key = value` or `key(...)` against its spec.
fn value(meta: &Meta, spec: &Spec) -> Result<Value> {
    let key = spec.name;
    let example = spec.example;
    let wrong = |what: &str, at: &dyn ToTokens| {
        error(at, format!("`{key}` expects {what}; write `{example}`"))
    };
    match (spec.kind, meta) {
        (Kind::Flag, Meta::Path(path)) => Ok(Value::Flag(path.span())),
        (Kind::Flag, other) => Err(error(
            other,
            format!("`{key}` takes no value; write `{example}`"),
        )),
        (Kind::Idents, Meta::List(list)) => {
            let parsed = list.parse_args_with(
                syn::punctuated::Punctuated::<Ident, syn::Token![,]>::parse_terminated,
            );
            match parsed {
                Ok(idents) if !idents.is_empty() => Ok(Value::Idents(idents.into_iter().collect())),
                Ok(_) => Err(wrong("field names", &list.path)),
                Err(_) => Err(wrong("field names", &list.tokens)),
            }
        }
        (Kind::Idents, other) => Err(wrong("a list of field names", &other)),
        (_, Meta::Path(path)) => Err(error(
            path,
            format!("`{key}` needs a value; write `{example}`"),
        )),
        (_, Meta::List(list)) => Err(error(
            &list.path,
            format!("`{key}(...)` is not a form of `{key}`; write `{example}`"),
        )),
        (kind, Meta::NameValue(nv)) => {
            let expr = unwrap_group(&nv.value);
            match kind {
                Kind::Str => match expr {
                    Expr::Lit(syn::ExprLit {
                        lit: Lit::Str(lit), ..
                    }) => Ok(Value::Str(lit.clone())),
                    other => Err(wrong("a string", &other)),
                },
                Kind::Int => match expr {
                    Expr::Lit(syn::ExprLit {
                        lit: Lit::Int(lit), ..
                    }) => lit
                        .base10_parse::<usize>()
                        .map(|n| Value::Int(n, lit.span()))
                        .map_err(|_| wrong("a non-negative integer", &lit)),
                    other => Err(wrong("a non-negative integer", &other)),
                },
                Kind::Type => match expr {
                    Expr::Path(path) if path.qself.is_none() => {
                        Ok(Value::Type(Type::Path(syn::TypePath {
                            qself: None,
                            path: path.path.clone(),
                        })))
                    }
                    Expr::Lit(syn::ExprLit {
                        lit: Lit::Str(lit), ..
                    }) => lit
                        .parse::<Type>()
                        .map(Value::Type)
                        .map_err(|_| wrong("a type", &lit)),
                    other => Err(wrong("a type", &other)),
                },
                Kind::Callback => match expr {
                    Expr::Lit(lit) => Err(wrong("a function", &lit)),
                    Expr::Path(_) | Expr::Closure(_) => Ok(Value::Expr(expr.clone())),
                    other => Err(wrong("a function path or a closure", &other)),
                },
                Kind::Path => match expr {
                    Expr::Path(path) if path.qself.is_none() => Ok(Value::Path(path.path.clone())),
                    Expr::Lit(syn::ExprLit {
                        lit: Lit::Str(lit), ..
                    }) => lit
                        .parse::<Path>()
                        .map(Value::Path)
                        .map_err(|_| wrong("a path", &lit)),
                    other => Err(wrong("a path", &other)),
                },
                Kind::Ident => match expr {
                    Expr::Path(path) if path.qself.is_none() && path.path.get_ident().is_some() => {
                        Ok(Value::Ident(
                            path.path
                                .get_ident()
                                .cloned()
                                .ok_or_else(|| wrong("a name", &path))?,
                        ))
                    }
                    Expr::Lit(syn::ExprLit {
                        lit: Lit::Str(lit), ..
                    }) => lit
                        .parse::<Ident>()
                        .map(Value::Ident)
                        .map_err(|_| wrong("a name", &lit)),
                    other => Err(wrong("a name", &other)),
                },
                Kind::Flag | Kind::Idents => Err(wrong("something else", &nv)),
            }
        }
    }
}

/// Invisible groups appear when attributes come from `macro_rules!`.
fn unwrap_group(expr: &Expr) -> &Expr {
    match expr {
        Expr::Group(group) => unwrap_group(&group.expr),
        other => other,
    }
}

/// Container `#[presenter(...)]`.
fn presenter_opts(attr: &Attribute, keys: &mut Keys, out: &mut PresenterOpts, errors: &mut Errors) {
    const SPECS: &[Spec] = &[
        spec("agent_limit", Kind::Int, "agent_limit = 50"),
        spec("context", Kind::Type, "context = AppCtx"),
        spec("name", Kind::Str, "name = \"Invoice\""),
        spec("crate", Kind::Path, "crate = ::fusion_runtime"),
        spec("field_enum", Kind::Ident, "field_enum = InvoiceField"),
        spec("format", Kind::Ident, "format = toon"),
    ];
    const ELSEWHERE: &[(&str, &str)] = &[(
        "skip",
        "is not expected on a struct; put `#[presenter(skip)]` on a field",
    )];
    let example = "#[presenter(agent_limit = 50)]";
    let Some(items) = errors.handle(list(attr, name::PRESENTER, example)) else {
        return;
    };
    if matches!(attr.meta, Meta::Path(_)) {
        errors.push(error(
            attr,
            format!("`#[presenter]` needs options; write `{example}` or remove it"),
        ));
        return;
    }
    let mut local = Vec::new();
    let mut args = args(items, keys, SPECS, ELSEWHERE, &mut local);
    positional_not_expected(&args, name::PRESENTER, example, &mut local);
    for error in local {
        errors.push(error);
    }
    if let Some((_, Value::Int(n, span))) = args.take("agent_limit") {
        out.agent_limit = Some((n, span));
    }
    if let Some((_, Value::Type(ty))) = args.take("context") {
        out.context = Some(ty);
    }
    if let Some(lit) = args.str("name") {
        if lit.value().is_empty() {
            errors.push(error(
                lit,
                "the model's `name` is empty; write `name = \"Invoice\"`",
            ));
        } else {
            out.name = Some(lit);
        }
    }
    if let Some((_, Value::Path(path))) = args.take("crate") {
        out.krate = Some(path);
    }
    if let Some((_, Value::Ident(ident))) = args.take("field_enum") {
        out.field_enum = Some(ident);
    }
    if let Some((_, Value::Ident(ident))) = args.take("format") {
        match data_format(&ident) {
            Ok(format) => out.format = Some(format),
            Err(error) => errors.push(error),
        }
    }
}

/// `json` or `toon`.
fn data_format(ident: &Ident) -> Result<Format> {
    let given = ident.to_string();
    if let Some((_, format)) = Format::NAMES.iter().find(|(name, _)| *name == given) {
        return Ok(*format);
    }
    let fix = match did_you_mean(&given, Format::NAMES.iter().map(|(name, _)| *name)) {
        Some(close) => format!("did you mean `{close}`?"),
        None => "write `format = toon` or `format = json`".to_owned(),
    };
    Err(error(
        ident,
        format!("unknown data block format `{given}`; {fix}"),
    ))
}

/// Field `#[presenter(skip)]`; returns the span of `skip`.
fn field_presenter(attr: &Attribute, keys: &mut Keys, errors: &mut Errors) -> Option<Span> {
    const SPECS: &[Spec] = &[spec("skip", Kind::Flag, "#[presenter(skip)]")];
    const ON_STRUCT: &str =
        "is not expected on a field; put it in `#[presenter(...)]` on the struct";
    const ELSEWHERE: &[(&str, &str)] = &[
        ("agent_limit", ON_STRUCT),
        ("context", ON_STRUCT),
        ("name", ON_STRUCT),
        ("crate", ON_STRUCT),
        ("field_enum", ON_STRUCT),
        ("format", ON_STRUCT),
    ];
    let example = "#[presenter(skip)]";
    let items = errors.handle(list(attr, name::PRESENTER, example))?;
    let mut local = Vec::new();
    let mut args = args(items, keys, SPECS, ELSEWHERE, &mut local);
    positional_not_expected(&args, name::PRESENTER, example, &mut local);
    let empty = matches!(attr.meta, Meta::Path(_));
    for error in local {
        errors.push(error);
    }
    if empty {
        errors.push(error(
            attr,
            format!("`#[presenter]` on a field needs an option; write `{example}`"),
        ));
        return None;
    }
    match args.take("skip") {
        Some((_, Value::Flag(span))) => Some(span),
        _ => None,
    }
}

/// Reports positional items in an attribute that has none.
fn positional_not_expected(args: &Args, attr: &str, example: &str, errors: &mut Vec<Error>) {
    for item in &args.positional {
        errors.push(error(
            item,
            format!("a value without a key is not expected in `#[{attr}(...)]`; write `{example}`"),
        ));
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

/// The text given positionally (`#[rule("...")]`) or as `text = "..."`.
fn text_arg(args: &mut Args, attr: &str, example: &str, errors: &mut Vec<Error>) -> Option<LitStr> {
    let mut positional = None;
    for item in std::mem::take(&mut args.positional) {
        match item {
            NestedMeta::Lit(Lit::Str(lit)) if positional.is_none() => positional = Some(lit),
            NestedMeta::Lit(Lit::Str(lit)) => errors.push(
                error(lit, format!(
                    "`#[{attr}(...)]` takes one text; write one `#[{attr}(...)]` per rule"
                )),
            ),
            NestedMeta::Lit(lit) => errors.push(
                error(lit, format!("the text of `#[{attr}]` must be a string; write `{example}`")),
            ),
            NestedMeta::Meta(meta) => errors.push(
                error(&meta, format!(
                    "a path without a key is not expected in `#[{attr}(...)]`; write `call = {}` for a function",
                    path_text(meta.path())
                )),
            ),
        }
    }
    let keyed = args.str("text");
    match (positional, keyed) {
        (Some(_), Some(keyed)) => {
            errors.push(
                error(keyed, format!(
                    "the text of `#[{attr}]` is given twice; keep either `\"...\"` or `text = \"...\"`"
                )),
            );
            None
        }
        (Some(text), None) | (None, Some(text)) => Some(text),
        (None, None) => None,
    }
}

fn path_text(path: &Path) -> String {
    path.segments
        .iter()
        .map(|s| s.ident.to_string())
        .collect::<Vec<_>>()
        .join("::")
}

/// Runs the argument check of one declaration attribute and hands back its arguments.
fn decl_args(
    attr: &Attribute,
    attr_name: &'static str,
    specs: &[Spec],
    example: &str,
) -> Result<(Args, Vec<Error>)> {
    let items = list(attr, attr_name, example)?;
    if matches!(attr.meta, Meta::Path(_)) {
        return Err(error(
            attr,
            format!("`#[{attr_name}]` needs arguments; write `{example}`"),
        ));
    }
    let mut keys = Keys::new(attr_name);
    let mut errors = Vec::new();
    let args = args(items, &mut keys, specs, &[], &mut errors);
    Ok((args, errors))
}

/// Turns collected errors into a result.
fn finish<T>(value: Option<T>, errors: Vec<Error>) -> Result<T> {
    let mut all = Errors::default();
    for error in errors {
        all.push(error);
    }
    all.into_result()?;
    // Every path that yields no value pushed an error first.
    value.ok_or_else(|| error_at(Span::call_site(), "this attribute cannot be read"))
}

/// `#[rule]` / `#[collection_rule]`.
fn rule(attr: &Attribute, attr_name: &'static str) -> Result<Decl> {
    let specs: &[Spec] = &[
        spec("text", Kind::Str, "text = \"...\""),
        spec("when", Kind::Callback, "when = Self::is_overdue"),
        spec("call", Kind::Callback, "call = Self::rules"),
        spec("reveal", Kind::Idents, "reveal(ssn)"),
    ];
    let example = if attr_name == name::RULE {
        "#[rule(\"amount_cents is in CENTS.\")]"
    } else {
        "#[collection_rule(\"Total: {n}\")]"
    };
    let (mut args, mut errors) = decl_args(attr, attr_name, specs, example)?;
    let text = text_arg(&mut args, attr_name, example, &mut errors);
    let reveal_span = args.has("reveal");
    let reveal = args.idents("reveal");
    let when = args.expr("when");
    let call_span = args.has("call");
    let call = args.expr("call");
    let body = match (text, call) {
        (Some(text), Some(_)) => {
            errors.push(conflict(
                attr_name,
                "a text",
                "`call`",
                call_span.unwrap_or(text.span()),
            ));
            None
        }
        (Some(text), None) => match template(&text) {
            Ok(template) => Some(DeclBody::RuleText(template)),
            Err(error) => {
                errors.push(error);
                None
            }
        },
        (None, Some(call)) => {
            if let Some(span) = reveal_span {
                errors.push(conflict(attr_name, "`reveal`", "`call`", span));
            }
            Some(DeclBody::RuleCall(call))
        }
        (None, None) => {
            if errors.is_empty() {
                errors.push(
                    error(attr, format!(
                        "`#[{attr_name}]` needs a text or a function; write `{example}` or `#[{attr_name}(call = Self::rules)]`"
                    )),
                );
            }
            None
        }
    };
    finish(
        body.map(|body| Decl {
            attr: attr_name,
            body,
            when,
            reveal,
        }),
        errors,
    )
}

fn conflict(attr: &str, a: &str, b: &str, span: Span) -> Error {
    error_at(
        span,
        format!("{a} and {b} cannot be used together in `#[{attr}(...)]`; keep one of them"),
    )
}

/// `#[suggest]` / `#[collection_suggest]`.
fn suggest(attr: &Attribute, attr_name: &'static str) -> Result<Decl> {
    let specs: &[Spec] = &[
        spec("tool", Kind::Str, "tool = \"billing.remind\""),
        spec("reason", Kind::Str, "reason = \"Send a payment reminder\""),
        spec("when", Kind::Callback, "when = Self::is_open"),
        spec("call", Kind::Callback, "call = Self::suggestions"),
        spec("reveal", Kind::Idents, "reveal(ssn)"),
    ];
    let example = if attr_name == name::SUGGEST {
        "#[suggest(tool = \"billing.remind\", reason = \"Send a payment reminder\")]"
    } else {
        "#[collection_suggest(tool = \"billing.export\", reason = \"Export {n} rows\")]"
    };
    let (mut args, mut errors) = decl_args(attr, attr_name, specs, example)?;
    positional_not_expected(&args, attr_name, example, &mut errors);
    let reveal_span = args.has("reveal");
    let reveal = args.idents("reveal");
    let when = args.expr("when");
    let call_span = args.has("call");
    let call = args.expr("call");
    let tool = args.str("tool");
    let reason = args.str("reason");
    let body = match (call, tool, reason) {
        (Some(_), tool, reason) if tool.is_some() || reason.is_some() => {
            let which = if tool.is_some() { "`tool`" } else { "`reason`" };
            errors.push(conflict(
                attr_name,
                "`call`",
                which,
                call_span.unwrap_or_else(Span::call_site),
            ));
            None
        }
        (Some(call), _, _) => {
            if let Some(span) = reveal_span {
                errors.push(conflict(attr_name, "`reveal`", "`call`", span));
            }
            Some(DeclBody::SuggestCall(call))
        }
        (None, Some(tool), Some(reason)) => {
            let tool = template(&tool);
            let reason = template(&reason);
            match (tool, reason) {
                (Ok(tool), Ok(reason)) => Some(DeclBody::SuggestPair(tool, reason)),
                (tool, reason) => {
                    errors.extend(tool.err());
                    errors.extend(reason.err());
                    None
                }
            }
        }
        (None, tool, _) => {
            if errors.is_empty() {
                let missing = if tool.is_none() { "tool" } else { "reason" };
                errors.push(
                    error(attr, format!(
                        "`#[{attr_name}]` needs `{missing}`; write `{example}`, or `call = Self::suggestions` for a function"
                    )),
                );
            }
            None
        }
    };
    finish(
        body.map(|body| Decl {
            attr: attr_name,
            body,
            when,
            reveal,
        }),
        errors,
    )
}

/// `#[ui]` / `#[collection_ui]`.
fn ui(attr: &Attribute, attr_name: &'static str) -> Result<Decl> {
    let specs: &[Spec] = &[
        spec("call", Kind::Callback, "call = Self::gauge"),
        spec("markdown", Kind::Str, "markdown = \"Client: {name}\""),
        spec("summary", Kind::Str, "summary = \"{n} items\""),
        spec("when", Kind::Callback, "when = Self::is_open"),
        spec("reveal", Kind::Idents, "reveal(ssn)"),
    ];
    let example = if attr_name == name::UI {
        "#[ui(Self::gauge)]"
    } else {
        "#[collection_ui(Self::summary)]"
    };
    let (mut args, mut errors) = decl_args(attr, attr_name, specs, example)?;
    let mut positional = None;
    for item in std::mem::take(&mut args.positional) {
        match item {
            NestedMeta::Meta(Meta::Path(path)) if positional.is_none() => {
                positional = Some(Expr::Path(ExprPath {
                    attrs: Vec::new(),
                    qself: None,
                    path,
                }));
            }
            NestedMeta::Meta(Meta::Path(path)) => errors.push(
                error(path, format!(
                    "`#[{attr_name}(...)]` takes one function; write one `#[{attr_name}(...)]` per UI entry"
                )),
            ),
            other => errors.push(
                error(other, format!(
                    "`#[{attr_name}(...)]` expects a function path; write `{example}`"
                )),
            ),
        }
    }
    let reveal_span = args.has("reveal");
    let reveal = args.idents("reveal");
    let when = args.expr("when");
    let mut bodies: Vec<(String, Span, DeclBody)> = Vec::new();
    if let Some(call) = positional {
        bodies.push((
            "a function path".to_owned(),
            call.span(),
            DeclBody::UiCall(call),
        ));
    }
    let call_span = args.has("call");
    if let Some(call) = args.expr("call") {
        bodies.push((
            "`call`".to_owned(),
            call_span.unwrap_or(call.span()),
            DeclBody::UiCall(call),
        ));
    }
    for (key, make) in [
        ("markdown", DeclBody::UiMarkdown as fn(Template) -> DeclBody),
        ("summary", DeclBody::UiSummary as fn(Template) -> DeclBody),
    ] {
        let span = args.has(key);
        if let Some(lit) = args.str(key) {
            match template(&lit) {
                Ok(t) => bodies.push((format!("`{key}`"), span.unwrap_or(lit.span()), make(t))),
                Err(error) => errors.push(error),
            }
        }
    }
    if bodies.len() > 1 {
        errors.push(conflict(attr_name, &bodies[0].0, &bodies[1].0, bodies[1].1));
    }
    let body = bodies.into_iter().next().map(|(_, _, body)| body);
    if let (Some(DeclBody::UiCall(_)), Some(span)) = (&body, reveal_span) {
        errors.push(conflict(attr_name, "`reveal`", "a function", span));
    }
    if body.is_none() && errors.is_empty() {
        errors.push(error(
            attr,
            format!("`#[{attr_name}]` needs a function; write `{example}`"),
        ));
    }
    finish(
        body.map(|body| Decl {
            attr: attr_name,
            body,
            when,
            reveal,
        }),
        errors,
    )
}

/// `#[redact]`, `#[redact(censor = "***")]`, `#[redact(with = path)]`.
fn redact(attr: &Attribute) -> Result<RedactAttr> {
    const SPECS: &[Spec] = &[
        spec("censor", Kind::Str, "censor = \"***\""),
        spec("with", Kind::Callback, "with = mask_card"),
    ];
    let example = "#[redact(censor = \"***\")]";
    let items = list(attr, name::REDACT, example)?;
    let mut keys = Keys::new(name::REDACT);
    let mut errors = Vec::new();
    let mut args = args(items, &mut keys, SPECS, &[], &mut errors);
    positional_not_expected(&args, name::REDACT, example, &mut errors);
    let with_span = args.has("with");
    let censor = args.str("censor");
    let with = args.expr("with");
    let censor = match (censor, with) {
        (Some(_), Some(_)) => {
            errors.push(conflict(
                name::REDACT,
                "`censor`",
                "`with`",
                with_span.unwrap_or_else(Span::call_site),
            ));
            Censor::Default
        }
        (Some(text), None) => Censor::Text(text),
        (None, Some(with)) => Censor::With(with),
        (None, None) => Censor::Default,
    };
    finish(
        Some(RedactAttr {
            attr: attr.clone(),
            censor,
        }),
        errors,
    )
}

/// `#[embed]`: no arguments.
fn embed(attr: &Attribute) -> Result<()> {
    let items = list(attr, name::EMBED, "#[embed]")?;
    let mut keys = Keys::new(name::EMBED);
    let mut errors = Vec::new();
    let args = args(items, &mut keys, &[], &[], &mut errors);
    for item in &args.positional {
        errors.push(
            error(item, "`#[embed]` takes no arguments: the field's type decides (a presenter, or an `Option`, `Vec`, slice or `Box` of one); write `#[embed]`",),
        );
    }
    finish(Some(()), errors)
}

/// serde keys that only matter when deserializing (or that the derive has no use for): read and
/// ignored.
const SERDE_IGNORED_CONTAINER: &[&str] = &[
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
const SERDE_IGNORED_FIELD: &[&str] = &[
    "default",
    "alias",
    "skip_deserializing",
    "deserialize_with",
    "borrow",
    "bound",
];
/// serde keys that change the wire in ways the derive cannot follow.
const SERDE_UNSUPPORTED_CONTAINER: &[(&str, &str)] = &[
    ("tag", "internal tags apply to enums; remove it"),
    ("content", "adjacent tags apply to enums; remove it"),
    ("untagged", "it applies to enums; remove it"),
    ("transparent", "present the inner value's own model instead"),
    ("into", "derive `Presenter` on the type it converts into"),
    ("remote", "derive `Presenter` on a local struct instead"),
];
const SERDE_UNSUPPORTED_FIELD: &[(&str, &str)] = &[
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

/// Whether `key` is one of serde's field attributes.
fn is_serde_field_key(key: &str) -> bool {
    [
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
    ]
    .contains(&key)
}

/// Consumes the value of a serde key we do not read (`= expr` or `(...)`).
fn skip_serde_value(meta: &syn::meta::ParseNestedMeta<'_>) -> syn::Result<()> {
    if meta.input.peek(syn::Token![=]) {
        let _: Expr = meta.value()?.parse()?;
    } else if meta.input.peek(syn::token::Paren) {
        meta.parse_nested_meta(|inner| skip_serde_value(&inner))?;
    }
    Ok(())
}

/// `rename = "x"` or `rename(serialize = "x", deserialize = "y")`: the serialize name.
fn serde_name(meta: &syn::meta::ParseNestedMeta<'_>) -> syn::Result<Option<LitStr>> {
    if meta.input.peek(syn::Token![=]) {
        return meta.value()?.parse().map(Some);
    }
    let mut out = None;
    meta.parse_nested_meta(|inner| {
        if inner.path.is_ident("serialize") {
            out = Some(inner.value()?.parse()?);
        } else {
            skip_serde_value(&inner)?;
        }
        Ok(())
    })?;
    Ok(out)
}

fn serde_unsupported(key: &Ident, fix: &str) -> Error {
    error(
        key,
        format!(
            "`#[serde({key})]` is not supported by `#[derive(Presenter)]`, which writes the wire form itself; {fix}"
        ),
    )
}

fn serde_unknown(key: &Ident, known: &[&str]) -> Error {
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

/// Container `#[serde(...)]`.
fn serde_container(attr: &Attribute, out: &mut SerdeContainer, errors: &mut Errors) {
    let mut local = Vec::new();
    let result = attr.parse_nested_meta(|meta| {
        let Some(key) = meta.path.get_ident().cloned() else {
            return skip_serde_value(&meta);
        };
        let key_text = key.to_string();
        match key_text.as_str() {
            "rename" => {
                if let Some(name) = serde_name(&meta)? {
                    out.rename = Some(name);
                }
            }
            "rename_all" => {
                if let Some(rule) = serde_name(&meta)? {
                    match RenameRule::ALL.iter().find(|(n, _)| *n == rule.value()) {
                        Some((_, rule)) => out.rename_all = Some(*rule),
                        None => local.push(
                            error(&rule, format!(
                                "unknown `rename_all` rule `{}`; use one of {}",
                                rule.value(),
                                RenameRule::ALL
                                    .iter()
                                    .map(|(n, _)| format!("`{n}`"))
                                    .collect::<Vec<_>>()
                                    .join(", ")
                            )),
                        ),
                    }
                }
            }
            other => {
                if let Some((_, fix)) = SERDE_UNSUPPORTED_CONTAINER.iter().find(|(k, _)| *k == other)
                {
                    local.push(serde_unsupported(&key, fix));
                } else if is_serde_field_key(other) {
                    local.push(error(
                        &key,
                        format!("`{other}` is a serde field attribute; put `#[serde({other} ...)]` on a field"),
                    ));
                } else if !SERDE_IGNORED_CONTAINER.contains(&other) {
                    let mut known: Vec<&str> = vec!["rename", "rename_all"];
                    known.extend(SERDE_IGNORED_CONTAINER);
                    known.extend(SERDE_UNSUPPORTED_CONTAINER.iter().map(|(k, _)| *k));
                    local.push(serde_unknown(&key, &known));
                }
                skip_serde_value(&meta)?;
            }
        }
        Ok(())
    });
    if let Err(error) = result {
        errors.push(error);
    }
    for error in local {
        errors.push(error);
    }
}

/// Field `#[serde(...)]`.
fn serde_field(attr: &Attribute, out: &mut SerdeField, errors: &mut Errors) {
    let mut local = Vec::new();
    let result = attr.parse_nested_meta(|meta| {
        let Some(key) = meta.path.get_ident().cloned() else {
            return skip_serde_value(&meta);
        };
        let key_text = key.to_string();
        match key_text.as_str() {
            "rename" => {
                if let Some(name) = serde_name(&meta)? {
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
                    Err(_) => local.push(
                        error(lit, "`skip_serializing_if` expects a function path in a string; write `skip_serializing_if = \"Option::is_none\"`",),
                    ),
                }
            }
            other => {
                if let Some((_, fix)) = SERDE_UNSUPPORTED_FIELD.iter().find(|(k, _)| *k == other) {
                    local.push(serde_unsupported(&key, fix));
                } else if other == "rename_all" || other == "deny_unknown_fields" {
                    local.push(error(
                        &key,
                        format!("`{other}` is a serde container attribute; put `#[serde({other} ...)]` on the struct"),
                    ));
                } else if !SERDE_IGNORED_FIELD.contains(&other) {
                    let mut known: Vec<&str> =
                        vec!["rename", "skip", "skip_serializing", "skip_serializing_if"];
                    known.extend(SERDE_IGNORED_FIELD);
                    known.extend(SERDE_UNSUPPORTED_FIELD.iter().map(|(k, _)| *k));
                    local.push(serde_unknown(&key, &known));
                }
                skip_serde_value(&meta)?;
            }
        }
        Ok(())
    });
    if let Err(error) = result {
        errors.push(error);
    }
    for error in local {
        errors.push(error);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rename_rules_match_serde() {
        let cases = [
            (RenameRule::Lower, "amount_cents"),
            (RenameRule::Upper, "AMOUNT_CENTS"),
            (RenameRule::Pascal, "AmountCents"),
            (RenameRule::Camel, "amountCents"),
            (RenameRule::Snake, "amount_cents"),
            (RenameRule::ScreamingSnake, "AMOUNT_CENTS"),
            (RenameRule::Kebab, "amount-cents"),
            (RenameRule::ScreamingKebab, "AMOUNT-CENTS"),
        ];
        for (rule, expected) in cases {
            assert_eq!(rule.apply("amount_cents"), expected, "{rule:?}");
        }
    }

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
