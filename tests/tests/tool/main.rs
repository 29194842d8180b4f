//! The tool layer: `#[derive(Tool)]`, `ToolSet`, definitions, structured output, asynchronous
//! and stateful handlers and the wire format §16 tool vectors. One test binary for the layer, so the tests link once.

mod tool_async;
mod tool_checks;
mod tool_definition;
mod tool_derive;
mod tool_handlers;
mod tool_inputs;
mod tool_structured;
mod tool_vectors;
