use fusion_runtime::Presenter;

#[derive(Presenter)]
#[presenter(skip)]
struct Invoice {
    id: String,
    #[presenter(agent_limit = 5)]
    amount_cents: u64,
}

fn main() {}
