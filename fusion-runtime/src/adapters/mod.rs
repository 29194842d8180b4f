//! Layer 6, the adapters: fusion tools and responses in the servers of MCP libraries.
//!
//! - `rmcp` (feature `rmcp`): rmcp servers, over stdio.
//! - `http` (feature `http`): those servers over Streamable HTTP, on rmcp's transport.
//!
//! An adapter may import every other layer; nothing imports an adapter.

#[cfg(feature = "rmcp")]
pub mod rmcp;

#[cfg(feature = "http")]
pub mod http;
