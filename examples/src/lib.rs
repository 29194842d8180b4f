//! The billing example of fusion (BILLING.md): the invoice models and their presenters, the
//! embedded fixture, and the two MCP tools `billing` and `invoice_stats`.
//!
//! ```
//! use std::sync::Arc;
//! use fusion_examples::{BillingApp, Store, tools};
//!
//! let tools = tools(Arc::new(BillingApp::new(Store::load()?)))?;
//! let response = tools.call(
//!     "billing",
//!     Some(serde_json::json!({"action": "remind", "id": "INV-0002"})),
//! );
//! assert_eq!(response.blocks(), ["Reminder queued for INV-0002."]);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub mod cli;
pub mod load;
pub mod models;
pub mod store;
pub mod tasks;
pub mod token_corpus;
pub mod tools;
#[path = "../../fusion-runtime/benches/support/wide.rs"]
pub mod wide;

pub use models::{Customer, Invoice, InvoiceLine, InvoiceRow, Status};
pub use store::Store;
pub use tools::{Billing, BillingApp, InvoiceStats, InvoiceStatsInput, tools};
