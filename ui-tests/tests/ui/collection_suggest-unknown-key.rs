use fusion_runtime::Presenter;

#[derive(Presenter)]
#[collection_suggest(tool = "billing.export", reason = "Export {n} rows", when_all = Self::many)]
struct Invoice {
    id: String,
}

fn main() {}
