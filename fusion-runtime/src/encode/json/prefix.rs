//! The text before each struct field's value, cached per thread: `,`, a line break, the
//! indentation, the quoted key and `: `, copied in one piece.
//!
//! A struct field's key is a `&'static str` (serde's `serialize_field`), so its address and
//! length name its bytes for the life of the program: the cache maps (address, length, depth)
//! to the prefix text, and a field of a model written a thousand times is escaped once. Map
//! keys are not `'static` and are written as before.

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

/// One cached prefix: the key's address and length, the depth, and where the text lies.
#[derive(Clone, Copy, Default)]
struct Slot {
    /// The key's address; 0 is an empty slot (no `&'static str` lives at address 0).
    addr: usize,
    len: usize,
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
        let addr = key.as_ptr().addr();
        let home = slot_index(addr, depth);
        let slots = self
            .slots
            .get_or_insert_with(|| Box::new([Slot::default(); SLOTS]));
        let mut free = None;
        for probe in 0..PROBES {
            let index = (home + probe) & (SLOTS - 1);
            let slot = &slots[index];
            if slot.addr == addr && slot.len == key.len() && slot.depth == depth {
                return self.text.get(slot.start..slot.end);
            }
            if slot.addr == 0 {
                free = Some(index);
                break;
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
            addr,
            len: key.len(),
            depth,
            start,
            end,
        };
        self.text.get(start..end)
    }
}

/// The slot of a key at a depth: a multiplicative (Fibonacci) hash of both.
#[inline]
fn slot_index(addr: usize, depth: usize) -> usize {
    // 2^64 / φ, truncated to the pointer width: any odd constant spreads the bits; the
    // truncation on 32-bit targets is intended.
    #[allow(
        clippy::cast_possible_truncation,
        reason = "the hash constant is cut to the pointer width on purpose"
    )]
    const GOLDEN: usize = 0x9E37_79B9_7F4A_7C15_u64 as usize;
    let mixed = (addr ^ depth.rotate_right(7)).wrapping_mul(GOLDEN);
    mixed >> (usize::BITS - SLOT_BITS)
}
