//! What a handler may return, and how it becomes a response (SPEC §12).
//!
//! TEMPORARY: the runtime's implicit wrapping (`wrap.rs`, branch `runtime`) will own this
//! conversion; until it lands on main, the tool layer uses this trait. When it lands, implement
//! [`HandlerResult`] through it (or replace the bound) so both agree on every row of SPEC §12.

use std::error::Error;

use crate::error::{ToolError, ValidationError};
use crate::json::JsonError;
use crate::present::{Presentation, Presenter};
use crate::response::{ResponseBuilder, ToolResponse};

/// A failure that ends a call with `INTERNAL_ERROR` (SPEC §13.7); its text is only logged.
pub type Failure = Box<dyn Error + Send + Sync + 'static>;

/// A handler's result: a response, or a failure.
///
/// Implemented for the toolkit's responses ([`ToolResponse`], [`ResponseBuilder`], a
/// [`Presentation`], [`ToolError`], [`ValidationError`]), texts (`String`, `&str`), `()`,
/// `Option<T>` (`None` is `OK`) and `Result<T, E>`: an error that is a [`ToolError`] or a
/// [`ValidationError`] is sent as its envelope, any other error becomes `INTERNAL_ERROR`.
pub trait HandlerResult {
    /// The response, or the failure that makes the call an `INTERNAL_ERROR`.
    fn into_response(self) -> Result<ToolResponse, Failure>;
}

impl HandlerResult for ToolResponse {
    fn into_response(self) -> Result<ToolResponse, Failure> {
        Ok(self)
    }
}

impl HandlerResult for ResponseBuilder {
    fn into_response(self) -> Result<ToolResponse, Failure> {
        Ok(self.build())
    }
}

impl HandlerResult for ToolError {
    fn into_response(self) -> Result<ToolResponse, Failure> {
        Ok(ToolError::into_response(self))
    }
}

impl HandlerResult for ValidationError {
    fn into_response(self) -> Result<ToolResponse, Failure> {
        Ok(ValidationError::into_response(self))
    }
}

impl HandlerResult for String {
    fn into_response(self) -> Result<ToolResponse, Failure> {
        Ok(ResponseBuilder::text(self).build())
    }
}

impl HandlerResult for &str {
    fn into_response(self) -> Result<ToolResponse, Failure> {
        Ok(ResponseBuilder::text(self).build())
    }
}

impl HandlerResult for () {
    fn into_response(self) -> Result<ToolResponse, Failure> {
        Ok(ResponseBuilder::text("").build())
    }
}

impl<T: HandlerResult> HandlerResult for Option<T> {
    fn into_response(self) -> Result<ToolResponse, Failure> {
        match self {
            Some(value) => value.into_response(),
            None => Ok(ResponseBuilder::text("").build()),
        }
    }
}

impl<T: Presenter<Ctx>, Ctx: ?Sized> HandlerResult for Presentation<'_, T, Ctx> {
    fn into_response(self) -> Result<ToolResponse, Failure> {
        self.build().map_err(|e: JsonError| Box::new(e) as Failure)
    }
}

impl<T, E> HandlerResult for Result<T, E>
where
    T: HandlerResult,
    E: Into<Failure>,
{
    fn into_response(self) -> Result<ToolResponse, Failure> {
        match self {
            Ok(value) => value.into_response(),
            Err(error) => {
                // A toolkit error travels as a `Box<dyn Error>` when the handler mixes error
                // types with `?`; it is still the envelope the handler meant to send.
                let error: Failure = error.into();
                let error = match error.downcast::<ToolError>() {
                    Ok(tool_error) => return Ok(ToolError::into_response(*tool_error)),
                    Err(other) => other,
                };
                match error.downcast::<ValidationError>() {
                    Ok(validation) => Ok(ValidationError::into_response(*validation)),
                    Err(other) => Err(other),
                }
            }
        }
    }
}
