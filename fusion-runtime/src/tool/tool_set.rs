//! The tools of a server with their handlers (wire format §13.8: tool name, discriminator, validation,
//! handler, presentation).

use std::fmt;
use std::future::Future;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::pin::Pin;
use std::sync::Arc;

use serde_json::Value;

use super::args::read_tool;
use super::block_on::block_on;
use super::call::{Call, InternalFailure, report_to_stderr};
use super::definition::{ToolDefinition, input_schema_of};
use super::definition_error::DefinitionError;
use super::handler::{AsyncHandler, Handler};
use super::handler_result::ToolResult;
use super::input::Tool;
use super::targets::{self, Resolution, resolve};
use crate::response::{Format, ToolError, ToolResponse};

/// The definition of `T` answered by a handler whose return type declares the output `returned`
/// (a [`Structured`](crate::Structured) type's name and schema): that type's schema is the
/// `outputSchema` (wire format §11.3), and an `output` the tool declares must be the same type.
pub(crate) fn define<T: Tool>(
    returned: Option<(&'static str, Value)>,
) -> Result<ToolDefinition, DefinitionError> {
    let mut spec = T::spec();
    if let Some((name, schema)) = returned {
        if spec
            .output_schema
            .as_ref()
            .is_some_and(|declared| *declared != schema)
        {
            return Err(DefinitionError::new(
                spec.name(),
                format!(
                    "its handler returns `Structured<{name}>`, but the tool declares another output type; remove `output = ...` from the tool (the handler's return type declares it) or return the declared type"
                ),
            ));
        }
        spec = spec.output_schema(schema);
    }
    ToolDefinition::from_schema(&spec, &input_schema_of::<T>())
}

/// A reporter of handler failures.
type Reporter = Arc<dyn Fn(&InternalFailure<'_>) + Send + Sync>;

/// A response still being computed by an asynchronous handler.
type Pending = Pin<Box<dyn Future<Output = ToolResponse> + Send>>;

/// A synchronous handler, type-erased: arguments, call context, failure reporter.
type SyncHandler =
    Box<dyn Fn(Value, &Call, &dyn Fn(&InternalFailure<'_>)) -> ToolResponse + Send + Sync>;

/// A type-erased handler: reads the typed input from validated arguments and runs. It owns a
/// clone of the set's shared state, so entries do not depend on the state's type.
enum Erased {
    /// Runs on the caller's thread and answers at once.
    Sync(SyncHandler),
    /// Starts the handler and returns its future (which owns everything it needs).
    Async(Box<dyn Fn(Value, Call, Reporter) -> Pending + Send + Sync>),
}

struct Entry {
    definition: Arc<ToolDefinition>,
    handler: Erased,
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
///
/// # Shared state
///
/// [`ToolSet::with_state`] gives every handler one state `S` (a store, a client pool, the
/// application): a synchronous handler takes it as `&S` in front of its input, an asynchronous
/// one as `Arc<S>` (its future owns what it uses). A handler that needs no state keeps its
/// two-argument form in the same set. The state is typed: nothing is looked up or downcast.
///
/// ```
/// use std::sync::Arc;
/// use fusion_runtime::{Call, Tool, ToolError, ToolSet};
///
/// struct Shop {
///     prices: Vec<(String, u64)>,
/// }
///
/// /// The price of one item, in cents
/// #[derive(serde::Deserialize, schemars::JsonSchema, Tool)]
/// struct Price {
///     item: String,
/// }
///
/// /// How many items there are
/// #[derive(serde::Deserialize, schemars::JsonSchema, Tool)]
/// struct Catalog {}
///
/// /// Check the server is up
/// #[derive(serde::Deserialize, schemars::JsonSchema, Tool)]
/// struct Ping {}
///
/// impl Shop {
///     fn price(&self, input: Price, _: &Call) -> Result<String, ToolError> {
///         let found = self.prices.iter().find(|(item, _)| *item == input.item);
///         let (_, cents) = found.ok_or_else(|| ToolError::not_found("No such item."))?;
///         Ok(cents.to_string())
///     }
///
///     async fn catalog(self: Arc<Self>, _: Catalog, _: Call) -> String {
///         format!("{} items", self.prices.len())
///     }
/// }
///
/// let tools = ToolSet::with_state(Shop { prices: vec![("tea".into(), 350)] })
///     .tool(Shop::price)?
///     .tool_async(Shop::catalog)?
///     .tool(|_: Ping, _: &Call| "pong")?;
/// let answer = tools.call("price", Some(serde_json::json!({"item": "tea"})));
/// assert_eq!(answer.blocks(), ["350"]);
/// assert_eq!(tools.call("catalog", None).blocks(), ["1 items"]);
/// assert_eq!(tools.state().prices.len(), 1);
/// # Ok::<(), fusion_runtime::tool::DefinitionError>(())
/// ```
pub struct ToolSet<S = ()> {
    entries: Vec<Entry>,
    reporter: Reporter,
    state: Arc<S>,
    /// The response budget of every tool (wire format §17.1).
    max_tokens: Option<usize>,
    /// Whether every budget is kept by the exact count ([`ToolSet::exact_tokens`]).
    #[cfg(feature = "exact-tokens")]
    exact_tokens: bool,
    /// The data block format of every tool's presentations, unless chosen closer (wire format §2.4).
    format: Option<Format>,
    /// Whether every tool is lean (wire format §6.12).
    lean: bool,
    /// How long clients may cache the listing (`tools/list`), and who may share it.
    listing_cache: ListingCache,
}

/// How long a client may reuse a `tools/list` answer, and who may share it (`ttlMs` and
/// `cacheScope` of protocol revision 2026-07-28); set with [`ToolSet::listing_cache`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ListingCache {
    /// How long the listing stays fresh (`ttlMs`); zero: ask again every time.
    pub ttl: std::time::Duration,
    /// Whether any client or intermediary may serve the cached listing to anyone (`public`), or
    /// only the client that asked (`private`).
    pub shared: bool,
}

impl Default for ListingCache {
    /// Zero and private: what a server that says nothing means.
    fn default() -> Self {
        ListingCache {
            ttl: std::time::Duration::ZERO,
            shared: false,
        }
    }
}

impl Default for ToolSet {
    fn default() -> Self {
        ToolSet::with_shared_state(Arc::new(()))
    }
}

impl<S> fmt::Debug for ToolSet<S> {
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
    /// An empty tool set without shared state; handler failures are reported with
    /// [`report_to_stderr`](crate::tool::report_to_stderr).
    pub fn new() -> Self {
        ToolSet::default()
    }
}

impl<S: Send + Sync + 'static> ToolSet<S> {
    /// An empty tool set whose handlers share `state` (see [Shared state](ToolSet#shared-state)).
    pub fn with_state(state: S) -> Self {
        ToolSet::with_shared_state(Arc::new(state))
    }

    /// An empty tool set whose handlers share the state `state` points to, for a state the
    /// program also keeps (asynchronous handlers receive this very `Arc`).
    pub fn with_shared_state(state: Arc<S>) -> Self {
        ToolSet {
            entries: Vec::new(),
            reporter: Arc::new(report_to_stderr),
            state,
            max_tokens: None,
            #[cfg(feature = "exact-tokens")]
            exact_tokens: false,
            format: None,
            lean: false,
            listing_cache: ListingCache::default(),
        }
    }

    /// The server-wide default format of the data blocks presented through
    /// [`Call::present`](crate::Call::present) (wire format §2.4): one line to choose the
    /// trade-off for every tool, as [`Format::CompactJson`] (the same JSON value in about 30%
    /// fewer tokens) or [`Format::Toon`] (tables, fewer still for uniform collections, at some
    /// accuracy risk in multi-turn tool use). A presenter's declared format
    /// (`#[presenter(format = ...)]`), a tool's ([`ToolSpec::format`](crate::tool::ToolSpec::format))
    /// and a handler's ([`Presentation::format`](crate::present::Presentation::format)) win over it.
    #[must_use]
    pub fn format(mut self, format: Format) -> Self {
        self.format = Some(format);
        self
    }

    /// Makes every tool lean, those added before and after (see
    /// [`ToolSpec::lean`](crate::tool::ToolSpec::lean), wire format §6.12): one line for the
    /// fewest tokens a call, the static rules said once in `tools/list`.
    #[must_use]
    pub fn lean(mut self) -> Self {
        self.lean = true;
        for entry in &mut self.entries {
            Arc::make_mut(&mut entry.definition).make_lean();
        }
        self
    }

    /// Fits every presented response of every tool to `max_tokens` tokens (wire format §17), or
    /// to a tighter budget of the tool, the presenter or the call. Claude Code's default cap is
    /// 25,000 tokens (`MAX_MCP_OUTPUT_TOKENS`), and it warns above 10,000.
    #[must_use]
    pub fn max_tokens(mut self, max_tokens: usize) -> Self {
        self.max_tokens = Some(max_tokens);
        self
    }

    /// Keeps every budget of every tool by the exact `o200k_base` count instead of the estimate
    /// (feature `exact-tokens`; [`Presentation::exact_tokens`](crate::present::Presentation::exact_tokens)
    /// says what it costs): for tools whose answers hold text the estimate is far under on,
    /// such as characters drawn at random from a script. Without a budget it changes nothing.
    #[cfg(feature = "exact-tokens")]
    #[must_use]
    pub fn exact_tokens(mut self) -> Self {
        self.exact_tokens = true;
        self
    }

    /// Lets clients cache the `tools/list` answer for `ttl` (`ttlMs`), shared by every client
    /// and intermediary when `shared` (`cacheScope: "public"`: the listing is the same for
    /// everyone), else only by the client that asked (`"private"`, the default, with a zero
    /// `ttl`). The tools of a set do not change while it serves, so a listing that depends on
    /// nothing per user may be cached for as long as a deployment lasts.
    #[must_use]
    pub fn listing_cache(mut self, ttl: std::time::Duration, shared: bool) -> Self {
        self.listing_cache = ListingCache { ttl, shared };
        self
    }

    /// Adds the tool `T`, answered by `handler`: `|input: T, call: &Call| ...`, or
    /// `|state: &S, input: T, call: &Call| ...` for a handler that uses the
    /// [shared state](ToolSet#shared-state) (see [`Handler`](crate::tool::Handler)). It returns
    /// a [`ToolResult`](crate::tool::ToolResult): a response, a text, a number, `Json(value)`,
    /// `Structured(value)`, a presentation, or a `Result` of one; a value that is only
    /// `Serialize` is data once wrapped in [`Json`](crate::Json).
    ///
    /// Fails when `T` cannot be defined (see [`DefinitionError`](crate::tool::DefinitionError)) or a tool of that name is
    /// already in the set.
    pub fn tool<T, M, H>(mut self, handler: H) -> Result<Self, DefinitionError>
    where
        T: Tool,
        H: Handler<T, S, M>,
        H::Output: ToolResult,
    {
        self.add::<T, M, H>(handler)?;
        Ok(self)
    }

    /// Adds the tool `T`, answered by `handler` (the `&mut` form of [`ToolSet::tool`]).
    pub fn add<T, M, H>(&mut self, handler: H) -> Result<&mut Self, DefinitionError>
    where
        T: Tool,
        H: Handler<T, S, M>,
        H::Output: ToolResult,
    {
        let definition = define::<T>(H::Output::output_schema())?;
        let state = Arc::clone(&self.state);
        self.insert(
            definition,
            Erased::Sync(Box::new(move |arguments, call, report| {
                match read_tool::<T>(&arguments, &call.reference) {
                    Ok(input) => {
                        call.respond(report, || handler.handle(&state, input, call).into_answer())
                    }
                    Err(response) => response,
                }
            })),
        )
    }

    /// Adds the tool `T`, answered by the asynchronous `handler`: it gets the typed input and
    /// the call context (owned, so the future can keep it), and its future's output is wrapped
    /// as a synchronous handler's result is (wire format §12). A handler that uses the
    /// [shared state](ToolSet#shared-state) takes it first, as `Arc<S>`:
    /// `|state: Arc<S>, input: T, call: Call| async move { ... }` (see
    /// [`AsyncHandler`](crate::tool::AsyncHandler)).
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
    pub fn tool_async<T, M, H>(mut self, handler: H) -> Result<Self, DefinitionError>
    where
        T: Tool,
        H: AsyncHandler<T, S, M>,
        <H::Future as Future>::Output: ToolResult,
    {
        self.add_async::<T, M, H>(handler)?;
        Ok(self)
    }

    /// Adds the tool `T`, answered by the asynchronous `handler` (the `&mut` form of
    /// [`ToolSet::tool_async`]).
    pub fn add_async<T, M, H>(&mut self, handler: H) -> Result<&mut Self, DefinitionError>
    where
        T: Tool,
        H: AsyncHandler<T, S, M>,
        <H::Future as Future>::Output: ToolResult,
    {
        let definition = define::<T>(<H::Future as Future>::Output::output_schema())?;
        let state = Arc::clone(&self.state);
        self.insert(
            definition,
            Erased::Async(Box::new(move |arguments, call, report| {
                let input = match read_tool::<T>(&arguments, &call.reference) {
                    Ok(input) => input,
                    Err(response) => return Box::pin(std::future::ready(response)),
                };
                // The handler is called here, on the caller's thread; only its future travels.
                let handed = call.clone();
                let started =
                    catch_unwind(AssertUnwindSafe(|| handler.start(&state, input, handed)));
                Box::pin(async move { call.drive(&*report, started).await })
            })),
        )
    }
}

impl<S> ToolSet<S> {
    /// The shared state.
    pub fn state(&self) -> &S {
        &self.state
    }

    fn insert(
        &mut self,
        definition: ToolDefinition,
        handler: Erased,
    ) -> Result<&mut Self, DefinitionError> {
        if self.get(definition.name()).is_some() {
            return Err(DefinitionError::duplicate(definition.name()));
        }
        self.check_targets(&definition)?;
        let mut definition = definition;
        if self.lean {
            definition.make_lean();
        }
        self.entries.push(Entry {
            definition: Arc::new(definition),
            handler,
        });
        Ok(self)
    }

    /// Checks the suggestion targets that `added` brings or completes: its models' targets
    /// that name a tool of the set (or itself), and the set's targets that name it.
    fn check_targets(&self, added: &ToolDefinition) -> Result<(), DefinitionError> {
        let tools = || {
            self.entries
                .iter()
                .map(|e| &*e.definition)
                .chain(std::iter::once(added))
        };
        let own = added
            .suggestion_targets()
            .iter()
            .map(|(model, target)| (added.name(), *model, *target));
        let naming_it = self.entries.iter().flat_map(|e| {
            e.definition
                .suggestion_targets()
                .iter()
                .filter(|(_, target)| target.split('.').next() == Some(added.name()))
                .map(move |(model, target)| (e.definition.name(), *model, *target))
        });
        for (tool, model, target) in own.chain(naming_it) {
            if let Resolution::Wrong(why) = resolve(target, tools()) {
                return Err(targets::error(tool, model, target, &why));
            }
        }
        Ok(())
    }

    /// Checks that every fixed suggestion target of the set's models names one of its tools,
    /// and for `tool.action` one of that tool's actions (a misspelt target is a
    /// [`DefinitionError`] with a "did you mean"). Adding a tool already checks the targets
    /// that name a tool of the set; this also finds those that name none, once every tool is
    /// in. `FusionServer::try_new` refuses a set that fails it (`FusionServer::new` reports the
    /// failure on stderr).
    pub fn check_suggestions(&self) -> Result<(), DefinitionError> {
        let tools = || self.entries.iter().map(|e| &*e.definition);
        for entry in &self.entries {
            for (model, target) in entry.definition.suggestion_targets() {
                match resolve(target, tools()) {
                    Resolution::Found => {}
                    Resolution::NoTool(why) | Resolution::Wrong(why) => {
                        return Err(targets::error(entry.definition.name(), model, target, &why));
                    }
                }
            }
        }
        Ok(())
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
        #[cfg(feature = "tracing")]
        let span = super::trace::CallSpan::open(name);
        #[cfg(feature = "tracing")]
        let entered = span.span().clone().entered();
        let response = match self.route(name, arguments) {
            Err(response) => response,
            Ok((entry, arguments, call)) => {
                #[cfg(feature = "tracing")]
                span.action(call.action());
                match &entry.handler {
                    Erased::Sync(handler) => handler(arguments, &call, &*self.reporter),
                    Erased::Async(handler) => {
                        block_on(handler(arguments, call, self.reporter.clone()))
                    }
                }
            }
        };
        #[cfg(feature = "tracing")]
        {
            drop(entered);
            span.finish(&response);
        }
        response
    }

    /// Answers a call of the tool `name` (absent arguments count as an empty object), awaiting
    /// an asynchronous handler; a synchronous one runs when the future is first polled.
    ///
    /// The future is `Send` and needs no particular executor.
    pub async fn call_async(&self, name: &str, arguments: Option<Value>) -> ToolResponse {
        #[cfg(feature = "tracing")]
        {
            use tracing::Instrument as _;
            let span = super::trace::CallSpan::open(name);
            let response = self
                .answer(name, arguments, Some(&span))
                .instrument(span.span().clone())
                .await;
            span.finish(&response);
            response
        }
        #[cfg(not(feature = "tracing"))]
        self.answer(name, arguments).await
    }

    /// [`ToolSet::call_async`] without its span.
    async fn answer(
        &self,
        name: &str,
        arguments: Option<Value>,
        #[cfg(feature = "tracing")] span: Option<&super::trace::CallSpan>,
    ) -> ToolResponse {
        match self.route(name, arguments) {
            Err(response) => response,
            Ok((entry, arguments, call)) => {
                #[cfg(feature = "tracing")]
                if let Some(span) = span {
                    span.action(call.action());
                }
                match &entry.handler {
                    Erased::Sync(handler) => handler(arguments, &call, &*self.reporter),
                    Erased::Async(handler) => handler(arguments, call, self.reporter.clone()).await,
                }
            }
        }
    }

    /// [`ToolSet::call_async`] for a call whose handler may ask the person or the client
    /// (`asking`: what the client can answer, and the answers this call brought; see
    /// [`Call::confirm`](crate::Call::confirm)). Adapters call it; the response may ask
    /// ([`ToolResponse::asks`]).
    pub async fn call_async_asking(
        &self,
        name: &str,
        arguments: Option<Value>,
        asking: crate::tool::call::Asking,
    ) -> ToolResponse {
        match self.route(name, arguments) {
            Err(response) => response,
            Ok((entry, arguments, call)) => {
                let call = call.with_asking(asking);
                match &entry.handler {
                    Erased::Sync(handler) => handler(arguments, &call, &*self.reporter),
                    Erased::Async(handler) => handler(arguments, call, self.reporter.clone()).await,
                }
            }
        }
    }

    /// The same tools without the typed state (each handler keeps its own clone of it), for
    /// code that serves any set, such as the rmcp adapter.
    #[cfg_attr(
        not(feature = "rmcp"),
        allow(dead_code, reason = "only the rmcp adapter erases")
    )]
    pub(crate) fn into_stateless(self) -> ToolSet {
        ToolSet {
            entries: self.entries,
            reporter: self.reporter,
            state: Arc::new(()),
            max_tokens: self.max_tokens,
            #[cfg(feature = "exact-tokens")]
            exact_tokens: self.exact_tokens,
            format: self.format,
            lean: self.lean,
            listing_cache: self.listing_cache,
        }
    }

    /// How long clients may cache this set's listing, and who may share it (see
    /// [`ToolSet::listing_cache`]).
    pub fn cache(&self) -> ListingCache {
        self.listing_cache
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
        let format = call.format;
        // A lean tool's data blocks are compact unless a format is chosen (wire format §6.12).
        let lean = entry.definition.is_lean().then_some(Format::CompactJson);
        #[cfg_attr(not(feature = "exact-tokens"), allow(unused_mut))]
        let mut call = call
            .with_max_tokens(budget)
            .with_formats(format, self.format.or(lean));
        #[cfg(feature = "exact-tokens")]
        {
            call.exact_tokens = self.exact_tokens;
        }
        Ok((entry, arguments, call))
    }
}
