//! Building a presentation (wire format §6.2, §17): the seam between presenting and fitting.
//!
//! [`Presentation::build`] renders the presentation through [`Shape`], and only when a budget is
//! set hands it to `fit` instead (feature `budget`; without it no budget can be set, and `fit`
//! and the token estimate are not compiled). Its own module, so that neither `presentation`
//! nor `fit` imports the other's caller.

use super::engine::{Cut, Items, Presenter};
#[cfg(feature = "exact-tokens")]
use super::fit::exact::fit_exactly;
#[cfg(feature = "budget")]
use super::fit::fit;
#[cfg(feature = "budget")]
use super::presentation::tightest;
use super::presentation::{Fitted, Presentation, Shape};
use crate::encode::EncodeError;
use crate::model::FieldMask;
#[cfg(feature = "tool")]
use crate::response::Asked;
use crate::response::{IntoToolResponse, Presented, ResponseBuilder, ToolResponse, WrapError};

impl<T: Presenter<Ctx>, Ctx: ?Sized> Presentation<'_, T, Ctx> {
    /// The response builder, so a handler can append UI, hints, rules and suggestions.
    ///
    /// With a budget (wire format §17), the builder holds the fitted response; what the handler
    /// appends afterwards is not fitted. When not even the smallest answer fits, it holds that
    /// smallest answer (one item and the summary), which [`Presentation::build`] would refuse.
    pub fn into_builder(self) -> Result<ResponseBuilder, EncodeError> {
        self.fitted().map(|fitted| fitted.builder)
    }

    /// Builds the response; with a budget that not even one item fits, the `RESPONSE_TOO_LARGE`
    /// error of wire format §17.5.
    #[inline]
    pub fn build(self) -> Result<ToolResponse, EncodeError> {
        let fitted = self.fitted()?;
        Ok(match fitted.too_large {
            Some(too_large) => too_large.into_response(),
            None => fitted.builder.build(),
        })
    }

    /// The response, fitted to the budget when there is one (`fit`, feature `budget`),
    /// recording its model.
    ///
    /// One function on purpose: a single value is rendered here millions of times a second, and
    /// every extra `Result` of a builder is a copy of it (about 100 instructions each).
    /// Borrowed, so a page can fit the same presentation again with more room left free.
    #[inline]
    pub(crate) fn fitted(&self) -> Result<Fitted, EncodeError> {
        // Recorded for the tool layer, which checks it against the action's `returns`.
        let presented = Presented {
            model: std::any::type_name::<T>(),
            collection: matches!(self.items, Items::Many(_)),
        };
        let mask = self
            .selection
            .filter(|s| !s.is_empty())
            .map(|s| FieldMask::of::<T>(s));
        // A lean call whose `_select` leaves out a member is a projection (wire format §6.12).
        let members = T::WIRE_NAMES.len();
        let projected = self.said.is_some()
            && mask
                .as_ref()
                .is_some_and(|mask| mask.count(members) < members);
        let shape = Shape {
            ctx: self.ctx,
            mask: mask.as_ref(),
            format: self.resolved_format(),
            value: self.keep_value || cfg!(feature = "testing"),
            said: self.said.unwrap_or(&[]),
            projected,
            #[cfg(feature = "budget")]
            reserved: self.reserved,
        };
        #[cfg(feature = "budget")]
        let budget = tightest(self.max_tokens, T::MAX_TOKENS);
        #[cfg(not(feature = "budget"))]
        let budget: Option<std::convert::Infallible> = None;
        let mut fitted = match budget {
            None => Fitted {
                builder: shape.render(self.items, Cut::NONE, Cut::NONE)?.0,
                too_large: None,
            },
            #[cfg(feature = "exact-tokens")]
            Some(budget) if self.exact => fit_exactly(&shape, self.items, budget)?,
            #[cfg(feature = "budget")]
            Some(budget) => fit(&shape, self.items, budget)?,
            #[cfg(not(feature = "budget"))]
            Some(never) => match never {},
        };
        fitted.builder.set_presented(presented);
        Ok(fitted)
    }
}

/// A presentation configured by the handler (selection, context) is built as it stands.
impl<T: Presenter<Ctx>, Ctx: ?Sized> IntoToolResponse for Presentation<'_, T, Ctx> {
    fn into_tool_response(self) -> Result<ToolResponse, WrapError> {
        Ok(self.build()?)
    }

    /// Fitted to the tightest of the asked budget and the presentation's own (wire format §17),
    /// with its wire value when a structured action asks for it (wire format §11.2).
    #[cfg(feature = "tool")]
    fn into_tool_response_within(self, asked: Asked) -> Result<ToolResponse, WrapError> {
        let mut presentation = self.within(asked.max_tokens);
        presentation.keep_value |= asked.structured;
        #[cfg(feature = "exact-tokens")]
        if asked.exact_tokens {
            presentation = presentation.exact_tokens();
        }
        Ok(presentation.build()?)
    }
}
