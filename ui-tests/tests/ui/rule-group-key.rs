use fusion_runtime::Presenter;

#[derive(Presenter)]
#[rule("SKU {sku} is low.", key = skuu)]
#[rule("SKU {sku} is out.", key = email)]
#[rule("SKU {sku} is gone.", key = supplier)]
struct Stock {
    sku: String,
    #[redact]
    email: String,
    #[embed]
    supplier: Supplier,
}

#[derive(Presenter)]
struct Supplier {
    name: String,
}

fn main() {}
