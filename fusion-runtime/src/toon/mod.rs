//! TOON (SPEC §9): a spec-conformant encoder for any [`Serialize`] value, and the TOON response.
//!
//! [`encode`] writes TOON v4.0 as the official encode suite expects it, with the two deviations
//! SPEC §9.3 makes on purpose: integers keep all their digits (up to 128 bits) and every finite
//! float is written positionally, never with an exponent. A string holding a framework tag start
//! (SPEC §5.1) is quoted with its `<` written `\u003c`, so a TOON block never carries a forged tag.
//! Keys are never folded.
//!
//! ```
//! use fusion_runtime::toon::{self, ToonOptions};
//!
//! let rows = serde_json::json!([
//!     {"id": 1, "name": "Alice", "email": "a@x.io"},
//!     {"id": 2, "name": "Bob", "email": "b@x.io"},
//! ]);
//! assert_eq!(
//!     toon::encode(&rows, &ToonOptions::default()).unwrap(),
//!     "[2]{id,name,email}:\n  1,Alice,a@x.io\n  2,Bob,b@x.io",
//! );
//! assert_eq!(
//!     toon::encode(&rows, &ToonOptions::pipe()).unwrap(),
//!     "[2|]{id|name|email}:\n  1|Alice|a@x.io\n  2|Bob|b@x.io",
//! );
//! ```
//!
//! ## Why our own encoder
//!
//! `cargo bench -p fusion-runtime --bench toon` encodes 10,000 flat invoice rows (every encoder
//! writes the same 572,772 bytes). Medians on the 2-core development machine: the compile-time
//! path ([`encode_table`]) 1.03 ms, the generic encoder 2.9 ms, `toon-format` 0.7's `encode`
//! 32 ms, `serde_json::to_string_pretty` 1.7 ms. Beyond speed, `toon-format` goes through
//! `serde_json::Value`, so it refuses integers beyond 64 bits, and it does not quote framework
//! tag starts (SPEC §5.7). Owning the encoder also lets the compile-time path share its quoting
//! and number code byte for byte.

pub(crate) mod encode;
pub(crate) mod quote;
pub(crate) mod table;
pub(crate) mod value;

pub use table::encode_table;

use serde::Serialize;

use crate::json::{self, JsonError};
use crate::present::Model;
use crate::response::{ResponseBuilder, ToolResponse};
use crate::view::ViewData;
use table::{Members, Row, Rows};

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
/// options of TOON responses ([`toon_success`]) and TOON tool descriptions.
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
    /// Pipe delimiter, two-space indentation: what [`toon_success`] uses (SPEC §9.1).
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

/// Encodes `value` as a TOON document (SPEC §9): lines joined by LF, no final LF, no trailing
/// spaces; an empty object gives an empty string.
///
/// Member order is the value's own (a struct's declaration order, a map's iteration order).
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
    let tree = value::to_tree(value)?;
    Ok(encode::encode_tree(&tree, options))
}

/// A TOON response (SPEC §9.1): one data block holding the TOON encoding of `value` with the
/// pipe delimiter and two-space indentation, `OK` when the encoding is empty (an empty object).
///
/// The testing view's data is the encoded value as a `serde_json::Value`; an integer beyond
/// 64 bits shows there as the nearest float (the block itself keeps every digit).
///
/// ```
/// let rows = serde_json::json!([{"id": 1, "name": "A"}, {"id": 2}]);
/// let response = fusion_runtime::toon_success(&rows)?;
/// assert_eq!(response.blocks()[0], "[2|]:\n  - id: 1\n    name: A\n  - id: 2");
/// assert_eq!(response.view().data().as_value(), Some(&rows));
/// # Ok::<(), fusion_runtime::toon::ToonError>(())
/// ```
pub fn toon_success<T: Serialize + ?Sized>(value: &T) -> Result<ToolResponse, ToonError> {
    Ok(ResponseBuilder::toon(value)?.build())
}

/// [`toon_success`] for a collection of models, written by the compile-time path
/// ([`encode_table`]): the same block, several times faster for large collections.
///
/// The testing view's data is the wire value as a JSON data block would show it (so an integral
/// float shows as an integer, as it does in the JSON view).
///
/// ```
/// #[derive(fusion_runtime::Presenter)]
/// struct Row { id: u32, name: String }
///
/// let rows = [Row { id: 1, name: "A".into() }, Row { id: 2, name: "B|C".into() }];
/// let response = fusion_runtime::toon_success_table(&rows)?;
/// assert_eq!(response.blocks()[0], "[2|]{id|name}:\n  1|A\n  2|\"B|C\"");
/// assert_eq!(response.blocks(), fusion_runtime::toon_success(&rows)?.blocks());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn toon_success_table<T: Model>(items: &[T]) -> Result<ToolResponse, JsonError> {
    Ok(ResponseBuilder::toon_table(items)?.build())
}

impl ResponseBuilder {
    /// A TOON data block of a collection of models, by the compile-time path; what
    /// [`toon_success_table`] builds.
    pub fn toon_table<T: Model>(items: &[T]) -> Result<Self, JsonError> {
        presented_all(items, Members::Every)
    }

    /// A TOON data block (SPEC §9.1) of any serializable value, to add UI, rules or suggestions
    /// to; [`toon_success`] is this plus `build`.
    pub fn toon<T: Serialize + ?Sized>(value: &T) -> Result<Self, ToonError> {
        let tree = value::to_tree(value)?;
        let mut text = encode::encode_tree(&tree, &ToonOptions::pipe());
        if text.is_empty() {
            text.push_str("OK");
        }
        Ok(ResponseBuilder::from_data(
            text,
            ViewData::Toon(tree.into_json()),
        ))
    }
}

/// The TOON data block of a presented single value (SPEC §9.1 with a presenter's wire value):
/// the generic encoding with the pipe delimiter, `OK` when empty (every member deselected).
///
/// The view holds the wire value as the JSON data block would show it (see [`presented_all`]).
pub(crate) fn presented_one<T: Model>(
    item: &T,
    members: Members<'_>,
) -> Result<ResponseBuilder, JsonError> {
    let wire = Row { item, members };
    let view = json::to_string(&wire)?;
    let mut text = encode(&wire, &ToonOptions::pipe()).map_err(JsonError::from_toon)?;
    if text.is_empty() {
        text.push_str("OK");
    }
    Ok(ResponseBuilder::from_data(
        text,
        ViewData::ToonJson(view, std::sync::OnceLock::new()),
    ))
}

/// The TOON data block of a presented collection: the compile-time path ([`encode_table`]),
/// which falls back on the generic encoder for rows that are no table.
///
/// The view keeps the wire value as its SPEC §3 JSON text and parses it on first use, so a view
/// nobody reads costs one JSON write instead of a value tree, and the view data is exactly what
/// the same presentation with a JSON data block shows.
pub(crate) fn presented_all<T: Model>(
    items: &[T],
    members: Members<'_>,
) -> Result<ResponseBuilder, JsonError> {
    let view = json::to_string(&Rows { items, members })?;
    let text =
        table::encode_rows(items, members, &ToonOptions::pipe()).map_err(JsonError::from_toon)?;
    Ok(ResponseBuilder::from_data(
        text,
        ViewData::ToonJson(view, std::sync::OnceLock::new()),
    ))
}
