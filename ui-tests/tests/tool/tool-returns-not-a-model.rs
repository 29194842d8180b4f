use serde::Deserialize;

#[derive(Deserialize, schemars::JsonSchema, fusion_runtime::Tool)]
#[serde(tag = "action")]
#[fusion(select)]
enum Billing {
    #[fusion(returns = String)]
    Get { id: String },
}

fn main() {}
