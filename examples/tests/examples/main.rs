//! The billing example's tests: the SPEC vectors in process (`billing`), the real binaries over
//! MCP stdio (`e2e`, `hostile`, `load`; `stdio_guard` line by line), asynchronous handlers
//! inside rmcp servers (`rmcp_async`), and Streamable HTTP with the Python and TypeScript clients
//! (`http`). One test binary, so the tests link once.

mod billing;
mod e2e;
mod hostile;
mod http;
mod load;
mod rmcp_async;
mod stdio_guard;
mod support;
