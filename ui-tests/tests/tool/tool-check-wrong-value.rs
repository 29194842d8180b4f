use fusion_runtime::Tool;

/// Adjust the stock
#[derive(serde::Deserialize, schemars::JsonSchema, Tool)]
#[fusion(check = "Self::sane")]
struct AdjustStock {
    delta: i64,
}

fn main() {}
