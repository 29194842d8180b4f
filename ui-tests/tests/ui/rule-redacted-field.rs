use fusion_runtime::Presenter;

#[derive(Presenter)]
#[rule("Person {name} has ssn {ssn}.")]
#[rule("Margin is {margin_bps} bps.")]
#[rule("Name {name} revealed.", reveal(name))]
#[rule("Ssn revealed but unused.", reveal(ssn))]
struct Person {
    name: String,
    #[redact]
    ssn: String,
    #[presenter(skip)]
    margin_bps: u32,
}

fn main() {}
