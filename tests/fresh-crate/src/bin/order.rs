//! The data blocks a user's crate writes keep their declared order without serde_json's
//! `preserve_order` (fusion switches it on for no one): a page's envelope (wire format §6.11) and
//! its items, in pretty JSON, compact JSON and TOON. Prints each block, then a line `----`.
use fusion_runtime::Presenter;
use fusion_runtime::present::Format;

#[derive(Presenter)]
struct Movement {
    zulu: u32,
    sku: String,
    delta: i64,
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let movements: Vec<Movement> = (0..3)
        .map(|n| Movement { zulu: n, sku: format!("SKU-{n}"), delta: -2 })
        .collect();
    for format in [Format::Json, Format::CompactJson, Format::Toon] {
        let response = Movement::present_all(&movements[..2]).format(format).page(4, Some(9)).build()?;
        println!("{}\n----", response.blocks()[0]);
    }
    let one = Movement::present(&movements[2]).format(Format::CompactJson).page(0, None).build()?;
    println!("{}\n----", one.blocks()[0]);
    Ok(())
}
