use fusion_runtime::Presenter;

#[derive(Presenter)]
struct Invoice {
    #[rule("ids are opaque.")]
    id: String,
    #[collection_rule("Total: {n}")]
    amount_cents: u64,
}

fn main() {}
