use fusion_runtime::Presenter;

#[derive(Presenter)]
#[rule("Invoice {idd} is overdue since {due_on}.")]
#[rule("Customer {customer_name} owes it.")]
struct Invoice {
    id: String,
    due_at: String,
}

fn main() {}
