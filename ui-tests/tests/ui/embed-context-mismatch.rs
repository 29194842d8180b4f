use fusion_runtime::Presenter;

struct Tenant;
struct Other;

#[derive(Presenter)]
#[presenter(context = Tenant)]
struct Customer {
    name: String,
}

#[derive(Presenter)]
struct Invoice {
    id: String,
    #[embed]
    customer: Option<Customer>,
}

#[derive(Presenter)]
#[presenter(context = Other)]
struct Statement {
    #[embed]
    customers: Vec<Customer>,
}

fn main() {}
