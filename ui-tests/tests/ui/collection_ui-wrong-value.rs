use fusion_runtime::Presenter;

#[derive(Presenter)]
#[collection_ui(summary = Self::summary)]
struct Invoice {
    id: String,
}

fn main() {}
