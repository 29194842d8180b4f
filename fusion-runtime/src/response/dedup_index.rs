//! The index a de-duplicating list asks "is an entry with this key already in?" (wire format
//! §6.4, §6.5): a scan while the list is short, then a map from key hashes to positions, so no
//! key is cloned.

use std::collections::HashMap;
use std::collections::hash_map::Entry;
use std::hash::{BuildHasher, BuildHasherDefault, Hash, Hasher, RandomState};

/// Past this many entries a hash index answers "seen?" instead of a linear scan.
pub(super) const DEDUP_SCAN_LIMIT: usize = 16;

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
