use fusion_runtime::Presenter;

#[derive(Presenter)]
#[rule("SKU {sku} is low.", each, many = "SKUs {items} are low.")]
#[rule("SKU {sku} is out.", key = sku, each)]
struct Stock {
    sku: String,
}

fn main() {}
