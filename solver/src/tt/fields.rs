//! The entry's fields other than the key, the same in both widths: the low 28 bits of the word
//! (see the field tables of [`super::narrow`] and [`super::wide`]).

use super::Entry;

pub(super) const VALUE_BITS: u32 = 9;
const VALUE_MASK: u64 = (1 << VALUE_BITS) - 1;
pub(super) const VALUE_OFFSET: i32 = 1 << (VALUE_BITS - 1);
const LOWER_SHIFT: u32 = 0;
const UPPER_SHIFT: u32 = 9;

const MOVE_SHIFT: u32 = 18;
const MOVE_MASK: u64 = 0x3f;

pub(super) const WORK_SHIFT: u32 = 24;
pub(super) const WORK_MASK: u64 = 0xf;

/// Bits the fields take, from bit 0; the key's field starts here.
pub(super) const PAYLOAD_BITS: u32 = 28;

// The fields tile the low bits exactly, with nothing overlapping.
const _: () = assert!(UPPER_SHIFT == LOWER_SHIFT + VALUE_BITS);
const _: () = assert!(MOVE_SHIFT == UPPER_SHIFT + VALUE_BITS);
const _: () = assert!(WORK_SHIFT == MOVE_SHIFT + 6);
const _: () = assert!(PAYLOAD_BITS == WORK_SHIFT + 4);
// A move index is below MAX_MOVES, and index + 1 must fit the move field.
const _: () = assert!(crate::game::MAX_MOVES as u64 <= MOVE_MASK);

/// The fields of `e`, packed into the low [`PAYLOAD_BITS`] bits.
///
/// Values must lie in `MIN_VALUE..=MAX_VALUE` (the constructor's stake check and the search's
/// clamping to the stake guarantee it); the debug assertions catch a caller that breaks this.
#[inline]
pub(super) const fn payload(e: Entry) -> u64 {
    debug_assert!(e.lower >= super::MIN_VALUE && e.lower <= super::MAX_VALUE);
    debug_assert!(e.upper >= super::MIN_VALUE && e.upper <= super::MAX_VALUE);
    debug_assert!(e.work <= super::MAX_WORK);
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
