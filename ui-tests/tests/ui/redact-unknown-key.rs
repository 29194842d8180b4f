use fusion_runtime::Presenter;

#[derive(Presenter)]
struct Person {
    #[redact(mask = "***")]
    ssn: String,
}

fn main() {}
