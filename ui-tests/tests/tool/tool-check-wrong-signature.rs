use fusion_runtime::Tool;

/// Adjust the stock
#[derive(serde::Deserialize, schemars::JsonSchema, Tool)]
#[fusion(check = Self::sane)]
struct AdjustStock {
    delta: i64,
}

impl AdjustStock {
    // A check takes the input and the refusals: `fn(&self, checks: &mut Checks)`.
    fn sane(&self) -> bool {
        self.delta != 0
    }
}

fn main() {}
