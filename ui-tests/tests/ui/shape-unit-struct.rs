use fusion_runtime::Presenter;

#[derive(Presenter)]
struct Invoice;

fn main() {}
