//! The elements of a top-level collection written one at a time, into the caller's text, with the
//! thread's cache of member prefixes borrowed once for all of them (fitting a collection to a
//! budget grows its data block item by item, wire format §17.3).

use serde::Serialize;

use super::prefix::Prefixes;
use super::{PREFIXES, Writer};
use crate::encode::EncodeError;

/// Runs `write` with an [`Elements`] writer: the thread's cache of member prefixes borrowed once
/// for every element it appends (fitting a collection to a budget writes item by item, wire
/// format §17.3).
pub(crate) fn with_elements<R>(write: impl FnOnce(&mut Elements<'_>) -> R) -> R {
    PREFIXES.with(|prefixes| {
        let mut prefixes = prefixes.try_borrow_mut().ok();
        write(&mut Elements {
            prefixes: prefixes.as_deref_mut(),
        })
    })
}

/// Appends elements of a top-level collection (see [`with_elements`]).
pub(crate) struct Elements<'p> {
    prefixes: Option<&'p mut Prefixes>,
}

impl Elements<'_> {
    /// Appends `value` to `out` as an element of a top-level collection is written (indented
    /// one level). On error `out` may hold a partial text; discard it.
    pub(crate) fn append<T: Serialize + ?Sized>(
        &mut self,
        out: &mut String,
        value: &T,
    ) -> Result<(), EncodeError> {
        value
            .serialize(&mut Writer {
                out,
                prefixes: self.prefixes.as_deref_mut(),
                depth: 1,
                top_len: None,
                top_written: 0,
            })
            .map_err(EncodeError::from_serde)
    }
}
