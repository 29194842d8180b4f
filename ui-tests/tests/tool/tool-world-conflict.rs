use fusion_runtime::Tool;

/// Look a word up
#[derive(serde::Deserialize, schemars::JsonSchema, Tool)]
#[fusion(open_world, closed_world)]
struct Define {
    word: String,
}

fn main() {}
