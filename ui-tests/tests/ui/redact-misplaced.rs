use fusion_runtime::Presenter;

#[derive(Presenter)]
#[redact]
struct Person {
    ssn: String,
}

fn main() {}
