//! The tools of a server with their handlers (wire format §13.8: tool name, discriminator, validation,
//! handler, presentation), and the small executor that answers an asynchronous handler on the
//! calling thread.

use std::fmt;
use std::future::Future;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll, Wake, Waker};

use serde_json::Value;

use super::call::{Call, InternalFailure, report_to_stderr};
use super::definition::ToolDefinition;
use super::definition_error::DefinitionError;
use super::input::Tool;
use super::routing::read_typed;
use crate::response::{IntoToolResponse, ToolError, ToolResponse};

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
/// (wire format §13.8: tool name, discriminator, validation, handler, presentation).
///
/// Handlers are synchronous ([`ToolSet::tool`]) or asynchronous ([`ToolSet::tool_async`]), and
/// one set can mix both. [`ToolSet::call_async`] answers any call without blocking (an MCP
/// server awaits it); [`ToolSet::call`] answers on the calling thread (tests, scripts).
///
/// ```
/// use fusion_runtime::{Call, Json, Tool, ToolSet};
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
    /// The response budget of every tool (wire format §17.1).
    max_tokens: Option<usize>,
}

impl Default for ToolSet {
    fn default() -> Self {
        ToolSet {
            entries: Vec::new(),
            reporter: Arc::new(report_to_stderr),
            max_tokens: None,
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
    /// Fits every presented response of every tool to `max_tokens` tokens (wire format §17), or
    /// to a tighter budget of the tool, the presenter or the call. Claude Code's default cap is
    /// 25,000 tokens (`MAX_MCP_OUTPUT_TOKENS`), and it warns above 10,000.
    #[must_use]
    pub fn max_tokens(mut self, max_tokens: usize) -> Self {
        self.max_tokens = Some(max_tokens);
        self
    }

    /// An empty tool set; handler failures are reported with [`report_to_stderr`](crate::tool::report_to_stderr).
    pub fn new() -> Self {
        ToolSet::default()
    }

    /// Adds the tool `T`, answered by `handler`.
    ///
    /// Fails when `T` cannot be defined (see [`DefinitionError`](crate::tool::DefinitionError)) or a tool of that name is
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
    /// as a synchronous handler's result is (wire format §12).
    ///
    /// An error, or a panic while the handler runs or its future is polled, ends the call with
    /// `INTERNAL_ERROR` (wire format §13.7), reported as for synchronous handlers. The future must be
    /// `Send + 'static` (servers run it on any worker thread); it may await anything, on any
    /// executor.
    ///
    /// ```
    /// use fusion_runtime::{Call, Presenter, Tool, ToolError, ToolSet};
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

    /// wire format §13.8 steps 1–3: the tool's entry, the arguments serde reads and the call context;
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
        let (arguments, call) = entry.definition.parse(arguments)?;
        let budget = crate::present::tightest(call.max_tokens, self.max_tokens);
        Ok((entry, arguments, call.with_max_tokens(budget)))
    }
}
