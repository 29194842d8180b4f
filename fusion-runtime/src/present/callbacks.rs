//! The callbacks of `#[rule(call = ...)]`, `#[suggest(call = ...)]`, `#[ui(...)]` and `when = ...`:
//! what they may take and what they may return (wire format §6.2).
//!
//! A callback takes `&T`, or `&T` and the request context `&C`; the derive does not know which,
//! and the marker types [`ValueOnly`] and [`WithContext`] let the compiler pick the one impl of
//! [`Callback`] that fits. A model that declares no context calls its callbacks through
//! [`ValueCallback`], which takes only `&T`. What a callback returns is pushed through [`IntoRules`],
//! [`IntoSuggestions`] or [`IntoUi`]: implement one of them for a type of your own to return it
//! from a callback.
//!
//! ```
//! use fusion_runtime::Presenter;
//!
//! #[derive(Presenter)]
//! #[rule(call = Self::limits)]
//! struct Account {
//!     credit_limit_cents: u64,
//! }
//!
//! impl Account {
//!     // `Option`, `Vec`, `String`, `&'static str` and `Cow` all implement `IntoRules`.
//!     fn limits(&self) -> Option<String> {
//!         (self.credit_limit_cents == 0).then(|| "This account has no credit.".to_owned())
//!     }
//! }
//! ```

use std::borrow::Cow;

use crate::response::ui::UiBlock;
use crate::response::{Rules, Suggestion, Suggestions};

/// Marker of a callback that takes only the value (`fn(&self)`, `fn(&[Self])`).
pub enum ValueOnly {}

/// Marker of a callback that takes the value and the request context.
pub enum WithContext {}

/// A callback that takes `&T`, or `&T` and `&C`: the derive does not know the arity, the marker
/// `M` lets the compiler pick the one impl that fits.
#[diagnostic::on_unimplemented(
    message = "this presenter callback does not fit: it must take `&{T}` (or `&{T}` and `&{C}`) and return `{R}`",
    label = "expected `fn(&{T}) -> {R}` or `fn(&{T}, &{C}) -> {R}`",
    note = "a callback takes the value and, if it reads it, the context `&{C}` the model declares; it returns `{R}`"
)]
pub trait Callback<T: ?Sized, C: ?Sized, R, M> {
    /// Calls the callback.
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

/// A callback of a model that declares no context: it takes only `&T` (a model without
/// `#[presenter(context = ...)]` is presented with any context, so a callback cannot read one).
///
/// The second impl, for a callback that also takes a context, has a bound no type meets
/// ([`ContextDeclared`]): with two impls to choose from, the compiler reports this trait's own
/// message, which says to declare the context, rather than a bare argument-count mismatch.
#[diagnostic::on_unimplemented(
    message = "this presenter callback does not fit: it must take `&{T}` and return `{R}`",
    label = "expected `fn(&{T}) -> {R}`",
    note = "a callback that reads the context needs `#[presenter(context = YourContext)]` on the model"
)]
pub trait ValueCallback<T: ?Sized, R, M> {
    /// Calls the callback.
    fn call(&self, value: &T) -> R;
}

impl<T: ?Sized, R, F: Fn(&T) -> R> ValueCallback<T, R, ValueOnly> for F {
    #[inline]
    fn call(&self, value: &T) -> R {
        self(value)
    }
}

/// Marker of a callback that reads a context of type `C` on a model that declares none.
pub struct ReadsContext<C: ?Sized>(core::marker::PhantomData<C>);

impl<T: ?Sized, R, C: ContextDeclared + ?Sized, F: Fn(&T, &C) -> R>
    ValueCallback<T, R, ReadsContext<C>> for F
{
    #[inline]
    fn call(&self, _value: &T) -> R {
        C::never_called()
    }
}

/// A bound no type meets (the trait is sealed), so the [`ReadsContext`] impl of
/// [`ValueCallback`] never applies.
#[diagnostic::on_unimplemented(
    message = "the model declares no context, so no callback can read `{Self}`",
    note = "add `#[presenter(context = {Self})]` to the model, or drop the callback's context parameter"
)]
pub trait ContextDeclared: sealed::Sealed {
    /// Never called: no type implements this trait.
    fn never_called<R>() -> R;
}

mod sealed {
    /// Keeps [`super::ContextDeclared`] unimplementable outside this module.
    pub trait Sealed {}
}

/// What a rule function may return; an absent result is dropped (wire format §6.2).
#[diagnostic::on_unimplemented(
    message = "a rule function cannot return `{Self}`",
    label = "this rule function returns `{Self}`",
    note = "return `&'static str`, `String`, `Cow<'static, str>`, or an `Option` or `Vec` of them"
)]
pub trait IntoRules {
    /// Appends the rules to `out` (duplicates are dropped by the list).
    fn push_rules(self, out: &mut Rules);
}

impl IntoRules for &'static str {
    #[inline]
    fn push_rules(self, out: &mut Rules) {
        out.push(Cow::Borrowed(self));
    }
}

impl IntoRules for String {
    #[inline]
    fn push_rules(self, out: &mut Rules) {
        out.push(Cow::Owned(self));
    }
}

impl IntoRules for Cow<'static, str> {
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

/// What a suggestion function may return; an absent result is dropped (wire format §6.2).
#[diagnostic::on_unimplemented(
    message = "a suggestion function cannot return `{Self}`",
    label = "this suggestion function returns `{Self}`",
    note = "return `Suggestion`, `Option<Suggestion>` or `Vec<Suggestion>`"
)]
pub trait IntoSuggestions {
    /// Appends the suggestions to `out` (duplicates are dropped by the list).
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

/// What a UI function may return; an absent result is dropped (wire format §6.2).
#[diagnostic::on_unimplemented(
    message = "a UI function cannot return `{Self}`",
    label = "this UI function returns `{Self}`",
    note = "return `UiBlock`, `Option<UiBlock>` or `Vec<UiBlock>` (see `fusion_runtime::ui`)"
)]
pub trait IntoUi {
    /// Appends the UI entries to `out` (UI entries are never de-duplicated).
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
