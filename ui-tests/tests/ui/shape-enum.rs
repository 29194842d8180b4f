use fusion_runtime::Presenter;

#[derive(Presenter)]
enum Status {
    Paid,
    Pending,
}

fn main() {}
