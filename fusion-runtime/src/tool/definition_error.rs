//! Why a tool cannot be defined.

use std::fmt;

/// Why a tool cannot be defined. Its text says what to change.
///
/// Its `Debug` form is that text too: a `main` that returns `Result<(), Box<dyn Error>>` prints
/// an error with `Debug`, and a server that stops at startup must say why in words (an MCP client
/// such as the Python SDK shows the server's stderr above its own traceback).
#[derive(Clone, PartialEq, Eq)]
pub struct DefinitionError {
    tool: String,
    message: String,
}

impl DefinitionError {
    pub(crate) fn new(tool: &str, message: impl Into<String>) -> Self {
        DefinitionError {
            tool: tool.to_owned(),
            message: message.into(),
        }
    }

    /// The tool's name.
    pub fn tool(&self) -> &str {
        &self.tool
    }
}

impl fmt::Display for DefinitionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "tool `{}` cannot be defined: {}",
            self.tool, self.message
        )
    }
}

impl fmt::Debug for DefinitionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl std::error::Error for DefinitionError {}

impl DefinitionError {
    /// A second tool named `name` in one set.
    pub(crate) fn duplicate(name: &str) -> Self {
        DefinitionError::new(name, "a tool of this name is already in the set")
    }
}
