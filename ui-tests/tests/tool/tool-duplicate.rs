use serde::Deserialize;

#[derive(Deserialize, schemars::JsonSchema, fusion_runtime::Tool)]
#[serde(tag = "action")]
#[fusion(toon)]
#[fusion(name = "a", toon)]
enum Billing {
    #[fusion(destructive, destructive)]
    Void { id: String },
}

fn main() {}
