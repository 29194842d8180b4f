use fusion_runtime::Presenter;

// No derive at all: not `Serialize`, not a presenter. One error, at the field's type.
struct Owner {
    name: String,
}

#[derive(Presenter)]
#[ui(markdown = "Project {title}")]
struct Project {
    title: String,
    #[embed]
    owner: Owner,
}

fn main() {
    let _ = Owner { name: String::new() }.name;
}
