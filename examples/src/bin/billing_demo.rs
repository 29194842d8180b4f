//! The billing demo: prints a few tool calls and every block of their responses.

use fusion_runtime::{ResponseBuilder, ui};

fn main() {
    let response = ResponseBuilder::text("fusion is being built")
        .ui(ui::summary("0 invoices"))
        .rule("amount_cents is in CENTS. Divide by 100.")
        .build();
    for (i, block) in response.blocks().iter().enumerate() {
        println!("[{i}] {block}");
    }
}
