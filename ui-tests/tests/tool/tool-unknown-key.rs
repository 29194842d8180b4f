use serde::Deserialize;

#[derive(Deserialize, schemars::JsonSchema, fusion_runtime::Tool)]
#[serde(tag = "action")]
#[fusion(nam = "billing")]
enum Billing {
    #[fusion(destructve)]
    Void { id: String },
}

fn main() {}
