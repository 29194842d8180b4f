use fusion_runtime::Presenter;

#[derive(Presenter)]
union Bits {
    int: u32,
    float: f32,
}

fn main() {}
