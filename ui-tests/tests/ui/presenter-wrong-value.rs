use fusion_runtime::Presenter;

#[derive(Presenter)]
#[presenter(agent_limit = "50", name = Invoice, context = 5)]
struct Invoice {
    id: String,
}

fn main() {}
