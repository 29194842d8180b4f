use fusion_runtime::Presenter;

#[derive(Presenter)]
#[suggest(tool = billing.remind, reason = "Send a payment reminder")]
#[suggest(tool = "billing.void", reason = 5)]
struct Invoice {
    id: String,
}

fn main() {}
