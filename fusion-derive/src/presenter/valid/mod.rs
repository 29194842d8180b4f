//! The checks of a derive input, which build its model ([`super::ast`]) from the parsed
//! attributes: the shape of the input, field attributes that contradict each other, colliding
//! names, a `Serialize` derived as well; the declarations (templates against the fields,
//! redaction against templates, wire format §8.6) are checked in [`declaration`].

mod declaration;

use syn::{Data, DeriveInput, Fields, Ident, LitStr};

use super::ast::{Censor, Field, Format, Model, Rejected, Wire, is_option, variant_name};
use super::attr::{self, FieldAttrs, Format as AttrFormat};
use crate::common::case::{RenameRule, unraw};
use crate::common::diag::{Error, Errors, error, error_at};
use crate::common::krate::runtime_path;
use declaration::declaration;

/// Parses and checks `input`: its model, or every mistake found.
pub fn model(input: &DeriveInput) -> Result<Model<'_>, Rejected> {
    let mut errors = Errors::default();
    let serialize_derived = serialize_derived(&input.attrs, &mut errors);
    let named = named_fields(input, &mut errors);
    let container = attr::container(&input.attrs, &mut errors);
    let opts = container.presenter;
    let field_enum = opts.field_enum.then(|| {
        opts.field_enum_name
            .clone()
            .unwrap_or_else(|| Ident::new(&format!("{}Field", input.ident), input.ident.span()))
    });
    let reject = |errors: Error| Rejected {
        errors,
        krate: runtime_path(opts.krate.clone()),
        field_enum: field_enum.clone(),
        serialize_derived,
    };
    let Some(named) = named else {
        return Err(reject(errors.into_result().err().unwrap_or_else(|| {
            error(&input.ident, "`#[derive(Presenter)]` needs named fields")
        })));
    };
    let fields = fields(named, container.serde.rename_all, &mut errors);
    wire_names(&fields, &mut errors);
    variants(&fields, &mut errors);

    let mut decls = Vec::new();
    for decl in container.decls {
        if let Some(decl) = declaration(decl, &fields, &mut errors) {
            decls.push(decl);
        }
    }

    if let Some(field_enum) = field_enum.as_ref().filter(|name| **name == input.ident) {
        errors.spanned(
            field_enum,
            "the field enum cannot have the model's own name; pick another, like `field_enum = InvoiceField`",
        );
    }
    let serde_name = container
        .serde
        .rename
        .as_ref()
        .map_or_else(|| unraw(&input.ident), LitStr::value);
    let name = opts
        .name
        .as_ref()
        .map_or_else(|| serde_name.clone(), LitStr::value);

    errors.into_result().map_err(reject)?;
    Ok(Model {
        input,
        krate: runtime_path(opts.krate.clone()),
        name,
        serde_name,
        field_enum,
        agent_limit: opts.agent_limit.map(|(n, _)| n),
        max_tokens: opts.max_tokens,
        format: opts.format.map(|format| match format {
            AttrFormat::Json => Format::Json,
            AttrFormat::CompactJson => Format::CompactJson,
            AttrFormat::Toon => Format::Toon,
        }),
        lean: opts.lean,
        context: opts.context.clone(),
        fields,
        decls,
    })
}

/// The named fields of a struct; any other shape is reported.
fn named_fields<'a>(input: &'a DeriveInput, errors: &mut Errors) -> Option<&'a syn::FieldsNamed> {
    match &input.data {
        Data::Struct(data) => match &data.fields {
            Fields::Named(named) => Some(named),
            Fields::Unnamed(fields) => {
                errors.push(error(
                    fields,
                    "`#[derive(Presenter)]` does not support tuple structs; name the fields, like `struct Invoice { id: String }`",
                ));
                None
            }
            Fields::Unit => {
                errors.push(error(
                    &input.ident,
                    "`#[derive(Presenter)]` does not support unit structs; give the struct named fields, like `struct Invoice { id: String }`",
                ));
                None
            }
        },
        Data::Enum(data) => {
            errors.push(error_at(
                data.enum_token.span,
                "`#[derive(Presenter)]` does not support enums; derive it on a struct with named fields (one per variant if needed)",
            ));
            None
        }
        Data::Union(data) => {
            errors.push(error_at(
                data.union_token.span,
                "`#[derive(Presenter)]` does not support unions; derive it on a struct with named fields",
            ));
            None
        }
    }
}

/// The fields with their attributes read and their wire names computed.
fn fields<'a>(
    named: &'a syn::FieldsNamed,
    rename_all: Option<RenameRule>,
    errors: &mut Errors,
) -> Vec<Field<'a>> {
    let mut fields = Vec::with_capacity(named.named.len());
    let mut wire_count = 0;
    for field in &named.named {
        let Some(ident) = field.ident.as_ref() else {
            continue;
        };
        let attrs = attr::field(&field.attrs, errors);
        field_combinations(&attrs, errors);
        let name = unraw(ident);
        let on_wire = attrs.skip.is_none() && attrs.serde.skip.is_none();
        let wire = on_wire.then(|| {
            let wire_name = match (&attrs.serde.rename, rename_all) {
                (Some(rename), _) => rename.value(),
                (None, Some(rule)) => rule.apply(&name),
                (None, None) => name.clone(),
            };
            let wire = Wire {
                name: wire_name,
                variant: Ident::new(&variant_name(&name), ident.span()),
                index: wire_count,
                skip_if: attrs.serde.skip_if.clone(),
            };
            wire_count += 1;
            wire
        });
        fields.push(Field {
            ident,
            ty: &field.ty,
            name,
            wire,
            embed: attrs.embed.is_some(),
            redact: attrs.redact.map(|r| match r.censor {
                attr::Censor::Default => Censor::Default,
                attr::Censor::Text(text) => Censor::Text(text),
                attr::Censor::With(with) => Censor::With(with),
            }),
            is_option: is_option(&field.ty),
        });
    }
    fields
}

/// A `#[derive(Serialize)]` written below `#[derive(Presenter)]` (the derive sees the
/// attributes after its own; one in the same list, or above, it never sees, and rustc reports
/// that case as E0119). Returns whether one was found, so no second `Serialize` is generated.
pub fn serialize_derived(attrs: &[syn::Attribute], errors: &mut Errors) -> bool {
    let mut found = false;
    for attr in attrs.iter().filter(|a| a.path().is_ident("derive")) {
        let Ok(paths) = attr.parse_args_with(
            syn::punctuated::Punctuated::<syn::Path, syn::Token![,]>::parse_terminated,
        ) else {
            continue;
        };
        for path in paths {
            if path
                .segments
                .last()
                .is_some_and(|last| last.ident == "Serialize")
            {
                found = true;
                errors.push(error(
                    &path,
                    "`Serialize` is derived twice: `#[derive(Presenter)]` writes the model's `Serialize` itself (the redacted wire form); remove `Serialize` from this `#[derive(...)]`",
                ));
            }
        }
    }
    found
}

/// Field attributes that contradict each other.
pub fn field_combinations(attrs: &FieldAttrs, errors: &mut Errors) {
    let skip = attrs.skip.or(attrs.serde.skip);
    if let (Some(_), Some(redact)) = (skip, &attrs.redact) {
        errors.push(error(
            &redact.attr,
            "`#[redact]` has no effect on a field that is never on the wire; remove `#[redact]` or the skip",
        ));
    }
    if let (Some(_), Some(embed)) = (skip, &attrs.embed) {
        errors.push(error(
            embed,
            "`#[embed]` cannot be used on a field that is never on the wire; remove `#[embed]` or the skip",
        ));
    }
    if let (Some(_), Some(skip_if)) = (skip, &attrs.serde.skip_if) {
        errors.push(error(
            skip_if,
            "`skip_serializing_if` has no effect on a field that is never on the wire; remove one of them",
        ));
    }
}

/// Two fields written under one member name would give a JSON object with a duplicate key.
pub fn wire_names(fields: &[Field<'_>], errors: &mut Errors) {
    for (i, field) in fields.iter().enumerate() {
        let Some(wire) = &field.wire else { continue };
        if let Some(first) = fields[..i]
            .iter()
            .find(|f| f.wire.as_ref().is_some_and(|w| w.name == wire.name))
        {
            errors.push(error(
                field.ident,
                format!(
                    "the field `{}` is written as `{}`, like the field `{}`; rename one of them with `#[serde(rename = \"...\")]`",
                    field.name, wire.name, first.name
                ),
            ));
        }
    }
}

/// Two fields whose enum variants would collide (`a_b` and `a__b` are both `AB`).
pub fn variants(fields: &[Field<'_>], errors: &mut Errors) {
    for (i, field) in fields.iter().enumerate() {
        let Some(wire) = &field.wire else { continue };
        if let Some(first) = fields[..i]
            .iter()
            .find(|f| f.wire.as_ref().is_some_and(|w| w.variant == wire.variant))
        {
            errors.push(error(
                field.ident,
                format!(
                    "the fields `{}` and `{}` would both be the field enum variant `{}`; rename one of the fields",
                    first.name, field.name, wire.variant
                ),
            ));
        }
    }
}
