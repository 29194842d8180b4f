//! The error envelopes (SPEC §13): `<tool_error>` with its severity rule, the toolkit's routing
//! errors and `INTERNAL_ERROR`, and the `<validation_error>` renderer with SPEC §13.5's wording.
//!
//! ```
//! use fusion_runtime::error::ToolError;
//! let response = ToolError::not_found("Invoice \"INV-9\" does not exist.")
//!     .recovery("Call billing with action \"list_invoices\" to find valid ids.")
//!     .action("list_invoices")
//!     .into_response();
//! assert_eq!(response.is_error(), Some(true));
//! ```
//!
//! The toolkit's own envelopes repeat caller input only through [`crate::echo::Echo`] (quoted,
//! on one line, cut); a message of the application's that repeats it should too:
//! `format!("Invoice {} does not exist.", Echo::NAME.quote(id))`.

use std::fmt;

use crate::echo::Echo;
use crate::escape;
use crate::json::number_text;
use crate::response::ToolResponse;

/// How bad a `<tool_error>` is; `warning` answers with `isError: false` (SPEC §13.1).
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
/// actions, details and a retry delay (SPEC §13.1).
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
    actions: Vec<String>,
    details: Vec<(String, String)>,
    retry_after_secs: u64,
}

/// The code written when a caller gave an empty one: SPEC §13.1 requires a non-empty code.
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

    /// Appends an available action.
    #[must_use]
    pub fn action(mut self, action: impl Into<String>) -> Self {
        self.parts.actions.push(action.into());
        self
    }

    /// Appends several available actions, in order.
    #[must_use]
    pub fn actions<I>(mut self, actions: I) -> Self
    where
        I: IntoIterator,
        I::Item: Into<String>,
    {
        self.parts
            .actions
            .extend(actions.into_iter().map(Into::into));
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
            for action in &self.parts.actions {
                out.push_str("  <action>");
                out.push_str(&escape::element_content(action));
                out.push_str("</action>\n");
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

    /// `UNKNOWN_TOOL`: the tool name is not registered (SPEC §13.3). The name is echoed as
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
    /// tool). The failure's own text never reaches the wire (SPEC §13.7).
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

impl From<ToolError> for ToolResponse {
    fn from(error: ToolError) -> Self {
        error.into_response()
    }
}

/// A JSON type name as SPEC §13.5 writes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum JsonType {
    /// `string`
    String,
    /// `integer`
    Integer,
    /// `number`
    Number,
    /// `boolean`
    Boolean,
    /// `array`
    Array,
    /// `object`
    Object,
}

impl JsonType {
    /// The name: `string`, `integer`, `number`, `boolean`, `array` or `object`.
    pub fn as_str(self) -> &'static str {
        match self {
            JsonType::String => "string",
            JsonType::Integer => "integer",
            JsonType::Number => "number",
            JsonType::Boolean => "boolean",
            JsonType::Array => "array",
            JsonType::Object => "object",
        }
    }
}

/// What a field expects, for the EXPECT part of a detail (SPEC §13.5).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Expected {
    /// One of these text options.
    Options(Vec<String>),
    /// A value of this JSON type.
    Type(JsonType),
}

impl fmt::Display for Expected {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Expected::Options(options) => write!(f, "Valid options: {}.", QuotedList(options)),
            Expected::Type(t) => write!(f, "Expected type: {}.", t.as_str()),
        }
    }
}

/// Names in single quotes joined by `, `.
struct QuotedList<'a>(&'a [String]);

impl fmt::Display for QuotedList<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, name) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write!(f, "'{name}'")?;
        }
        Ok(())
    }
}

/// The SENT description of a JSON value (SPEC §13.5): `'text'` (shortened past 50 characters,
/// escaped onto one line as [`Echo::SENT`] quotes it), a number's text, `true`/`false`/`null`,
/// `an array of N items`, `an object`.
pub fn describe_sent(value: &serde_json::Value) -> String {
    use serde_json::Value;
    match value {
        Value::Null => "null".to_owned(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => {
            if let Some(i) = n.as_i64() {
                i.to_string()
            } else if let Some(u) = n.as_u64() {
                u.to_string()
            } else {
                number_text(n.as_f64().unwrap_or(f64::NAN))
            }
        }
        Value::String(s) => Echo::SENT.quote(s),
        Value::Array(items) if items.len() == 1 => "an array of 1 item".to_owned(),
        Value::Array(items) => format!("an array of {} items", items.len()),
        Value::Object(_) => "an object".to_owned(),
    }
}

/// A bound of an out-of-range detail, written as SPEC §13.5 writes numbers.
#[derive(Debug, Clone, PartialEq)]
pub enum Bound {
    /// An integer bound, exact.
    Int(i128),
    /// A float bound, in SPEC §3.6 text.
    Float(f64),
}

impl fmt::Display for Bound {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Bound::Int(i) => write!(f, "{i}"),
            Bound::Float(x) => f.write_str(&number_text(*x)),
        }
    }
}

/// One problem of a call's arguments, one `<field>` line (SPEC §13.5).
#[derive(Debug, Clone, PartialEq)]
pub enum ProblemKind {
    /// A required field is absent.
    Missing {
        /// What the field expects.
        expected: Expected,
    },
    /// The JSON type is wrong.
    WrongType {
        /// SENT of the value (see [`describe_sent`]).
        sent: String,
        /// What the field expects.
        expected: Expected,
    },
    /// A member the input does not declare; `valid` lists the object's member names (empty when
    /// the object accepts none).
    UnknownField {
        /// The valid member names, in order.
        valid: Vec<String>,
    },
    /// A text that is none of the field's options.
    InvalidEnum {
        /// SENT of the value.
        sent: String,
        /// The options.
        options: Vec<String>,
    },
    /// A `_select` element not in the tool's names.
    UnknownSelection {
        /// SENT of the element.
        sent: String,
        /// The tool's selectable names, sorted.
        names: Vec<String>,
    },
    /// The tag member of a tagged union names no variant.
    UnknownVariant {
        /// SENT of the tag.
        sent: String,
        /// The variant tags.
        variants: Vec<String>,
    },
    /// A number outside the field's bounds.
    OutOfRange {
        /// SENT of the number.
        sent: String,
        /// The lower bound, if any.
        min: Option<Bound>,
        /// The upper bound, if any.
        max: Option<Bound>,
    },
    /// More problems than one envelope lists: the walk stopped after `listed` of them.
    TooMany {
        /// How many problems the envelope lists before this line.
        listed: usize,
    },
    /// A value rejected by a check the action declares itself.
    Invalid {
        /// SENT of the value.
        sent: String,
        /// The declared reason.
        reason: String,
    },
}

impl fmt::Display for ProblemKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ProblemKind::Missing { expected } => write!(f, "Missing required field. {expected}"),
            ProblemKind::WrongType { sent, expected } => {
                write!(f, "Wrong type. You sent: {sent}. {expected}")
            }
            ProblemKind::UnknownField { valid } if valid.is_empty() => {
                f.write_str("Unknown field. This object accepts no fields.")
            }
            ProblemKind::UnknownField { valid } => {
                write!(f, "Unknown field. Valid fields: {}.", QuotedList(valid))
            }
            ProblemKind::InvalidEnum { sent, options } => write!(
                f,
                "Invalid value. You sent: {sent}. Valid options: {}.",
                QuotedList(options)
            ),
            ProblemKind::UnknownSelection { sent, names } => write!(
                f,
                "Unknown field name. You sent: {sent}. Valid names: {}.",
                QuotedList(names)
            ),
            ProblemKind::UnknownVariant { sent, variants } => write!(
                f,
                "Unknown variant. You sent: {sent}. Valid options: {}.",
                QuotedList(variants)
            ),
            ProblemKind::OutOfRange { sent, min, max } => {
                write!(f, "Out of range. You sent: {sent}. ")?;
                match (min, max) {
                    (Some(min), Some(max)) => write!(f, "Must be between {min} and {max}."),
                    (Some(min), None) => write!(f, "Must be at least {min}."),
                    (None, Some(max)) => write!(f, "Must be at most {max}."),
                    (None, None) => f.write_str("Must be a representable number."),
                }
            }
            ProblemKind::Invalid { sent, reason } => {
                write!(f, "Invalid value. You sent: {sent}. {reason}")
            }
            ProblemKind::TooMany { listed } => write!(
                f,
                "More problems than listed: only the first {listed} are reported. Fix them and call the tool again."
            ),
        }
    }
}

/// A problem at a path of the arguments.
#[derive(Debug, Clone, PartialEq)]
pub struct Problem {
    /// Member names and element indexes from the root joined by `.`; `(root)` for the whole.
    pub path: String,
    /// What is wrong.
    pub kind: ProblemKind,
}

impl Problem {
    /// A problem at `path`.
    pub fn new(path: impl Into<String>, kind: ProblemKind) -> Self {
        Problem {
            path: path.into(),
            kind,
        }
    }
}

/// The recovery line of every `<validation_error>`.
const VALIDATION_RECOVERY: &str =
    "Fix the fields above and call the tool again. Do not explain the error.";

/// A `<validation_error>` envelope: every problem of a call's arguments (SPEC §13.4).
#[derive(Debug, Clone, PartialEq)]
pub struct ValidationError {
    reference: String,
    problems: Vec<Problem>,
}

impl ValidationError {
    /// The envelope for `reference` (`tool/action`, or the tool of a flat tool), or `None` when
    /// there is no problem: an envelope always has at least one `<field>`.
    pub fn new(reference: impl Into<String>, problems: Vec<Problem>) -> Option<Self> {
        if problems.is_empty() {
            return None;
        }
        Some(ValidationError {
            reference: reference.into(),
            problems,
        })
    }

    /// The problems, in report order.
    pub fn problems(&self) -> &[Problem] {
        &self.problems
    }

    /// The envelope text.
    pub fn render(&self) -> String {
        let mut out = String::with_capacity(160 + 80 * self.problems.len());
        out.push_str("<validation_error action=\"");
        out.push_str(&escape::attribute(&self.reference));
        out.push_str("\">\n");
        for problem in &self.problems {
            out.push_str("<field name=\"");
            out.push_str(&escape::attribute(&problem.path));
            out.push_str("\">");
            out.push_str(&escape::element_content(&problem.kind.to_string()));
            out.push_str("</field>\n");
        }
        out.push_str("<recovery>");
        out.push_str(VALIDATION_RECOVERY);
        out.push_str("</recovery>\n</validation_error>");
        out
    }

    /// The response: one block, `isError: true`.
    pub fn into_response(self) -> ToolResponse {
        ToolResponse::error_block(self.render(), true)
    }
}

impl fmt::Display for ValidationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "invalid arguments for {}: ", self.reference)?;
        for (i, problem) in self.problems.iter().enumerate() {
            if i > 0 {
                f.write_str("; ")?;
            }
            write!(f, "{}: {}", problem.path, problem.kind)?;
        }
        Ok(())
    }
}

impl std::error::Error for ValidationError {}

impl From<ValidationError> for ToolResponse {
    fn from(error: ValidationError) -> Self {
        error.into_response()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sent_shortens_long_texts() {
        let long = serde_json::Value::String("x".repeat(60));
        assert_eq!(describe_sent(&long), format!("'{}...'", "x".repeat(47)));
        assert_eq!(describe_sent(&serde_json::json!(5.0)), "5");
        assert_eq!(describe_sent(&serde_json::json!([1])), "an array of 1 item");
    }

    #[test]
    fn v63_details() {
        let problems = vec![
            Problem::new(
                "id",
                ProblemKind::WrongType {
                    sent: "5".into(),
                    expected: Expected::Type(JsonType::String),
                },
            ),
            Problem::new(
                "limit",
                ProblemKind::OutOfRange {
                    sent: "99".into(),
                    min: Some(Bound::Int(0)),
                    max: Some(Bound::Int(10)),
                },
            ),
            Problem::new(
                "extra",
                ProblemKind::UnknownField {
                    valid: ["action", "id", "limit", "_select"]
                        .map(String::from)
                        .to_vec(),
                },
            ),
        ];
        let error = ValidationError::new("billing/get", problems).expect("problems");
        assert_eq!(
            error.render(),
            "<validation_error action=\"billing/get\">\n<field name=\"id\">Wrong type. You sent: 5. Expected type: string.</field>\n<field name=\"limit\">Out of range. You sent: 99. Must be between 0 and 10.</field>\n<field name=\"extra\">Unknown field. Valid fields: 'action', 'id', 'limit', '_select'.</field>\n<recovery>Fix the fields above and call the tool again. Do not explain the error.</recovery>\n</validation_error>"
        );
    }
}
