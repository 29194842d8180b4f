use fusion_runtime::Tool;

/// Manage stock
#[derive(serde::Deserialize, schemars::JsonSchema, Tool)]
#[serde(tag = "action", rename_all = "snake_case")]
enum Stock {
    /// Adjust the stock
    Adjust {
        #[fusion(check = Self::sane)]
        delta: i64,
    },
}

fn main() {}
