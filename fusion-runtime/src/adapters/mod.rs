//! Layer 6, the adapters: fusion tools and responses in the servers of MCP libraries.
//!
//! - `rmcp` (feature `rmcp`): rmcp servers, over stdio.
//!
//! An adapter may import every other layer; nothing imports an adapter.

#[cfg(feature = "rmcp")]
pub mod rmcp;
