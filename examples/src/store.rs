//! The invoices of the fixture (embedded at compile time) and the voids of this process.

use std::collections::HashSet;
use std::sync::{Mutex, PoisonError};

use fusion_runtime::ToolError;
use fusion_runtime::echo::Echo;
use serde::Deserialize;

use crate::models::{Invoice, Status};

/// The fixture of BILLING.md: 120 invoices.
const FIXTURE: &str = include_str!("../data/billing.json");

#[derive(Deserialize)]
struct Fixture {
    invoices: Vec<Invoice>,
}

/// The invoices, in fixture order, and the ids voided since the process started.
#[derive(Debug)]
pub struct Store {
    invoices: Vec<Invoice>,
    voided: Mutex<HashSet<String>>,
}

impl Store {
    /// The store of the embedded fixture, nothing voided.
    pub fn load() -> Result<Self, serde_json::Error> {
        let fixture: Fixture = serde_json::from_str(FIXTURE)?;
        Ok(Store {
            invoices: fixture.invoices,
            voided: Mutex::new(HashSet::new()),
        })
    }

    fn is_voided(&self, id: &str) -> bool {
        // A poisoned lock only means another call panicked mid-insert: the set is still valid.
        self.voided
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .contains(id)
    }

    /// The invoices that exist (not voided), in fixture order.
    pub fn invoices(&self) -> impl Iterator<Item = &Invoice> {
        self.invoices.iter().filter(|i| !self.is_voided(&i.id))
    }

    /// The invoices that exist and have `status` (all when `None`), in fixture order.
    pub fn with_status(&self, status: Option<Status>) -> impl Iterator<Item = &Invoice> {
        self.invoices()
            .filter(move |i| status.is_none_or(|s| i.status == s))
    }

    /// The invoice `id`, or the `NOT_FOUND` error of BILLING.md (also for a voided invoice).
    pub fn find(&self, id: &str) -> Result<&Invoice, ToolError> {
        self.invoices()
            .find(|i| i.id == id)
            .ok_or_else(|| not_found(id))
    }

    /// Voids the invoice `id`; it then no longer exists for any action.
    pub fn void(&self, id: &str) -> Result<(), ToolError> {
        let invoice = self.find(id)?;
        self.voided
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .insert(invoice.id.clone());
        Ok(())
    }
}

/// `NOT_FOUND` for an unknown or voided id.
pub fn not_found(id: &str) -> ToolError {
    // The id is the caller's: quoted, on one line and cut, as fusion echoes input.
    ToolError::not_found(format!("Invoice {} does not exist.", Echo::NAME.quote(id)))
        .recovery("Call billing with action \"list_invoices\" to find valid ids.")
        .action("list_invoices")
}
