use fusion_runtime::Presenter;

#[derive(Presenter)]
#[presenter(agent_limit = 50)]
#[presenter(name = "Invoice", agent_limit = 20)]
struct Invoice {
    id: String,
}

fn main() {}
