use fusion_runtime::Presenter;

// Swapped neighbouring letters count as one slip, so even short keys get their suggestion.
#[derive(Presenter)]
#[rule(txet = "amount_cents is in CENTS.")]
#[rule("Invoice {id} is overdue.", wehn = Self::is_overdue)]
struct Invoice {
    id: String,
    overdue: bool,
}

impl Invoice {
    fn is_overdue(&self) -> bool {
        self.overdue
    }
}

fn main() {}
