use fusion_runtime::Presenter;

#[derive(Presenter)]
struct Customer {
    name: String,
}

#[derive(Presenter)]
struct Invoice {
    #[embed(many)]
    customer: Customer,
}

fn main() {}
