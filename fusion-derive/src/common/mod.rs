//! What both derives share: error plumbing, the names of attributes and keys, the key-argument
//! parser, case conversion, the runtime crate path and the copy of serde's attribute grammar.
//!
//! Nothing here knows about a presenter or a tool: each derive brings its key specs and its
//! wording (a [`args::Voice`]), and gets back checked values.

pub mod args;
pub mod case;
pub mod diag;
pub mod krate;
pub mod meta;
pub mod serde_attr;
pub mod symbol;
