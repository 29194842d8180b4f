use serde::Deserialize;

// A misspelled key gets the key it is closest to; a key close to none lists them all.
#[derive(Deserialize, schemars::JsonSchema, fusion_runtime::Tool)]
#[fusion(retuns = String, read_ony, crat = ::fusion_runtime, colour = "red")]
struct GetInvoice {
    id: String,
}

#[derive(Deserialize, schemars::JsonSchema, fusion_runtime::Tool)]
#[serde(tag = "action")]
#[fusion(selct, descripton = "Manage invoices")]
enum Billing {
    #[fusion(structurd)]
    Void { id: String },
}

fn main() {}
