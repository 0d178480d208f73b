//! The narrow entry: one `u64`, for keys whose quotient fits 36 bits.
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

use std::sync::atomic::{AtomicU64, Ordering};

use super::entry::{payload, unpack_payload, Entry, PAYLOAD_BITS, WORK_MASK, WORK_SHIFT};
use super::table::Width;

/// Bits of the stored quotient field.
pub(super) const QUOTIENT_BITS: u32 = 36;
const QUOTIENT_SHIFT: u32 = 28;
/// The stored field holds `quotient + 1`, and 0 means empty, so the quotient itself is at most this.
pub(super) const MAX_QUOTIENT: u64 = (1 << QUOTIENT_BITS) - 2;

// The quotient starts where the payload fields end, and fills the word.
const _: () = assert!(QUOTIENT_SHIFT == PAYLOAD_BITS);
const _: () = assert!(QUOTIENT_SHIFT + QUOTIENT_BITS == 64);

/// Two entries for one bucket index, sharing a 16-byte-aligned block (4 buckets per cache line).
#[repr(C, align(16))]
pub(crate) struct Bucket([AtomicU64; 2]);

const _: () = assert!(std::mem::size_of::<Bucket>() == 16);

/// The narrow width: 8-byte entries, 16-byte buckets.
#[derive(Debug)]
pub(crate) struct Narrow;

impl Width for Narrow {
    type Word = u64;
    type Quotient = u64;
    type Bucket = Bucket;
    const MAX_QUOTIENT: u128 = MAX_QUOTIENT as u128;

    #[inline]
    fn split(key: u128, len: u64) -> (usize, u64) {
        // u64 division is several times faster than u128, and keys of the supported games fit.
        if let Ok(k) = u64::try_from(key) {
            ((k % len) as usize, k / len)
        } else {
            let n = len as u128;
            ((key % n) as usize, (key / n) as u64)
        }
    }

    #[inline]
    fn load(b: &Bucket, i: usize) -> u64 {
        b.0[i].load(Ordering::Relaxed)
    }

    #[inline]
    fn store(b: &Bucket, i: usize, w: u64) {
        b.0[i].store(w, Ordering::Relaxed);
    }

    #[inline]
    fn tag(quotient: u64) -> u64 {
        quotient + 1
    }

    #[inline]
    fn stored_tag(w: u64) -> u64 {
        w >> QUOTIENT_SHIFT
    }

    #[inline]
    fn pack(quotient: u64, e: Entry) -> u64 {
        debug_assert!(quotient <= MAX_QUOTIENT);
        ((quotient + 1) << QUOTIENT_SHIFT) | payload(e)
    }

    #[inline]
    fn unpack(w: u64) -> Entry {
        unpack_payload(w)
    }

    #[inline]
    fn work(w: u64) -> u8 {
        ((w >> WORK_SHIFT) & WORK_MASK) as u8
    }

    #[inline]
    fn stored_quotient(w: u64) -> u128 {
        u128::from(Self::stored_tag(w) - 1)
    }

    #[inline]
    fn is_empty(w: u64) -> bool {
        w == 0
    }
}
