use fusion_runtime::{Presenter, Tool};

/// Billing
#[derive(serde::Deserialize, schemars::JsonSchema, Tool)]
#[serde(tag = "action", rename_all = "snake_case")]
enum Billing {
    /// Send a payment reminder
    Remind { id: String },
    /// Void an invoice
    VoidInvoice { id: String },
}

// The action is misspelled: the compiler finds it, with a did-you-mean.
#[derive(Presenter)]
#[suggest(Billing::Remnd, "Send a payment reminder")]
struct Invoice {
    id: String,
}

fn main() {}
