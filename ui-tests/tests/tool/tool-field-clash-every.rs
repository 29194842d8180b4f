use serde::Deserialize;

// Every clash is reported, each at its later field; `Option<T>` next to `T` is no clash
// (`status`), and neither is a field of the user's own type (`owner`): the definition checks those.
#[derive(Deserialize, schemars::JsonSchema)]
struct Owner {
    name: String,
}

#[derive(Deserialize, schemars::JsonSchema, fusion_runtime::Tool)]
#[serde(tag = "action", rename_all = "snake_case")]
enum Tasks {
    ListTasks { status: Option<String>, limit: Option<u32>, owner: Option<Owner> },
    UpdateStatus { id: String, status: String, owner: Owner },
    Reorder { id: Option<i64>, limit: Vec<u32> },
    Tag { tags: Vec<String>, limit: Option<u32> },
    Untag { tags: Option<Vec<String>>, r#type: bool },
    Retype { r#type: Option<char> },
}

fn main() {}
