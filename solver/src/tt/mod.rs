//! The exact, lock-free transposition table shared by all search threads.
//!
//! # Exactness
//!
//! A game's key is an exact code of the position (`Game::key`), below a known bound
//! (`Game::key_bound`). The table has `len` buckets; a key lives in bucket `key % len` and the entry
//! stores the quotient `key / len`. Bucket index and quotient together give back the whole key, so a
//! hit is provably the same position: no collision is possible (Pons's connect4 table, where the
//! Chinese remainder theorem plays the same role). The constructor checks that the largest quotient
//! fits its field.
//!
//! # Two widths, chosen per table
//!
//! - The **narrow** entry ([`narrow`]) is one `u64` with a 36-bit quotient: keys below
//!   `(2^36 - 1) · len`. It serves most tables.
//! - The **wide** entry ([`wide`]) is one `u128` with a 100-bit quotient: keys below
//!   `(2^100 - 1) · len`, so in a table of any size every key below `2^100 - 1`.
//!
//! [`TranspositionTable::new`] takes the narrow entry when its quotient fits and the wide one
//! otherwise, so the table size only trades memory for speed; it refuses only keys beyond the wide
//! entry's reach. Both widths keep the same fields below the key (`entry`) and the same
//! argument: an entry is a single word, read and written with one atomic access, so the key field
//! and the value fields of a word always come from the same store and a torn entry cannot exist.
//! The search is compiled once for each width (`table::Width`), so the narrow path is the very
//! code it always was.
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

use std::fmt;

mod entry;
mod error;
pub mod narrow;
mod table;
pub mod wide;

#[cfg(test)]
mod tests;

pub use entry::{Entry, MAX_STAKE, MAX_VALUE, MAX_WORK, MIN_VALUE};
pub use error::TtError;
pub(crate) use narrow::Narrow;
pub(crate) use table::{Slot, Table, Width};
pub(crate) use wide::Wide;

/// The table of one width, as the search sees it.
pub(crate) enum Tables {
    /// 8-byte entries.
    Narrow(Table<Narrow>),
    /// 16-byte entries.
    Wide(Table<Wide>),
}

/// The exact, lock-free transposition table. Share it by `&` between threads.
pub struct TranspositionTable {
    tables: Tables,
}

impl fmt::Debug for TranspositionTable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TranspositionTable")
            .field("bytes", &self.bytes())
            .field("wide", &self.is_wide())
            .finish()
    }
}

/// Buckets of a width in a table of about `bytes` bytes (rounded down, at least one).
fn buckets<W: Width>(bytes: usize) -> usize {
    (bytes / Table::<W>::BUCKET_BYTES).max(1)
}

impl TranspositionTable {
    /// A table of about `bytes` bytes (rounded down to whole buckets, at least one) for keys
    /// below `key_bound` and values within `-max_stake..=max_stake`: narrow entries when their
    /// quotient fits, wide ones otherwise.
    ///
    /// # Errors
    /// [`TtError::KeyTooLarge`] when the quotient `key / buckets` of some key would not fit even
    /// the wide entry; [`TtError::StakeTooLarge`] when `max_stake` exceeds [`MAX_STAKE`];
    /// [`TtError::Alloc`] when the memory is not available (the process does not abort).
    pub fn new(bytes: usize, key_bound: u128, max_stake: i32) -> Result<Self, TtError> {
        Self::with_room(bytes, bytes, key_bound, max_stake)
    }

    /// As [`TranspositionTable::new`], with room to grow in place up to about `max_bytes`
    /// ([`TranspositionTable::grow`]): address space only, until the table grows into it.
    ///
    /// # Errors
    /// As [`TranspositionTable::new`].
    pub fn with_room(
        bytes: usize,
        max_bytes: usize,
        key_bound: u128,
        max_stake: i32,
    ) -> Result<Self, TtError> {
        let n = buckets::<Narrow>(bytes);
        if Table::<Narrow>::largest_quotient(key_bound, n) <= Narrow::MAX_QUOTIENT {
            check_stake(max_stake)?;
            let room = buckets::<Narrow>(max_bytes).max(n);
            return Ok(Self {
                tables: Tables::Narrow(Table::zeroed_with_room(n, room)?),
            });
        }
        Self::wide(bytes, key_bound, max_stake)
    }

    /// A table of wide entries whatever the keys (for tests and measurements of the wide path);
    /// otherwise as [`TranspositionTable::new`].
    ///
    /// # Errors
    /// As [`TranspositionTable::new`].
    pub fn wide(bytes: usize, key_bound: u128, max_stake: i32) -> Result<Self, TtError> {
        check_stake(max_stake)?;
        let n = buckets::<Wide>(bytes);
        if Table::<Wide>::largest_quotient(key_bound, n) > Wide::MAX_QUOTIENT {
            // Smallest n with (key_bound - 1) / n <= MAX_QUOTIENT.
            let min_n = (key_bound - 1) / (Wide::MAX_QUOTIENT + 1) + 1;
            return Err(TtError::KeyTooLarge {
                key_bound,
                requested_bytes: bytes,
                min_bytes: min_n * Table::<Wide>::BUCKET_BYTES as u128,
                quotient_bits: wide::QUOTIENT_BITS,
            });
        }
        Ok(Self {
            tables: Tables::Wide(Table::zeroed(n)?),
        })
    }

    /// A table of about `bytes` bytes for the positions reachable from `root`.
    ///
    /// # Errors
    /// As [`TranspositionTable::new`].
    pub fn for_game<G: crate::Game>(root: &G, bytes: usize) -> Result<Self, TtError> {
        Self::new(bytes, root.key_bound(), root.stake())
    }

    /// A table of about `bytes` bytes (as [`TranspositionTable::new`]) holding every entry of
    /// this one: a table that grows keeps what the search has learned. Entries that collide in
    /// the new table are resolved by the usual replacement.
    ///
    /// # Errors
    /// As [`TranspositionTable::new`].
    pub fn grown(&self, bytes: usize, key_bound: u128, max_stake: i32) -> Result<Self, TtError> {
        let bigger = Self::new(bytes, key_bound, max_stake)?;
        match &self.tables {
            Tables::Narrow(t) => t.for_each_entry(|k, e| bigger.store(k, e)),
            Tables::Wide(t) => t.for_each_entry(|k, e| bigger.store(k, e)),
        }
        Ok(bigger)
    }

    /// Grows the table to about `bytes` bytes, keeping every entry: the table
    /// [`TranspositionTable::grown`] would make, in place when it has the room and the same
    /// entry width (no second table, no memory but the new part's touched), else as `grown`.
    ///
    /// # Errors
    /// As [`TranspositionTable::new`]; the table is then unchanged.
    pub fn grow(&mut self, bytes: usize, key_bound: u128, max_stake: i32) -> Result<(), TtError> {
        if let Tables::Narrow(t) = &mut self.tables {
            let n = buckets::<Narrow>(bytes);
            // `new` would take the narrow entry for `n` buckets: `n` is larger than the table's.
            if check_stake(max_stake).is_ok() && t.grow_in_place(n) {
                return Ok(());
            }
        }
        *self = self.grown(bytes, key_bound, max_stake)?;
        Ok(())
    }

    /// The table of one width, for the search to be compiled for it.
    pub(crate) fn tables(&self) -> &Tables {
        &self.tables
    }

    /// Whether the table has wide (16-byte) entries.
    pub fn is_wide(&self) -> bool {
        matches!(self.tables, Tables::Wide(_))
    }

    /// The table's size in bytes.
    pub fn bytes(&self) -> usize {
        match &self.tables {
            Tables::Narrow(t) => t.bytes(),
            Tables::Wide(t) => t.bytes(),
        }
    }

    /// The number of entries the table can hold.
    pub fn capacity(&self) -> usize {
        match &self.tables {
            Tables::Narrow(t) => t.capacity(),
            Tables::Wide(t) => t.capacity(),
        }
    }

    /// What the table knows about `key`, if anything.
    pub fn probe(&self, key: u128) -> Option<Entry> {
        match &self.tables {
            Tables::Narrow(t) => t.probe(key),
            Tables::Wide(t) => t.probe(key),
        }
    }

    /// Records what the search learned about `key`, merging it with what the table already knows
    /// about the same key (both are true bounds, so their intersection is too). Concurrent stores
    /// to one bucket may lose one of the updates, never corrupt an entry.
    pub fn store(&self, key: u128, e: Entry) {
        match &self.tables {
            Tables::Narrow(t) => t.store(key, e),
            Tables::Wide(t) => t.store(key, e),
        }
    }

    /// Empties the table, using all threads of the rayon pool.
    pub fn clear(&self) {
        match &self.tables {
            Tables::Narrow(t) => t.clear(),
            Tables::Wide(t) => t.clear(),
        }
    }

    /// The fraction of occupied slots, in permille, estimated from the first few thousand buckets
    /// (for progress displays).
    pub fn hashfull(&self) -> u32 {
        match &self.tables {
            Tables::Narrow(t) => t.hashfull(),
            Tables::Wide(t) => t.hashfull(),
        }
    }
}

/// [`TtError::StakeTooLarge`] when the value fields cannot hold `-max_stake..=max_stake`.
fn check_stake(max_stake: i32) -> Result<(), TtError> {
    if max_stake > MAX_STAKE {
        return Err(TtError::StakeTooLarge {
            stake: max_stake,
            max: MAX_STAKE,
        });
    }
    Ok(())
}
