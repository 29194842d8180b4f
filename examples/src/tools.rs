//! The MCP tools of BILLING.md: `billing` (five actions chosen by `action`) and `invoice_stats`
//! (a flat tool with structured output), both answered by methods of one shared [`BillingApp`].

use std::error::Error;
use std::sync::Arc;

use fusion_runtime::tool::DefinitionError;
use fusion_runtime::{
    Call, ResponseBuilder, Structured, Tool, ToolError, ToolResponse, ToolSet, toon,
};
use serde::{Deserialize, Serialize};

use crate::models::{Invoice, InvoiceRow, Status};
use crate::store::Store;

/// The actions of the `billing` tool. Each variant is one action; its doc comment is the
/// action's description, its fields the action's arguments.
#[allow(
    missing_docs,
    reason = "field docs would become argument descriptions in the schema"
)]
#[derive(Debug, Deserialize, schemars::JsonSchema, Tool)]
#[serde(tag = "action", rename_all = "snake_case", deny_unknown_fields)]
#[fusion(name = "billing", description = "Manage invoices", select, toon)]
pub enum Billing {
    /// Fetch one invoice by id
    #[fusion(returns = Invoice, read_only)]
    GetInvoice { id: String },
    /// List invoices, newest first
    #[fusion(returns = [Invoice], read_only)]
    ListInvoices {
        status: Option<Status>,
        customer_id: Option<String>,
    },
    /// Export invoices as a compact table
    #[fusion(read_only)]
    ExportInvoices { status: Option<Status> },
    /// Queue a payment reminder
    Remind { id: String },
    /// Void an invoice
    #[fusion(destructive)]
    VoidInvoice { id: String, reason: String },
}

/// The input of the `invoice_stats` tool.
#[allow(
    missing_docs,
    reason = "field docs would become argument descriptions in the schema"
)]
#[derive(Debug, Deserialize, schemars::JsonSchema, Tool)]
#[serde(deny_unknown_fields)]
#[fusion(
    name = "invoice_stats",
    description = "Totals per invoice status",
    read_only
)]
pub struct InvoiceStatsInput {
    pub status: Option<Status>,
}

/// The structured result of `invoice_stats`: the handler returns `Structured<InvoiceStats>`, so
/// the tool's `outputSchema` is this type's schema.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct InvoiceStats {
    /// How many invoices were counted.
    pub count: u64,
    /// Their total, in cents.
    pub total_cents: u64,
    /// How many of each status (all three, zeros included).
    pub by_status: ByStatus,
}

/// Invoice counts per status.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct ByStatus {
    /// Paid invoices.
    pub paid: u64,
    /// Pending invoices.
    pub pending: u64,
    /// Overdue invoices.
    pub overdue: u64,
}

/// What a billing handler returns: a response, or an error (a `ToolError` is sent as its
/// envelope; anything else becomes `INTERNAL_ERROR`).
pub type Answer = Result<ToolResponse, Box<dyn Error + Send + Sync>>;

/// The billing application: the handlers of both tools over one store.
#[derive(Debug)]
pub struct BillingApp {
    store: Store,
}

impl BillingApp {
    /// The application over `store`.
    pub fn new(store: Store) -> Self {
        BillingApp { store }
    }

    /// The store.
    pub fn store(&self) -> &Store {
        &self.store
    }

    /// The `billing` tool as the servers run it: an asynchronous handler
    /// ([`ToolSet::tool_async`], `rmcp::route_async`).
    ///
    /// Queueing a reminder is where a real server awaits its mail service; this example yields
    /// to the runtime once instead, so the handler's future is pending before it answers, as
    /// such a handler's would be (the e2e tests go through that path). The other actions are
    /// in-memory reads, answered by [`BillingApp::billing`].
    pub async fn answer(self: Arc<Self>, action: Billing, call: Call) -> Answer {
        if matches!(action, Billing::Remind { .. }) {
            tokio::task::yield_now().await;
        }
        self.billing(action, &call)
    }

    /// The `billing` tool, synchronously.
    pub fn billing(&self, action: Billing, call: &Call) -> Answer {
        match action {
            Billing::GetInvoice { id } => {
                let invoice = self.store.find(&id)?;
                Ok(call.present(invoice).build()?)
            }
            Billing::ListInvoices {
                status,
                customer_id,
            } => {
                let mut invoices: Vec<Invoice> = self
                    .store
                    .with_status(status)
                    .filter(|i| customer_id.as_ref().is_none_or(|c| &i.customer.id == c))
                    .cloned()
                    .collect();
                invoices
                    .sort_by(|a, b| b.issued_at.cmp(&a.issued_at).then_with(|| a.id.cmp(&b.id)));
                Ok(call.present_all(&invoices).build()?)
            }
            Billing::ExportInvoices { status } => {
                let rows: Vec<InvoiceRow> = self
                    .store
                    .with_status(status)
                    .map(InvoiceRow::from)
                    .collect();
                Ok(toon::success_table(&rows)?)
            }
            Billing::Remind { id } => {
                let invoice = self.store.find(&id)?;
                if invoice.status == Status::Paid {
                    return Ok(ToolError::warning(
                        "ALREADY_PAID",
                        format!("Invoice {id} is already paid."),
                    )
                    .into_response());
                }
                Ok(ResponseBuilder::text(format!("Reminder queued for {id}.")).build())
            }
            Billing::VoidInvoice { id, reason: _ } => {
                // The person confirms first when the client can ask (an input-required result
                // stateless, elicitation over a session); otherwise the host's own confirmation
                // of a destructive tool is the safeguard, and the call goes on as before.
                self.store.find(&id)?;
                if let Some(stop) = call.confirm(format!("Void {id}? This cannot be undone.")) {
                    return Ok(stop);
                }
                self.store.void(&id)?;
                Ok(ResponseBuilder::text(format!("Invoice {id} voided.")).build())
            }
        }
    }

    /// The `invoice_stats` tool: totals of the existing invoices, of one status if asked.
    pub fn invoice_stats(
        &self,
        InvoiceStatsInput { status }: InvoiceStatsInput,
        _: &Call,
    ) -> Structured<InvoiceStats> {
        let mut stats = InvoiceStats {
            count: 0,
            total_cents: 0,
            by_status: ByStatus {
                paid: 0,
                pending: 0,
                overdue: 0,
            },
        };
        for invoice in self.store.with_status(status) {
            stats.count += 1;
            stats.total_cents += invoice.amount_cents;
            match invoice.status {
                Status::Paid => stats.by_status.paid += 1,
                Status::Pending => stats.by_status.pending += 1,
                Status::Overdue => stats.by_status.overdue += 1,
            }
        }
        Structured(stats)
    }
}

/// Both tools of the billing server, answered by methods of `app`, the set's shared state:
/// `billing` asynchronously ([`BillingApp::answer`]), `invoice_stats` synchronously
/// ([`BillingApp::invoice_stats`], whose return type gives the tool its `outputSchema`).
pub fn tools(app: Arc<BillingApp>) -> Result<ToolSet<BillingApp>, DefinitionError> {
    ToolSet::with_shared_state(app)
        .tool_async(BillingApp::answer)?
        .tool(BillingApp::invoice_stats)
}
