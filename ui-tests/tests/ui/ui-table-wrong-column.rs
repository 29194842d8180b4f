use fusion_runtime::Presenter;

#[derive(Presenter)]
struct Owner {
    name: String,
}

// A column must be a member of the data block, listed once, not an embedded child; a table
// shows redacted fields as their censor, so `reveal` has no place; `table()` needs columns.
#[derive(Presenter)]
#[ui(table(id, id, secret, owner))]
#[ui(table(id, email), reveal(email))]
#[collection_ui(table())]
struct Task {
    id: u32,
    #[serde(skip)]
    secret: String,
    #[redact]
    email: String,
    #[embed]
    owner: Owner,
}

fn main() {}
