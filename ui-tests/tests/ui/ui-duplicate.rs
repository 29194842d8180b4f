use fusion_runtime::Presenter;

#[derive(Presenter)]
#[ui(call = Self::gauge, call = Self::table)]
#[ui(Self::gauge, Self::table)]
struct Invoice {
    id: String,
}

fn main() {}
