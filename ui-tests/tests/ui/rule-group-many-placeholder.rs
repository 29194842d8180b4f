use fusion_runtime::Presenter;

#[derive(Presenter)]
#[rule("SKU {sku} is low.", many = "SKU {sku} and {items} are low.")]
struct Stock {
    sku: String,
}

fn main() {}
