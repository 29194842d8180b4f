//! The examples' tests: the billing wire format vectors in process (`billing`), the real binaries over
//! MCP stdio (`e2e`, `hostile`, `load`; `stdio_guard` line by line; `hostile_table` over stdio
//! and HTTP alike), asynchronous handlers
//! inside rmcp servers (`rmcp_async`), Streamable HTTP with the Python and TypeScript clients
//! (`http`), `void_invoice`'s confirmation (`confirm`), and the MCP Apps view served by `billing_server` and `tasks_server` (`mcp_app`) and
//! rendered in headless Chromium (`browser`). One test binary, so the tests link once.

mod billing;
mod browser;
mod confirm;
mod e2e;
mod hostile;
mod hostile_table;
mod http;
mod load;
mod mcp_app;
mod rmcp_async;
mod stdio_guard;
mod support;
