use fusion_runtime::Presenter;

#[derive(Presenter)]
#[suggest(tool = "stock.reorder", reason = "Reorder it", each)]
#[collection_suggest(tool = "stock.export", reason = "Export {n}", many = "Export {items}")]
struct Stock {
    sku: String,
}

fn main() {}
