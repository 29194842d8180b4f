use fusion_runtime::Presenter;

#[derive(Presenter)]
struct Customer {
    name: String,
}

#[derive(Presenter)]
struct Invoice {
    #[embed]
    #[presenter(skip)]
    customer: Customer,
}

fn main() {}
