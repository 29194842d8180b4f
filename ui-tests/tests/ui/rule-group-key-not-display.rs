use fusion_runtime::Presenter;

#[derive(Presenter)]
#[rule("SKU {sku} is low.", key = tags)]
struct Stock {
    sku: String,
    tags: Vec<String>,
}

fn main() {}
