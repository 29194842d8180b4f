use fusion_runtime::Presenter;

#[derive(Presenter)]
#[collection_rule("Total: {n}.", reveal(ssn))]
struct Person {
    #[redact]
    ssn: String,
}

fn main() {}
