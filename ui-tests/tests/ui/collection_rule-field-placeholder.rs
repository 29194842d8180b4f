use fusion_runtime::Presenter;

#[derive(Presenter)]
#[collection_rule("Total: {count} invoices.")]
#[collection_rule("First id: {id}.")]
struct Invoice {
    id: String,
}

fn main() {}
