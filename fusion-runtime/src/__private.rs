//! The API generated code calls. Hidden, exempt from semver: only `fusion-derive` uses it.
//!
//! Generated code names everything through `::fusion_runtime::__private`, so a user module that
//! shadows `Option`, `String` or `serde` cannot change what the expansion means.

use std::borrow::Cow as StdCow;

// std items, re-exported so expansions never depend on the user's prelude.
pub use core::fmt::{Display, Write as FmtWrite};
// `Option` and its variants, for generated bounds and matches.
pub use core::option::Option::{self, None, Some};
// Primitive types by path: a user type named `usize` or `str` would shadow the bare names.
pub use core::primitive::{bool, str, usize};
// `Result` and its variants, for the generated `Serialize` impl.
pub use core::result::Result::{self, Err, Ok};
// Owned and borrowed rule texts.
pub use std::borrow::Cow;
// Boxes, for stub impls.
pub use std::boxed::Box;
// Interpolated templates are formatted with `format!`.
pub use std::format;
// Owned texts.
pub use std::string::String;
// UI lists.
pub use std::vec::Vec;
// serde, so users need no direct dependency for the generated `Serialize` impl.
pub use serde;
// The traits and sinks a generated presenter implements and fills.
pub use crate::present::{Embed, EmbedSink, Field, Model, Presentation, Presenter};
// The data block format of `#[presenter(format = ...)]`.
pub use crate::present::Format;
// The lists generated callbacks push into.
pub use crate::response::{Rules, Suggestion, Suggestions};
// The selection mask `serialize_selected` reads, and the error of the field enum's `FromStr`.
pub use crate::select::{FieldMask, UnknownField};
// The UI entries generated callbacks push.
pub use crate::ui::UiBlock;

// The templated UI helpers (`#[ui(markdown = "...")]`, `#[ui(summary = "...")]`).
pub use crate::ui::{markdown as ui_markdown, summary as ui_summary};

// The mask the plain `Serialize` impl writes with: every member, nothing allocated.
pub static ALL_FIELDS: FieldMask = FieldMask::ALL;

// The text of the default censor (SPEC §8.1).
pub const REDACTED: &str = "[REDACTED]";

// `Model::present()` and `Model::present_all()` of the generated inherent methods.
pub use crate::present::{present, present_all};

// The censored value of an optional field: `None` stays `null` (SPEC §8.3), `Some` becomes `text`.
#[inline]
pub fn censor_option<T>(value: &Option<T>, text: &'static str) -> Option<&'static str> {
    value.as_ref().map(|_| text)
}

// A field holding a presenter, embedded: the call site is spanned at the field's type, so a type
// that is not a presenter is reported there.
#[inline]
pub fn embed<E: Embed<C> + ?Sized, C: ?Sized>(value: &E, ctx: &C, sink: &mut EmbedSink<'_>) {
    value.embed_into(ctx, sink);
}

// A template argument: the call is spanned at the template, so a field that is not `Display` is
// reported there (and only there: the result always satisfies `format!`).
#[inline]
pub fn display<T: Display>(value: &T) -> &dyn Display {
    value
}

// Marker of a callback that takes only the value (`fn(&self)`, `fn(&[Self])`).
pub enum ValueOnly {}

// Marker of a callback that takes the value and the request context.
pub enum WithContext {}

// A callback that takes `&T`, or `&T` and `&C`: the derive does not know the arity, the marker
// `M` lets the compiler pick the one impl that fits.
#[diagnostic::on_unimplemented(
    message = "this presenter callback does not fit: it must take `&{T}` (or `&{T}` and `&{C}`) and return `{R}`",
    label = "expected `fn(&{T}) -> {R}` or `fn(&{T}, &{C}) -> {R}`",
    note = "a callback that reads the context needs `#[presenter(context = YourContext)]` on the model"
)]
pub trait Callback<T: ?Sized, C: ?Sized, R, M> {
    // Calls the callback.
    fn call(&self, value: &T, ctx: &C) -> R;
}

impl<T: ?Sized, C: ?Sized, R, F: Fn(&T) -> R> Callback<T, C, R, ValueOnly> for F {
    #[inline]
    fn call(&self, value: &T, _ctx: &C) -> R {
        self(value)
    }
}

impl<T: ?Sized, C: ?Sized, R, F: Fn(&T, &C) -> R> Callback<T, C, R, WithContext> for F {
    #[inline]
    fn call(&self, value: &T, ctx: &C) -> R {
        self(value, ctx)
    }
}

// Calls a rule, suggestion or UI function (`call = ...`, positional UI paths).
#[inline]
pub fn call<T: ?Sized, C: ?Sized, R, M, F: Callback<T, C, R, M>>(f: &F, value: &T, ctx: &C) -> R {
    f.call(value, ctx)
}

// Calls a `when = ...` predicate.
#[inline]
pub fn when<T: ?Sized, C: ?Sized, M, F: Callback<T, C, bool, M>>(
    f: &F,
    value: &T,
    ctx: &C,
) -> bool {
    f.call(value, ctx)
}

// What a rule function may return; an absent result is dropped (SPEC §6.2).
#[diagnostic::on_unimplemented(
    message = "a rule function cannot return `{Self}`",
    label = "this rule function returns `{Self}`",
    note = "return `&'static str`, `String`, `Cow<'static, str>`, or an `Option` or `Vec` of them"
)]
pub trait IntoRules {
    // Appends the rules to `out` (duplicates are dropped by the list).
    fn push_rules(self, out: &mut Rules);
}

impl IntoRules for &'static str {
    #[inline]
    fn push_rules(self, out: &mut Rules) {
        out.push(StdCow::Borrowed(self));
    }
}

impl IntoRules for String {
    #[inline]
    fn push_rules(self, out: &mut Rules) {
        out.push(StdCow::Owned(self));
    }
}

impl IntoRules for StdCow<'static, str> {
    #[inline]
    fn push_rules(self, out: &mut Rules) {
        out.push(self);
    }
}

impl<T: IntoRules> IntoRules for Option<T> {
    #[inline]
    fn push_rules(self, out: &mut Rules) {
        if let Some(rules) = self {
            rules.push_rules(out);
        }
    }
}

impl<T: IntoRules> IntoRules for Vec<T> {
    #[inline]
    fn push_rules(self, out: &mut Rules) {
        for rules in self {
            rules.push_rules(out);
        }
    }
}

// What a suggestion function may return; an absent result is dropped (SPEC §6.2).
#[diagnostic::on_unimplemented(
    message = "a suggestion function cannot return `{Self}`",
    label = "this suggestion function returns `{Self}`",
    note = "return `Suggestion`, `Option<Suggestion>` or `Vec<Suggestion>`"
)]
pub trait IntoSuggestions {
    // Appends the suggestions to `out` (duplicates are dropped by the list).
    fn push_suggestions(self, out: &mut Suggestions);
}

impl IntoSuggestions for Suggestion {
    #[inline]
    fn push_suggestions(self, out: &mut Suggestions) {
        out.push(self);
    }
}

impl<T: IntoSuggestions> IntoSuggestions for Option<T> {
    #[inline]
    fn push_suggestions(self, out: &mut Suggestions) {
        if let Some(suggestions) = self {
            suggestions.push_suggestions(out);
        }
    }
}

impl<T: IntoSuggestions> IntoSuggestions for Vec<T> {
    #[inline]
    fn push_suggestions(self, out: &mut Suggestions) {
        for suggestions in self {
            suggestions.push_suggestions(out);
        }
    }
}

// What a UI function may return; an absent result is dropped (SPEC §6.2).
#[diagnostic::on_unimplemented(
    message = "a UI function cannot return `{Self}`",
    label = "this UI function returns `{Self}`",
    note = "return `UiBlock`, `Option<UiBlock>` or `Vec<UiBlock>` (see `fusion_runtime::ui`)"
)]
pub trait IntoUi {
    // Appends the UI entries to `out` (UI entries are never de-duplicated).
    fn push_ui(self, out: &mut Vec<UiBlock>);
}

impl IntoUi for UiBlock {
    #[inline]
    fn push_ui(self, out: &mut Vec<UiBlock>) {
        out.push(self);
    }
}

impl<T: IntoUi> IntoUi for Option<T> {
    #[inline]
    fn push_ui(self, out: &mut Vec<UiBlock>) {
        if let Some(ui) = self {
            ui.push_ui(out);
        }
    }
}

impl<T: IntoUi> IntoUi for Vec<T> {
    #[inline]
    fn push_ui(self, out: &mut Vec<UiBlock>) {
        for ui in self {
            ui.push_ui(out);
        }
    }
}

// Pushes a rule function's result.
#[inline]
pub fn push_rules<R: IntoRules>(out: &mut Rules, rules: R) {
    rules.push_rules(out);
}

// Pushes a suggestion function's result.
#[inline]
pub fn push_suggestions<R: IntoSuggestions>(out: &mut Suggestions, suggestions: R) {
    suggestions.push_suggestions(out);
}

// Pushes a UI function's result.
#[inline]
pub fn push_ui<R: IntoUi>(out: &mut Vec<UiBlock>, ui: R) {
    ui.push_ui(out);
}

// The field type of a model whose derive failed: `fallback.rs` implements the traits with it so
// the compile error is the derive's own, not a cascade of missing impls.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum NoField {}

impl Field for NoField {
    const ALL: &'static [Self] = &[];

    fn wire_name(self) -> &'static str {
        match self {}
    }

    fn from_wire_name(_name: &str) -> Option<Self> {
        None
    }

    fn index(self) -> usize {
        match self {}
    }
}

// The body of a stub `Serialize` impl: a model whose derive failed never reaches run time, but
// the impl must still type-check.
pub fn stub_serialize<S: serde::Serializer>(serializer: S) -> Result<S::Ok, S::Error> {
    serializer.serialize_unit()
}

// The tool declaration `#[derive(Tool)]` implements and builds.
pub use crate::tool::{ActionSpec, Tool, ToolSpec};

// The generated field enum's `wire_name`, `from_wire_name` and `from_str` call these rather than
// `match` on the names: one body for every model, which costs the compiler less per model.
// `wire_name`: the name at a variant's index (always in range: the derive writes both lists).
#[inline]
pub fn wire_name(names: &'static [&'static str], index: usize) -> &'static str {
    names.get(index).copied().unwrap_or_default()
}

// `from_wire_name`: the variant whose wire name is `name`.
#[inline]
pub fn field_named<F: Field>(names: &[&str], name: &str) -> Option<F> {
    let index = names.iter().position(|n| *n == name)?;
    F::ALL.get(index).copied()
}

// `from_str`: `from_wire_name`, or the error listing the valid names.
#[inline]
pub fn parse_field<F: Field>(
    names: &'static [&'static str],
    name: &str,
) -> Result<F, UnknownField> {
    field_named(names, name).ok_or_else(|| UnknownField::new(name, names))
}
