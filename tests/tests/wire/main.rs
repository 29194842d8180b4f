//! The wire layer: the response envelope and its blocks (wire format §1–§5, §11–§14), the JSON writer
//! and the TOON encoder (wire format §9–§10), each checked against the wire format vectors and properties.
//! One test binary for the layer, so the tests link once.

mod token_estimate;
mod toon_descriptions;
mod toon_fixtures;
mod toon_properties;
mod toon_table;
mod toon_table_properties;
mod toon_vectors;
mod wire_envelope;
mod wire_errors;
mod wire_injection;
mod wire_json;
mod wire_structured;
mod wire_support;
mod wire_ui;
mod wire_view;

// The generated texts of the wire properties (`wire_injection`, `wire_json`), declared once
// here: its own file beside `wire_support`, which holds the hand-written V6 models.
#[path = "wire_support/text.rs"]
mod text;
