//! Layer 6, the adapters: fusion tools and responses in the servers of MCP libraries.
//!
//! - `rmcp` (feature `rmcp`): rmcp servers, over stdio;
//! - `http` (feature `http`): those servers over Streamable HTTP, on rmcp's transport;
//! - `mcp_app` (feature `mcp-app`, default): the MCP Apps view of UI blocks, the one resource
//!   every adapter serves (public as `fusion_runtime::mcp_app`, so that any server can serve it).
//!
//! An adapter may import every other layer; nothing imports an adapter.

#[cfg(feature = "mcp-app")]
pub mod mcp_app;
#[cfg(feature = "rmcp")]
pub mod rmcp;

#[cfg(feature = "http")]
pub mod http;
