use fusion_runtime::Presenter;

#[derive(Presenter)]
struct Customer {
    name: String,
}

#[derive(Presenter)]
struct Invoice {
    #[embed]
    #[embed]
    customer: Customer,
}

fn main() {}
