use fusion_runtime::Presenter;

#[derive(Presenter)]
struct Invoice(String, u64);

fn main() {}
