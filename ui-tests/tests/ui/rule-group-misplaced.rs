use fusion_runtime::Presenter;

#[derive(Presenter)]
#[rule("Stock is in units.", many = "Stock of {items} is in units.")]
#[rule(call = Self::rules, each)]
#[collection_rule("{n} items", key = sku)]
struct Stock {
    sku: String,
}

impl Stock {
    fn rules(&self) -> String {
        format!("SKU {}", self.sku)
    }
}

fn main() {}
