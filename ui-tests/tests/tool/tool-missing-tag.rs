use serde::Deserialize;

#[derive(Deserialize, schemars::JsonSchema, fusion_runtime::Tool)]
enum Billing {
    Get { id: String },
}

#[derive(Deserialize, schemars::JsonSchema, fusion_runtime::Tool)]
struct Tuple(String);

fn main() {
    // The stub impls keep this compiling: only the derive's own errors are reported.
    let _ = fusion_runtime::ToolSet::new()
        .tool(|_: Billing, _: &fusion_runtime::Call| "ok");
}
