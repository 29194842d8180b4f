use fusion_runtime::Presenter;

#[derive(Presenter)]
#[presenter(agent_limt = 50)]
struct Invoice {
    id: String,
}

fn main() {}
