//! TOON (wire format §9): the encoder for any `Serialize` value, and the TOON responses.
//!
//! [`encode`] writes TOON v4.0 as the official encode suite expects it, with the two deviations
//! wire format §9.3 makes on purpose: integers keep all their digits (up to 128 bits) and every finite
//! float is written positionally, never with an exponent. A string holding a framework tag start
//! (wire format §5.1) is quoted with its `<` written `\u003c`, so a TOON block never carries a forged tag.
//! Keys are never folded. [`success`] answers a call with a TOON data block.
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
//! writes the same 572,772 bytes). Fastest samples on the 2-core development machine (median
//! over five runs, PERFORMANCE.md): the generic encoder 0.82 ms (it streams such a table row by
//! row), the compile-time path ([`encode_table`]) 0.87 ms, `serde_json::to_string_pretty`
//! 1.6 ms, `toon-format` 0.7's `encode` 37 ms. Beyond speed, `toon-format` goes through
//! `serde_json::Value`, so it refuses integers beyond 64 bits, and it does not quote framework
//! tag starts (wire format §5.7). Owning the encoder also lets the compile-time path share its quoting
//! and number code byte for byte.
//!
//! The encoder itself is in the encode layer; this module is its public face, next to the
//! responses it builds.

use serde::Serialize;

pub use crate::encode::ToonError;
pub use crate::encode::toon::{Delimiter, ToonOptions, encode, encode_table};

use super::builder::ResponseBuilder;
use super::tool_response::ToolResponse;
use crate::encode::EncodeError;
use crate::model::Model;

/// A TOON response (wire format §9.1): one data block holding the TOON encoding of `value` with the
/// pipe delimiter and two-space indentation, `OK` when the encoding is empty (an empty object).
///
/// The testing view's data (feature `testing`) is the encoded value as a `serde_json::Value`; an integer beyond
/// 64 bits shows there as the nearest float (the block itself keeps every digit).
///
/// ```
/// let rows = serde_json::json!([{"id": 1, "name": "A"}, {"id": 2}]);
/// let response = fusion_runtime::toon::success(&rows)?;
/// assert_eq!(response.blocks()[0], "[2|]:\n  - id: 1\n    name: A\n  - id: 2");
/// # #[cfg(feature = "testing")]
/// assert_eq!(response.view().data().as_value(), Some(&rows));
/// # Ok::<(), fusion_runtime::toon::ToonError>(())
/// ```
pub fn success<T: Serialize + ?Sized>(value: &T) -> Result<ToolResponse, ToonError> {
    Ok(ResponseBuilder::toon(value)?.build())
}

/// [`success`] for a collection of models, written by the compile-time path
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
/// let response = fusion_runtime::toon::success_table(&rows)?;
/// assert_eq!(response.blocks()[0], "[2|]{id|name}:\n  1|A\n  2|\"B|C\"");
/// assert_eq!(response.blocks(), fusion_runtime::toon::success(&rows)?.blocks());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn success_table<T: Model>(items: &[T]) -> Result<ToolResponse, EncodeError> {
    Ok(ResponseBuilder::toon_table(items)?.build())
}
