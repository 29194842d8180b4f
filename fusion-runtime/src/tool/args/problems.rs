//! The vocabulary of argument problems (wire format §13.5): what is wrong with one field of a call,
//! worded as the `<field>` lines of a `<validation_error>` write it.

use std::fmt;

use crate::encode::echo::Echo;
use crate::encode::json::number_text;

/// A JSON type name as wire format §13.5 writes it.
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

/// What a field expects, for the EXPECT part of a detail (wire format §13.5).
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

/// The SENT description of a JSON value (wire format §13.5): `'text'` (shortened past 50 characters,
/// escaped onto one line as [`Echo::SENT`] quotes it), a number's text, `true`/`false`/`null`,
/// `an array of N items`, `an object`.
pub(crate) fn describe_sent(value: &serde_json::Value) -> String {
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

/// A bound of an out-of-range detail, written as wire format §13.5 writes numbers.
#[derive(Debug, Clone, PartialEq)]
pub enum Bound {
    /// An integer bound, exact.
    Int(i128),
    /// A float bound, in wire format §3.6 text.
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

/// One problem of a call's arguments, one `<field>` line (wire format §13.5).
#[derive(Debug, Clone, PartialEq)]
pub enum ProblemKind {
    /// A required field is absent.
    Missing {
        /// What the field expects.
        expected: Expected,
    },
    /// The JSON type is wrong.
    WrongType {
        /// SENT of the value, as wire format §13.5 describes a sent value.
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
}
