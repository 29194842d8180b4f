use fusion_runtime::Presenter;

#[derive(Presenter)]
#[presenter(format = xml)]
struct Report {
    id: String,
}

#[derive(Presenter)]
#[presenter(format = Toon)]
struct Row {
    id: String,
}

#[derive(Presenter)]
#[presenter(format = 2)]
struct Line {
    id: String,
}

#[derive(Presenter)]
struct Invoice {
    #[presenter(format = toon)]
    id: String,
}

fn main() {}
