use fusion_runtime::Presenter;

#[derive(Presenter)]
#[serde(transparent)]
struct Invoice {
    #[serde(flatten)]
    id: Inner,
    #[serde(serialize_with = "write_amount")]
    amount_cents: u64,
}

#[derive(Presenter)]
struct Inner {
    id: String,
}

fn main() {}
