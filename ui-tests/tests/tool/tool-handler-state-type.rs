use fusion_runtime::{Call, Tool, ToolSet};

/// Count the calls
#[derive(serde::Deserialize, schemars::JsonSchema, Tool)]
struct Hit {}

struct Counter;
struct Other;

fn main() {
    // The handler takes another state than the set holds.
    let _ = ToolSet::with_state(Counter).tool(|_: &Other, _: Hit, _: &Call| "hit");
}
