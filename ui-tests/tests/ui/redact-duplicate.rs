use fusion_runtime::Presenter;

#[derive(Presenter)]
struct Person {
    #[redact]
    #[redact(censor = "***")]
    ssn: String,
    #[redact(censor = "***", censor = "###")]
    pin: String,
}

fn main() {}
