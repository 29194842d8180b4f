//! Calling a tool: the call context handed to handlers, the dispatch that turns a handler's
//! result or failure into a response (SPEC §11.2, §12, §13.7), and the tool set of a server.
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
use std::task::{Context, Poll, Wake, Waker};

use serde_json::Value;

use super::Tool;

use super::definition::{DefinitionError, ToolDefinition, read_typed};
use crate::error::ToolError;
use crate::present::{Model, Presentation, present, present_all};
use crate::response::ToolResponse;
use crate::select::Selection;
use crate::view::ViewValue;
use crate::wrap::{IntoToolResponse, WrapError};

/// The context of one call: which tool and action run, and the checked `_select`.
///
/// Present results through it ([`Call::present`], [`Call::present_all`]) so the selection
/// applies; the example on [`Tool`] shows a handler doing so.
#[derive(Debug, Clone)]
pub struct Call {
    pub(crate) tool: String,
    pub(crate) action: Option<String>,
    pub(crate) reference: String,
    pub(crate) selection: Selection,
    /// The action asks for `structuredContent` (SPEC §11.2).
    pub(crate) structured: bool,
}

impl Call {
    /// A context for calling a handler directly (tests, custom dispatch).
    pub fn new(tool: impl Into<String>, action: Option<String>, selection: Selection) -> Self {
        let tool = tool.into();
        let reference = match &action {
            Some(action) => format!("{tool}/{action}"),
            None => tool.clone(),
        };
        Call {
            tool,
            action,
            reference,
            selection,
            structured: false,
        }
    }

    /// The same context for an action that asks for `structuredContent` (SPEC §11.2, see
    /// [`ActionSpec::structured`](super::ActionSpec::structured)) when `structured` is true.
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

    /// Presents a single value with the call's selection (SPEC §6, §7.4).
    pub fn present<'a, T: Model>(&'a self, value: &'a T) -> Presentation<'a, T> {
        present(value).select(&self.selection)
    }

    /// Presents a collection with the call's selection.
    pub fn present_all<'a, T: Model>(&'a self, items: &'a [T]) -> Presentation<'a, T> {
        present_all(items).select(&self.selection)
    }

    /// Runs `handler` and turns its result into the response: a failure or a panic becomes
    /// `INTERNAL_ERROR` for this call's reference (SPEC §13.7), reported to `report`.
    ///
    /// For a [structured](Call::is_structured) action, the data value of a successful response
    /// also becomes its `structuredContent` (SPEC §11.2); a data value that is not a JSON
    /// object (a presented collection, say) cannot, and ends the call with `INTERNAL_ERROR`.
    pub fn respond<R, F>(&self, report: &dyn Fn(&InternalFailure<'_>), handler: F) -> ToolResponse
    where
        F: FnOnce() -> R,
        R: IntoToolResponse,
    {
        // The handler's state is not observed again after a panic (the call just fails), so
        // asserting unwind safety cannot expose a broken invariant to this code.
        let outcome = catch_unwind(AssertUnwindSafe(|| handler().into_tool_response()));
        self.finish(report, outcome)
    }

    /// The asynchronous [`Call::respond`]: calls `handler` now, then awaits the future it
    /// returns. A failure, or a panic while calling the handler, polling its future or
    /// converting its output, becomes `INTERNAL_ERROR` (SPEC §13.7), reported to `report`.
    ///
    /// The returned future needs no particular executor, and is `Send` when the handler's
    /// future is.
    ///
    /// ```
    /// use std::future::Future;
    /// use std::task::{Context, Poll, Waker};
    /// use fusion_runtime::tool::{Call, report_to_stderr};
    /// use fusion_runtime::Selection;
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
        Fut::Output: IntoToolResponse,
    {
        let outcome = match started {
            // The conversion runs inside the guarded future: a panicking `Serialize` impl or
            // presenter callback is caught like a panic of the handler itself.
            Ok(future) => CatchUnwind::new(async move { future.await.into_tool_response() }).await,
            Err(panic) => Err(panic),
        };
        self.finish(report, outcome)
    }

    /// The response for a handler's outcome (SPEC §11.2, §12, §13.7).
    fn finish(
        &self,
        report: &dyn Fn(&InternalFailure<'_>),
        outcome: Result<Result<ToolResponse, WrapError>, Box<dyn Any + Send>>,
    ) -> ToolResponse {
        match outcome {
            Ok(Ok(response)) => match self.structure(response) {
                Ok(response) => response,
                Err(found) => self.internal_error(report, &FailureText::NotAnObject(found)),
            },
            Ok(Err(failure)) => self.internal_error(report, &FailureText::Error(&failure)),
            Err(panic) => self.internal_error(report, &FailureText::Panic(&*panic)),
        }
    }

    /// SPEC §11.2: a structured action's successful data value, selection and redaction
    /// applied, also becomes `structuredContent`. Or, when that value is not an object, what
    /// it is instead.
    ///
    /// The value is the one the data block holds (the testing view reads it back from the
    /// block, or from the value a TOON block encoded), so `structuredContent` and the data
    /// block cannot disagree, whatever built the response.
    fn structure(&self, mut response: ToolResponse) -> Result<ToolResponse, &'static str> {
        // Errors never carry structuredContent (SPEC §1.3); a response that has it already
        // (`success_structured`) is the handler's own choice.
        if !self.structured || response.is_error.is_some() || response.structured_content.is_some()
        {
            return Ok(response);
        }
        let value = match response.view().data() {
            ViewValue::Value(value) if value.is_object() => value.clone(),
            ViewValue::Value(other) => return Err(json_kind(other)),
            // A text data block (`OK`, a plain text) has no JSON value to offer.
            ViewValue::Text(_) => return Ok(response),
        };
        response.structured_content = Some(value);
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

/// How SPEC §11.1 names a JSON value that is not an object.
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

/// What failed, as it is logged (never sent, SPEC §13.7).
enum FailureText<'a> {
    Error(&'a WrapError),
    Panic(&'a (dyn Any + Send)),
    /// A structured action answered with a data value that is not an object.
    NotAnObject(&'static str),
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
/// for a closure: the asynchronous half of SPEC §13.7.
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

/// Wakes a thread parked in [`block_on`].
struct ThreadWaker(std::thread::Thread);

impl Wake for ThreadWaker {
    fn wake(self: Arc<Self>) {
        self.0.unpark();
    }

    fn wake_by_ref(self: &Arc<Self>) {
        self.0.unpark();
    }
}

/// Runs `future` to completion on this thread, parking it while the future is pending.
///
/// Enough for futures woken by other threads (channels, thread pools, timers of a runtime that
/// runs elsewhere); a future that needs *this* thread to drive a runtime (a current-thread
/// Tokio runtime's timers or sockets) never completes here: await [`ToolSet::call_async`] on
/// that runtime instead.
fn block_on<F: Future>(future: F) -> F::Output {
    let mut future = std::pin::pin!(future);
    let waker = Waker::from(Arc::new(ThreadWaker(std::thread::current())));
    let mut cx = Context::from_waker(&waker);
    loop {
        if let Poll::Ready(output) = future.as_mut().poll(&mut cx) {
            return output;
        }
        // A spurious return from `park` only costs one more poll.
        std::thread::park();
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
                "[{}] the action asks for structured content, but its handler answered with {found}, and `structuredContent` must be a JSON object (SPEC §11.2: a collection cannot be structured content); present a single value, or remove `structured` from the action",
                self.reference
            ),
        }
    }
}

/// The default failure reporter: one line on standard error (never on the protocol channel;
/// an MCP stdio server speaks on standard output).
pub fn report_to_stderr(failure: &InternalFailure<'_>) {
    eprintln!("fusion: {failure}");
}

/// A reporter of handler failures.
type Reporter = Arc<dyn Fn(&InternalFailure<'_>) + Send + Sync>;

/// A response still being computed by an asynchronous handler.
type Pending = Pin<Box<dyn Future<Output = ToolResponse> + Send>>;

/// A synchronous handler, type-erased: arguments, call context, failure reporter.
type SyncHandler =
    Box<dyn Fn(Value, &Call, &dyn Fn(&InternalFailure<'_>)) -> ToolResponse + Send + Sync>;

/// A type-erased handler: reads the typed input from validated arguments and runs.
enum Handler {
    /// Runs on the caller's thread and answers at once.
    Sync(SyncHandler),
    /// Starts the handler and returns its future (which owns everything it needs).
    Async(Box<dyn Fn(Value, Call, Reporter) -> Pending + Send + Sync>),
}

struct Entry {
    definition: Arc<ToolDefinition>,
    handler: Handler,
}

/// The tools of a server, each with its handler: lists their definitions and answers calls
/// (SPEC §13.8: tool name, discriminator, validation, handler, presentation).
///
/// Handlers are synchronous ([`ToolSet::tool`]) or asynchronous ([`ToolSet::tool_async`]), and
/// one set can mix both. [`ToolSet::call_async`] answers any call without blocking (an MCP
/// server awaits it); [`ToolSet::call`] answers on the calling thread (tests, scripts).
///
/// ```
/// use fusion_runtime::tool::{Call, ToolSet};
/// use fusion_runtime::{Json, Tool};
///
/// /// Add two numbers
/// #[derive(serde::Deserialize, schemars::JsonSchema, Tool)]
/// #[fusion(read_only)]
/// struct Add {
///     a: i64,
///     b: i64,
/// }
///
/// let tools = ToolSet::new().tool(|input: Add, _: &Call| Json(input.a + input.b))?;
/// assert_eq!(tools.call("add", Some(serde_json::json!({"a": 2, "b": 3}))).blocks(), ["5"]);
/// let nope = tools.call("sub", None);
/// assert!(nope.blocks()[0].starts_with("<tool_error code=\"UNKNOWN_TOOL\""));
/// # Ok::<(), fusion_runtime::tool::DefinitionError>(())
/// ```
pub struct ToolSet {
    entries: Vec<Entry>,
    reporter: Reporter,
}

impl Default for ToolSet {
    fn default() -> Self {
        ToolSet {
            entries: Vec::new(),
            reporter: Arc::new(report_to_stderr),
        }
    }
}

impl fmt::Debug for ToolSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ToolSet")
            .field(
                "tools",
                &self
                    .entries
                    .iter()
                    .map(|e| e.definition.name())
                    .collect::<Vec<_>>(),
            )
            .finish_non_exhaustive()
    }
}

impl ToolSet {
    /// An empty tool set; handler failures are reported with [`report_to_stderr`].
    pub fn new() -> Self {
        ToolSet::default()
    }

    /// Adds the tool `T`, answered by `handler`.
    ///
    /// Fails when `T` cannot be defined (see [`DefinitionError`]) or a tool of that name is
    /// already in the set.
    pub fn tool<T, F, R>(mut self, handler: F) -> Result<Self, DefinitionError>
    where
        T: Tool,
        F: Fn(T, &Call) -> R + Send + Sync + 'static,
        R: IntoToolResponse,
    {
        self.add::<T, F, R>(handler)?;
        Ok(self)
    }

    /// Adds the tool `T`, answered by `handler` (the `&mut` form of [`ToolSet::tool`]).
    pub fn add<T, F, R>(&mut self, handler: F) -> Result<&mut Self, DefinitionError>
    where
        T: Tool,
        F: Fn(T, &Call) -> R + Send + Sync + 'static,
        R: IntoToolResponse,
    {
        let definition = ToolDefinition::of::<T>()?;
        self.insert(
            definition,
            Handler::Sync(Box::new(move |arguments, call, report| {
                match read_typed::<T>(arguments, &call.reference) {
                    Ok(input) => call.respond(report, || handler(input, call)),
                    Err(response) => response,
                }
            })),
        )
    }

    /// Adds the tool `T`, answered by the asynchronous `handler`: it gets the typed input and
    /// the call context (owned, so the future can keep it), and its future's output is wrapped
    /// as a synchronous handler's result is (SPEC §12).
    ///
    /// An error, or a panic while the handler runs or its future is polled, ends the call with
    /// `INTERNAL_ERROR` (SPEC §13.7), reported as for synchronous handlers. The future must be
    /// `Send + 'static` (servers run it on any worker thread); it may await anything, on any
    /// executor.
    ///
    /// ```
    /// use fusion_runtime::tool::{Call, ToolSet};
    /// use fusion_runtime::{Presenter, Tool, ToolError};
    ///
    /// #[derive(Presenter)]
    /// struct Invoice {
    ///     id: String,
    ///     amount_cents: u64,
    /// }
    ///
    /// /// Fetch one invoice by id
    /// #[derive(serde::Deserialize, schemars::JsonSchema, Tool)]
    /// #[fusion(returns = Invoice, read_only, select)]
    /// struct GetInvoice {
    ///     id: String,
    /// }
    ///
    /// // Stands for a database or HTTP client.
    /// async fn fetch(id: String) -> Option<Invoice> {
    ///     (id == "INV-1").then(|| Invoice { id, amount_cents: 4500 })
    /// }
    ///
    /// let tools = ToolSet::new().tool_async(|input: GetInvoice, call: Call| async move {
    ///     let Some(invoice) = fetch(input.id).await else {
    ///         return Err(ToolError::not_found("No such invoice.").into());
    ///     };
    ///     call.present(&invoice).build().map_err(Box::<dyn std::error::Error + Send + Sync>::from)
    /// })?;
    /// let response = tools.call(
    ///     "get_invoice",
    ///     Some(serde_json::json!({"id": "INV-1", "_select": ["amount_cents"]})),
    /// );
    /// assert_eq!(response.blocks(), ["{\n  \"amount_cents\": 4500\n}"]);
    /// # Ok::<(), fusion_runtime::tool::DefinitionError>(())
    /// ```
    pub fn tool_async<T, F, Fut>(mut self, handler: F) -> Result<Self, DefinitionError>
    where
        T: Tool,
        F: Fn(T, Call) -> Fut + Send + Sync + 'static,
        Fut: Future + Send + 'static,
        Fut::Output: IntoToolResponse,
    {
        self.add_async::<T, F, Fut>(handler)?;
        Ok(self)
    }

    /// Adds the tool `T`, answered by the asynchronous `handler` (the `&mut` form of
    /// [`ToolSet::tool_async`]).
    pub fn add_async<T, F, Fut>(&mut self, handler: F) -> Result<&mut Self, DefinitionError>
    where
        T: Tool,
        F: Fn(T, Call) -> Fut + Send + Sync + 'static,
        Fut: Future + Send + 'static,
        Fut::Output: IntoToolResponse,
    {
        let definition = ToolDefinition::of::<T>()?;
        self.insert(
            definition,
            Handler::Async(Box::new(move |arguments, call, report| {
                let input = match read_typed::<T>(arguments, &call.reference) {
                    Ok(input) => input,
                    Err(response) => return Box::pin(std::future::ready(response)),
                };
                // The handler is called here, on the caller's thread; only its future travels.
                let handed = call.clone();
                let started = catch_unwind(AssertUnwindSafe(|| handler(input, handed)));
                Box::pin(async move { call.drive(&*report, started).await })
            })),
        )
    }

    fn insert(
        &mut self,
        definition: ToolDefinition,
        handler: Handler,
    ) -> Result<&mut Self, DefinitionError> {
        if self.get(definition.name()).is_some() {
            return Err(DefinitionError::duplicate(definition.name()));
        }
        self.entries.push(Entry {
            definition: Arc::new(definition),
            handler,
        });
        Ok(self)
    }

    /// Replaces the reporter of handler failures (errors and panics that became
    /// `INTERNAL_ERROR`); their text is never sent to the client.
    #[must_use]
    pub fn on_internal_error<F>(mut self, reporter: F) -> Self
    where
        F: Fn(&InternalFailure<'_>) + Send + Sync + 'static,
    {
        self.reporter = Arc::new(reporter);
        self
    }

    /// Marks the tool `name` as one whose responses can carry UI blocks (see
    /// [`ToolDefinition::ui_app`]), for a tool whose definition cannot say so itself.
    ///
    /// Fails when the set has no tool of that name.
    pub fn ui_app(mut self, name: &str) -> Result<Self, DefinitionError> {
        let entry = self
            .entries
            .iter_mut()
            .find(|e| e.definition.name() == name);
        let entry = entry.ok_or_else(|| {
            DefinitionError::new(name, "it is not in this tool set: add it before `ui_app`")
        })?;
        Arc::make_mut(&mut entry.definition).ui_app = true;
        Ok(self)
    }

    /// The definitions, in the order the tools were added.
    pub fn definitions(&self) -> impl Iterator<Item = &ToolDefinition> {
        self.entries.iter().map(|e| &*e.definition)
    }

    /// The definition of the tool `name`.
    pub fn get(&self, name: &str) -> Option<&ToolDefinition> {
        self.definitions().find(|d| d.name() == name)
    }

    /// Answers a call of the tool `name` on this thread (absent arguments count as an empty
    /// object).
    ///
    /// An asynchronous handler's future is driven to completion here, the thread parking while
    /// it is pending. That suits tests and synchronous programs, and futures woken from other
    /// threads; a future that needs this very thread to run its runtime (timers or sockets of
    /// a current-thread Tokio runtime) would wait forever: inside an async runtime, await
    /// [`ToolSet::call_async`].
    pub fn call(&self, name: &str, arguments: Option<Value>) -> ToolResponse {
        match self.route(name, arguments) {
            Err(response) => response,
            Ok((entry, arguments, call)) => match &entry.handler {
                Handler::Sync(handler) => handler(arguments, &call, &*self.reporter),
                Handler::Async(handler) => {
                    block_on(handler(arguments, call, self.reporter.clone()))
                }
            },
        }
    }

    /// Answers a call of the tool `name` (absent arguments count as an empty object), awaiting
    /// an asynchronous handler; a synchronous one runs when the future is first polled.
    ///
    /// The future is `Send` and needs no particular executor.
    pub async fn call_async(&self, name: &str, arguments: Option<Value>) -> ToolResponse {
        match self.route(name, arguments) {
            Err(response) => response,
            Ok((entry, arguments, call)) => match &entry.handler {
                Handler::Sync(handler) => handler(arguments, &call, &*self.reporter),
                Handler::Async(handler) => handler(arguments, call, self.reporter.clone()).await,
            },
        }
    }

    /// SPEC §13.8 steps 1–3: the tool's entry, the arguments serde reads and the call context;
    /// or the response that ends the call (unknown tool, routing or validation error).
    #[allow(
        clippy::result_large_err,
        reason = "the error is the response to send, moved once"
    )]
    fn route(
        &self,
        name: &str,
        arguments: Option<Value>,
    ) -> Result<(&Entry, Value, Call), ToolResponse> {
        let Some(entry) = self.entries.iter().find(|e| e.definition.name() == name) else {
            return Err(ToolError::unknown_tool(name).into_response());
        };
        let (arguments, call) = entry.definition.parse(arguments)?.into_parts();
        Ok((entry, arguments, call))
    }
}
impl DefinitionError {
    pub(crate) fn duplicate(name: &str) -> Self {
        DefinitionError::new(name, "a tool of this name is already in the set")
    }
}
