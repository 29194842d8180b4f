//! The examples' tests: the billing SPEC vectors in process (`billing`), the real binaries over
//! MCP stdio (`e2e`, `hostile`, `load`), asynchronous handlers inside rmcp servers
//! (`rmcp_async`), the MCP Apps view served by `billing_server` and `tasks_server` (`mcp_app`)
//! and rendered in headless Chromium (`browser`). One test binary, so the tests link once.

mod billing;
mod browser;
mod e2e;
mod hostile;
mod load;
mod mcp_app;
mod rmcp_async;
mod support;
