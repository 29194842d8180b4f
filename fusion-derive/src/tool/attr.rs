//! Parsing of `#[fusion(...)]` through the shared key parser (`common::args`); serde's tags
//! are read by `common::serde_attr::tags`.
//!
//! Every mistake is collected and spanned at the user's tokens; messages are lowercase, say the
//! problem first, then what to write instead.

use quote::ToTokens;
use syn::{Attribute, Ident};

use crate::common::args::{self, Args, Kind, Seen, Spec, Voice, spec};
use crate::common::diag::{Error, Errors, error};
use crate::common::meta::{self, Meta};
use crate::common::symbol::{attr::FUSION, key};

/// Every key `#[fusion(...)]` accepts somewhere, with its kind and how it is written.
const SPECS: &[Spec] = &[
    spec(key::NAME, Kind::Str, "name = \"...\""),
    spec(key::DESCRIPTION, Kind::Str, "description = \"...\""),
    spec(key::SELECT, Kind::Flag, "select"),
    spec(key::TOON, Kind::Flag, "toon"),
    spec(key::OUTPUT, Kind::Type, "output = MyType"),
    spec(key::RETURNS, Kind::Type, "returns = MyType"),
    spec(key::DESTRUCTIVE, Kind::Flag, "destructive"),
    spec(key::READ_ONLY, Kind::Flag, "read_only"),
    spec(key::STRUCTURED, Kind::Flag, "structured"),
    spec(key::CRATE, Kind::Path, "crate = ::fusion_runtime"),
    spec(key::MAX_TOKENS, Kind::Int, "max_tokens = 8000"),
    spec(key::TITLE, Kind::Str, "title = \"...\""),
    spec(key::CHECK, Kind::Callback, "check = Self::check_input"),
    spec(key::IDEMPOTENT, Kind::Flag, "idempotent"),
    spec(key::OPEN_WORLD, Kind::Flag, "open_world"),
    spec(key::CLOSED_WORLD, Kind::Flag, "closed_world"),
    spec(key::FORMAT, Kind::Ident, "format = compact_json"),
    spec(key::LEAN, Kind::Flag, "lean"),
];

/// Keys of the container of an enum (a discriminated tool).
pub const ENUM_KEYS: &[&str] = &[
    key::NAME,
    key::DESCRIPTION,
    key::SELECT,
    key::TOON,
    key::OUTPUT,
    key::CRATE,
    key::MAX_TOKENS,
    key::TITLE,
    key::IDEMPOTENT,
    key::OPEN_WORLD,
    key::CLOSED_WORLD,
    key::CHECK,
    key::FORMAT,
    key::LEAN,
];
/// Keys of the container of a struct (a flat tool: the tool and its one action).
pub const STRUCT_KEYS: &[&str] = &[
    key::NAME,
    key::DESCRIPTION,
    key::SELECT,
    key::OUTPUT,
    key::RETURNS,
    key::STRUCTURED,
    key::DESTRUCTIVE,
    key::READ_ONLY,
    key::CRATE,
    key::MAX_TOKENS,
    key::TITLE,
    key::IDEMPOTENT,
    key::OPEN_WORLD,
    key::CLOSED_WORLD,
    key::CHECK,
    key::FORMAT,
    key::LEAN,
];
/// Keys of a variant (an action).
pub const VARIANT_KEYS: &[&str] = &[
    key::DESCRIPTION,
    key::RETURNS,
    key::STRUCTURED,
    key::DESTRUCTIVE,
    key::READ_ONLY,
    key::CHECK,
];

/// How `key` is written inside `#[fusion(...)]`, for messages: `select`, `name = "..."`,
/// `returns = MyType`.
pub fn example(key: &str) -> &'static str {
    SPECS
        .iter()
        .find(|s| s.name == key)
        .map_or("...", |s| s.example)
}

/// How `#[fusion]` words key mistakes: "in `#[fusion]` on an enum".
struct FusionVoice<'h> {
    /// The item kind: "an enum", "a variant", "a struct".
    place: &'h str,
    /// The message for a key that is valid elsewhere.
    hint: &'h dyn Fn(&str) -> Option<String>,
}

impl Voice for FusionVoice<'_> {
    fn label(&self) -> String {
        format!("`#[{FUSION}]` on {}", self.place)
    }

    fn bare(&self) -> String {
        format!("`#[{FUSION}]`")
    }

    fn elsewhere(&self, key: &str) -> Option<String> {
        (self.hint)(key)
    }

    fn duplicate(&self, key: &Ident) -> Error {
        error(
            key,
            format!(
                "duplicate `{}`; give it once",
                crate::common::case::unraw(key)
            ),
        )
    }

    fn takes_no_value(&self, spec: &Spec, meta: &Meta) -> Error {
        error(
            meta.eq_and_value(),
            format!(
                "`{}` takes no value; write `#[{FUSION}({})]`",
                spec.name, spec.name
            ),
        )
    }

    fn wrong_value(&self, spec: &Spec, what: &str, at: &dyn ToTokens) -> Error {
        error(
            at,
            format!("`{}` takes {what}; write `{}`", spec.name, spec.example),
        )
    }
}

/// Parses every `#[fusion(...)]` in `attrs`. `allowed` lists the keys valid here; `place` names
/// the item kind for messages ("an enum", "a variant", ...); a key valid elsewhere gets `hint`.
pub fn parse(
    attrs: &[Attribute],
    allowed: &[&str],
    place: &str,
    hint: &dyn Fn(&str) -> Option<String>,
    errors: &mut Errors,
) -> Args {
    let specs: Vec<Spec> = allowed
        .iter()
        .filter_map(|key| SPECS.iter().find(|s| s.name == *key).copied())
        .collect();
    let voice = FusionVoice { place, hint };
    let mut seen = Seen::default();
    let mut out = Args::default();
    for attr in attrs.iter().filter(|a| a.path().is_ident(FUSION)) {
        let syn::Meta::List(list) = &attr.meta else {
            errors.spanned(
                &attr.meta,
                format!("`#[{FUSION}]` needs arguments; write `#[{FUSION}(...)]`"),
            );
            continue;
        };
        let Some(items) = errors.handle(meta::parse_items(list.tokens.clone())) else {
            continue;
        };
        out.extend(args::check(items, &specs, &mut seen, &voice, errors));
    }
    // `#[fusion("...")]`: nothing here is written without a key.
    for item in std::mem::take(&mut out.positional) {
        errors.spanned(
            &item,
            format!(
                "a value without a key is not expected in `#[{FUSION}]` on {place}; write `{}`",
                specs.first().map_or("...", |s| s.example)
            ),
        );
    }
    out
}

/// The first `#[fusion]` among `attrs`.
pub fn fusion_attr(attrs: &[Attribute]) -> Option<&Attribute> {
    attrs.iter().find(|a| a.path().is_ident(FUSION))
}
