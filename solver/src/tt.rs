//! The exact, lock-free transposition table shared by all search threads.
//!
//! # Exactness
//!
//! A game's key is an exact code of the position (`Game::key`), below a known bound
//! (`Game::key_bound`). The table has `len` buckets; a key lives in bucket `key % len` and the entry
//! stores the quotient `key / len`. Bucket index and quotient together give back the whole key, so a
//! hit is provably the same position: no collision is possible (Pons's connect4 table, where the
//! Chinese remainder theorem plays the same role). The constructor checks that the largest quotient
//! fits its field and refuses the table size otherwise.
//!
//! # Entry layout
//!
//! One entry is one `u64`, read and written with a single relaxed atomic load or store, so an entry
//! can never tear and no lock or checksum is needed. Two entries form a 16-byte bucket (four buckets
//! per cache line), so a probe touches one cache line.
//!
//! ```text
//!  63                                  28 27  24 23    18 17       9 8        0
//! +--------------------------------------+------+--------+----------+----------+
//! |            quotient + 1 (36)          | work |  move  |  upper   |  lower   |
//! +--------------------------------------+------+--------+----------+----------+
//! ```
//!
//! | field    | bits   | meaning                                                              |
//! |----------|--------|----------------------------------------------------------------------|
//! | lower    | 0..=8  | lower bound on the future value, stored as `value + 256` (-256..=255) |
//! | upper    | 9..=17 | upper bound on the future value, same encoding                        |
//! | move     | 18..=23| best move: 0 = none, else `Game::move_index(mv) + 1`                  |
//! | work     | 24..=27| log2 of the subtree's node count, saturated at 15 (replacement)      |
//! | quotient | 28..=63| `key / len + 1`; 0 marks an empty slot                               |
//!
//! Both bounds are kept because the root driver runs many null-window searches (MTD(f) style): one
//! pass proves a lower bound, another an upper bound, and together they often pin the value.
//! An entry whose bounds are `-stake..=stake` carries no value information, only a move hint; the
//! search uses that for results that depended on its path (cyclic games) and must not be shared.
//!
//! Values are *future* values, which depend on the position alone (see [`crate::game`]), so they
//! are stored as they are, with no node-relative conversion. Every stored bound is a true bound on
//! the value, which is why two entries for the same key may simply be merged by intersecting their
//! intervals.
//!
//! # Replacement
//!
//! Slot 0 of a bucket keeps the entry that represents the most work; slot 1 always takes the newest
//! entry, and an entry pushed out of slot 0 moves down to slot 1. This is the classic two-tier
//! scheme: big subtrees survive, and recent small ones still get a place.

use std::alloc::Layout;
use std::fmt;
use std::sync::atomic::{AtomicU64, Ordering};

use crate::game::Game;

/// Bits of the stored quotient field.
const QUOTIENT_BITS: u32 = 36;
const QUOTIENT_SHIFT: u32 = 28;
/// The stored field holds `quotient + 1`, and 0 means empty, so the quotient itself is at most this.
const MAX_QUOTIENT: u64 = (1 << QUOTIENT_BITS) - 2;

const VALUE_BITS: u32 = 9;
const VALUE_MASK: u64 = (1 << VALUE_BITS) - 1;
const VALUE_OFFSET: i32 = 1 << (VALUE_BITS - 1);
const LOWER_SHIFT: u32 = 0;
const UPPER_SHIFT: u32 = 9;

const MOVE_SHIFT: u32 = 18;
const MOVE_MASK: u64 = 0x3f;

const WORK_SHIFT: u32 = 24;
const WORK_MASK: u64 = 0xf;

/// The smallest value a bound can hold.
pub const MIN_VALUE: i32 = -VALUE_OFFSET;
/// The largest value a bound can hold.
pub const MAX_VALUE: i32 = VALUE_OFFSET - 1;
/// The largest stake a game may have for its values to fit the table (`-stake..=stake` must fit).
pub const MAX_STAKE: i32 = MAX_VALUE;
/// The largest `work` an entry records.
pub const MAX_WORK: u8 = WORK_MASK as u8;

// The fields tile the word exactly, with nothing overlapping.
const _: () = assert!(UPPER_SHIFT == LOWER_SHIFT + VALUE_BITS);
const _: () = assert!(MOVE_SHIFT == UPPER_SHIFT + VALUE_BITS);
const _: () = assert!(WORK_SHIFT == MOVE_SHIFT + 6);
const _: () = assert!(QUOTIENT_SHIFT == WORK_SHIFT + 4);
const _: () = assert!(QUOTIENT_SHIFT + QUOTIENT_BITS == 64);
// A move index is below MAX_MOVES, and index + 1 must fit the move field.
const _: () = assert!(crate::game::MAX_MOVES as u64 <= MOVE_MASK);

/// What the table knows about one position: a copy, decoded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// A lower bound on the future value.
    pub lower: i32,
    /// An upper bound on the future value.
    pub upper: i32,
    /// The move index (`Game::move_index`) of the best move found, if any.
    pub best: Option<u8>,
    /// How much work the entry represents (log2 of a node count, `0..=MAX_WORK`).
    pub work: u8,
}

impl Entry {
    /// The log2-scale work measure for a subtree of `nodes` nodes, as stored in [`Entry::work`].
    pub fn work_of(nodes: u64) -> u8 {
        ((64 - nodes.leading_zeros()) as u8).min(MAX_WORK)
    }
}

/// Packs an entry with its quotient into one word.
///
/// Values must lie in `MIN_VALUE..=MAX_VALUE` (the constructor's stake check and the search's
/// clamping to the stake guarantee it); the debug assertions catch a caller that breaks this.
const fn pack(quotient: u64, e: Entry) -> u64 {
    debug_assert!(quotient <= MAX_QUOTIENT);
    debug_assert!(e.lower >= MIN_VALUE && e.lower <= MAX_VALUE);
    debug_assert!(e.upper >= MIN_VALUE && e.upper <= MAX_VALUE);
    debug_assert!(e.work <= MAX_WORK);
    let mv = match e.best {
        Some(m) => m as u64 + 1,
        None => 0,
    };
    ((quotient + 1) << QUOTIENT_SHIFT)
        | ((e.work as u64) << WORK_SHIFT)
        | (mv << MOVE_SHIFT)
        | ((((e.upper + VALUE_OFFSET) as u64) & VALUE_MASK) << UPPER_SHIFT)
        | ((((e.lower + VALUE_OFFSET) as u64) & VALUE_MASK) << LOWER_SHIFT)
}

/// The stored `quotient + 1` field; 0 for an empty slot.
const fn stored_quotient(word: u64) -> u64 {
    word >> QUOTIENT_SHIFT
}

/// The work field of a word (0 for an empty slot).
const fn work(word: u64) -> u8 {
    ((word >> WORK_SHIFT) & WORK_MASK) as u8
}

/// Decodes the non-key fields of a word.
const fn unpack(word: u64) -> Entry {
    let mv = (word >> MOVE_SHIFT) & MOVE_MASK;
    Entry {
        lower: ((word >> LOWER_SHIFT) & VALUE_MASK) as i32 - VALUE_OFFSET,
        upper: ((word >> UPPER_SHIFT) & VALUE_MASK) as i32 - VALUE_OFFSET,
        best: if mv == 0 { None } else { Some((mv - 1) as u8) },
        work: work(word),
    }
}

/// Where a key lives in a table: its bucket and the quotient stored to identify it. Only valid for
/// the table that computed it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Slot {
    index: usize,
    quotient: u64,
}

/// Two entries for one bucket index, sharing a 16-byte-aligned block (4 buckets per cache line).
#[repr(C, align(16))]
struct Bucket([AtomicU64; 2]);

const BUCKET_BYTES: usize = std::mem::size_of::<Bucket>();
const _: () = assert!(BUCKET_BYTES == 16);

/// Why a table cannot be built.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TtError {
    /// The table is too small for the game's keys: `key_bound / buckets` does not fit the
    /// quotient field, so entries could not identify positions exactly.
    KeyTooLarge {
        /// The game's exclusive key bound.
        key_bound: u128,
        /// The table size asked for, in bytes.
        requested_bytes: usize,
        /// The smallest table size, in bytes, that works for this key bound.
        min_bytes: u128,
    },
    /// The game's stake exceeds what the value fields can hold.
    StakeTooLarge {
        /// The game's stake.
        stake: i32,
        /// The largest supported stake.
        max: i32,
    },
    /// The memory could not be allocated.
    Alloc {
        /// The size that was asked for, in bytes (after rounding to whole buckets).
        bytes: usize,
    },
}

impl fmt::Display for TtError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TtError::KeyTooLarge {
                key_bound,
                requested_bytes,
                min_bytes,
            } => write!(
                f,
                "transposition table of {requested_bytes} bytes is too small for exact keys below \
                 {key_bound}: the key quotient would not fit {QUOTIENT_BITS} bits; use at least \
                 {min_bytes} bytes"
            ),
            TtError::StakeTooLarge { stake, max } => write!(
                f,
                "stake {stake} exceeds the transposition table's value range (at most {max})"
            ),
            TtError::Alloc { bytes } => {
                write!(
                    f,
                    "could not allocate {bytes} bytes for the transposition table"
                )
            }
        }
    }
}

impl std::error::Error for TtError {}

/// The exact, lock-free transposition table. Share it by `&` between threads.
pub struct TranspositionTable {
    buckets: Box<[Bucket]>,
    /// `buckets.len()` as a `u64`, the divisor of the key.
    len: u64,
}

impl fmt::Debug for TranspositionTable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TranspositionTable")
            .field("buckets", &self.len)
            .finish()
    }
}

impl TranspositionTable {
    /// A table of about `bytes` bytes (rounded down to whole 16-byte buckets, at least one) for
    /// keys below `key_bound` and values within `-max_stake..=max_stake`.
    ///
    /// # Errors
    /// [`TtError::KeyTooLarge`] when the quotient `key / buckets` of some key would not fit the
    /// entry; [`TtError::StakeTooLarge`] when `max_stake` exceeds [`MAX_STAKE`];
    /// [`TtError::Alloc`] when the memory is not available (the process does not abort).
    pub fn new(bytes: usize, key_bound: u128, max_stake: i32) -> Result<Self, TtError> {
        if max_stake > MAX_STAKE {
            return Err(TtError::StakeTooLarge {
                stake: max_stake,
                max: MAX_STAKE,
            });
        }
        let n = (bytes / BUCKET_BYTES).max(1);
        let largest_quotient = key_bound.saturating_sub(1) / n as u128;
        if largest_quotient > MAX_QUOTIENT as u128 {
            // Smallest n with (key_bound - 1) / n <= MAX_QUOTIENT.
            let min_n = (key_bound - 1) / (MAX_QUOTIENT as u128 + 1) + 1;
            return Err(TtError::KeyTooLarge {
                key_bound,
                requested_bytes: bytes,
                min_bytes: min_n * BUCKET_BYTES as u128,
            });
        }
        let alloc_err = TtError::Alloc {
            bytes: n.saturating_mul(BUCKET_BYTES),
        };
        let layout = Layout::array::<Bucket>(n).map_err(|_| alloc_err.clone())?;
        // Zeroed allocation: the allocator hands out fresh pages already zeroed (calloc / mmap), so
        // a big table costs nothing until touched, and the all-zero word is the empty slot.
        // SAFETY: `layout` has non-zero size (n >= 1 and Bucket is 16 bytes).
        let ptr = unsafe { std::alloc::alloc_zeroed(layout) }.cast::<Bucket>();
        if ptr.is_null() {
            return Err(alloc_err);
        }
        crate::memory::advise_huge_pages(ptr.cast::<u8>(), layout.size());
        // SAFETY: `ptr` was allocated by the global allocator with the layout of `[Bucket; n]`,
        // which is the layout `Box<[Bucket]>` frees with; all-zero bytes are a valid `Bucket`
        // (atomics of 0).
        let buckets = unsafe { Box::from_raw(std::ptr::slice_from_raw_parts_mut(ptr, n)) };
        Ok(Self {
            buckets,
            len: n as u64,
        })
    }

    /// A table of about `bytes` bytes for the positions reachable from `root`.
    ///
    /// # Errors
    /// As [`TranspositionTable::new`].
    pub fn for_game<G: Game>(root: &G, bytes: usize) -> Result<Self, TtError> {
        Self::new(bytes, root.key_bound(), root.stake())
    }

    /// The table's size in bytes.
    pub fn bytes(&self) -> usize {
        self.buckets.len() * BUCKET_BYTES
    }

    /// The number of entries the table can hold.
    pub fn capacity(&self) -> usize {
        self.buckets.len() * 2
    }

    /// Where `key` lives: its bucket and quotient. Computing it costs a division, so the search
    /// computes it once per position and reuses it for prefetch, probe and store.
    #[inline]
    pub fn slot(&self, key: u128) -> Slot {
        // u64 division is several times faster than u128, and keys of the supported games fit.
        let (index, quotient) = if let Ok(k) = u64::try_from(key) {
            ((k % self.len) as usize, k / self.len)
        } else {
            let n = self.len as u128;
            ((key % n) as usize, (key / n) as u64)
        };
        Slot { index, quotient }
    }

    /// Asks the CPU to start loading the bucket of `slot`, so that several probes can wait for
    /// memory at the same time (the search prefetches all children before probing any).
    #[inline]
    pub fn prefetch(&self, slot: Slot) {
        crate::memory::prefetch(&self.buckets[slot.index]);
    }

    /// What the table knows about `key`, if anything.
    #[inline]
    pub fn probe(&self, key: u128) -> Option<Entry> {
        self.probe_at(self.slot(key))
    }

    /// What the table knows about the key of `slot`, if anything.
    #[inline]
    pub fn probe_at(&self, slot: Slot) -> Option<Entry> {
        let want = slot.quotient + 1;
        let b = &self.buckets[slot.index].0;
        let w0 = b[0].load(Ordering::Relaxed);
        if stored_quotient(w0) == want {
            return Some(unpack(w0));
        }
        let w1 = b[1].load(Ordering::Relaxed);
        if stored_quotient(w1) == want {
            return Some(unpack(w1));
        }
        None
    }

    /// Records what the search learned about `key`; see [`TranspositionTable::store_at`].
    #[inline]
    pub fn store(&self, key: u128, e: Entry) {
        self.store_at(self.slot(key), e);
    }

    /// Records what the search learned about the key of `slot`, merging it with what the table
    /// already knows about the same key (both are true bounds, so their intersection is too).
    ///
    /// Concurrent stores to one bucket may lose one of the updates, never corrupt an entry.
    #[inline]
    pub fn store_at(&self, slot: Slot, e: Entry) {
        let q = slot.quotient;
        let want = q + 1;
        let b = &self.buckets[slot.index].0;
        let w0 = b[0].load(Ordering::Relaxed);
        if stored_quotient(w0) == want {
            b[0].store(pack(q, merge(unpack(w0), e)), Ordering::Relaxed);
            return;
        }
        let w1 = b[1].load(Ordering::Relaxed);
        if stored_quotient(w1) == want {
            let m = merge(unpack(w1), e);
            if m.work >= work(w0) {
                // Promote: the entry now represents more work than the keeper.
                b[0].store(pack(q, m), Ordering::Relaxed);
                b[1].store(w0, Ordering::Relaxed);
            } else {
                b[1].store(pack(q, m), Ordering::Relaxed);
            }
            return;
        }
        if e.work >= work(w0) {
            b[1].store(w0, Ordering::Relaxed);
            b[0].store(pack(q, e), Ordering::Relaxed);
        } else {
            b[1].store(pack(q, e), Ordering::Relaxed);
        }
    }

    /// Empties the table, using all threads of the rayon pool.
    pub fn clear(&self) {
        use rayon::prelude::*;
        self.buckets.par_chunks(1 << 14).for_each(|chunk| {
            for b in chunk {
                b.0[0].store(0, Ordering::Relaxed);
                b.0[1].store(0, Ordering::Relaxed);
            }
        });
    }

    /// The fraction of occupied slots, in permille, estimated from the first few thousand buckets
    /// (for progress displays).
    pub fn hashfull(&self) -> u32 {
        let sample = self.buckets.len().min(4096);
        let used: usize = self.buckets[..sample]
            .iter()
            .map(|b| {
                b.0.iter()
                    .filter(|w| w.load(Ordering::Relaxed) != 0)
                    .count()
            })
            .sum();
        (used * 1000 / (2 * sample)) as u32
    }
}

/// Intersects two true-bound entries for the same position; the newer move hint wins.
#[inline]
fn merge(old: Entry, new: Entry) -> Entry {
    Entry {
        lower: old.lower.max(new.lower),
        upper: old.upper.min(new.upper),
        best: new.best.or(old.best),
        work: old.work.max(new.work),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn entry(lower: i32, upper: i32, best: Option<u8>, work: u8) -> Entry {
        Entry {
            lower,
            upper,
            best,
            work,
        }
    }

    proptest! {
        #[test]
        fn packing_round_trips(
            q in 0..=MAX_QUOTIENT,
            a in MIN_VALUE..=MAX_VALUE,
            b in MIN_VALUE..=MAX_VALUE,
            mv in proptest::option::of(0u8..crate::game::MAX_MOVES as u8),
            w in 0..=MAX_WORK,
        ) {
            let e = entry(a, b, mv, w);
            let word = pack(q, e);
            prop_assert_ne!(word, 0);
            prop_assert_eq!(stored_quotient(word), q + 1);
            prop_assert_eq!(unpack(word), e);
        }

        /// Keys that share a bucket never answer for one another, whatever the table size.
        #[test]
        fn distinct_keys_never_collide(
            buckets in 1usize..64,
            keys in proptest::collection::btree_set(0u128..5000, 1..200),
        ) {
            let tt = TranspositionTable::new(buckets * 16, 5000, 100).unwrap();
            for &k in &keys {
                let v = (k % 201) as i32 - 100;
                tt.store(k, entry(v, v, Some((k % 32) as u8), (k % 16) as u8));
                for &j in &keys {
                    if let Some(e) = tt.probe(j) {
                        let v = (j % 201) as i32 - 100;
                        prop_assert_eq!(e.lower, v);
                        prop_assert_eq!(e.best, Some((j % 32) as u8));
                    }
                }
                // The key just stored is always found.
                prop_assert!(tt.probe(k).is_some());
            }
        }
    }

    #[test]
    fn u128_keys_locate_like_u64_keys() {
        // Keys above 2^64 need a table of 2^28+ buckets to be accepted; check the arithmetic alone.
        let tt = TranspositionTable::new(1000 * 16, 1000, 10).unwrap();
        for k in [
            0u128,
            999,
            1000,
            12345,
            u64::MAX as u128,
            (1u128 << 64) + 7,
            (1u128 << 90) + 3,
        ] {
            let Slot {
                index: i,
                quotient: q,
            } = tt.slot(k);
            assert_eq!(i as u128, k % 1000);
            assert_eq!(q as u128, (k / 1000) as u64 as u128);
        }
    }

    #[test]
    fn rejects_quotient_overflow_and_big_stakes() {
        // 1 bucket: quotient = key, needs key_bound - 1 <= MAX_QUOTIENT.
        assert!(TranspositionTable::new(16, MAX_QUOTIENT as u128 + 1, 10).is_ok());
        let err = TranspositionTable::new(16, MAX_QUOTIENT as u128 + 2, 10).unwrap_err();
        match err {
            TtError::KeyTooLarge { min_bytes, .. } => {
                assert_eq!(min_bytes, 32);
                assert!(TranspositionTable::new(32, MAX_QUOTIENT as u128 + 2, 10).is_ok());
            }
            e => panic!("unexpected {e:?}"),
        }
        let bound = (1u128 << 50) + 12345;
        let err = TranspositionTable::new(1 << 16, bound, 10).unwrap_err();
        let TtError::KeyTooLarge { min_bytes, .. } = err else {
            panic!("{err:?}")
        };
        assert!(TranspositionTable::new(min_bytes as usize, bound, 10).is_ok());
        assert!(TranspositionTable::new(min_bytes as usize - 16, bound, 10).is_err());
        assert!(err.to_string().contains("too small"));

        assert!(TranspositionTable::new(1024, 100, MAX_STAKE).is_ok());
        let err = TranspositionTable::new(1024, 100, MAX_STAKE + 1).unwrap_err();
        assert_eq!(
            err,
            TtError::StakeTooLarge {
                stake: MAX_STAKE + 1,
                max: MAX_STAKE
            }
        );
    }

    #[test]
    fn allocation_failure_is_an_error() {
        let err = TranspositionTable::new(usize::MAX / 2, 100, 10).unwrap_err();
        assert!(matches!(err, TtError::Alloc { .. }), "{err:?}");
    }

    #[test]
    fn merge_replace_and_clear() {
        let tt = TranspositionTable::new(16, 1000, 50).unwrap(); // one bucket, everything collides
        tt.store(7, entry(-50, 10, Some(1), 9));
        tt.store(7, entry(3, 50, None, 2));
        assert_eq!(tt.probe(7), Some(entry(3, 10, Some(1), 9)));
        // Less work than the keeper: goes to slot 1, keeper stays.
        tt.store(8, entry(0, 0, None, 1));
        tt.store(9, entry(1, 1, None, 1));
        assert_eq!(tt.probe(8), None);
        assert!(tt.probe(7).is_some() && tt.probe(9).is_some());
        // More work: takes slot 0, old keeper is demoted to slot 1.
        tt.store(10, entry(2, 2, None, 12));
        assert_eq!(tt.probe(7).map(|e| e.work), Some(9));
        assert_eq!(tt.probe(10).map(|e| e.lower), Some(2));
        assert_eq!(tt.probe(9), None);
        assert!(tt.hashfull() > 0);
        tt.clear();
        assert_eq!(tt.probe(7), None);
        assert_eq!(tt.probe(10), None);
        assert_eq!(tt.hashfull(), 0);
    }

    #[test]
    fn work_scale() {
        assert_eq!(Entry::work_of(0), 0);
        assert_eq!(Entry::work_of(1), 1);
        assert_eq!(Entry::work_of(1000), 10);
        assert_eq!(Entry::work_of(u64::MAX), MAX_WORK);
    }
}
