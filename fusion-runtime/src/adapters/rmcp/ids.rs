//! The requests in flight between the stdio guard and rmcp: each caller's id under an internal
//! one.
//!
//! rmcp keys its in-flight requests by id, so of several requests sharing an id only one is
//! answered. The guard therefore hands rmcp a fresh integer id per request and keeps the
//! caller's id here, to put it back on the answer. A client may reuse ids however it likes;
//! rmcp never sees two alike.

use std::collections::HashMap;
use std::sync::{Mutex, MutexGuard, PoisonError};

use serde_json::Value;
use tokio::sync::Notify;

/// The caller id of each request rmcp has not answered yet, by internal id.
#[derive(Debug, Default)]
pub(super) struct InFlight {
    state: Mutex<State>,
    /// Woken whenever the table becomes empty (see [`InFlight::settled`]).
    emptied: Notify,
}

#[derive(Debug, Default)]
struct State {
    last: i64,
    callers: HashMap<i64, Value>,
}

impl InFlight {
    fn state(&self) -> MutexGuard<'_, State> {
        // The table holds plain data: a panic elsewhere cannot leave it half-changed.
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// A fresh internal id, not yet in the table (one that goes unused is simply skipped).
    pub(super) fn reserve(&self) -> i64 {
        let mut state = self.state();
        // Wrapping instead of overflowing: 2^63 requests do not happen, and no panic can.
        state.last = state.last.wrapping_add(1);
        state.last
    }

    /// Records that the request rmcp knows as `internal` came with the caller's id `caller`.
    pub(super) fn admit(&self, internal: i64, caller: Value) {
        self.state().callers.insert(internal, caller);
    }

    /// The caller's id for rmcp's answer to `internal`, removed from the table; `None` when the
    /// request is not in flight (it was cancelled, so the caller expects no answer).
    pub(super) fn restore(&self, internal: i64) -> Option<Value> {
        let mut state = self.state();
        let caller = state.callers.remove(&internal);
        if state.callers.is_empty() {
            self.emptied.notify_waiters();
        }
        caller
    }

    /// Removes every in-flight request the caller sent with id `caller` and returns their
    /// internal ids, to cancel each in rmcp.
    pub(super) fn cancel(&self, caller: &Value) -> Vec<i64> {
        let mut state = self.state();
        let mut cancelled: Vec<i64> = state
            .callers
            .iter()
            .filter(|(_, id)| *id == caller)
            .map(|(internal, _)| *internal)
            .collect();
        cancelled.sort_unstable();
        for internal in &cancelled {
            state.callers.remove(internal);
        }
        if state.callers.is_empty() {
            self.emptied.notify_waiters();
        }
        cancelled
    }

    /// How many requests are in flight.
    pub(super) fn len(&self) -> usize {
        self.state().callers.len()
    }

    /// Returns once no request is in flight.
    pub(super) async fn settled(&self) {
        loop {
            // Registered before the check, so an emptying in between is not missed.
            let emptied = self.emptied.notified();
            if self.len() == 0 {
                return;
            }
            emptied.await;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn callers_sharing_an_id_get_distinct_internal_ids_and_their_own_id_back() {
        let table = InFlight::default();
        let (first, second) = (table.reserve(), table.reserve());
        assert_ne!(first, second);
        table.admit(first, json!(7));
        table.admit(second, json!(7));
        assert_eq!(table.restore(second), Some(json!(7)));
        assert_eq!(table.restore(first), Some(json!(7)));
        assert_eq!(table.restore(first), None);
        assert_eq!(table.len(), 0);
    }

    #[test]
    fn cancelling_a_caller_id_removes_every_request_that_shares_it() {
        let table = InFlight::default();
        for caller in [json!("a"), json!(1), json!("a")] {
            let internal = table.reserve();
            table.admit(internal, caller);
        }
        assert_eq!(table.cancel(&json!("a")), vec![1, 3]);
        assert_eq!(table.cancel(&json!("a")), Vec::<i64>::new());
        assert_eq!(table.len(), 1);
    }
}
