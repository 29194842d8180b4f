use fusion_runtime::Presenter;

#[derive(serde::Serialize)]
struct Customer {
    name: String,
}

#[derive(Presenter)]
struct Invoice {
    id: String,
    #[embed]
    customer: Customer,
    #[embed]
    lines: Vec<String>,
}

fn main() {}
