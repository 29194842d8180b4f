use fusion_runtime::Presenter;

#[derive(Presenter)]
#[rule("Lines: {lines}.")]
struct Invoice {
    lines: Vec<String>,
}

fn main() {}
