use fusion_runtime::Presenter;

enum Status {
    Paid,
    Open,
}

// `Status` does not derive `Tool`, so it has no actions to suggest.
#[derive(Presenter)]
#[collection_suggest(Status::Paid, "Mark them paid")]
struct Invoice {
    id: String,
}

fn main() {
    let _ = (Status::Paid, Status::Open);
}
