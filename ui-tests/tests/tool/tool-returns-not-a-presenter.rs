use serde::Deserialize;

/// A plain struct: it does not derive `Presenter`.
struct Task {
    id: String,
}

#[derive(Deserialize, schemars::JsonSchema, fusion_runtime::Tool)]
#[serde(tag = "action")]
#[fusion(select)]
enum Tasks {
    #[fusion(returns = Task)]
    GetTask { id: String },
    #[fusion(returns = [Task])]
    ListTasks,
}

fn main() {}
