use serde::Deserialize;

#[derive(Deserialize, schemars::JsonSchema, fusion_runtime::Tool)]
#[fusion("billing", read_only)]
struct GetInvoice {
    id: String,
}

fn main() {}
