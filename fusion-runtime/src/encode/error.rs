//! The errors of the encoders: [`EncodeError`], the one error of writing a data block, and
//! [`ToonError`], what the TOON encoder reports in detail (an [`EncodeError`] can carry one).

/// Why a value could not be written as a data block: as JSON (wire format §3) or, for a TOON data block
/// (wire format §9), as TOON.
///
/// `Serialize` values that fail: a map whose keys are not strings (or integers, booleans or
/// finite floats, which are written as strings), or a `Serialize` impl that reports an error of
/// its own. The message says which.
#[derive(Debug)]
pub struct EncodeError(Inner);

#[derive(Debug)]
enum Inner {
    Json(serde_json::Error),
    /// A TOON data block (wire format §9) that could not be written; only presenters with the TOON
    /// format report it here, so that `Presentation::build` keeps one error type.
    Toon(ToonError),
}

impl EncodeError {
    /// Wraps an error of `serde_json`.
    pub(crate) fn from_serde(error: serde_json::Error) -> Self {
        EncodeError(Inner::Json(error))
    }

    /// Wraps the error of a presenter's TOON data block.
    pub(crate) fn from_toon(error: ToonError) -> Self {
        EncodeError(Inner::Toon(error))
    }
}

impl std::fmt::Display for EncodeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.0 {
            Inner::Json(error) => write!(
                f,
                "the value cannot be written as JSON ({error}); use string map keys (or a list of \
                 pairs) and make sure its `Serialize` impl succeeds"
            ),
            // Its own message says what to do.
            Inner::Toon(error) => error.fmt(f),
        }
    }
}

impl std::error::Error for EncodeError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match &self.0 {
            Inner::Json(error) => Some(error),
            Inner::Toon(error) => Some(error),
        }
    }
}

impl From<ToonError> for EncodeError {
    fn from(error: ToonError) -> Self {
        EncodeError::from_toon(error)
    }
}

/// Why a value could not be written as TOON.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ToonError {
    /// The value's `Serialize` impl reported an error of its own.
    Custom(String),
    /// A map key was not a string, a number, a boolean, a character or a unit variant.
    KeyMustBeString {
        /// What the key was, e.g. `a sequence`.
        found: &'static str,
    },
    /// An object had two members of the same name.
    DuplicateKey(String),
    /// The options asked for an indentation of zero spaces.
    ZeroIndent,
}

impl std::fmt::Display for ToonError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ToonError::Custom(message) => {
                write!(f, "the value cannot be written as TOON: {message}")
            }
            ToonError::KeyMustBeString { found } => write!(
                f,
                "a TOON member name must be a string, but a map key is {found}; \
                 use string (or integer) keys, or serialize the map as a list of pairs"
            ),
            ToonError::DuplicateKey(key) => write!(
                f,
                "an object has two members named `{key}`, which TOON cannot represent; \
                 rename one (check `#[serde(flatten)]` and `#[serde(rename)]`)"
            ),
            ToonError::ZeroIndent => write!(
                f,
                "TOON indentation must be at least one space; use `ToonOptions::with_indent(2)`"
            ),
        }
    }
}

impl std::error::Error for ToonError {}

impl serde::ser::Error for ToonError {
    fn custom<T: std::fmt::Display>(message: T) -> Self {
        ToonError::Custom(message.to_string())
    }
}
