use fusion_runtime::Presenter;

#[derive(Presenter)]
#[suggest(tool = "billing.remind", tool = "billing.void", reason = "Send a payment reminder")]
struct Invoice {
    id: String,
}

fn main() {}
