use fusion_runtime::Presenter;

#[derive(Presenter)]
struct Person {
    #[redact(censor = 0)]
    ssn: String,
    #[redact(with = "mask")]
    card: String,
    #[redact = "***"]
    pin: String,
}

fn main() {}
