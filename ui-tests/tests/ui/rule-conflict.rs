use fusion_runtime::Presenter;

#[derive(Presenter)]
#[rule("amount_cents is in CENTS.", call = Self::rules)]
#[rule(call = Self::rules, reveal(ssn))]
struct Invoice {
    id: String,
    #[redact]
    ssn: String,
}

impl Invoice {
    fn rules(&self) -> String {
        format!("Invoice {}", self.id)
    }
}

fn main() {}
