use fusion_runtime::Presenter;

#[derive(Presenter)]
#[ui(Self::gauge, markdown = "Invoice {id}")]
#[ui(summary = "{id}", markdown = "Invoice {id}")]
struct Invoice {
    id: String,
}

fn main() {}
