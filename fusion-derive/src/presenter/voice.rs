//! How the presenter's attributes word their mistakes, shared by the option parser
//! ([`super::attr`]) and the declarations ([`super::decl`]): the voice of the key parser, the
//! argument list of an attribute, and the messages several attributes share.

use proc_macro2::Span;
use syn::{Attribute, Meta};

use crate::common::args::{Args, Voice};
use crate::common::diag::{Error, Errors, Result, error, error_at};
use crate::common::meta::{self, Arg};
use crate::common::symbol::attr as name;

/// How the presenter attributes word key mistakes: "in `#[rule(...)]`".
pub struct AttrVoice {
    /// The attribute's name.
    pub attr: &'static str,
    /// Keys that belong in another place, with the fix (the message is "`key` fix").
    pub elsewhere: &'static [(&'static str, &'static str)],
}

impl AttrVoice {
    /// The voice of `attr`, with no key that belongs elsewhere.
    pub const fn of(attr: &'static str) -> Self {
        AttrVoice {
            attr,
            elsewhere: &[],
        }
    }
}

impl Voice for AttrVoice {
    fn label(&self) -> String {
        format!("`#[{}(...)]`", self.attr)
    }

    fn bare(&self) -> String {
        format!("`#[{}]`", self.attr)
    }

    fn elsewhere(&self, key: &str) -> Option<String> {
        self.elsewhere
            .iter()
            .find(|(k, _)| *k == key)
            .map(|(_, fix)| format!("`{key}` {fix}"))
    }

    fn word_is_function(&self) -> bool {
        self.attr == name::UI || self.attr == name::COLLECTION_UI
    }
}

/// The argument list of `#[name(...)]`; `#[name]` has none, `#[name = ...]` is an error.
pub fn list(attr: &Attribute, attr_name: &str, example: &str) -> Result<Vec<Arg>> {
    match &attr.meta {
        Meta::Path(_) => Ok(Vec::new()),
        Meta::List(list) => meta::parse_items(list.tokens.clone()).map_err(|e| {
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

/// Reports positional items in an attribute that has none.
pub fn positional_not_expected(args: &Args, attr: &str, example: &str, errors: &mut Errors) {
    for item in &args.positional {
        errors.spanned(
            item,
            format!("a value without a key is not expected in `#[{attr}(...)]`; write `{example}`"),
        );
    }
}

/// "a text and `call` cannot be used together in `#[rule(...)]`; keep one of them".
pub fn conflict(attr: &str, a: &str, b: &str, span: Span) -> Error {
    error_at(
        span,
        format!("{a} and {b} cannot be used together in `#[{attr}(...)]`; keep one of them"),
    )
}
