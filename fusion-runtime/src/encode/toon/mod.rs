//! The TOON encoder (wire format §9): a spec-conformant encoder for any `Serialize` value
//! ([`encode()`]), and the compile-time path for collections of models ([`encode_table`]).
//!
//! Two ways to the same bytes: a table, and a value tree.
//!
//! - **Tables** (wire format §9.6) are written row by row into the table sink (`sink`: the
//!   header, then each row), every row by the one row serializer (`row`, its cells by `cell`),
//!   straight from serde. The rows come from a collection of models, whose names the model
//!   declares (`table`: [`encode_table`]), or from a root list given to [`encode()`], whose names
//!   are its first element's (`stream`).
//! - **Anything else** (a root object, a list of lists or of nested objects, and any row that
//!   does not fit its table, which hands the whole value over) is built as a value tree
//!   (`value`) and walked (`encode`), which writes the form the specification prescribes and
//!   reports the errors.
//!
//! Its public face, with the examples and why the toolkit has its own encoder, is
//! [`fusion_runtime::toon`](crate::toon).

pub(crate) mod cell;
pub(crate) mod encode;
pub(crate) mod quote;
mod row;
mod sink;
pub(crate) mod stream;
pub(crate) mod table;
pub(crate) mod value;

pub use table::encode_table;

use serde::Serialize;

use super::error::ToonError;

/// The delimiter between the cells of inline lists and table rows, and in table headers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Delimiter {
    /// `,`, the TOON default; a header carries no delimiter mark (`[2]`, `{a,b}`).
    #[default]
    Comma,
    /// TAB; a header carries a TAB after the count (`[2\t]`).
    Tab,
    /// `|`, the delimiter of TOON responses and tool descriptions (`[2|]`).
    Pipe,
}

impl Delimiter {
    /// The delimiter character.
    pub const fn as_char(self) -> char {
        match self {
            Delimiter::Comma => ',',
            Delimiter::Tab => '\t',
            Delimiter::Pipe => '|',
        }
    }

    /// The delimiter as its single ASCII byte.
    pub(crate) const fn as_byte(self) -> u8 {
        match self {
            Delimiter::Comma => b',',
            Delimiter::Tab => b'\t',
            Delimiter::Pipe => b'|',
        }
    }
}

/// How [`encode`] writes: the delimiter and the indentation step.
///
/// The default is the TOON specification's: comma, two spaces. [`ToonOptions::pipe`] gives the
/// options of TOON responses ([`toon::success`](crate::toon::success)) and TOON tool descriptions.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ToonOptions {
    delimiter: Delimiter,
    indent: usize,
}

impl Default for ToonOptions {
    fn default() -> Self {
        ToonOptions {
            delimiter: Delimiter::Comma,
            indent: 2,
        }
    }
}

impl ToonOptions {
    /// Pipe delimiter, two-space indentation: what [`toon::success`](crate::toon::success) uses (wire format §9.1).
    pub const fn pipe() -> Self {
        ToonOptions {
            delimiter: Delimiter::Pipe,
            indent: 2,
        }
    }

    /// These options with another delimiter.
    #[must_use]
    pub const fn with_delimiter(mut self, delimiter: Delimiter) -> Self {
        self.delimiter = delimiter;
        self
    }

    /// These options with `spaces` spaces per depth level; [`encode`] refuses 0.
    #[must_use]
    pub const fn with_indent(mut self, spaces: usize) -> Self {
        self.indent = spaces;
        self
    }

    /// The delimiter.
    pub const fn delimiter(&self) -> Delimiter {
        self.delimiter
    }

    /// Spaces per depth level.
    pub const fn indent(&self) -> usize {
        self.indent
    }
}

/// Encodes `value` as a TOON document (wire format §9): lines joined by LF, no final LF, no trailing
/// spaces; an empty object gives an empty string.
///
/// Member order is the value's own (a struct's declaration order, a map's iteration order).
///
/// A list of flat objects whose members come in one order (the rows of one struct type) is
/// written row by row without first building a copy of the whole value; any other value is
/// encoded from a value tree, with the same bytes either way.
///
/// ```
/// use fusion_runtime::toon::{encode, ToonOptions};
///
/// #[derive(serde::Serialize)]
/// struct Line { sku: &'static str, qty: u32 }
///
/// let lines = [Line { sku: "A1", qty: 2 }, Line { sku: "B2", qty: 1 }];
/// assert_eq!(encode(&lines, &ToonOptions::pipe())?, "[2|]{sku|qty}:\n  A1|2\n  B2|1");
/// # Ok::<(), fusion_runtime::toon::ToonError>(())
/// ```
pub fn encode<T: Serialize + ?Sized>(
    value: &T,
    options: &ToonOptions,
) -> Result<String, ToonError> {
    if options.indent == 0 {
        return Err(ToonError::ZeroIndent);
    }
    // A root list of flat rows is written without a tree; anything else (or a row that does
    // not fit the first one's shape) takes the tree path, which gives the same bytes.
    if let Some(text) = stream::table(value, options) {
        return Ok(text);
    }
    let tree = value::to_tree(value)?;
    Ok(encode::encode_tree(&tree, options))
}
