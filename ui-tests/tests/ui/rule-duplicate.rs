use fusion_runtime::Presenter;

#[derive(Presenter)]
#[rule("Invoice {id} is overdue.", when = Self::is_overdue, when = Self::is_late)]
#[rule("amount_cents is in CENTS.", text = "amount_cents is in CENTS.")]
struct Invoice {
    id: String,
    overdue: bool,
}

impl Invoice {
    fn is_overdue(&self) -> bool {
        self.overdue
    }

    fn is_late(&self) -> bool {
        self.overdue
    }
}

fn main() {}
