//! The declarations on the struct: `#[rule]`, `#[suggest]`, `#[ui]` and their collection
//! forms. One parser reads what they share (the argument list, `when`, `call`, `reveal`);
//! each attribute adds a small body function that decides what it produces.

use proc_macro2::Span;
use syn::spanned::Spanned;
use syn::{Attribute, Expr, ExprPath, Ident, Lit, LitStr, Meta, Path};

use super::template::{Template, template};
use super::voice::{AttrVoice, conflict, list};
use crate::common::args::{self, Args, Kind, Seen, Spec, spec};
use crate::common::diag::{Errors, Result, error, error_at};
use crate::common::meta::{Arg, Form};
use crate::common::symbol::{attr as name, key};

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
    /// `title = "..."` of a UI declaration that is not a function.
    pub title: Option<LitStr>,
    /// How an item declaration says itself once for several items (wire format §6.10).
    pub grouping: Grouping,
}

/// `key = field`, `many = "..."` and `each`, as written (checked in `valid.rs`).
#[derive(Default)]
pub struct Grouping {
    /// `key = field`.
    pub key: Option<Ident>,
    /// `many = "..."` and the span of `many`.
    pub many: Option<(Template, Span)>,
    /// The span of `each`.
    pub each: Option<Span>,
}

impl Grouping {
    /// The first key written, with its span: what a misplaced use is reported at.
    pub fn first(&self) -> Option<(&'static str, Span)> {
        self.key
            .as_ref()
            .map(|key| (key::KEY, key.span()))
            .or_else(|| self.many.as_ref().map(|(_, span)| (key::MANY, *span)))
            .or_else(|| self.each.map(|span| (key::EACH, span)))
    }
}

/// What a declaration produces, as written.
pub enum DeclBody {
    /// A rule text template.
    RuleText(Template),
    /// `#[rule(call = f)]`.
    RuleCall(Expr),
    /// `#[suggest(tool = "...", reason = "...")]` (both templates).
    SuggestPair(Template, Template),
    /// `#[suggest(Billing::Remind, "...")]`: the tool type, the action, the reason template.
    SuggestAction(Path, Ident, Template),
    /// `#[suggest(call = f)]`.
    SuggestCall(Expr),
    /// `#[ui(f)]` or `#[ui(call = f)]`.
    UiCall(Expr),
    /// `#[ui(markdown = "...")]`.
    UiMarkdown(Template),
    /// `#[ui(summary = "...")]`.
    UiSummary(Template),
    /// `#[ui(table(id, title))]`: the columns as written.
    UiTable(Vec<Ident>),
}

impl DeclBody {
    /// The templates of the declaration.
    pub fn templates(&self) -> Vec<&Template> {
        match self {
            DeclBody::RuleText(t) | DeclBody::UiMarkdown(t) | DeclBody::UiSummary(t) => vec![t],
            DeclBody::SuggestPair(tool, reason) => vec![tool, reason],
            DeclBody::SuggestAction(_, _, reason) => vec![reason],
            DeclBody::RuleCall(_)
            | DeclBody::SuggestCall(_)
            | DeclBody::UiCall(_)
            | DeclBody::UiTable(_) => Vec::new(),
        }
    }
}

/// What one declaration attribute adds to the shared parser.
struct Family {
    /// Every key it accepts, in the order messages list them.
    specs: &'static [Spec],
    /// How it is written, on an item and on a collection.
    examples: [&'static str; 2],
    /// What it produces, from the parsed arguments; `None` after reporting why.
    body: fn(&mut Parts<'_>) -> Option<DeclBody>,
}

/// The parsed arguments of one declaration, handed to its body function.
struct Parts<'a> {
    attr: &'a Attribute,
    attr_name: &'static str,
    example: &'static str,
    args: Args,
    /// `call = f` and the span of `call`.
    call: Option<(Expr, Span)>,
    /// The span of `reveal`, if given.
    reveal: Option<Span>,
    errors: Errors,
}

impl Parts<'_> {
    /// "`reveal` and `call` cannot be used together": a function shows what it likes.
    fn reveal_conflicts_with(&mut self, what: &str) {
        if let Some(span) = self.reveal {
            self.errors
                .push(conflict(self.attr_name, "`reveal`", what, span));
        }
    }

    /// The template of `key = "..."`, if given and well formed.
    fn template(&mut self, key: &str) -> Option<(Template, Span)> {
        let lit = self.args.str(key)?.clone();
        let span = self.args.span(key).unwrap_or(lit.span());
        self.errors.handle(template(&lit)).map(|t| (t, span))
    }
}

/// Parses one declaration attribute (`attr_name` is one of the six).
pub fn parse(attr: &Attribute, attr_name: &'static str) -> Result<Decl> {
    let family = match attr_name {
        name::RULE | name::COLLECTION_RULE => &RULE,
        name::SUGGEST | name::COLLECTION_SUGGEST => &SUGGEST,
        _ => &UI,
    };
    let collection = matches!(
        attr_name,
        name::COLLECTION_RULE | name::COLLECTION_SUGGEST | name::COLLECTION_UI
    );
    let example = family.examples[usize::from(collection)];
    let items = list(attr, attr_name, example)?;
    if matches!(attr.meta, Meta::Path(_)) {
        return Err(error(
            attr,
            format!("`#[{attr_name}]` needs arguments; write `{example}`"),
        ));
    }
    let mut errors = Errors::default();
    let voice = AttrVoice::of(attr_name);
    // `key`, `many` and `each` say an item declaration once for several items (wire format
    // §6.10); a collection declaration is said once already.
    let specs: Vec<Spec> = family
        .specs
        .iter()
        .filter(|spec| !collection || ![key::KEY, key::MANY, key::EACH].contains(&spec.name))
        .copied()
        .collect();
    let args = args::check(items, &specs, &mut Seen::default(), &voice, &mut errors);
    let when = args.expr(key::WHEN).cloned();
    let reveal = args.idents(key::REVEAL).to_vec();
    let title = args.str(key::TITLE).cloned();
    let mut parts = Parts {
        attr,
        attr_name,
        example,
        call: args
            .expr(key::CALL)
            .map(|call| (call.clone(), args.span(key::CALL).unwrap_or(call.span()))),
        reveal: args.span(key::REVEAL),
        args,
        errors,
    };
    let body = (family.body)(&mut parts);
    let grouping = Grouping {
        key: parts.args.ident(key::KEY).cloned(),
        many: parts.template(key::MANY),
        each: parts.args.flag(key::EACH),
    };
    parts.errors.into_result()?;
    // Every body function that yields nothing reports why first.
    let body = body.ok_or_else(|| error_at(Span::call_site(), "this attribute cannot be read"))?;
    Ok(Decl {
        attr: attr_name,
        body,
        when,
        reveal,
        title,
        grouping,
    })
}

const RULE: Family = Family {
    specs: &[
        spec(key::TEXT, Kind::Str, "text = \"...\""),
        spec(key::WHEN, Kind::Callback, "when = Self::is_overdue"),
        spec(key::CALL, Kind::Callback, "call = Self::rules"),
        spec(key::REVEAL, Kind::Idents, "reveal(ssn)"),
        spec(key::KEY, Kind::Ident, "key = sku"),
        spec(
            key::MANY,
            Kind::Str,
            "many = \"SKUs {items} are out of stock.\"",
        ),
        spec(key::EACH, Kind::Flag, "each"),
    ],
    examples: [
        "#[rule(\"amount_cents is in CENTS.\")]",
        "#[collection_rule(\"Total: {n}\")]",
    ],
    body: rule,
};

/// `#[rule("...")]`, `#[rule(text = "...")]` or `#[rule(call = f)]`.
fn rule(parts: &mut Parts<'_>) -> Option<DeclBody> {
    let attr_name = parts.attr_name;
    let text = text_arg(parts);
    match (text, parts.call.take()) {
        (Some(_), Some((_, call_span))) => {
            parts
                .errors
                .push(conflict(attr_name, "a text", "`call`", call_span));
            None
        }
        (Some(text), None) => parts.errors.handle(template(&text)).map(DeclBody::RuleText),
        (None, Some((call, _))) => {
            parts.reveal_conflicts_with("`call`");
            Some(DeclBody::RuleCall(call))
        }
        (None, None) => {
            if parts.errors.is_empty() {
                parts.errors.spanned(
                    parts.attr,
                    format!(
                        "`#[{attr_name}]` needs a text or a function; write `{}` or `#[{attr_name}(call = Self::rules)]`",
                        parts.example
                    ),
                );
            }
            None
        }
    }
}

/// The text given positionally (`#[rule("...")]`) or as `text = "..."`.
fn text_arg(parts: &mut Parts<'_>) -> Option<LitStr> {
    let (attr, example) = (parts.attr_name, parts.example);
    let mut positional = None;
    for item in std::mem::take(&mut parts.args.positional) {
        match item {
            Arg::Lit(Lit::Str(lit)) if positional.is_none() => positional = Some(lit),
            Arg::Lit(Lit::Str(lit)) => parts.errors.spanned(
                lit,
                format!("`#[{attr}(...)]` takes one text; write one `#[{attr}(...)]` per rule"),
            ),
            Arg::Lit(lit) => parts.errors.spanned(
                lit,
                format!("the text of `#[{attr}]` must be a string; write `{example}`"),
            ),
            Arg::Meta(meta) => parts.errors.spanned(
                &meta,
                format!(
                    "a path without a key is not expected in `#[{attr}(...)]`; write `call = {}` for a function",
                    path_text(&meta.path)
                ),
            ),
        }
    }
    match (positional, parts.args.str(key::TEXT).cloned()) {
        (Some(_), Some(keyed)) => {
            parts.errors.spanned(
                keyed,
                format!(
                    "the text of `#[{attr}]` is given twice; keep either `\"...\"` or `text = \"...\"`"
                ),
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

const SUGGEST: Family = Family {
    specs: &[
        spec(key::TOOL, Kind::Str, "tool = \"billing.remind\""),
        spec(
            key::REASON,
            Kind::Str,
            "reason = \"Send a payment reminder\"",
        ),
        spec(key::WHEN, Kind::Callback, "when = Self::is_open"),
        spec(key::CALL, Kind::Callback, "call = Self::suggestions"),
        spec(key::REVEAL, Kind::Idents, "reveal(ssn)"),
        spec(key::KEY, Kind::Ident, "key = id"),
        spec(key::MANY, Kind::Str, "many = \"Remind {items}\""),
        spec(key::EACH, Kind::Flag, "each"),
    ],
    examples: [
        "#[suggest(tool = \"billing.remind\", reason = \"Send a payment reminder\")]",
        "#[collection_suggest(tool = \"billing.export\", reason = \"Export {n} rows\")]",
    ],
    body: suggest,
};

/// `#[suggest(tool = "...", reason = "...")]`, `#[suggest(Tool::Action, "...")]` (the target
/// as a path the compiler checks) or `#[suggest(call = f)]`.
fn suggest(parts: &mut Parts<'_>) -> Option<DeclBody> {
    let attr_name = parts.attr_name;
    let (action, positional_reason) = action_target(parts);
    let tool = parts.args.str(key::TOOL).cloned();
    let keyed_reason = parts.args.str(key::REASON).cloned();
    if let (Some(_), Some(keyed)) = (&positional_reason, &keyed_reason) {
        parts.errors.spanned(
            keyed,
            format!("the reason of `#[{attr_name}]` is given twice; keep either `\"...\"` or `reason = \"...\"`"),
        );
    }
    let reason = positional_reason.or(keyed_reason);
    if let (Some(_), Some(tool)) = (&action, &tool) {
        parts
            .errors
            .push(conflict(attr_name, "a target path", "`tool`", tool.span()));
        return None;
    }
    match (parts.call.take(), tool, reason, action) {
        (Some((_, call_span)), tool, reason, action)
            if tool.is_some() || reason.is_some() || action.is_some() =>
        {
            let which = if tool.is_some() || action.is_some() {
                "`tool`"
            } else {
                "`reason`"
            };
            parts
                .errors
                .push(conflict(attr_name, "`call`", which, call_span));
            None
        }
        (Some((call, _)), ..) => {
            parts.reveal_conflicts_with("`call`");
            Some(DeclBody::SuggestCall(call))
        }
        (None, None, Some(reason), Some((tool, action))) => {
            let reason = parts.errors.handle(template(&reason))?;
            Some(DeclBody::SuggestAction(tool, action, reason))
        }
        (None, Some(tool), Some(reason), None) => {
            let tool = parts.errors.handle(template(&tool));
            let reason = parts.errors.handle(template(&reason));
            Some(DeclBody::SuggestPair(tool?, reason?))
        }
        (None, tool, _, action) => {
            if parts.errors.is_empty() {
                let missing = if tool.is_none() && action.is_none() {
                    "tool"
                } else {
                    "reason"
                };
                parts.errors.spanned(
                    parts.attr,
                    format!(
                        "`#[{attr_name}]` needs `{missing}`; write `{}`, or `call = Self::suggestions` for a function",
                        parts.example
                    ),
                );
            }
            None
        }
    }
}

/// The positional items of a suggestion: a target path `Tool::Action` (split into the tool
/// type and the action) and a reason text.
fn action_target(parts: &mut Parts<'_>) -> (Option<(Path, Ident)>, Option<LitStr>) {
    let (attr, example) = (parts.attr_name, parts.example);
    let mut target = None;
    let mut reason = None;
    for item in std::mem::take(&mut parts.args.positional) {
        match item {
            Arg::Meta(meta)
                if matches!(meta.form, Form::Word) && target.is_none() && reason.is_none() =>
            {
                let mut segments: Vec<syn::PathSegment> =
                    meta.path.segments.iter().cloned().collect();
                match segments.pop() {
                    Some(action) if !segments.is_empty() => {
                        let tool = Path {
                            leading_colon: meta.path.leading_colon,
                            segments: segments.into_iter().collect(),
                        };
                        if action.arguments.is_empty() {
                            target = Some((tool, action.ident));
                        } else {
                            parts.errors.spanned(
                                &action.arguments,
                                format!("an action takes no generic arguments; write `#[{attr}(Billing::Remind, \"...\")]`"),
                            );
                        }
                    }
                    _ => parts.errors.spanned(
                        &meta.path,
                        format!(
                            "a suggestion target written as a path is `Tool::Action`, like `Billing::Remind`; write a whole tool as text: `tool = \"{}\"`",
                            crate::common::case::snake_case(&path_text(&meta.path))
                        ),
                    ),
                }
            }
            Arg::Lit(Lit::Str(lit)) if target.is_some() && reason.is_none() => reason = Some(lit),
            other => parts.errors.spanned(
                other,
                format!("a value without a key is not expected here in `#[{attr}(...)]`; write `{example}` or `#[{attr}(Billing::Remind, \"Send a payment reminder\")]`"),
            ),
        }
    }
    (target, reason)
}

const UI: Family = Family {
    specs: &[
        spec(key::CALL, Kind::Callback, "call = Self::gauge"),
        spec(key::MARKDOWN, Kind::Str, "markdown = \"Client: {name}\""),
        spec(key::SUMMARY, Kind::Str, "summary = \"{n} items\""),
        spec(key::TABLE, Kind::Idents, "table(id, title, status)"),
        spec(key::TITLE, Kind::Str, "title = \"Tasks\""),
        spec(key::WHEN, Kind::Callback, "when = Self::is_open"),
        spec(key::REVEAL, Kind::Idents, "reveal(ssn)"),
    ],
    examples: ["#[ui(Self::gauge)]", "#[collection_ui(Self::summary)]"],
    body: ui,
};

/// `#[ui(f)]`, `#[ui(call = f)]`, `#[ui(markdown = "...")]`, `#[ui(summary = "...")]` or
/// `#[ui(table(id, title))]`.
fn ui(parts: &mut Parts<'_>) -> Option<DeclBody> {
    let attr_name = parts.attr_name;
    let mut bodies: Vec<(String, Span, DeclBody)> = Vec::new();
    if let Some(call) = ui_function(parts) {
        let span = call.span();
        bodies.push(("a function path".to_owned(), span, DeclBody::UiCall(call)));
    }
    if let Some((call, span)) = parts.call.take() {
        bodies.push(("`call`".to_owned(), span, DeclBody::UiCall(call)));
    }
    for (key, make) in [
        (
            key::MARKDOWN,
            DeclBody::UiMarkdown as fn(Template) -> DeclBody,
        ),
        (key::SUMMARY, DeclBody::UiSummary),
    ] {
        if let Some((template, span)) = parts.template(key) {
            bodies.push((format!("`{key}`"), span, make(template)));
        }
    }
    let columns = parts.args.idents(key::TABLE).to_vec();
    if !columns.is_empty() {
        let span = parts.args.span(key::TABLE).unwrap_or(columns[0].span());
        bodies.push(("`table`".to_owned(), span, DeclBody::UiTable(columns)));
    }
    if bodies.len() > 1 {
        parts
            .errors
            .push(conflict(attr_name, &bodies[0].0, &bodies[1].0, bodies[1].1));
    }
    let body = bodies.into_iter().next().map(|(_, _, body)| body);
    if let (Some(DeclBody::UiCall(_)), Some(span)) = (&body, parts.args.span(key::TITLE)) {
        parts.errors.at(
            span,
            format!(
                "`title` is not expected with a function in `#[{attr_name}(...)]`: the function titles its block with `.title(...)`; remove `title = ...`"
            ),
        );
    }
    match body {
        Some(DeclBody::UiCall(_)) => parts.reveal_conflicts_with("a function"),
        // A table shows each field as the data block does: a redacted one as its censor.
        Some(DeclBody::UiTable(_)) => {
            if let Some(span) = parts.reveal {
                parts.errors.at(
                    span,
                    format!(
                        "`reveal` is not expected with `table` in `#[{attr_name}(...)]`: a table shows each field as the data block does, a redacted one as its censor; remove `reveal(...)`"
                    ),
                );
            }
        }
        _ => {}
    }
    if body.is_none() && parts.errors.is_empty() {
        parts.errors.spanned(
            parts.attr,
            format!(
                "`#[{attr_name}]` needs a function; write `{}`",
                parts.example
            ),
        );
    }
    body
}

/// The function given positionally: `#[ui(Self::gauge)]`.
fn ui_function(parts: &mut Parts<'_>) -> Option<Expr> {
    let (attr, example) = (parts.attr_name, parts.example);
    let mut function = None;
    for item in std::mem::take(&mut parts.args.positional) {
        match item {
            Arg::Meta(meta) if matches!(meta.form, Form::Word) && function.is_none() => {
                function = Some(Expr::Path(ExprPath {
                    attrs: Vec::new(),
                    qself: None,
                    path: meta.path,
                }));
            }
            Arg::Meta(meta) if matches!(meta.form, Form::Word) => parts.errors.spanned(
                meta.path,
                format!(
                    "`#[{attr}(...)]` takes one function; write one `#[{attr}(...)]` per UI entry"
                ),
            ),
            other => parts.errors.spanned(
                other,
                format!("`#[{attr}(...)]` expects a function path; write `{example}`"),
            ),
        }
    }
    function
}
