use fusion_runtime::Presenter;

// A misspelled placeholder gets the field it is closest to. The error points at `{titel}`
// where the compiler can narrow a literal's span (nightly `Literal::subspan`); on stable
// Rust it spans the whole literal.
#[derive(Presenter)]
#[rule("Invoice {titel} is overdue since {due_at}.")]
#[rule("Invoice {id} is due {dueat}.")]
struct Invoice {
    id: String,
    title: String,
    due_at: String,
}

fn main() {}
