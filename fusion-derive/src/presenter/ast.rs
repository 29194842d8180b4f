//! The checked model of a derive input: everything `expand.rs` needs, already validated, so
//! generation cannot fail. Plain data and what it says of itself: `valid` builds and checks it.

use proc_macro2::Span;
use syn::{DeriveInput, Expr, ExprPath, Ident, LitStr, Path, Type};

use crate::common::case::RenameRule;
use crate::common::diag::Error;

/// A model that passed every check.
pub struct Model<'a> {
    /// The derive input.
    pub input: &'a DeriveInput,
    /// The path to `fusion_runtime`.
    pub krate: Path,
    /// `Model::NAME`.
    pub name: String,
    /// The name serde would give `serialize_struct`.
    pub serde_name: String,
    /// The field enum's name, if `#[presenter(field_enum)]` asks for one (without it the model's
    /// `Model::Field` is `NoField`: `_select` goes by `Model::WIRE_NAMES`).
    pub field_enum: Option<Ident>,
    /// The agent limit.
    pub agent_limit: Option<usize>,
    /// `#[presenter(max_tokens = N)]`: the response budget.
    pub max_tokens: Option<usize>,
    /// `#[presenter(format = ...)]`: the data block format, if declared.
    pub format: Option<Format>,
    /// `#[presenter(lean)]`: a tool that declares this model is lean (wire format §6.12).
    pub lean: bool,
    /// The declared context type, if any.
    pub context: Option<Type>,
    /// Every field, in declaration order.
    pub fields: Vec<Field<'a>>,
    /// Rules, suggestions and UI declarations, in declaration order.
    pub decls: Vec<Declaration>,
}

/// One field of the model.
pub struct Field<'a> {
    /// The field's identifier.
    pub ident: &'a Ident,
    /// The field's type.
    pub ty: &'a Type,
    /// The field's name as templates write it (`r#type` is `type`).
    pub name: String,
    /// How the field is written, or `None` when it is never on the wire.
    pub wire: Option<Wire>,
    /// Whether the field is `#[embed]`.
    pub embed: bool,
    /// `#[redact]`: the censor.
    pub redact: Option<Censor>,
    /// Whether the type is written `Option<...>` (a `None` stays `null` when redacted).
    pub is_option: bool,
}

/// How a field appears on the wire.
pub struct Wire {
    /// The member name (serde renames applied).
    pub name: String,
    /// The field enum variant.
    pub variant: Ident,
    /// The position among wire members.
    pub index: usize,
    /// `skip_serializing_if`.
    pub skip_if: Option<ExprPath>,
}

/// The data block format of `#[presenter(format = ...)]`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// JSON.
    Json,
    /// Compact JSON.
    CompactJson,
    /// TOON.
    Toon,
}

/// What replaces a redacted value (wire format §8.1).
pub enum Censor {
    /// `"[REDACTED]"`.
    Default,
    /// A fixed text.
    Text(LitStr),
    /// A function of the field's value.
    With(Expr),
}

/// An input with mistakes: the errors, and what the stubs of `fallback.rs` need from the
/// attributes that could be read.
pub struct Rejected {
    /// Every mistake found.
    pub errors: Error,
    /// The path to `fusion_runtime`.
    pub krate: Path,
    /// The field enum's name, if `field_enum` could be read.
    pub field_enum: Option<Ident>,
    /// Whether the user derives `Serialize` too (the stubs then write none).
    pub serialize_derived: bool,
}

/// Whether a declaration concerns one item or a whole collection.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Scope {
    /// `#[rule]`, `#[suggest]`, `#[ui]`.
    Item,
    /// `#[collection_rule]`, `#[collection_suggest]`, `#[collection_ui]`.
    Collection,
}

/// A checked text: fixed, or a template whose placeholders are resolved.
#[derive(Clone)]
pub enum Text {
    /// No placeholder.
    Static(String),
    /// Text and resolved placeholders; the span is the literal's.
    Template(Vec<Part>, Span),
}

/// One resolved piece of a template.
#[derive(Clone)]
pub enum Part {
    /// Literal text.
    Lit(String),
    /// A field, by position in [`Model::fields`].
    Field(usize),
    /// `{n}`: the number of shown items.
    Count,
}

/// One rule, suggestion or UI declaration.
pub struct Declaration {
    /// Item or collection.
    pub scope: Scope,
    /// `when = predicate`.
    pub when: Option<Expr>,
    /// What it produces.
    pub kind: DeclKind,
    /// The title of its UI block (`title = "..."`), for a UI declaration that is not a function.
    pub title: Option<LitStr>,
    /// How it says itself once for several items (wire format §6.10); `None`: one line per item.
    pub group: Option<Group>,
}

/// A grouping item rule or suggestion (wire format §6.10).
pub struct Group {
    /// The key field, by position in [`Model::fields`].
    pub key: usize,
    /// Where a key that is not `Display` is reported.
    pub key_span: Span,
    /// `many = "..."`, resolved; `None`: the first entry and `(likewise for ...)`.
    pub many: Option<Vec<ManyPart>>,
}

/// One piece of a `many = "..."` template.
pub enum ManyPart {
    /// Literal text.
    Lit(String),
    /// `{items}`.
    Items,
    /// `{n}`.
    Count,
}

/// What a suggestion names (wire format §6.5): a text, or a tool type's action that the
/// compiler checks.
pub enum Target {
    /// `tool = "billing.remind"` (a template, possibly).
    Text(Text),
    /// `Billing::Remind`: the tool type and the variant.
    Action(Path, Ident),
}

/// What a declaration produces.
pub enum DeclKind {
    /// A rule text.
    Rule(Text),
    /// A rule function.
    RuleCall(Expr),
    /// A (target, reason) pair.
    Suggest(Target, Text),
    /// A suggestion function.
    SuggestCall(Expr),
    /// A UI function.
    UiCall(Expr),
    /// `markdown = "..."`.
    Markdown(Text),
    /// `summary = "..."`.
    Summary(Text),
    /// `table(id, title)`: the columns, by position in [`Model::fields`] (each a wire member
    /// that is not embedded).
    Table(Vec<usize>),
}

impl Declaration {
    /// A static item rule without a condition: it goes to `STATIC_RULES`.
    pub fn static_item_rule(&self) -> Option<&str> {
        match (&self.kind, self.scope, &self.when) {
            (DeclKind::Rule(Text::Static(text)), Scope::Item, None) => Some(text),
            _ => None,
        }
    }
}

impl<'a> Model<'a> {
    /// The wire fields, in declaration order.
    pub fn wire_fields(&self) -> impl Iterator<Item = (&Field<'a>, &Wire)> {
        self.fields
            .iter()
            .filter_map(|f| f.wire.as_ref().map(|w| (f, w)))
    }

    /// The declarations of one scope.
    pub fn decls(&self, scope: Scope) -> impl Iterator<Item = &Declaration> {
        self.decls.iter().filter(move |d| d.scope == scope)
    }
}

/// `amount_cents` → `AmountCents`.
pub fn variant_name(field: &str) -> String {
    let camel = RenameRule::Pascal.apply(field);
    if camel.is_empty() {
        "Field".to_owned()
    } else {
        camel
    }
}

/// Whether `ty` is written `Option<T>` (any path ending in `Option` with one type argument).
pub fn is_option(ty: &Type) -> bool {
    match ty {
        Type::Group(group) => is_option(&group.elem),
        Type::Paren(paren) => is_option(&paren.elem),
        Type::Path(path) if path.qself.is_none() => path.path.segments.last().is_some_and(|last| {
            last.ident == "Option"
                && matches!(&last.arguments, syn::PathArguments::AngleBracketed(args)
                        if args.args.len() == 1
                            && matches!(args.args.first(), Some(syn::GenericArgument::Type(_))))
        }),
        _ => false,
    }
}

/// Whether any token of `ty` is one of `params` (a type that needs a where-clause).
pub fn mentions(ty: &Type, params: &[&Ident]) -> bool {
    fn walk(tokens: proc_macro2::TokenStream, params: &[&Ident]) -> bool {
        tokens.into_iter().any(|tt| match tt {
            proc_macro2::TokenTree::Ident(ident) => params.iter().any(|p| **p == ident),
            proc_macro2::TokenTree::Group(group) => walk(group.stream(), params),
            _ => false,
        })
    }
    !params.is_empty() && walk(quote::ToTokens::to_token_stream(ty), params)
}
