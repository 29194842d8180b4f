use fusion_runtime::Presenter;

#[derive(Presenter)]
#[suggest(tool = "billing.remind", reasn = "Send a payment reminder")]
struct Invoice {
    id: String,
}

fn main() {}
