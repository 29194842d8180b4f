use fusion_runtime::Presenter;

#[derive(Presenter)]
#[presenter(field_enum)]
#[rule("Invoice {idd} is overdue.")]
struct Invoice {
    id: String,
    amount_cents: u64,
}

#[derive(Presenter)]
struct Statement {
    #[embed]
    invoices: Vec<Invoice>,
}

fn handler(invoices: &[Invoice]) -> fusion_runtime::ToolResponse {
    let selection = fusion_runtime::Selection::new(["id"]);
    let _ = InvoiceField::AmountCents;
    let _ = fusion_runtime::testing::json::to_string(&invoices[0]);
    Invoice::present_all(invoices).select(&selection).build().unwrap()
}

fn main() {}
