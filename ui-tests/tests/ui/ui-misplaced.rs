use fusion_runtime::Presenter;

#[derive(Presenter)]
struct Invoice {
    #[ui(Self::gauge)]
    id: String,
    #[collection_ui(summary = "{n} invoices")]
    amount_cents: u64,
}

fn main() {}
