use fusion_runtime::Presenter;

#[derive(Presenter)]
#[rule("SKU {sku} is low.", many = "SKUs {items} are low.", many = "Low: {items}")]
#[suggest(tool = "stock.reorder", reason = "Reorder {sku}", key = sku, key = sku)]
struct Stock {
    sku: String,
}

fn main() {}
