// A flag takes no value.
#[derive(fusion_runtime::Presenter)]
#[presenter(lean = true)]
struct Reading {
    celsius: f64,
}

// Said twice.
#[derive(fusion_runtime::Presenter)]
#[presenter(lean, lean)]
struct Sample {
    value: f64,
}

fn main() {}
