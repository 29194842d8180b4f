use serde::Deserialize;

// A flag takes no value.
#[derive(Deserialize, schemars::JsonSchema, fusion_runtime::Tool)]
#[fusion(lean = true)]
struct Search {
    query: String,
}

// Said twice.
#[derive(Deserialize, schemars::JsonSchema, fusion_runtime::Tool)]
#[fusion(lean, lean)]
struct List {}

// A tool option, not an action's.
#[derive(Deserialize, schemars::JsonSchema, fusion_runtime::Tool)]
#[serde(tag = "action")]
enum Notes {
    #[fusion(lean)]
    Get { id: String },
}

fn main() {}
