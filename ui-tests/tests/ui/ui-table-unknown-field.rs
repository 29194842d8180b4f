use fusion_runtime::Presenter;

// A misspelled column gets its did-you-mean (a transposition too); a name far from every
// field lists a few that fit.
#[derive(Presenter)]
#[ui(table(id, titel, stauts))]
#[collection_ui(table(id, assignee))]
struct Task {
    id: u32,
    title: String,
    status: String,
}

fn main() {}
