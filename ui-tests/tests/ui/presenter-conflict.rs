use fusion_runtime::Presenter;

#[derive(Presenter)]
struct Invoice {
    id: String,
    #[presenter(skip)]
    #[redact]
    internal_margin_bps: u32,
    #[presenter(skip)]
    #[serde(skip_serializing_if = "Option::is_none")]
    note: Option<String>,
}

fn main() {}
