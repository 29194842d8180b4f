use serde::Deserialize;

// Swapped neighbouring letters count as one slip, so even short keys get their suggestion.
#[derive(Deserialize, schemars::JsonSchema, fusion_runtime::Tool)]
#[fusion(nmae = "get_invoice", retrusn = String, destrucitve, crtae = ::fusion_runtime)]
struct GetInvoice {
    id: String,
}

fn main() {}
