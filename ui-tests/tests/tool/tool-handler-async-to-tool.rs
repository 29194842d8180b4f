use fusion_runtime::{Call, Tool, ToolSet};

/// Fetch the weather
#[derive(serde::Deserialize, schemars::JsonSchema, Tool)]
struct Weather {}

fn main() {
    // An async handler given to `tool`: its future is not a tool result.
    let _ = ToolSet::new().tool(|_: Weather, _: &Call| async { "sunny" });
}
