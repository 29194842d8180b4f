use serde::Deserialize;

// An `Option` of another type is still another type.
#[derive(Deserialize, schemars::JsonSchema, fusion_runtime::Tool)]
#[serde(tag = "action", rename_all = "snake_case")]
enum Tasks {
    UpdateStatus { done: bool },
    ListTasks { done: Option<String> },
}

fn main() {}
