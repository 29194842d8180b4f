use fusion_runtime::Presenter;

fn mask(value: &str) -> String {
    format!("****{}", &value[value.len() - 4..])
}

#[derive(Presenter)]
struct Person {
    #[redact(censor = "***", with = mask)]
    card: String,
}

fn main() {}
