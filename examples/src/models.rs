//! The models of BILLING.md and their presenters.
//!
//! Each model derives `Deserialize` (it is read from the fixture) and `Presenter`, which also
//! generates its `Serialize`: the wire form, with `email` redacted and `internal_margin_bps`
//! left out, is the only form any response can write.

use fusion_runtime::Presenter;
use fusion_runtime::ui::{self, UiBlock, Width};
use serde::{Deserialize, Serialize};

// No doc comment on purpose: schemars would copy it into the description of every `status`
// argument of the tools (wire format §7.1 shows `status` as `For: list_invoices, export_invoices`).
#[allow(
    missing_docs,
    reason = "a doc comment would become the `status` argument description"
)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    Paid,
    Pending,
    Overdue,
}

impl Status {
    /// `paid`, `pending` or `overdue`.
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Paid => "paid",
            Status::Pending => "pending",
            Status::Overdue => "overdue",
        }
    }
}

/// A customer, embedded in every invoice. Its email never leaves the server.
#[derive(Debug, Clone, Deserialize, Presenter)]
#[rule("customer.email is redacted for privacy; never ask the user for it.")]
pub struct Customer {
    /// `CUS-001`…
    pub id: String,
    /// The company name.
    pub name: String,
    /// Written as `[REDACTED]` on every wire channel.
    #[redact]
    pub email: String,
    /// ISO country code.
    pub country: String,
}

/// One line of an invoice.
#[derive(Debug, Clone, Deserialize, Presenter)]
#[rule("unit_price_cents is in CENTS. Divide by 100.")]
pub struct InvoiceLine {
    /// The product.
    pub sku: String,
    /// What was sold.
    pub description: String,
    /// How many.
    pub qty: u32,
    /// The price of one, in cents.
    pub unit_price_cents: u64,
}

/// An invoice: the model the `billing` tool presents.
#[derive(Debug, Clone, Deserialize, Presenter)]
#[presenter(agent_limit = 50)]
#[rule("amount_cents is in CENTS. Divide by 100.")]
#[rule(
    "Invoice {id} is overdue since {due_at}: mention it first.",
    when = Self::is_overdue,
    many = "Invoices {items} are overdue: mention them first."
)]
#[suggest(tool = "billing.remind", reason = "Send a payment reminder", when = Self::is_open)]
#[suggest(
    tool = "billing.void_invoice",
    reason = "Void it if it cannot be collected",
    when = Self::is_open
)]
#[ui(Self::gauge)]
#[collection_ui(Self::summary)]
pub struct Invoice {
    /// `INV-0001`…
    pub id: String,
    /// Who pays.
    #[embed]
    pub customer: Customer,
    /// The total, in cents.
    pub amount_cents: u64,
    /// ISO currency code.
    pub currency: String,
    /// Paid, pending or overdue.
    pub status: Status,
    /// Issue date, `YYYY-MM-DD`.
    pub issued_at: String,
    /// Due date, `YYYY-MM-DD`.
    pub due_at: String,
    /// What was sold.
    #[embed]
    pub lines: Vec<InvoiceLine>,
    /// Read from the data for internal reports; never written to any response.
    #[serde(skip_serializing)]
    pub internal_margin_bps: u32,
}

impl Invoice {
    fn is_overdue(&self) -> bool {
        self.status == Status::Overdue
    }

    fn is_open(&self) -> bool {
        matches!(self.status, Status::Pending | Status::Overdue)
    }

    /// The amount as a gauge: `amount_cents / 100` as a float (4500 cents read `45`).
    fn gauge(&self) -> UiBlock {
        #[allow(
            clippy::cast_precision_loss,
            reason = "amounts stay far below 2^53 cents, where f64 is exact"
        )]
        let value = self.amount_cents as f64 / 100.0;
        // `{"series": [{"type": "gauge", "data": [{"value": value}]}]}`, written as typed
        // structs: `echarts` takes any `Serialize`, and a `serde_json::json!` value would be
        // built (maps, vectors, strings) only to be written once.
        ui::echarts(Chart {
            series: &[Series {
                kind: "gauge",
                data: &[Point { value }],
            }],
        })
        .title("Amount (EUR)")
        .width(Width::Half)
        .priority(1)
    }

    /// `{n} invoices: {paid} paid, {pending} pending, {overdue} overdue`, over the shown items.
    fn summary(items: &[Self]) -> UiBlock {
        let count = |status| items.iter().filter(|i| i.status == status).count();
        ui::summary(format!(
            "{} invoices: {} paid, {} pending, {} overdue",
            items.len(),
            count(Status::Paid),
            count(Status::Pending),
            count(Status::Overdue)
        ))
    }
}

/// The flat export shape of an invoice (no declarations): what `export_invoices` encodes as TOON.
///
/// A presenter without declarations: the derive writes its wire form and lets a collection of
/// rows take TOON's compile-time table path (`toon_success_table`).
#[derive(Debug, Clone, Presenter)]
pub struct InvoiceRow {
    /// The invoice id.
    pub id: String,
    /// The customer's name.
    pub customer: String,
    /// The total, in cents.
    pub amount_cents: u64,
    /// ISO currency code.
    pub currency: String,
    /// Paid, pending or overdue.
    pub status: Status,
    /// Issue date.
    pub issued_at: String,
}

impl From<&Invoice> for InvoiceRow {
    fn from(invoice: &Invoice) -> Self {
        InvoiceRow {
            id: invoice.id.clone(),
            customer: invoice.customer.name.clone(),
            amount_cents: invoice.amount_cents,
            currency: invoice.currency.clone(),
            status: invoice.status,
            issued_at: invoice.issued_at.clone(),
        }
    }
}

/// An `ECharts` option of one series (the gauge of [`Invoice`]).
#[derive(Serialize)]
struct Chart<'a> {
    series: &'a [Series<'a>],
}

/// One `ECharts` series: its type and its data points.
#[derive(Serialize)]
struct Series<'a> {
    #[serde(rename = "type")]
    kind: &'static str,
    data: &'a [Point],
}

/// One data point of a series.
#[derive(Serialize)]
struct Point {
    value: f64,
}
