//! The `<validation_error>` envelope (wire format §13.4): every problem of a call's arguments at once.

use std::fmt;

use super::problems::Problem;
use crate::encode::escape;
use crate::response::ToolResponse;

/// The recovery line of every `<validation_error>`.
const VALIDATION_RECOVERY: &str =
    "Fix the fields above and call the tool again. Do not explain the error.";

/// A `<validation_error>` envelope: every problem of a call's arguments (wire format §13.4).
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
    use crate::tool::{Bound, Expected, JsonType, ProblemKind};

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
