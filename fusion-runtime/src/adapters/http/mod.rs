//! Streamable HTTP (feature `http`): a [`FusionServer`](crate::rmcp::FusionServer), or any rmcp
//! [`ServerHandler`], served over HTTP for remote hosts, on rmcp's
//! `StreamableHttpService`.
//!
//! Stateless by default (protocol revision 2026-07-28: no session, so any instance behind a
//! load balancer answers any request); rmcp's legacy session mode for older clients is
//! [`HttpConfig::legacy_sessions`]. Safe by default: loopback only, only loopback `Origin`s
//! unless others are allowed (DNS rebinding), optional bearer tokens, a body size limit, a request
//! timeout, a concurrency limit, and a graceful shutdown; see [`HttpConfig`] for each default.
//!
//! Two ways in:
//!
//! - **A server of its own**, until SIGTERM or SIGINT:
//!
//!   ```no_run
//!   # fn tools() -> fusion_runtime::ToolSet { fusion_runtime::ToolSet::new() }
//!   use fusion_runtime::http::{HttpConfig, serve_http_blocking};
//!   use fusion_runtime::rmcp::FusionServer;
//!
//!   fn main() -> Result<(), Box<dyn std::error::Error>> {
//!       let config = HttpConfig::new()
//!           .bind("127.0.0.1:8080".parse()?)
//!           .bearer_tokens_from_env("BILLING_TOKENS")?;
//!       serve_http_blocking(FusionServer::new("billing", tools()), config)?;
//!       Ok(())
//!   }
//!   ```
//!
//!   (or [`HttpServer`] inside an async `main`.)
//! - **A tower service mounted in an existing app**, such as an axum `Router`:
//!
//!   ```ignore
//!   let mcp = fusion_runtime::http::mcp_service(FusionServer::new("billing", tools), &config);
//!   let app = axum::Router::new().route_service("/mcp", mcp.clone()).route("/health", get(ok));
//!   axum::serve(listener, app).with_graceful_shutdown(signal).await?;
//!   mcp.drain(Duration::from_secs(30)).await; // let calls in flight finish
//!   ```
//!
//! Only HTTP/1.1 is served by [`HttpServer`] (TLS and HTTP/2 belong to the proxy in front).
//! Application state that calls change (such as a voided invoice) must live in the
//! application's own store, not in the process, for two instances to answer alike.

mod config;
mod serve;
mod service;

use std::sync::Arc;

use rmcp::ServerHandler;

pub use config::{
    DEFAULT_BIND, DEFAULT_MAX_BODY_BYTES, DEFAULT_MAX_CONCURRENT_REQUESTS, DEFAULT_PATH,
    DEFAULT_REQUEST_TIMEOUT, DEFAULT_SHUTDOWN_GRACE, HttpConfig, HttpError, INSTANCE_HEADER,
    LOOPBACK_ORIGINS,
};
pub use serve::{HttpServer, serve_http_blocking};
pub use service::{McpHttpService, ResponseBody};

/// `server` as a tower service with the guards of `config` (everything but the address and
/// path, which belong to whoever mounts it): bearer tokens, `Origin` and `Host` checks, body
/// size, request timeout and concurrency limit. Call [`McpHttpService::drain`] at shutdown.
pub fn mcp_service<S: ServerHandler>(server: S, config: &HttpConfig) -> McpHttpService<S> {
    McpHttpService::new(Arc::new(server), config)
}
