use fusion_runtime::{Call, Tool, ToolSet};

/// Where the robot is
#[derive(serde::Deserialize, schemars::JsonSchema, Tool)]
struct Locate {}

#[derive(serde::Serialize)]
struct Point {
    x: i32,
}

fn main() {
    // A serializable value is data only when it says so: `Json(Point { .. })`.
    let _ = ToolSet::new().tool(|_: Locate, _: &Call| Point { x: 1 });
}
