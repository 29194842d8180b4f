//! The declarations on the struct (`#[rule]`, `#[suggest]`, `#[ui]` and their collection
//! forms) checked against the fields: template placeholders, redaction against templates (wire
//! format §8.6), `reveal`, grouping (wire format §6.10) and table columns.

use proc_macro2::Span;
use syn::Ident;

use crate::common::case::unraw;
use crate::common::diag::{Error, Errors, did_you_mean, error, error_at};
use crate::common::symbol::attr as name;
use crate::presenter::ast::{
    DeclKind, Declaration, Field, Group, ManyPart, Part, Scope, Target, Text,
};
use crate::presenter::decl::{Decl, DeclBody, Grouping};
use crate::presenter::template::{Piece, Template};
use crate::presenter::voice::conflict;

/// Checks one struct-level declaration and resolves its templates.
pub fn declaration(decl: Decl, fields: &[Field<'_>], errors: &mut Errors) -> Option<Declaration> {
    let Decl {
        attr: attr_name,
        body,
        when,
        reveal,
        title,
        grouping,
    } = decl;
    let scope = match attr_name {
        name::COLLECTION_RULE | name::COLLECTION_SUGGEST | name::COLLECTION_UI => Scope::Collection,
        _ => Scope::Item,
    };
    let mut failed = !check_reveal(attr_name, scope, &reveal, &body.templates(), fields, errors);
    if let DeclBody::UiTable(columns) = &body {
        let columns = table_columns(attr_name, columns, fields, errors);
        return columns.filter(|_| !failed).map(|columns| Declaration {
            scope,
            when,
            kind: DeclKind::Table(columns),
            title,
            group: None,
        });
    }
    let mut text = |template: &Template| match resolve(attr_name, scope, template, &reveal, fields)
    {
        Ok(text) => text,
        Err(error) => {
            errors.push(error);
            failed = true;
            Text::Static(String::new())
        }
    };
    let kind = match body {
        DeclBody::RuleText(template) => DeclKind::Rule(text(&template)),
        DeclBody::RuleCall(call) => DeclKind::RuleCall(call),
        DeclBody::SuggestPair(tool, reason) => {
            DeclKind::Suggest(Target::Text(text(&tool)), text(&reason))
        }
        DeclBody::SuggestAction(tool, action, reason) => {
            DeclKind::Suggest(Target::Action(tool, action), text(&reason))
        }
        DeclBody::SuggestCall(call) => DeclKind::SuggestCall(call),
        DeclBody::UiCall(call) => DeclKind::UiCall(call),
        DeclBody::UiMarkdown(template) => DeclKind::Markdown(text(&template)),
        DeclBody::UiSummary(template) => DeclKind::Summary(text(&template)),
        // Resolved above.
        DeclBody::UiTable(_) => return None,
    };
    let group = match group(attr_name, scope, &kind, grouping, fields) {
        Ok(group) => group,
        Err(error) => {
            errors.push(error);
            failed = true;
            None
        }
    };
    (!failed).then_some(Declaration {
        scope,
        when,
        kind,
        title,
        group,
    })
}

/// How an item rule or suggestion with a template says itself once for several items (wire
/// format §6.10): grouped by default under its `key` (the field `id`, else the model's first
/// field on the wire that is neither embedded nor redacted), `each` for one line per item.
fn group(
    attr_name: &str,
    scope: Scope,
    kind: &DeclKind,
    grouping: Grouping,
    fields: &[Field<'_>],
) -> Result<Option<Group>, Error> {
    let template = match kind {
        DeclKind::Rule(Text::Template(_, span)) => Some(*span),
        DeclKind::Suggest(tool, reason) => match (tool, reason) {
            (Target::Text(Text::Template(_, span)), _) | (_, Text::Template(_, span)) => {
                Some(*span)
            }
            _ => None,
        },
        _ => None,
    };
    let misplaced = grouping.first();
    if let Some((key, span)) = misplaced {
        let why = if matches!(kind, DeclKind::RuleCall(_) | DeclKind::SuggestCall(_)) {
            Some("a function writes its own texts, one line each")
        } else if template.is_none() {
            Some("a text without placeholders is written once however many items it concerns")
        } else {
            None
        };
        if let Some(why) = why {
            return Err(error_at(
                span,
                format!("`{key}` is not expected in `#[{attr_name}(...)]`: {why}; remove `{key}`"),
            ));
        }
    }
    let (Scope::Item, Some(template_span)) = (scope, template) else {
        return Ok(None);
    };
    if grouping.each.is_some() {
        return match (&grouping.key, &grouping.many) {
            (Some(key), _) => Err(conflict(attr_name, "`each`", "`key`", key.span())),
            (None, Some((_, span))) => Err(conflict(attr_name, "`each`", "`many`", *span)),
            (None, None) => Ok(None),
        };
    }
    let (key, key_span) = if let Some(ident) = &grouping.key {
        let name = unraw(ident);
        let Some(index) = fields.iter().position(|f| f.name == name) else {
            return Err(unknown_field(ident.span(), &name, fields));
        };
        let field = &fields[index];
        let what = if field.redact.is_some() {
            Some("is redacted")
        } else if field.wire.is_none() {
            Some("is never on the wire")
        } else if field.embed {
            Some("is embedded")
        } else {
            None
        };
        if let Some(what) = what {
            return Err(error(
                ident,
                format!(
                    "`key` names `{name}`, which {what}; the key labels each item in the grouped line, so name a field the data block shows, like `key = id`, or write `each`"
                ),
            ));
        }
        (index, ident.span())
    } else {
        let shown = |f: &&Field<'_>| f.wire.is_some() && !f.embed && f.redact.is_none();
        let index = fields
            .iter()
            .position(|f| f.name == "id" && shown(&f))
            .or_else(|| fields.iter().position(|f| shown(&f)));
        // No field the data block shows: nothing to name the items by, one line each.
        let Some(index) = index else {
            return Ok(None);
        };
        (index, template_span)
    };
    let many = match grouping.many {
        None => None,
        Some((template, _)) => Some(many_parts(attr_name, &template)?),
    };
    Ok(Some(Group {
        key,
        key_span,
        many,
    }))
}

/// The pieces of `many = "..."`: text, `{items}` and `{n}`.
fn many_parts(attr_name: &str, template: &Template) -> Result<Vec<ManyPart>, Error> {
    template
        .pieces
        .iter()
        .map(|piece| match piece {
            Piece::Text(text) => Ok(ManyPart::Lit(text.clone())),
            Piece::Name(name) if name == "items" => Ok(ManyPart::Items),
            Piece::Name(name) if name == "n" => Ok(ManyPart::Count),
            Piece::Name(name) => Err(error_at(
                template.placeholder_span(name),
                format!(
                    "`{{{name}}}` is not available in the `many` text of `#[{attr_name}(...)]`: it speaks of several items, named by `{{items}}` and counted by `{{n}}`"
                ),
            )),
        })
        .collect()
}

/// `reveal(...)` names hidden fields the template uses, in item declarations only.
/// Returns whether every name is fine.
fn check_reveal(
    attr_name: &str,
    scope: Scope,
    reveal: &[Ident],
    texts: &[&Template],
    fields: &[Field<'_>],
    errors: &mut Errors,
) -> bool {
    let mut fine = true;
    for ident in reveal {
        let name = unraw(ident);
        if scope == Scope::Collection {
            errors.push(error(
                ident,
                format!("`reveal` is not expected in `#[{attr_name}(...)]`: collection templates only use `{{n}}`; remove it"),
            ));
            fine = false;
            continue;
        }
        let Some(field) = fields.iter().find(|f| f.name == name) else {
            errors.push(unknown_field(ident.span(), &name, fields));
            fine = false;
            continue;
        };
        if field.redact.is_none() && field.wire.is_some() {
            errors.push(error(
                ident,
                format!("`{name}` is neither redacted nor skipped, so it needs no `reveal`; remove it from `reveal(...)`"),
            ));
            fine = false;
        } else if !texts.iter().any(|t| t.uses(&name)) {
            errors.push(error(
                ident,
                format!("`{name}` is revealed but the template does not use it; remove it from `reveal(...)`"),
            ));
            fine = false;
        }
    }
    fine
}

/// The columns of `table(...)`: each a field on the wire that is not embedded, listed once.
/// Returns their positions in `fields`, or `None` after reporting every mistake.
fn table_columns(
    attr_name: &str,
    columns: &[Ident],
    fields: &[Field<'_>],
    errors: &mut Errors,
) -> Option<Vec<usize>> {
    let mut out = Vec::new();
    let mut fine = true;
    for (i, ident) in columns.iter().enumerate() {
        let name = unraw(ident);
        let mut mistake = |message: String| {
            errors.push(error(ident, message));
            fine = false;
        };
        let Some(index) = fields.iter().position(|f| f.name == name) else {
            let message = match did_you_mean(&name, fields.iter().map(|f| f.name.as_str())) {
                Some(close) => format!("the model has no field `{name}`; did you mean `{close}`?"),
                None => format!(
                    "the model has no field `{name}`; `table(...)` lists fields of the model, like `table({})`",
                    fields
                        .iter()
                        .filter(|f| f.wire.is_some() && !f.embed)
                        .take(3)
                        .map(|f| f.name.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            };
            mistake(message);
            continue;
        };
        let field = &fields[index];
        if columns[..i].iter().any(|c| unraw(c) == name) {
            mistake(format!(
                "`{name}` is listed twice in `#[{attr_name}(table(...))]`; remove one"
            ));
        } else if field.wire.is_none() {
            mistake(format!(
                "`{name}` is never on the wire, so the table cannot show it as the data block does; remove it from `table(...)`"
            ));
        } else if field.embed {
            mistake(format!(
                "`{name}` is embedded: its own blocks present it; remove it from `table(...)`"
            ));
        } else {
            out.push(index);
        }
    }
    fine.then_some(out)
}

/// The first three fields as placeholders (`{id}`, `{title}`, `{status}`), for a message that
/// shows what a template may name.
fn some_placeholders(fields: &[Field<'_>]) -> String {
    fields
        .iter()
        .take(3)
        .map(|f| format!("`{{{}}}`", f.name))
        .collect::<Vec<_>>()
        .join(", ")
}

fn unknown_field(span: Span, name: &str, fields: &[Field<'_>]) -> Error {
    let message = match did_you_mean(name, fields.iter().map(|f| f.name.as_str())) {
        Some(close) => format!("the model has no field `{name}`; did you mean `{close}`?"),
        None => format!(
            "the model has no field `{name}`; templates name fields, like {}",
            some_placeholders(fields)
        ),
    };
    error_at(span, message)
}

/// A placeholder that names no field, reported at the literal (see
/// `Template::placeholder_span`), so the message quotes the placeholder as written.
fn unknown_placeholder(template: &Template, name: &str, fields: &[Field<'_>]) -> Error {
    let message = match did_you_mean(name, fields.iter().map(|f| f.name.as_str())) {
        Some(close) => {
            format!("`{{{name}}}` names no field of the model; did you mean `{{{close}}}`?")
        }
        None => format!(
            "`{{{name}}}` names no field of the model; templates name fields, like {}",
            some_placeholders(fields)
        ),
    };
    error_at(template.placeholder_span(name), message)
}

/// Resolves a template's placeholders against the fields (item scope) or `{n}` (collections).
fn resolve(
    attr_name: &str,
    scope: Scope,
    template: &Template,
    reveal: &[Ident],
    fields: &[Field<'_>],
) -> Result<Text, Error> {
    if template.is_static() {
        return Ok(Text::Static(template.static_text()));
    }
    let span = template.lit.span();
    let mut parts = Vec::with_capacity(template.pieces.len());
    for piece in &template.pieces {
        match piece {
            Piece::Text(text) => parts.push(Part::Lit(text.clone())),
            Piece::Name(name) if scope == Scope::Collection => {
                if name == "n" {
                    parts.push(Part::Count);
                } else {
                    return Err(error_at(
                        template.placeholder_span(name),
                        format!(
                            "`{{{name}}}` is not available in `#[{attr_name}(...)]`: collection templates only use `{{n}}`, the number of shown items; read fields in a function with `call = ...`"
                        ),
                    ));
                }
            }
            Piece::Name(name) => {
                let Some(index) = fields.iter().position(|f| f.name == *name) else {
                    return Err(unknown_placeholder(template, name, fields));
                };
                let field = &fields[index];
                let revealed = reveal.iter().any(|r| unraw(r) == *name);
                if !revealed {
                    if field.redact.is_some() {
                        return Err(error_at(
                            template.placeholder_span(name),
                            format!(
                                "this template would show the redacted field `{name}`; add `reveal({name})` to this `#[{attr_name}(...)]` if that is intended, or remove `{{{name}}}`"
                            ),
                        ));
                    }
                    if field.wire.is_none() {
                        return Err(error_at(
                            template.placeholder_span(name),
                            format!(
                                "this template would show `{name}`, which is never on the wire; add `reveal({name})` to this `#[{attr_name}(...)]` if that is intended, or remove `{{{name}}}`"
                            ),
                        ));
                    }
                }
                parts.push(Part::Field(index));
            }
        }
    }
    Ok(Text::Template(parts, span))
}
