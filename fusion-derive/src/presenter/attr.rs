//! Parsing of the presenter's helper attributes: one type per attribute, every mistake
//! reported, spanned at the user's token and worded the same way (lowercase, the problem, then
//! what to write). The keys go through the shared parser in `common::args`; the declarations
//! (`#[rule]`, `#[suggest]`, `#[ui]`) are read in `decl.rs`, serde's keys in
//! `common::serde_attr`.

use proc_macro2::Span;
use syn::{Attribute, Expr, Ident, LitStr, Meta, Path, Type};

use super::decl::{self, Decl};
use super::voice::{AttrVoice, conflict, list, positional_not_expected};
use crate::common::args::{self, Kind, Seen, Spec, spec};
use crate::common::diag::{Error, Errors, Result, did_you_mean, error};
use crate::common::serde_attr::{self, SerdeContainer, SerdeField};
use crate::common::symbol::{attr as name, key};

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

/// The data block format of `#[presenter(format = ...)]`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// `format = json`.
    Json,
    /// `format = compact_json`.
    CompactJson,
    /// `format = toon`.
    Toon,
}

impl Format {
    /// The runtime's `Format` variant.
    pub fn variant(self) -> Ident {
        let name = match self {
            Format::Json => "Json",
            Format::CompactJson => "CompactJson",
            Format::Toon => "Toon",
        };
        Ident::new(name, Span::call_site())
    }

    /// The names `format = ...` accepts, with their formats.
    const NAMES: [(&'static str, Format); 3] = [
        ("json", Format::Json),
        ("compact_json", Format::CompactJson),
        ("toon", Format::Toon),
    ];
}

/// `#[presenter(agent_limit = 50, context = AppCtx, name = "Invoice", crate = path,
/// field_enum = Name, format = toon)]`, or a bare `field_enum`.
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
    /// `field_enum` or `field_enum = Name`: generate the field enum (under that name).
    pub field_enum: bool,
    /// The name `field_enum = Name` gives it.
    pub field_enum_name: Option<Ident>,
    /// The data block format.
    pub format: Option<Format>,
    /// The response budget in tokens.
    pub max_tokens: Option<usize>,
    /// `lean`: a tool that declares this model is lean (wire format §6.12).
    pub lean: bool,
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

/// What replaces a redacted value (wire format §8.1), as written.
pub enum Censor {
    /// `"[REDACTED]"`.
    Default,
    /// A fixed text.
    Text(LitStr),
    /// A function of the field's value.
    With(Expr),
}

/// Parses every helper attribute of the struct.
pub fn container(attrs: &[Attribute], errors: &mut Errors) -> ContainerAttrs {
    let mut out = ContainerAttrs::default();
    let mut presenter_keys = Seen::default();
    for attr in attrs {
        let Some(attr_name) = crate::common::symbol::attr_name(attr) else {
            continue;
        };
        match attr_name {
            name::PRESENTER => {
                presenter_opts(attr, &mut presenter_keys, &mut out.presenter, errors);
            }
            name::RULE
            | name::COLLECTION_RULE
            | name::SUGGEST
            | name::COLLECTION_SUGGEST
            | name::UI
            | name::COLLECTION_UI => {
                if let Some(decl) = errors.handle(decl::parse(attr, attr_name)) {
                    out.decls.push(decl);
                }
            }
            name::SERDE => serde_attr::container(attr, &mut out.serde, errors),
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
    let mut presenter_keys = Seen::default();
    for attr in attrs {
        let Some(attr_name) = crate::common::symbol::attr_name(attr) else {
            continue;
        };
        match attr_name {
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
            name::SERDE => serde_attr::field(attr, &mut out.serde, errors),
            other if name::ON_STRUCT.contains(&other) => {
                errors.push(misplaced(attr, other, Place::Field));
            }
            _ => {}
        }
    }
    out
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

/// Container `#[presenter(...)]`.
fn presenter_opts(attr: &Attribute, seen: &mut Seen, out: &mut PresenterOpts, errors: &mut Errors) {
    const SPECS: &[Spec] = &[
        spec(key::AGENT_LIMIT, Kind::Int, "agent_limit = 50"),
        spec(key::CONTEXT, Kind::Type, "context = AppCtx"),
        spec(key::NAME, Kind::Str, "name = \"Invoice\""),
        spec(key::CRATE, Kind::Path, "crate = ::fusion_runtime"),
        spec(
            key::FIELD_ENUM,
            Kind::FlagOrIdent,
            "field_enum = InvoiceField",
        ),
        spec(key::FORMAT, Kind::Ident, "format = toon"),
        spec(key::MAX_TOKENS, Kind::Int, "max_tokens = 8000"),
        spec(key::LEAN, Kind::Flag, "lean"),
    ];
    const VOICE: AttrVoice = AttrVoice {
        attr: name::PRESENTER,
        elsewhere: &[(
            key::SKIP,
            "is not expected on a struct; put `#[presenter(skip)]` on a field",
        )],
    };
    let example = "#[presenter(agent_limit = 50)]";
    let Some(items) = errors.handle(list(attr, name::PRESENTER, example)) else {
        return;
    };
    if matches!(attr.meta, Meta::Path(_)) {
        errors.spanned(
            attr,
            format!("`#[presenter]` needs options; write `{example}` or remove it"),
        );
        return;
    }
    let args = args::check(items, SPECS, seen, &VOICE, errors);
    positional_not_expected(&args, name::PRESENTER, example, errors);
    if let Some(limit) = args.int(key::AGENT_LIMIT) {
        out.agent_limit = Some(limit);
    }
    if let Some((budget, span)) = args.int(key::MAX_TOKENS) {
        if budget == 0 {
            errors.at(
                span,
                "a budget of 0 tokens fits no response; write a budget such as `max_tokens = 8000`",
            );
        } else {
            out.max_tokens = Some(budget);
        }
    }
    if let Some(ty) = args.ty(key::CONTEXT) {
        out.context = Some(ty.clone());
    }
    if let Some(lit) = args.str(key::NAME) {
        if lit.value().is_empty() {
            errors.spanned(
                lit,
                "the model's `name` is empty; write `name = \"Invoice\"`",
            );
        } else {
            out.name = Some(lit.clone());
        }
    }
    if let Some(path) = args.path(key::CRATE) {
        out.krate = Some(path.clone());
    }
    if args.flag(key::FIELD_ENUM).is_some() {
        out.field_enum = true;
    }
    if let Some(ident) = args.ident(key::FIELD_ENUM) {
        out.field_enum = true;
        out.field_enum_name = Some(ident.clone());
    }
    if args.flag(key::LEAN).is_some() {
        out.lean = true;
    }
    if let Some(ident) = args.ident(key::FORMAT) {
        match data_format(ident) {
            Ok(format) => out.format = Some(format),
            Err(error) => errors.push(error),
        }
    }
}

/// `json`, `compact_json` or `toon`.
pub fn data_format(ident: &Ident) -> Result<Format> {
    let given = ident.to_string();
    if let Some((_, format)) = Format::NAMES.iter().find(|(name, _)| *name == given) {
        return Ok(*format);
    }
    let fix = match did_you_mean(&given, Format::NAMES.iter().map(|(name, _)| *name)) {
        Some(close) => format!("did you mean `{close}`?"),
        None => "write `format = json`, `format = compact_json` or `format = toon`".to_owned(),
    };
    Err(error(
        ident,
        format!("unknown data block format `{given}`; {fix}"),
    ))
}

/// Field `#[presenter(skip)]`; returns the span of `skip`.
fn field_presenter(attr: &Attribute, seen: &mut Seen, errors: &mut Errors) -> Option<Span> {
    const SPECS: &[Spec] = &[spec(key::SKIP, Kind::Flag, "#[presenter(skip)]")];
    const ON_STRUCT: &str =
        "is not expected on a field; put it in `#[presenter(...)]` on the struct";
    const VOICE: AttrVoice = AttrVoice {
        attr: name::PRESENTER,
        elsewhere: &[
            (key::AGENT_LIMIT, ON_STRUCT),
            (key::CONTEXT, ON_STRUCT),
            (key::NAME, ON_STRUCT),
            (key::CRATE, ON_STRUCT),
            (key::FIELD_ENUM, ON_STRUCT),
            (key::FORMAT, ON_STRUCT),
            (key::MAX_TOKENS, ON_STRUCT),
        ],
    };
    let example = "#[presenter(skip)]";
    let items = errors.handle(list(attr, name::PRESENTER, example))?;
    let args = args::check(items, SPECS, seen, &VOICE, errors);
    positional_not_expected(&args, name::PRESENTER, example, errors);
    if matches!(attr.meta, Meta::Path(_)) {
        errors.spanned(
            attr,
            format!("`#[presenter]` on a field needs an option; write `{example}`"),
        );
        return None;
    }
    args.flag(key::SKIP)
}

/// `#[redact]`, `#[redact(censor = "***")]`, `#[redact(with = path)]`.
fn redact(attr: &Attribute) -> Result<RedactAttr> {
    const SPECS: &[Spec] = &[
        spec(key::CENSOR, Kind::Str, "censor = \"***\""),
        spec(key::WITH, Kind::Callback, "with = mask_card"),
    ];
    let example = "#[redact(censor = \"***\")]";
    let items = list(attr, name::REDACT, example)?;
    let mut errors = Errors::default();
    let voice = AttrVoice::of(name::REDACT);
    let args = args::check(items, SPECS, &mut Seen::default(), &voice, &mut errors);
    positional_not_expected(&args, name::REDACT, example, &mut errors);
    let censor = match (args.str(key::CENSOR), args.expr(key::WITH)) {
        (Some(_), Some(_)) => {
            errors.push(conflict(
                name::REDACT,
                "`censor`",
                "`with`",
                args.span(key::WITH).unwrap_or_else(Span::call_site),
            ));
            Censor::Default
        }
        (Some(text), None) => Censor::Text(text.clone()),
        (None, Some(with)) => Censor::With(with.clone()),
        (None, None) => Censor::Default,
    };
    errors.into_result()?;
    Ok(RedactAttr {
        attr: attr.clone(),
        censor,
    })
}

/// `#[embed]`: no arguments.
fn embed(attr: &Attribute) -> Result<()> {
    let items = list(attr, name::EMBED, "#[embed]")?;
    let mut errors = Errors::default();
    let voice = AttrVoice::of(name::EMBED);
    let args = args::check(items, &[], &mut Seen::default(), &voice, &mut errors);
    for item in &args.positional {
        errors.spanned(
            item,
            "`#[embed]` takes no arguments: the field's type decides (a presenter, or an `Option`, `Vec`, slice or `Box` of one); write `#[embed]`",
        );
    }
    errors.into_result()
}
