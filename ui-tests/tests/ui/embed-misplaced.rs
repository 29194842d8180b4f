use fusion_runtime::Presenter;

#[derive(Presenter)]
#[embed]
struct Invoice {
    id: String,
}

fn main() {}
