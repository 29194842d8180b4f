use fusion_runtime::Presenter;

struct Tenant;

#[derive(serde::Serialize)]
struct Customer {
    name: String,
}

#[derive(Presenter)]
#[presenter(context = Tenant)]
struct Invoice {
    id: String,
    #[embed]
    customer: Option<Customer>,
}

fn main() {}
