use fusion_runtime::Presenter;

#[derive(Presenter)]
#[rule("SKU {sku} is low.", key = 3)]
#[rule("SKU {sku} is out.", many = sku)]
#[rule("SKU {sku} is gone.", each = true)]
struct Stock {
    sku: String,
}

fn main() {}
