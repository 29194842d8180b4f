use serde::Deserialize;

#[derive(Deserialize, schemars::JsonSchema, fusion_runtime::Tool)]
#[serde(tag = "action")]
#[fusion(destructive)]
enum Billing {
    #[fusion(select)]
    Void {
        #[fusion(read_only)]
        id: String,
    },
    #[serde(skip)]
    #[fusion(read_only)]
    Hidden,
}

#[derive(Deserialize, schemars::JsonSchema, fusion_runtime::Tool)]
#[fusion(toon)]
struct Stats {}

fn main() {}
