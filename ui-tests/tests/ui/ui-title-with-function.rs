use fusion_runtime::Presenter;
use fusion_runtime::ui::{self, UiBlock};

// A function titles its own block; `title = ...` is for declared blocks.
#[derive(Presenter)]
#[ui(Self::gauge, title = "Amount")]
struct Invoice {
    amount_cents: u64,
}

impl Invoice {
    fn gauge(&self) -> UiBlock {
        ui::markdown(self.amount_cents.to_string())
    }
}

fn main() {}
