use serde::Deserialize;

// A presenter without `schemars::JsonSchema`: the generated output schema needs it.
#[derive(fusion_runtime::Presenter)]
struct Invoice {
    id: String,
}

#[derive(Deserialize, schemars::JsonSchema, fusion_runtime::Tool)]
#[fusion(returns = Invoice, structured)]
struct GetInvoice {
    id: String,
}

fn main() {}
