use fusion_runtime::Presenter;

#[derive(Presenter)]
#[ui(cal = Self::gauge)]
#[ui(markdwn = "Invoice {id}")]
struct Invoice {
    id: String,
}

fn main() {}
