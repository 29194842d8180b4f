use fusion_runtime::Presenter;

#[derive(Presenter)]
#[rule(42)]
#[rule("Invoice {id} is overdue.", when = "is_overdue")]
#[rule(text = amount_rule)]
struct Invoice {
    id: String,
}

fn main() {}
