use fusion_runtime::Presenter;

#[derive(Presenter)]
#[rule(call = Self::count)]
struct Invoice {
    lines: Vec<String>,
}

impl Invoice {
    fn count(&self) -> usize {
        self.lines.len()
    }
}

fn main() {}
