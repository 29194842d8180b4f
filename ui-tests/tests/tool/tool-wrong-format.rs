use serde::Deserialize;

#[derive(Deserialize, schemars::JsonSchema, fusion_runtime::Tool)]
#[fusion(format = xml)]
struct Search {
    query: String,
}

#[derive(Deserialize, schemars::JsonSchema, fusion_runtime::Tool)]
#[fusion(format = CompactJson)]
struct List {}

fn main() {}
