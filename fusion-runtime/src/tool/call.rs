//! The context of one call, handed to handlers, and the dispatch that turns a handler's result or
//! failure into a response (wire format §11.2, §12, §13.7).
//!
//! Handlers are synchronous (`Fn(T, &Call) -> R`) or asynchronous (`Fn(T, Call) -> impl
//! Future<Output = R>`). The asynchronous path is plain `std::future`: no executor is assumed,
//! a panic while the future is polled is caught like a synchronous one, and
//! [`ToolSet::call`] drives an asynchronous handler to completion on the calling thread.

use std::any::Any;
use std::fmt;
use std::future::Future;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};

use serde_json::Value;

use super::handler_result::ToolResult;
use crate::model::{Model, Selection};
use crate::present::{Presentation, present, present_all};
use crate::response::ask::{Answers, Ask, Asks};
use crate::response::{
    Asked, Format, IntoToolResponse, Presented, ToolError, ToolResponse, WrapError,
};

/// The key [`Call::confirm`] asks under.
const CONFIRM: &str = "confirm";

/// The context of one call: which tool and action run, and the checked `_select`.
///
/// Present results through it ([`Call::present`], [`Call::present_all`]) so the selection
/// applies; the example on [`Tool`](crate::Tool) shows a handler doing so.
#[derive(Debug, Clone)]
pub struct Call {
    // Shared with the definition (see `CallNames`): a call copies no text.
    pub(crate) tool: Arc<str>,
    pub(crate) action: Option<Arc<str>>,
    pub(crate) reference: Arc<str>,
    pub(crate) selection: Selection,
    /// The action asks for `structuredContent` (wire format §11.2).
    pub(crate) structured: bool,
    /// The models the action declares it presents (empty: not checked).
    pub(crate) presents: Arc<[Presented]>,
    /// The response budget of the tool and the tool set, the tighter one (wire format §17.1).
    pub(crate) max_tokens: Option<usize>,
    /// The budget is kept by the exact count ([`ToolSet::exact_tokens`](crate::ToolSet::exact_tokens)).
    #[cfg(feature = "exact-tokens")]
    pub(crate) exact_tokens: bool,
    /// The tool's data block format ([`ToolSpec::format`](crate::tool::ToolSpec::format)).
    pub(crate) format: Option<Format>,
    /// The tool set's default format ([`ToolSet::format`](crate::ToolSet::format)).
    pub(crate) default_format: Option<Format>,
    /// What the adapter lets the handler ask, and the answers the call brought.
    pub(crate) asking: Arc<Asking>,
    /// For a lean tool (wire format §6.12): the static rules its description says.
    pub(crate) said: Option<Arc<[&'static str]>>,
}

/// What a handler may ask the person or the client for (the client's capabilities, as the
/// adapter read them), and the answers this call brought; see [`Call::confirm`].
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Asking {
    /// The client can show the person a form (`elicitation`), and the adapter can bring the
    /// answer back (an input-required result, or a request over a session).
    pub elicitation: bool,
    /// The client lets its model be asked (`sampling`).
    pub sampling: bool,
    /// The answers, by the keys that were asked.
    pub answers: Answers,
}

impl Call {
    /// A context for calling a handler directly (tests, custom dispatch).
    pub fn new(tool: impl Into<String>, action: Option<String>, selection: Selection) -> Self {
        let tool: String = tool.into();
        let reference = match &action {
            Some(action) => format!("{tool}/{action}").into(),
            None => tool.as_str().into(),
        };
        Call {
            tool: tool.into(),
            action: action.map(Into::into),
            reference,
            selection,
            structured: false,
            presents: Arc::from([]),
            max_tokens: None,
            #[cfg(feature = "exact-tokens")]
            exact_tokens: false,
            format: None,
            default_format: None,
            asking: Arc::default(),
            said: None,
        }
    }

    /// The same context with what the handler may ask and the answers the call brought (the
    /// adapter sets it; tests set it to drive [`Call::confirm`]).
    #[must_use]
    pub fn with_asking(mut self, asking: Asking) -> Self {
        self.asking = Arc::new(asking);
        self
    }

    /// Whether the client can answer `ask` (else a handler goes on without asking, or refuses).
    pub fn can_ask(&self, ask: &Ask) -> bool {
        if ask.needs_elicitation() {
            self.asking.elicitation
        } else {
            self.asking.sampling
        }
    }

    /// The client's answer under `key`, when this call brought one.
    pub fn answer(&self, key: &str) -> Option<&Value> {
        self.asking.answers.get(key)
    }

    /// Asks the person to fill in the form `T` (its `schemars` schema, flat and of primitives,
    /// as elicitation allows) under `key`: `Ok(T)` once the call brought the accepted answer,
    /// else the response to return now: the ask itself ([`ToolResponse::asking`]), a `DECLINED`
    /// warning when the person declined or cancelled, an `INVALID_INPUT` error when the answer
    /// does not read as `T`, or an `INPUT_UNAVAILABLE` error when the client cannot show a form
    /// (a handler that can go on without it should check [`Call::can_ask`] first).
    #[allow(
        clippy::result_large_err,
        reason = "the error is the response to return, moved once"
    )]
    pub fn form<T>(&self, key: &str, message: impl Into<String>) -> Result<T, ToolResponse>
    where
        T: serde::de::DeserializeOwned + schemars::JsonSchema,
    {
        let mut schema = crate::tool::input_schema_of::<T>();
        if let Value::Object(object) = &mut schema {
            object.remove("$schema");
        }
        let ask = Ask::Form {
            message: message.into(),
            schema,
        };
        if !self.can_ask(&ask) {
            return Err(ToolError::new(
                "INPUT_UNAVAILABLE",
                format!(
                    "{} needs an answer from the person, and this client cannot ask for it.",
                    self.reference
                ),
            )
            .into_response());
        }
        let Some(answer) = self.answer(key) else {
            let text = format!("Waiting for the person to answer {key:?}.");
            return Err(ToolResponse::asking(
                Asks::from([(key.to_owned(), ask)]),
                text,
            ));
        };
        if answer.get("action").and_then(Value::as_str) != Some("accept") {
            return Err(ToolError::new(
                "DECLINED",
                format!("The person declined {}; nothing was done.", self.reference),
            )
            .severity(crate::response::Severity::Warning)
            .into_response());
        }
        serde_json::from_value(answer.get("content").cloned().unwrap_or(Value::Null)).map_err(
            |error| {
                ToolError::new(
                    "INVALID_INPUT",
                    format!("The answer to {key:?} does not fit the form: {error}."),
                )
                .into_response()
            },
        )
    }

    /// Asks the person to confirm before the handler goes on: `None` to go on, or the response
    /// to return now.
    ///
    /// - The client can ask (see [`Call::can_ask`]) and this call brought no answer: the
    ///   response asks ([`ToolResponse::asking`], key `confirm`); the client shows `message`,
    ///   and calls again with the answer.
    /// - The person confirmed: `None`.
    /// - The person said no, declined or cancelled: a `NOT_CONFIRMED` warning, nothing done.
    /// - The client cannot ask (no `elicitation` capability, or a transport that cannot bring
    ///   the answer back): `None`, as before input-required results existed. The host's own
    ///   confirmation of destructive tools (`destructiveHint`) is then the safeguard.
    ///
    /// ```
    /// # use fusion_runtime::{Call, Selection, ToolResponse, ResponseBuilder};
    /// fn void(id: &str, call: &Call) -> ToolResponse {
    ///     if let Some(stop) = call.confirm(format!("Void {id}? This cannot be undone.")) {
    ///         return stop;
    ///     }
    ///     ResponseBuilder::text(format!("Voided {id}.")).build()
    /// }
    /// ```
    pub fn confirm(&self, message: impl Into<String>) -> Option<ToolResponse> {
        let ask = Ask::Confirm {
            message: message.into(),
        };
        if !self.can_ask(&ask) {
            return None;
        }
        let Some(answer) = self.answer(CONFIRM) else {
            let Ask::Confirm { message } = &ask else {
                unreachable!("built above")
            };
            let text = format!("Waiting for the person to confirm: {message}");
            return Some(ToolResponse::asking(
                Asks::from([(CONFIRM.to_owned(), ask)]),
                text,
            ));
        };
        let accepted = answer.get("action").and_then(Value::as_str) == Some("accept");
        let confirmed = answer.pointer("/content/confirm") == Some(&Value::Bool(true));
        if accepted && confirmed {
            None
        } else {
            Some(
                ToolError::new(
                    "NOT_CONFIRMED",
                    format!(
                        "The person did not confirm {}; nothing was done.",
                        self.reference
                    ),
                )
                .severity(crate::response::Severity::Warning)
                .recovery("Do not retry unless the person asks for it again.")
                .into_response(),
            )
        }
    }

    /// The same context with the tool's data block format and the tool set's default (wire
    /// format §2.4), which [`Call::present`] and [`Call::present_all`] apply.
    #[must_use]
    pub fn with_formats(mut self, format: Option<Format>, default_format: Option<Format>) -> Self {
        self.format = format;
        self.default_format = default_format;
        self
    }

    /// The same context with a response budget of `max_tokens` tokens (wire format §17): what this
    /// call presents, and what its handler returns, is fitted to it.
    #[must_use]
    pub fn with_max_tokens(mut self, max_tokens: Option<usize>) -> Self {
        self.max_tokens = max_tokens;
        self
    }

    /// The response budget of this call (the tool's or the tool set's, the tighter), if any.
    pub fn max_tokens(&self) -> Option<usize> {
        self.max_tokens
    }

    /// The same context for an action that asks for `structuredContent` (wire format §11.2, see
    /// [`ActionSpec::structured`](crate::tool::ActionSpec::structured)) when `structured` is true.
    #[must_use]
    pub fn with_structured(mut self, structured: bool) -> Self {
        self.structured = structured;
        self
    }

    /// Whether the action asks for `structuredContent`: [`Call::respond`] then adds the data
    /// value of a successful response as `structuredContent`.
    pub fn is_structured(&self) -> bool {
        self.structured
    }

    /// The tool's name.
    pub fn tool(&self) -> &str {
        &self.tool
    }

    /// The action key (`None` for a flat tool).
    pub fn action(&self) -> Option<&str> {
        self.action.as_deref()
    }

    /// `tool/action`, or the tool name of a flat tool.
    pub fn reference(&self) -> &str {
        &self.reference
    }

    /// The checked `_select` (empty when the call sent none).
    pub fn selection(&self) -> &Selection {
        &self.selection
    }

    /// Presents a single value with the call's selection (wire format §6, §7.4).
    ///
    /// The presentation carries the call's budget and formats: the tool's
    /// ([`ToolSpec::format`](crate::tool::ToolSpec::format)), else the presenter's declared one,
    /// else the tool set's ([`ToolSet::format`](crate::ToolSet::format)).
    pub fn present<'a, T: Model>(&'a self, value: &'a T) -> Presentation<'a, T> {
        self.shaped(present(value))
    }

    /// Presents a collection with the call's selection, budget and formats.
    pub fn present_all<'a, T: Model>(&'a self, items: &'a [T]) -> Presentation<'a, T> {
        self.shaped(present_all(items))
    }

    /// What this call asks of the handler's answer: its budget, how the budget is counted, and
    /// whether the data value is wanted.
    fn asked(&self) -> Asked {
        Asked {
            #[cfg(feature = "exact-tokens")]
            exact_tokens: self.exact_tokens,
            ..Asked::new(self.max_tokens, self.structured)
        }
    }

    fn shaped<'a, T>(&'a self, presentation: Presentation<'a, T>) -> Presentation<'a, T> {
        let mut presentation = presentation.select(&self.selection).within(self.max_tokens);
        #[cfg(feature = "exact-tokens")]
        if self.exact_tokens {
            presentation = presentation.exact_tokens();
        }
        // A structured action's data value becomes `structuredContent`: made from the value.
        presentation.keep_value = self.structured;
        if let Some(format) = self.format {
            presentation = presentation.format(format);
        }
        if let Some(format) = self.default_format {
            presentation = presentation.default_format(format);
        }
        if let Some(said) = &self.said {
            presentation = presentation.lean(said);
        }
        presentation
    }

    /// Runs `handler` and turns its result into the response: a failure or a panic becomes
    /// `INTERNAL_ERROR` for this call's reference (wire format §13.7), reported to `report`.
    ///
    /// For a [structured](Call::is_structured) action, the data value of a successful response
    /// also becomes its `structuredContent` (wire format §11.2); a data value that is not a JSON
    /// object (a presented collection, say) cannot, and ends the call with `INTERNAL_ERROR`.
    pub fn respond<R, F>(&self, report: &dyn Fn(&InternalFailure<'_>), handler: F) -> ToolResponse
    where
        F: FnOnce() -> R,
        R: IntoToolResponse,
    {
        // The handler's state is not observed again after a panic (the call just fails), so
        // asserting unwind safety cannot expose a broken invariant to this code.
        let outcome = catch_unwind(AssertUnwindSafe(|| {
            handler().into_tool_response_within(self.asked())
        }));
        self.finish(report, outcome)
    }

    /// The asynchronous [`Call::respond`]: calls `handler` now, then awaits the future it
    /// returns. A failure, or a panic while calling the handler, polling its future or
    /// converting its output, becomes `INTERNAL_ERROR` (wire format §13.7), reported to `report`.
    ///
    /// The returned future needs no particular executor, and is `Send` when the handler's
    /// future is.
    ///
    /// ```
    /// use std::future::Future;
    /// use std::task::{Context, Poll, Waker};
    /// use fusion_runtime::tool::report_to_stderr;
    /// use fusion_runtime::{Call, Selection};
    ///
    /// let call = Call::new("ping", None, Selection::default());
    /// let mut answer = std::pin::pin!(call.respond_async(&report_to_stderr, || async { "pong" }));
    /// // Any executor polls it; this future is ready at once.
    /// let Poll::Ready(response) = answer.as_mut().poll(&mut Context::from_waker(Waker::noop()))
    /// else {
    ///     unreachable!("nothing to wait for")
    /// };
    /// assert_eq!(response.blocks(), ["pong"]);
    /// ```
    pub fn respond_async<'a, F, Fut>(
        &'a self,
        report: &'a (dyn Fn(&InternalFailure<'_>) + Sync),
        handler: F,
    ) -> impl Future<Output = ToolResponse> + 'a
    where
        F: FnOnce() -> Fut,
        Fut: Future + 'a,
        Fut::Output: IntoToolResponse,
    {
        // As in `respond`: after a panic the handler is not called or polled again.
        let started = catch_unwind(AssertUnwindSafe(handler));
        self.drive(report, started)
    }

    /// Awaits a started handler future and finishes the call.
    pub(crate) async fn drive<Fut>(
        &self,
        report: &(dyn Fn(&InternalFailure<'_>) + Sync),
        started: Result<Fut, Box<dyn Any + Send>>,
    ) -> ToolResponse
    where
        Fut: Future,
        Fut::Output: ToolResult,
    {
        let outcome = match started {
            // The conversion runs inside the guarded future: a panicking `Serialize` impl or
            // presenter callback is caught like a panic of the handler itself.
            Ok(future) => {
                let asked = self.asked();
                CatchUnwind::new(async move {
                    (future.await.into_answer()).into_tool_response_within(asked)
                })
                .await
            }
            Err(panic) => Err(panic),
        };
        self.finish(report, outcome)
    }

    /// The response for a handler's outcome (wire format §11.2, §12, §13.7).
    fn finish(
        &self,
        report: &dyn Fn(&InternalFailure<'_>),
        outcome: Result<Result<ToolResponse, WrapError>, Box<dyn Any + Send>>,
    ) -> ToolResponse {
        match outcome {
            // A structured action's collection is reported as such first: the more precise
            // of the two reasons.
            Ok(Ok(response)) => match self.structure(response) {
                Ok(response) => match self.undeclared_model(&response) {
                    None => self.lean(response),
                    Some(presented) => {
                        let text = FailureText::UndeclaredModel {
                            presented,
                            declared: &self.presents,
                        };
                        self.internal_error(report, &text)
                    }
                },
                Err(found) => self.internal_error(report, &FailureText::NotAnObject(found)),
            },
            Ok(Err(failure)) => self.internal_error(report, &FailureText::Error(&failure)),
            Err(panic) => self.internal_error(report, &FailureText::Panic(&*panic)),
        }
    }

    /// wire format §2.4: a JSON data block the handler wrote without a presenter (a plain value,
    /// `Json`, structured output) is compact when the tool's format, or else the tool set's, is
    /// compact JSON; a presented one already has its format.
    fn lean(&self, response: ToolResponse) -> ToolResponse {
        let compact = self.format.or(self.default_format) == Some(Format::CompactJson);
        if compact && response.presented.is_none() {
            response.compact_json_data()
        } else {
            response
        }
    }

    /// wire format §13.7: the model `response` presents when the action declares others (by
    /// `returns`): its `_select` was checked against the declared models, and its description
    /// promised them, so the response must not reach the wire.
    fn undeclared_model(&self, response: &ToolResponse) -> Option<Presented> {
        let presented = response.presented?;
        // The model, not the form: a single value where a collection is declared selects the
        // same fields (and a structured collection is refused on its own, wire format §11.2).
        let declared = self.presents.iter().any(|d| d.model == presented.model);
        (!self.presents.is_empty() && !declared).then_some(presented)
    }

    /// wire format §11.2: a structured action's successful data value, selection and redaction
    /// applied, also becomes `structuredContent`. Or, when that value is not an object, what
    /// it is instead.
    ///
    /// The value is the wire value of the data block, made once from the presented value
    /// ([`Call::present`] asks the presentation for it), so `structuredContent` and the data
    /// block cannot disagree; a returned presentation or JSON value (`Json`, `Vec`, ...) makes it
    /// when [`Asked::structured`] says so. A JSON data block built before the call could ask (a
    /// handler's own `success` or `ResponseBuilder::json`, returned built) has no value but its
    /// text, which is read back with `serde_json` (its float parsing, its nesting limit of 128):
    /// `success_structured` makes the value from the value.
    fn structure(&self, mut response: ToolResponse) -> Result<ToolResponse, &'static str> {
        // Errors never carry structuredContent (wire format §1.3); a response that has it already
        // (`success_structured`) is the handler's own choice.
        if !self.structured || response.is_error.is_some() || response.structured_content.is_some()
        {
            return Ok(response);
        }
        let value = match (&response.value, response.format) {
            // A text data block (`OK`, a plain text) has no JSON value to offer, nor a TOON
            // block built by hand (`ResponseBuilder::toon` keeps its value).
            (_, Format::Text) | (None, Format::Toon) => return Ok(response),
            (Some(value), _) => value,
            (None, Format::Json | Format::CompactJson) => {
                let text = response.blocks.first().map_or("", String::as_str);
                response.value = serde_json::from_str(text).ok();
                match &response.value {
                    Some(value) => value,
                    None => return Ok(response),
                }
            }
        };
        if !value.is_object() {
            return Err(json_kind(value));
        }
        // The testing view shows the value too; otherwise it is not needed again.
        response.structured_content = if cfg!(feature = "testing") {
            response.value.clone()
        } else {
            response.value.take()
        };
        Ok(response)
    }

    fn internal_error(
        &self,
        report: &dyn Fn(&InternalFailure<'_>),
        text: &FailureText<'_>,
    ) -> ToolResponse {
        report(&InternalFailure {
            reference: &self.reference,
            text,
        });
        ToolError::internal(&self.reference).into_response()
    }
}

/// How wire format §11.1 names a JSON value that is not an object.
fn json_kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// What failed, as it is logged (never sent, wire format §13.7).
enum FailureText<'a> {
    Error(&'a WrapError),
    Panic(&'a (dyn Any + Send)),
    /// A structured action answered with a data value that is not an object.
    NotAnObject(&'static str),
    /// The handler presented a model its action does not declare.
    UndeclaredModel {
        presented: Presented,
        declared: &'a [Presented],
    },
}

/// How a report names a model: `Task`, or `[Task]` for a collection (as `returns` writes it).
fn returns_form(model: Presented) -> String {
    if model.collection {
        format!("[{}]", model.short_name())
    } else {
        model.short_name()
    }
}

/// A handler failure that became `INTERNAL_ERROR`, as handed to the failure reporter.
pub struct InternalFailure<'a> {
    reference: &'a str,
    text: &'a FailureText<'a>,
}

impl InternalFailure<'_> {
    /// `tool/action` (or the tool of a flat tool).
    pub fn reference(&self) -> &str {
        self.reference
    }

    /// Whether the handler panicked (rather than returning an error).
    pub fn is_panic(&self) -> bool {
        matches!(self.text, FailureText::Panic(_))
    }
}

/// A future that turns a panic while polling `F` into `Err(payload)`, as `catch_unwind` does
/// for a closure: the asynchronous half of wire format §13.7.
///
/// `F` is boxed so that the wrapper is `Unpin` and needs no pin projection (and no `unsafe`).
struct CatchUnwind<F> {
    inner: Pin<Box<F>>,
}

impl<F: Future> CatchUnwind<F> {
    fn new(future: F) -> Self {
        CatchUnwind {
            inner: Box::pin(future),
        }
    }
}

impl<F: Future> Future for CatchUnwind<F> {
    type Output = Result<F::Output, Box<dyn Any + Send>>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let inner = self.get_mut().inner.as_mut();
        // A future that panicked is dropped without being polled again (the call ends with
        // INTERNAL_ERROR), so no broken invariant of it can be observed.
        match catch_unwind(AssertUnwindSafe(|| inner.poll(cx))) {
            Ok(Poll::Pending) => Poll::Pending,
            Ok(Poll::Ready(output)) => Poll::Ready(Ok(output)),
            Err(panic) => Poll::Ready(Err(panic)),
        }
    }
}

impl fmt::Display for InternalFailure<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.text {
            FailureText::Error(error) => write!(f, "[{}] {error}", self.reference),
            FailureText::Panic(payload) => {
                let message = payload
                    .downcast_ref::<&str>()
                    .copied()
                    .or_else(|| payload.downcast_ref::<String>().map(String::as_str))
                    .unwrap_or("(a non-text panic payload)");
                write!(f, "[{}] the handler panicked: {message}", self.reference)
            }
            FailureText::NotAnObject(found) => write!(
                f,
                "[{}] the action asks for structured content, but its handler answered with {found}, and `structuredContent` must be a JSON object (wire format §11.2: a collection cannot be structured content); present a single value, or remove `structured` from the action",
                self.reference
            ),
            FailureText::UndeclaredModel {
                presented,
                declared,
            } => {
                let declared: Vec<String> = declared.iter().copied().map(returns_form).collect();
                write!(
                    f,
                    "[{}] the action declares `returns = {}`, but its handler presented `{}`, so the call answers with INTERNAL_ERROR (wire format §13.7: `_select` and the description promised the declared model); present what the action declares, or change its `returns`",
                    self.reference,
                    declared.join("` or `returns = "),
                    returns_form(*presented)
                )
            }
        }
    }
}

/// The default failure reporter: one line on standard error (never on the protocol channel;
/// an MCP stdio server speaks on standard output).
pub fn report_to_stderr(failure: &InternalFailure<'_>) {
    eprintln!("fusion: {failure}");
}

#[cfg(test)]
mod asking_tests;
