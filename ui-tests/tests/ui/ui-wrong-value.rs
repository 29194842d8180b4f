use fusion_runtime::Presenter;

#[derive(Presenter)]
#[ui(markdown = 5)]
#[ui(call = "gauge")]
#[ui("Self::gauge")]
struct Invoice {
    id: String,
}

fn main() {}
