use fusion_runtime::{Call, Structured, Tool, ToolSet};

/// Where the robot is
#[derive(serde::Deserialize, schemars::JsonSchema, Tool)]
struct Locate {}

// No `schemars::JsonSchema`: the `outputSchema` is generated from it.
#[derive(serde::Serialize)]
struct Point {
    x: i32,
}

fn main() {
    let _ = ToolSet::new().tool(|_: Locate, _: &Call| Structured(Point { x: 1 }));
}
