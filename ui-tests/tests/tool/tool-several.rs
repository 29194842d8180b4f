use serde::Deserialize;

#[derive(Deserialize, schemars::JsonSchema, fusion_runtime::Tool)]
#[fusion(name = "", colour = "red", toon = 1)]
enum Billing {
    #[fusion(name = "x", destructive, read_only)]
    Get { id: String },
}

fn main() {}
