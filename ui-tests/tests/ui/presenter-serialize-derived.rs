use fusion_runtime::Presenter;

// `Presenter` writes the model's `Serialize` itself (the redacted wire form): a `Serialize`
// derived below it is reported at its name, with nothing else.
#[derive(Presenter)]
#[derive(serde::Serialize, Debug)]
struct Invoice {
    id: String,
    #[redact]
    email: String,
}

fn main() {
    let invoice = Invoice { id: "INV-1".into(), email: "a@b.c".into() };
    let _ = (invoice.id, invoice.email);
}
