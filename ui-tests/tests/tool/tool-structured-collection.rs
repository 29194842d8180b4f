use serde::Deserialize;

#[derive(fusion_runtime::Presenter)]
struct Invoice {
    id: String,
}

#[derive(Deserialize, schemars::JsonSchema, fusion_runtime::Tool)]
#[serde(tag = "action")]
#[fusion(select, structured)]
enum Billing {
    // A collection cannot be structured content.
    #[fusion(returns = [Invoice], structured)]
    List,
    // `returns` names the model, not the handler's return type.
    #[fusion(returns = Vec<Invoice>)]
    All,
}

fn main() {}
