use fusion_runtime::{Call, Tool, ToolError, ToolSet};

/// Where the robot is
#[derive(serde::Deserialize, schemars::JsonSchema, Tool)]
struct Locate {}

/// Where the robot was
#[derive(serde::Deserialize, schemars::JsonSchema, Tool)]
struct Trace {}

/// Where the robot goes
#[derive(serde::Deserialize, schemars::JsonSchema, Tool)]
struct Plan {}

#[derive(serde::Serialize)]
struct Point {
    x: i32,
}

struct Robot;

impl Robot {
    // A method of the state type, as the README writes handlers.
    fn trace(&self, _: Trace, _: &Call) -> Point {
        Point { x: 2 }
    }
}

fn main() {
    // A serializable value is data only when it says so: `Json(Point { .. })`.
    let _ = ToolSet::new().tool(|_: Locate, _: &Call| Point { x: 1 });
    let _ = ToolSet::with_state(Robot).tool(Robot::trace);
    // In a `Result`, the same: `Ok(Json(Point { .. }))`.
    let _ = ToolSet::new().tool(|_: Plan, _: &Call| -> Result<Point, ToolError> {
        Ok(Point { x: 3 })
    });
}
