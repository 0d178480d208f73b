//! What an entry holds besides its key, the same in both widths: [`Entry`], and its fields packed
//! into the low 28 bits of the word (see the field tables of [`super::narrow`] and
//! [`super::wide`]).

pub(super) const VALUE_BITS: u32 = 9;
const VALUE_MASK: u64 = (1 << VALUE_BITS) - 1;
pub(super) const VALUE_OFFSET: i32 = 1 << (VALUE_BITS - 1);
const LOWER_SHIFT: u32 = 0;
const UPPER_SHIFT: u32 = 9;

/// The move field: the best move's index + 1 (0: none).
const MOVE_BITS: u32 = 6;
const MOVE_SHIFT: u32 = 18;
const MOVE_MASK: u64 = (1 << MOVE_BITS) - 1;

/// The work field: log2 of the nodes the entry stands for, saturating at [`MAX_WORK`].
const WORK_BITS: u32 = 4;
pub(super) const WORK_SHIFT: u32 = 24;
pub(super) const WORK_MASK: u64 = (1 << WORK_BITS) - 1;

/// Bits the fields take, from bit 0; the key's field starts here.
pub(super) const PAYLOAD_BITS: u32 = 28;

// The fields tile the low bits exactly, with nothing overlapping.
const _: () = assert!(UPPER_SHIFT == LOWER_SHIFT + VALUE_BITS);
const _: () = assert!(MOVE_SHIFT == UPPER_SHIFT + VALUE_BITS);
const _: () = assert!(WORK_SHIFT == MOVE_SHIFT + MOVE_BITS);
const _: () = assert!(PAYLOAD_BITS == WORK_SHIFT + WORK_BITS);
// A move index is below MAX_MOVES, and index + 1 must fit the move field.
const _: () = assert!(crate::game::MAX_MOVES as u64 <= MOVE_MASK);

/// The smallest value a bound can hold.
pub const MIN_VALUE: i32 = -VALUE_OFFSET;
/// The largest value a bound can hold.
pub const MAX_VALUE: i32 = VALUE_OFFSET - 1;
/// The largest stake a game may have for its values to fit the table (`-stake..=stake` must fit).
pub const MAX_STAKE: i32 = MAX_VALUE;
/// The largest `work` an entry records.
pub const MAX_WORK: u8 = WORK_MASK as u8;

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

/// Intersects two true-bound entries for the same position; the newer move hint wins.
#[inline]
pub(super) fn merge(old: Entry, new: Entry) -> Entry {
    Entry {
        lower: old.lower.max(new.lower),
        upper: old.upper.min(new.upper),
        best: new.best.or(old.best),
        work: old.work.max(new.work),
    }
}

/// The fields of `e`, packed into the low [`PAYLOAD_BITS`] bits.
///
/// Values must lie in `MIN_VALUE..=MAX_VALUE` (the constructor's stake check and the search's
/// clamping to the stake guarantee it); the debug assertions catch a caller that breaks this.
#[inline]
pub(super) const fn payload(e: Entry) -> u64 {
    debug_assert!(e.lower >= MIN_VALUE && e.lower <= MAX_VALUE);
    debug_assert!(e.upper >= MIN_VALUE && e.upper <= MAX_VALUE);
    debug_assert!(e.work <= MAX_WORK);
    let mv = match e.best {
        Some(m) => m as u64 + 1,
        None => 0,
    };
    ((e.work as u64) << WORK_SHIFT)
        | (mv << MOVE_SHIFT)
        | ((((e.upper + VALUE_OFFSET) as u64) & VALUE_MASK) << UPPER_SHIFT)
        | ((((e.lower + VALUE_OFFSET) as u64) & VALUE_MASK) << LOWER_SHIFT)
}

/// Decodes the fields from the low bits of `word` (higher bits are ignored).
#[inline]
pub(super) const fn unpack_payload(word: u64) -> Entry {
    let mv = (word >> MOVE_SHIFT) & MOVE_MASK;
    Entry {
        lower: ((word >> LOWER_SHIFT) & VALUE_MASK) as i32 - VALUE_OFFSET,
        upper: ((word >> UPPER_SHIFT) & VALUE_MASK) as i32 - VALUE_OFFSET,
        best: if mv == 0 { None } else { Some((mv - 1) as u8) },
        work: ((word >> WORK_SHIFT) & WORK_MASK) as u8,
    }
}
