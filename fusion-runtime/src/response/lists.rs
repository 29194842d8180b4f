//! The lists of a response that drop repeats (wire format §6.4, §6.5): rules and suggestions.

use std::borrow::Cow;
use std::collections::HashMap;
use std::collections::hash_map::Entry;
use std::fmt::Write as _;
use std::hash::{BuildHasher, BuildHasherDefault, Hash, Hasher, RandomState};

/// A suggested next action: the tool to call and why (wire format §6.5).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Suggestion {
    /// The tool (or `tool.action`) to call next.
    pub tool: Cow<'static, str>,
    /// Why the model should call it.
    pub reason: Cow<'static, str>,
}

impl Suggestion {
    /// A suggestion of `tool` for `reason`.
    pub fn new(tool: impl Into<Cow<'static, str>>, reason: impl Into<Cow<'static, str>>) -> Self {
        Suggestion {
            tool: tool.into(),
            reason: reason.into(),
        }
    }

    /// The item body `tool: reason` before escaping.
    pub fn body(&self) -> String {
        format!("{}: {}", self.tool, self.reason)
    }
}

/// A list that drops entries equal to one already in it (wire format §6.4, §6.5), in insertion order.
#[derive(Debug, Clone)]
pub struct DedupList<T> {
    items: Vec<T>,
    index: DedupIndex,
}

impl<T> Default for DedupList<T> {
    fn default() -> Self {
        DedupList {
            items: Vec::new(),
            index: DedupIndex::default(),
        }
    }
}

impl<T: Eq + Hash> DedupList<T> {
    /// Appends `item` unless an equal one is already in the list; returns whether it was added.
    pub fn push(&mut self, item: T) -> bool {
        if !self.index.admit(&self.items, &item, |entry| entry) {
            return false;
        }
        self.items.push(item);
        true
    }
}

impl DedupList<Cow<'static, str>> {
    /// Appends the text of `args` unless an equal text is already in the list; returns whether
    /// it was added.
    ///
    /// The text is written into a reused buffer first, so a repeated rule allocates nothing
    /// (`#[derive(Presenter)]` pushes its rule templates this way).
    pub fn push_fmt(&mut self, args: std::fmt::Arguments<'_>) -> bool {
        if let Some(text) = args.as_str() {
            return self.push(Cow::Borrowed(text));
        }
        RULE_SCRATCH.with(|scratch| {
            // A `Display` impl that itself pushes a formatted rule finds the buffer taken.
            let Ok(mut text) = scratch.try_borrow_mut() else {
                let mut owned = String::new();
                let _ = owned.write_fmt(args);
                return self.push(Cow::Owned(owned));
            };
            text.clear();
            // A `Display` impl that fails leaves the text it wrote (`format!` would panic).
            let _ = text.write_fmt(args);
            if !self.index.admit(&self.items, text.as_str(), AsRef::as_ref) {
                return false;
            }
            self.items.push(Cow::Owned(text.as_str().to_owned()));
            true
        })
    }
}

thread_local! {
    /// The buffer [`DedupList::push_fmt`] formats into.
    static RULE_SCRATCH: std::cell::RefCell<String> = const { std::cell::RefCell::new(String::new()) };
}

impl<T> DedupList<T> {
    /// Keeps the first `len` entries (all when there are fewer): the list as it was when it
    /// held `len`.
    pub(crate) fn truncate(&mut self, len: usize) {
        self.items.truncate(len);
        self.index.forget_from(len);
    }

    /// The entries, in insertion order.
    pub fn as_slice(&self) -> &[T] {
        &self.items
    }

    /// Whether the list is empty.
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    /// The entries, in insertion order.
    pub fn into_vec(self) -> Vec<T> {
        self.items
    }
}

/// Past this many entries a hash index answers "seen?" instead of a linear scan.
const DEDUP_SCAN_LIMIT: usize = 16;

/// Answers "is an entry with this key already in the list?" for a list that only grows: a scan
/// while the list is short, then an index from key hashes to positions, so no key is cloned.
#[derive(Debug, Clone, Default)]
pub(crate) struct DedupIndex {
    index: Option<HashIndex>,
}

impl DedupIndex {
    /// Whether no entry of `items` has the key `key`. When it returns `true` the caller must push
    /// an entry with that key (at `items.len()`); entries are never removed or changed.
    pub(crate) fn admit<T, Q: Eq + Hash + ?Sized>(
        &mut self,
        items: &[T],
        key: &Q,
        key_of: impl Fn(&T) -> &Q,
    ) -> bool {
        if let Some(index) = &mut self.index {
            return index.admit(items, key, &key_of);
        }
        if items.iter().any(|entry| key_of(entry) == key) {
            return false;
        }
        if items.len() >= DEDUP_SCAN_LIMIT {
            let mut index = HashIndex::default();
            for (at, entry) in items.iter().enumerate() {
                index.record(key_of(entry), at);
            }
            index.record(key, items.len());
            self.index = Some(index);
        }
        true
    }
}

impl DedupIndex {
    /// Forgets the entries from position `len` on (the list was cut there).
    pub(crate) fn forget_from(&mut self, len: usize) {
        if let Some(index) = &mut self.index {
            index.positions.retain(|_, at| *at < len);
        }
    }
}

/// Positions of a list's entries by the (keyed, `SipHash`) hash of their key.
#[derive(Debug, Clone, Default)]
struct HashIndex {
    state: RandomState,
    positions: HashMap<u64, usize, BuildHasherDefault<Prehashed>>,
}

impl HashIndex {
    fn record<Q: Hash + ?Sized>(&mut self, key: &Q, at: usize) {
        let hash = self.state.hash_one(key);
        self.positions.entry(hash).or_insert(at);
    }

    fn admit<T, Q: Eq + Hash + ?Sized>(
        &mut self,
        items: &[T],
        key: &Q,
        key_of: &impl Fn(&T) -> &Q,
    ) -> bool {
        let hash = self.state.hash_one(key);
        match self.positions.entry(hash) {
            Entry::Vacant(slot) => {
                slot.insert(items.len());
                true
            }
            Entry::Occupied(slot) => {
                if items
                    .get(*slot.get())
                    .is_some_and(|entry| key_of(entry) == key)
                {
                    return false;
                }
                // Two keys with one 64-bit hash: the exact answer by a scan (never in practice).
                !items.iter().any(|entry| key_of(entry) == key)
            }
        }
    }
}

/// The hasher of keys that already are keyed hashes: it passes them through.
#[derive(Debug, Clone, Copy, Default)]
struct Prehashed(u64);

impl Hasher for Prehashed {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        // Only `u64` keys are hashed with it; fold anything else in rather than panic.
        for &byte in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(byte);
        }
    }

    fn write_u64(&mut self, value: u64) {
        self.0 = value;
    }
}

/// The list of rules of a response.
pub type Rules = DedupList<Cow<'static, str>>;
/// The list of suggestions of a response.
pub type Suggestions = DedupList<Suggestion>;

#[cfg(test)]
mod tests {
    use std::borrow::Cow;

    use super::{DEDUP_SCAN_LIMIT, DedupList};

    #[test]
    fn dedup_list_drops_repeats_before_and_after_the_index() {
        let mut list: DedupList<Cow<'static, str>> = DedupList::default();
        for round in 0..3 {
            for i in 0..(3 * DEDUP_SCAN_LIMIT) {
                // Owned and borrowed texts compare equal; only the first of each is kept.
                let text = format!("rule {i}");
                let added = if i % 2 == 0 {
                    list.push(Cow::Owned(text))
                } else {
                    list.push(Cow::Borrowed(Box::leak(text.into_boxed_str())))
                };
                assert_eq!(added, round == 0, "round {round}, rule {i}");
            }
        }
        let expected: Vec<String> = (0..3 * DEDUP_SCAN_LIMIT)
            .map(|i| format!("rule {i}"))
            .collect();
        assert_eq!(list.as_slice(), expected.as_slice());
    }

    #[test]
    fn push_fmt_dedups_like_push() {
        let mut list: DedupList<Cow<'static, str>> = DedupList::default();
        for round in 0..2 {
            for i in 0..(2 * DEDUP_SCAN_LIMIT) {
                let added = if round == 0 {
                    list.push_fmt(format_args!("Invoice {i} is overdue."))
                } else {
                    list.push(Cow::Owned(format!("Invoice {i} is overdue.")))
                };
                assert_eq!(added, round == 0, "round {round}, rule {i}");
                assert!(!list.push_fmt(format_args!("Invoice {i} is overdue.")));
            }
        }
        assert!(list.push_fmt(format_args!("static text")));
        assert!(!list.push(Cow::Borrowed("static text")));
        assert_eq!(list.as_slice().len(), 2 * DEDUP_SCAN_LIMIT + 1);
        assert_eq!(list.as_slice()[3], "Invoice 3 is overdue.");
    }

    #[test]
    fn dedup_list_keeps_insertion_order_across_the_switch() {
        let mut list = DedupList::default();
        for i in (0..40).rev().chain(0..40) {
            list.push(i % 25);
        }
        let expected: Vec<i32> = (0..15).rev().chain((15..25).rev()).collect();
        assert_eq!(list.into_vec(), expected);
    }
}
