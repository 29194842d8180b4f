use fusion_runtime::Presenter;

#[derive(Presenter)]
#[serde(rename_al = "camelCase")]
struct Invoice {
    #[serde(renam = "ID")]
    id: String,
    #[serde(rename_all = "kebab")]
    amount_cents: u64,
}

fn main() {}

#[derive(Presenter)]
#[serde(skip_serializing_if = "Option::is_none")]
struct Misplaced {
    id: String,
}
