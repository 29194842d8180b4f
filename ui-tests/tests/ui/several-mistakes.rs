use fusion_runtime::Presenter;

#[derive(Presenter)]
#[presenter(agent_limit = -1)]
#[rule("Invoice {idd} is overdue.")]
struct Invoice {
    id: String,
    #[redact(censor = "***", with = mask)]
    card: String,
}

fn main() {}
