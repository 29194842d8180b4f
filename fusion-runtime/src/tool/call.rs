//! Calling a tool: the call context handed to handlers, the dispatch that turns a handler's
//! result or failure into a response (SPEC §12, §13.7), and the tool set of a server.

use std::any::Any;
use std::fmt;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;

use serde_json::Value;

use super::Tool;

use super::definition::{DefinitionError, ToolDefinition};
use crate::error::ToolError;
use crate::present::{Model, Presentation, present, present_all};
use crate::response::ToolResponse;
use crate::select::Selection;
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
        }
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
    pub fn respond<R, F>(&self, report: &dyn Fn(&InternalFailure<'_>), handler: F) -> ToolResponse
    where
        F: FnOnce() -> R,
        R: IntoToolResponse,
    {
        // The handler's state is not observed again after a panic (the call just fails), so
        // asserting unwind safety cannot expose a broken invariant to this code.
        let outcome = catch_unwind(AssertUnwindSafe(|| handler().into_tool_response()));
        match outcome {
            Ok(Ok(response)) => response,
            Ok(Err(failure)) => self.internal_error(report, &FailureText::Error(&failure)),
            Err(panic) => self.internal_error(report, &FailureText::Panic(&*panic)),
        }
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

/// What failed, as it is logged (never sent, SPEC §13.7).
enum FailureText<'a> {
    Error(&'a WrapError),
    Panic(&'a (dyn Any + Send)),
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

/// A type-erased handler: reads the typed input from validated arguments and runs.
type Handler =
    Box<dyn Fn(Value, &Call, &dyn Fn(&InternalFailure<'_>)) -> ToolResponse + Send + Sync>;

struct Entry {
    definition: Arc<ToolDefinition>,
    handler: Handler,
}

/// The tools of a server, each with its handler: lists their definitions and answers calls
/// (SPEC §13.8: tool name, discriminator, validation, handler, presentation).
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
        self.insert(definition, move |arguments, call, report| {
            typed_call::<T, _, _>(arguments, call, report, &handler)
        })
    }

    fn insert<H>(
        &mut self,
        definition: ToolDefinition,
        handler: H,
    ) -> Result<&mut Self, DefinitionError>
    where
        H: Fn(Value, &Call, &dyn Fn(&InternalFailure<'_>)) -> ToolResponse + Send + Sync + 'static,
    {
        if self.get(definition.name()).is_some() {
            return Err(DefinitionError::duplicate(definition.name()));
        }
        self.entries.push(Entry {
            definition: Arc::new(definition),
            handler: Box::new(handler),
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

    /// The definitions, in the order the tools were added.
    pub fn definitions(&self) -> impl Iterator<Item = &ToolDefinition> {
        self.entries.iter().map(|e| &*e.definition)
    }

    /// The definition of the tool `name`.
    pub fn get(&self, name: &str) -> Option<&ToolDefinition> {
        self.definitions().find(|d| d.name() == name)
    }

    /// Answers a call of the tool `name` (absent arguments count as an empty object).
    pub fn call(&self, name: &str, arguments: Option<Value>) -> ToolResponse {
        let Some(entry) = self.entries.iter().find(|e| e.definition.name() == name) else {
            return ToolError::unknown_tool(name).into_response();
        };
        let (arguments, call) = match entry.definition.parse(arguments) {
            Ok(parsed) => parsed.into_parts(),
            Err(response) => return response,
        };
        (entry.handler)(arguments, &call, &*self.reporter)
    }
}

/// Reads `T` from validated arguments and runs the handler.
fn typed_call<T, F, R>(
    arguments: Value,
    call: &Call,
    report: &dyn Fn(&InternalFailure<'_>),
    handler: &F,
) -> ToolResponse
where
    T: Tool,
    F: Fn(T, &Call) -> R,
    R: IntoToolResponse,
{
    let input = match super::definition::read_typed::<T>(arguments, &call.reference) {
        Ok(input) => input,
        Err(response) => return response,
    };
    call.respond(report, || handler(input, call))
}

impl DefinitionError {
    pub(crate) fn duplicate(name: &str) -> Self {
        DefinitionError::new(name, "a tool of this name is already in the set")
    }
}
