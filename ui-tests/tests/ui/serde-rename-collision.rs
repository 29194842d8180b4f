use fusion_runtime::Presenter;

#[derive(Presenter)]
struct Invoice {
    id: String,
    #[serde(rename = "id")]
    invoice_id: String,
}

fn main() {}
