//! The text before each struct field's value, cached per thread: `,`, a line break, the
//! indentation, the quoted key and `: `, copied in one piece.
//!
//! The cache maps a key's text and a depth to the prefix text, so a field of a model written a
//! thousand times is escaped once. A struct field's key is a `&'static str` (serde's
//! `serialize_field`), so a slot holds the key itself, without a copy, and a hit is equal text
//! at the same depth: the key's address only picks the slot to look in first (`slot_index`)
//! and, when the slot holds that very `&'static str`, spares the comparison of bytes; no answer
//! depends on it. Map keys are not `'static` and are written as before.

/// Slots of the cache (a power of two); a collision only costs a rebuild.
const SLOTS: usize = 256;

/// How many slots from a key's own are looked at (linear probing), so two hot keys that hash
/// alike do not evict each other on every member.
const PROBES: usize = 4;

/// Bits of the slot index, for the multiplicative hash.
const SLOT_BITS: u32 = SLOTS.trailing_zeros();

/// Prefixes are cached up to this depth; deeper members are written piece by piece.
const MAX_DEPTH: usize = 64;

/// When the cached texts pass this many bytes, the cache starts over (a bound for programs
/// with very many distinct keys).
const TEXT_LIMIT: usize = 16 * 1024;

/// One cached prefix: the key, the depth, and where the text lies.
#[derive(Clone, Copy, Default)]
struct Slot {
    /// The key; `None` is an empty slot.
    key: Option<&'static str>,
    depth: usize,
    start: usize,
    end: usize,
}

/// The cache of member prefixes (see the module docs).
pub(super) struct Prefixes {
    /// Allocated on first use; a fixed-size array so that an index masked to it needs no
    /// bounds check.
    slots: Option<Box<[Slot; SLOTS]>>,
    text: String,
}

impl Prefixes {
    /// An empty cache; it allocates on first use.
    pub(super) const fn new() -> Self {
        Self {
            slots: None,
            text: String::new(),
        }
    }

    /// `,` + LF + the indentation of `depth` + `"KEY": ` (KEY escaped as wire format §3.4
    /// says); the caller skips the comma before a first member. `None` past [`MAX_DEPTH`].
    #[inline]
    pub(super) fn get(&mut self, key: &'static str, depth: usize) -> Option<&str> {
        if depth > MAX_DEPTH {
            return None;
        }
        let home = slot_index(key, depth);
        let slots = self
            .slots
            .get_or_insert_with(|| Box::new([Slot::default(); SLOTS]));
        let mut free = None;
        for probe in 0..PROBES {
            let index = (home + probe) & (SLOTS - 1);
            let slot = &slots[index];
            let Some(held) = slot.key else {
                free = Some(index);
                break;
            };
            if slot.depth == depth && (std::ptr::eq(held, key) || held == key) {
                return self.text.get(slot.start..slot.end);
            }
        }
        if self.text.len() > TEXT_LIMIT {
            self.text.clear();
            slots.fill(Slot::default());
            free = None;
        }
        // A free slot in reach, or else the key's own slot (its holder is rebuilt if it comes
        // back).
        let index = free.unwrap_or(home);
        let start = self.text.len();
        self.text.push_str(",\n");
        for _ in 0..depth {
            self.text.push_str("  ");
        }
        self.text.push('"');
        super::string::escape_into(&mut self.text, key);
        self.text.push_str("\": ");
        let end = self.text.len();
        slots[index & (SLOTS - 1)] = Slot {
            key: Some(key),
            depth,
            start,
            end,
        };
        self.text.get(start..end)
    }
}

/// The slot to look in first for a key at a depth: a multiplicative (Fibonacci) hash of the
/// key's address and the depth. The address only says where to look (the generated code of a
/// model passes the same `&'static str` each time, and an address costs nothing to hash); what
/// a slot answers for is its key's text (see [`Prefixes::get`]), so the same text at two
/// addresses takes two slots, never a wrong prefix. Hashing the text instead cost 5–7% of the
/// JSON writer's instructions (PERFORMANCE.md).
#[inline]
fn slot_index(key: &str, depth: usize) -> usize {
    // 2^64 / φ, truncated to the pointer width: any odd constant spreads the bits; the
    // truncation on 32-bit targets is intended.
    #[allow(
        clippy::cast_possible_truncation,
        reason = "the hash constant is cut to the pointer width on purpose"
    )]
    const GOLDEN: usize = 0x9E37_79B9_7F4A_7C15_u64 as usize;
    let mixed = (key.as_ptr().addr() ^ depth.rotate_right(7)).wrapping_mul(GOLDEN);
    mixed >> (usize::BITS - SLOT_BITS)
}
