use serde::Deserialize;

#[derive(Deserialize, schemars::JsonSchema, fusion_runtime::Tool)]
#[serde(tag = "action")]
#[fusion(name = billing, select = true, output)]
enum Billing {
    #[fusion(returns = 5)]
    Get { id: String },
}

fn main() {}
