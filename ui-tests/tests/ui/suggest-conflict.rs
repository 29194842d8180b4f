use fusion_runtime::Presenter;

#[derive(Presenter)]
#[suggest(call = Self::suggestions, tool = "billing.remind")]
#[suggest(tool = "billing.remind")]
struct Invoice {
    id: String,
}

impl Invoice {
    fn suggestions(&self) -> Option<fusion_runtime::Suggestion> {
        None
    }
}

fn main() {}
