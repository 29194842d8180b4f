use serde::Deserialize;

#[derive(Deserialize, schemars::JsonSchema, fusion_runtime::Tool)]
#[serde(tag = "action")]
enum Billing {
    #[fusion(destructive, read_only)]
    Void { id: String },
}

#[derive(Deserialize, schemars::JsonSchema, fusion_runtime::Tool)]
#[serde(tag = "action", content = "args")]
enum Adjacent {
    Get { id: String },
}

fn main() {}
