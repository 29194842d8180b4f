use serde::Deserialize;

// `id` is a text in one action and a number in another: one error, at the second field.
#[derive(Deserialize, schemars::JsonSchema, fusion_runtime::Tool)]
#[serde(tag = "action", rename_all = "snake_case")]
enum Tasks {
    GetTask { id: String },
    DeleteTask { id: u64 },
}

fn main() {}
