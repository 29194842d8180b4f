//! Layer 2, the encoders: the text of a data block, and the escaping that keeps every text on
//! the wire from forging a framework tag.
//!
//! - [`escape`]: the injection-safety rules of wire format §5, in one place;
//! - [`echo`]: caller input as the envelopes repeat it: quoted, on one line, cut;
//! - [`json`]: the wire format §3 JSON writer;
//! - `tokens` (feature `budget`): token counts of response text (an estimate, and the exact
//!   count behind a feature);
//! - [`toon`]: the wire format §9 TOON encoder and its compile-time path for models;
//! - [`EncodeError`] (and its TOON detail [`ToonError`]): why a value could not be written;
//! - `reject`: the one macro with which every serde `Serializer` here turns down what it does
//!   not take.
//!
//! The encoders read models only through the model layer's traits and never know about
//! responses: they turn values into text, and the response layer makes blocks of it.

pub mod echo;
mod error;
pub mod escape;
pub mod json;
mod reject;
#[cfg(feature = "budget")]
pub mod tokens;
#[cfg_attr(
    not(feature = "tool"),
    allow(
        dead_code,
        reason = "the tool layer's TOON descriptions and a budget's fitting use more of it"
    )
)]
pub mod toon;

pub use error::{EncodeError, ToonError};
