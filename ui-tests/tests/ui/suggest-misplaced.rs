use fusion_runtime::Presenter;

#[derive(Presenter)]
struct Invoice {
    #[suggest(tool = "billing.remind", reason = "Send a payment reminder")]
    id: String,
    #[collection_suggest(tool = "billing.export", reason = "Export {n}")]
    amount_cents: u64,
}

fn main() {}
