//! The `<tool_error>` envelope (wire format §13): its severity rule, the toolkit's routing errors and
//! `INTERNAL_ERROR`. (The `<validation_error>` envelope belongs to the tool layer, which checks
//! arguments.)
//!
//! ```
//! use fusion_runtime::ToolError;
//! let response = ToolError::not_found("Invoice \"INV-9\" does not exist.")
//!     .recovery("Call billing with action \"list_invoices\" to find valid ids.")
//!     .action("list_invoices")
//!     .into_response();
//! assert_eq!(response.is_error(), Some(true));
//! ```
//!
//! The toolkit's own envelopes repeat caller input only through [`Echo`] (quoted, on one line,
//! cut); a message of the application's that repeats it should too:
//! `format!("Invoice {} does not exist.", Echo::NAME.quote(id))`.

use std::fmt;
use std::sync::Arc;

use super::tool_response::ToolResponse;
use crate::encode::EncodeError;
use crate::encode::echo::Echo;
use crate::encode::escape;

/// How bad a `<tool_error>` is; `warning` answers with `isError: false` (wire format §13.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Severity {
    /// The call did something, but the model should know about a problem.
    Warning,
    /// The call failed (the default).
    #[default]
    Error,
    /// The call failed and the model should stop and tell the user.
    Critical,
}

impl Severity {
    /// `warning`, `error` or `critical`.
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Warning => "warning",
            Severity::Error => "error",
            Severity::Critical => "critical",
        }
    }
}

/// A `<tool_error>` envelope: a code, a severity, a message and optional recovery, available
/// actions, details and a retry delay (wire format §13.1).
///
/// It is also a [`std::error::Error`], so a handler can return it with `?`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolError {
    // Boxed so that `Result<T, ToolError>` stays one pointer wide (clippy's `result_large_err`
    // would otherwise fire in every handler that returns one).
    parts: Box<ToolErrorParts>,
}

/// The parts of a [`ToolError`].
#[derive(Debug, Clone, PartialEq, Eq)]
struct ToolErrorParts {
    code: String,
    severity: Severity,
    message: String,
    recovery: String,
    actions: Vec<NextCall>,
    details: Vec<(String, String)>,
    retry_after_secs: u64,
    /// The failure behind an `INTERNAL_ERROR` made by `?` ([`From<EncodeError>`]): never
    /// written, handed to the failure reporter when a `Call` answers.
    failure: Option<Failure>,
}

/// A failure kept inside a [`ToolError`]; two are equal when they are the same failure.
#[derive(Debug, Clone)]
pub(crate) struct Failure(Arc<dyn std::error::Error + Send + Sync>);

impl PartialEq for Failure {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

impl Eq for Failure {}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl std::error::Error for Failure {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.0.source()
    }
}

/// One entry of `<available_actions>` (wire format §13.1): what the model may call next.
#[derive(Debug, Clone, PartialEq, Eq)]
enum NextCall {
    /// An action of the tool that failed: `<action>{action}</action>`.
    Action(String),
    /// An action of another tool: `<action tool="{tool}">{action}</action>`.
    OtherAction { tool: String, action: String },
    /// Another tool, one without actions: `<tool>{tool}</tool>`.
    OtherTool(String),
}

/// The code written when a caller gave an empty one: wire format §13.1 requires a non-empty code.
const FALLBACK_CODE: &str = "ERROR";

impl ToolError {
    /// An error with `code` (e.g. `NOT_FOUND`; an empty code is written as `ERROR`) and `message`.
    pub fn new(code: impl Into<String>, message: impl Into<String>) -> Self {
        ToolError {
            parts: Box::new(ToolErrorParts {
                code: code.into(),
                severity: Severity::Error,
                message: message.into(),
                recovery: String::new(),
                actions: Vec::new(),
                details: Vec::new(),
                retry_after_secs: 0,
                failure: None,
            }),
        }
    }

    /// A `NOT_FOUND` error.
    pub fn not_found(message: impl Into<String>) -> Self {
        Self::new("NOT_FOUND", message)
    }

    /// A warning: the call answers with `isError: false`.
    pub fn warning(code: impl Into<String>, message: impl Into<String>) -> Self {
        Self::new(code, message).severity(Severity::Warning)
    }

    /// Sets the severity.
    #[must_use]
    pub fn severity(mut self, severity: Severity) -> Self {
        self.parts.severity = severity;
        self
    }

    /// Sets the recovery text: what the model should do next (omitted when empty).
    #[must_use]
    pub fn recovery(mut self, recovery: impl Into<String>) -> Self {
        self.parts.recovery = recovery.into();
        self
    }

    /// Appends an available action of the tool that failed.
    #[must_use]
    pub fn action(mut self, action: impl Into<String>) -> Self {
        self.parts.actions.push(NextCall::Action(action.into()));
        self
    }

    /// Appends an action of another tool as an available next call, written
    /// `<action tool="{tool}">{action}</action>` (wire format §13.1).
    ///
    /// ```
    /// use fusion_runtime::ToolError;
    /// let error = ToolError::not_found("The task \"T-9\" does not exist.")
    ///     .other_action("tasks", "get_project")
    ///     .other_tool("task_stats");
    /// assert_eq!(
    ///     error.render(),
    ///     "<tool_error code=\"NOT_FOUND\" severity=\"error\">\n<message>The task \"T-9\" does not exist.</message>\n<available_actions>\n  <action tool=\"tasks\">get_project</action>\n  <tool>task_stats</tool>\n</available_actions>\n</tool_error>"
    /// );
    /// ```
    #[must_use]
    pub fn other_action(mut self, tool: impl Into<String>, action: impl Into<String>) -> Self {
        self.parts.actions.push(NextCall::OtherAction {
            tool: tool.into(),
            action: action.into(),
        });
        self
    }

    /// Appends another tool, a flat one (without actions), as an available next call, written
    /// `<tool>{tool}</tool>` (wire format §13.1).
    #[must_use]
    pub fn other_tool(mut self, tool: impl Into<String>) -> Self {
        self.parts.actions.push(NextCall::OtherTool(tool.into()));
        self
    }

    /// Appends several available actions, in order.
    #[must_use]
    pub fn actions<I>(mut self, actions: I) -> Self
    where
        I: IntoIterator,
        I::Item: Into<String>,
    {
        self.parts.actions.extend(
            actions
                .into_iter()
                .map(|action| NextCall::Action(action.into())),
        );
        self
    }

    /// Appends a detail; convert other values to text first.
    #[must_use]
    pub fn detail(mut self, key: impl Into<String>, value: impl Into<String>) -> Self {
        self.parts.details.push((key.into(), value.into()));
        self
    }

    /// Asks the model to retry after `seconds` (0 means no `<retry_after>`).
    #[must_use]
    pub fn retry_after(mut self, seconds: u64) -> Self {
        self.parts.retry_after_secs = seconds;
        self
    }

    /// The code.
    pub fn code(&self) -> &str {
        &self.parts.code
    }

    /// The message.
    pub fn message(&self) -> &str {
        &self.parts.message
    }

    /// The severity.
    pub fn severity_value(&self) -> Severity {
        self.parts.severity
    }

    /// `isError` of the response: `false` for warnings, `true` otherwise.
    pub fn is_error(&self) -> bool {
        self.parts.severity != Severity::Warning
    }

    /// The envelope text.
    pub fn render(&self) -> String {
        let code = if self.parts.code.is_empty() {
            FALLBACK_CODE
        } else {
            &self.parts.code
        };
        let mut out =
            String::with_capacity(128 + self.parts.message.len() + self.parts.recovery.len());
        out.push_str("<tool_error code=\"");
        out.push_str(&escape::attribute(code));
        out.push_str("\" severity=\"");
        out.push_str(self.parts.severity.as_str());
        out.push_str("\">\n<message>");
        out.push_str(&escape::element_content(&self.parts.message));
        out.push_str("</message>\n");
        if !self.parts.recovery.is_empty() {
            out.push_str("<recovery>");
            out.push_str(&escape::element_content(&self.parts.recovery));
            out.push_str("</recovery>\n");
        }
        if !self.parts.actions.is_empty() {
            out.push_str("<available_actions>\n");
            for next in &self.parts.actions {
                match next {
                    NextCall::Action(action) => {
                        out.push_str("  <action>");
                        out.push_str(&escape::element_content(action));
                        out.push_str("</action>\n");
                    }
                    NextCall::OtherAction { tool, action } => {
                        out.push_str("  <action tool=\"");
                        out.push_str(&escape::attribute(tool));
                        out.push_str("\">");
                        out.push_str(&escape::element_content(action));
                        out.push_str("</action>\n");
                    }
                    NextCall::OtherTool(tool) => {
                        out.push_str("  <tool>");
                        out.push_str(&escape::element_content(tool));
                        out.push_str("</tool>\n");
                    }
                }
            }
            out.push_str("</available_actions>\n");
        }
        if !self.parts.details.is_empty() {
            out.push_str("<details>\n");
            for (key, value) in &self.parts.details {
                out.push_str("  <detail key=\"");
                out.push_str(&escape::attribute(key));
                out.push_str("\">");
                out.push_str(&escape::element_content(value));
                out.push_str("</detail>\n");
            }
            out.push_str("</details>\n");
        }
        if self.parts.retry_after_secs > 0 {
            out.push_str("<retry_after>");
            out.push_str(itoa::Buffer::new().format(self.parts.retry_after_secs));
            out.push_str(" seconds</retry_after>\n");
        }
        out.push_str("</tool_error>");
        out
    }

    /// The response: one block, `isError` per the severity.
    pub fn into_response(self) -> ToolResponse {
        let is_error = self.is_error();
        ToolResponse::error_block(self.render(), is_error)
    }

    /// `UNKNOWN_TOOL`: the tool name is not registered (wire format §13.3). The name is echoed as
    /// [`Echo::NAME`] quotes it: escaped onto one line and cut past 200 characters.
    pub fn unknown_tool(name: &str) -> Self {
        Self::new(
            "UNKNOWN_TOOL",
            format!("Tool {} does not exist.", Echo::NAME.quote(name)),
        )
        .recovery("Check the available tools via tools/list and call a valid one.")
    }

    /// `MISSING_DISCRIMINATOR`: the arguments are not an object, or the discriminator is absent,
    /// `null` or empty.
    pub fn missing_discriminator<I>(discriminator: &str, actions: I) -> Self
    where
        I: IntoIterator,
        I::Item: Into<String>,
    {
        Self::new(
            "MISSING_DISCRIMINATOR",
            format!("The required field \"{discriminator}\" is missing."),
        )
        .recovery(format!(
            "Add the \"{discriminator}\" field as a string and call the tool again."
        ))
        .actions(actions)
    }

    /// `INVALID_DISCRIMINATOR`: the discriminator is not a string; `json_type` is `number`,
    /// `boolean`, `array` or `object`.
    pub fn invalid_discriminator<I>(discriminator: &str, json_type: &str, actions: I) -> Self
    where
        I: IntoIterator,
        I::Item: Into<String>,
    {
        Self::new(
            "INVALID_DISCRIMINATOR",
            format!("Discriminator field \"{discriminator}\" must be a string, got {json_type}."),
        )
        .recovery(format!(
            "Set \"{discriminator}\" to one of the available actions as a string."
        ))
        .actions(actions)
    }

    /// `UNKNOWN_ACTION`: the discriminator names no action. The value sent is echoed as
    /// [`Echo::NAME`] quotes it.
    pub fn unknown_action<I>(discriminator: &str, value: &str, actions: I) -> Self
    where
        I: IntoIterator,
        I::Item: Into<String>,
    {
        Self::new(
            "UNKNOWN_ACTION",
            format!(
                "The {discriminator} {} does not exist.",
                Echo::NAME.quote(value)
            ),
        )
        .recovery("Choose a valid action from available_actions and call the tool again.")
        .actions(actions)
    }

    /// `INTERNAL_ERROR` for the action `reference` (`tool/action`, or the tool name of a flat
    /// tool). The failure's own text never reaches the wire (wire format §13.7).
    pub fn internal(reference: &str) -> Self {
        Self::new(
            "INTERNAL_ERROR",
            format!("[{reference}] The action failed with an internal error."),
        )
        .recovery(
            "This may be a transient failure. Retry the call once; if it fails again, tell the user the action is unavailable.",
        )
    }
}

impl fmt::Display for ToolError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} ({}): {}",
            self.parts.code,
            self.parts.severity.as_str(),
            self.parts.message
        )
    }
}

impl std::error::Error for ToolError {}

impl ToolError {
    /// The failure behind an `INTERNAL_ERROR` made by `?`, taken out: a `Call` reports it and
    /// answers its own `INTERNAL_ERROR` (with the action's reference) instead.
    #[cfg(feature = "tool")]
    pub(crate) fn into_failure(self) -> Result<ToolError, Failure> {
        match self.parts.failure {
            Some(failure) => Err(failure),
            None => Ok(self),
        }
    }

    /// The failure behind an `INTERNAL_ERROR` made by `?`, if this is one.
    pub fn failure(&self) -> Option<&(dyn std::error::Error + Send + Sync + 'static)> {
        self.parts.failure.as_ref().map(|failure| &*failure.0)
    }
}

/// `?` on [`Presentation::build`](crate::present::Presentation::build) (or any data block
/// constructor) in a handler that returns `Result<ToolResponse, ToolError>`: a value that cannot
/// be written is `INTERNAL_ERROR` (wire format §13.7), its own text never on the wire. Through a
/// `ToolSet` or `route`, the call reports the failure and names the action as any other
/// failure's `INTERNAL_ERROR` does. (A budget not even one item fits is no error: `build()`
/// answers `RESPONSE_TOO_LARGE` itself, and `?` keeps it.)
///
/// ```
/// use fusion_runtime::{ResponseBuilder, ToolError, ToolResponse};
///
/// fn handler(ratio: f64) -> Result<ToolResponse, ToolError> {
///     let map = std::collections::HashMap::from([((1, 2), ratio)]); // a key JSON cannot hold
///     Ok(ResponseBuilder::json(&map)?.build())
/// }
/// let error = handler(0.5).unwrap_err();
/// assert_eq!(error.code(), "INTERNAL_ERROR");
/// assert!(error.failure().is_some());
/// ```
impl From<EncodeError> for ToolError {
    fn from(error: EncodeError) -> Self {
        let mut tool_error = Self::new("INTERNAL_ERROR", "The action failed with an internal error.")
            .recovery(
                "This may be a transient failure. Retry the call once; if it fails again, tell the user the action is unavailable.",
            );
        tool_error.parts.failure = Some(Failure(Arc::new(error)));
        tool_error
    }
}

impl From<ToolError> for ToolResponse {
    fn from(error: ToolError) -> Self {
        error.into_response()
    }
}
