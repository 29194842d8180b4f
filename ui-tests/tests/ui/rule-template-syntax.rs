use fusion_runtime::Presenter;

#[derive(Presenter)]
#[rule("Invoice {id is overdue.")]
#[rule("Use } alone.")]
#[rule("Empty {} placeholder.")]
#[rule("Expression {id.len()} placeholder.")]
struct Invoice {
    id: String,
}

fn main() {}
