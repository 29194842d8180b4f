use fusion_runtime::{Call, Tool, ToolError, ToolSet};

/// Where the robot is
#[derive(serde::Deserialize, schemars::JsonSchema, Tool)]
struct Locate {}

/// Where the robot goes
#[derive(serde::Deserialize, schemars::JsonSchema, Tool)]
struct Plan {}

#[derive(serde::Serialize)]
struct Point {
    x: i32,
}

async fn plan(_: Plan, _: Call) -> Result<Point, ToolError> {
    Ok(Point { x: 2 })
}

fn main() {
    // The future's output is the result: `async { Json(Point { .. }) }`.
    let _ = ToolSet::new().tool_async(|_: Locate, _: Call| async { Point { x: 1 } });
    let _ = ToolSet::new().tool_async(plan);
}
