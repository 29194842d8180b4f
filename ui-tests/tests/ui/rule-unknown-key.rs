use fusion_runtime::Presenter;

#[derive(Presenter)]
#[rule(txt = "amount_cents is in CENTS.")]
#[rule("Invoice {id} is overdue.", wen = Self::is_overdue)]
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
