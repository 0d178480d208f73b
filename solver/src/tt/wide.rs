//! The wide entry: one 16-byte word, for keys whose quotient does not fit the narrow entry's
//! 36 bits (games with many positions, or a small table).
//!
//! # Entry layout
//!
//! One entry is one `u128`, read and written with a single relaxed 16-byte atomic load or store
//! ([`portable_atomic::AtomicU128`]: on x86-64 `vmovdqa` when the CPU has AVX, whose aligned
//! 16-byte accesses are atomic, else `lock cmpxchg16b`; on aarch64 `ldp`/`stp` with LSE2 or an
//! exclusive pair), so an entry can never tear, exactly like the narrow one: the key field and the
//! value fields of a word always come from the same store. Where a target has no 16-byte atomic
//! at all, the crate falls back to a lock striped by address: slower, still never torn. Two
//! entries form a 32-byte bucket (two buckets per cache line), so a probe touches one cache line.
//!
//! ```text
//!  127                                  28 27  24 23    18 17       9 8        0
//! +---------------------------------------+------+--------+----------+----------+
//! |           quotient + 1 (100)           | work |  move  |  upper   |  lower   |
//! +---------------------------------------+------+--------+----------+----------+
//! ```
//!
//! | field    | bits    | meaning                                                   |
//! |----------|---------|-----------------------------------------------------------|
//! | lower    | 0..=8   | as in the narrow entry                                    |
//! | upper    | 9..=17  | as in the narrow entry                                    |
//! | move     | 18..=23 | as in the narrow entry                                    |
//! | work     | 24..=27 | as in the narrow entry                                    |
//! | quotient | 28..=127| `key / len + 1`; 0 marks an empty slot                    |
//!
//! The low 64 bits are the narrow word's layout with the quotient's low 36 bits; the quotient's
//! high 64 bits fill the upper half.
//!
//! # Reach
//!
//! A quotient of up to `2^100 - 2` means keys below `(2^100 - 1) · len`, so every key below
//! `2^100 - 1` fits a table of any size; only a game whose keys go beyond that can be refused,
//! and then only by a table too small for it.

use portable_atomic::{AtomicU128, Ordering};

use super::entry::{payload, unpack_payload, Entry, PAYLOAD_BITS, WORK_MASK, WORK_SHIFT};
use super::table::Width;

/// Bits of the stored quotient field.
pub(super) const QUOTIENT_BITS: u32 = 100;
const QUOTIENT_SHIFT: u32 = 28;
/// The stored field holds `quotient + 1`, and 0 means empty, so the quotient itself is at most this.
pub(super) const MAX_QUOTIENT: u128 = (1 << QUOTIENT_BITS) - 2;

// The quotient starts where the payload fields end, and fills the word.
const _: () = assert!(QUOTIENT_SHIFT == PAYLOAD_BITS);
const _: () = assert!(QUOTIENT_SHIFT + QUOTIENT_BITS == 128);

/// Two entries for one bucket index, sharing a 32-byte-aligned block (2 buckets per cache line).
#[repr(C, align(32))]
pub(crate) struct Bucket([AtomicU128; 2]);

const _: () = assert!(std::mem::size_of::<Bucket>() == 32);

/// The wide width: 16-byte entries, 32-byte buckets.
#[derive(Debug)]
pub(crate) struct Wide;

impl Width for Wide {
    type Word = u128;
    type Quotient = u128;
    type Bucket = Bucket;
    const MAX_QUOTIENT: u128 = MAX_QUOTIENT;

    #[inline]
    fn split(key: u128, len: u64) -> (usize, u128) {
        if let Ok(k) = u64::try_from(key) {
            ((k % len) as usize, u128::from(k / len))
        } else {
            let n = u128::from(len);
            ((key % n) as usize, key / n)
        }
    }

    #[inline]
    fn load(b: &Bucket, i: usize) -> u128 {
        b.0[i].load(Ordering::Relaxed)
    }

    #[inline]
    fn store(b: &Bucket, i: usize, w: u128) {
        b.0[i].store(w, Ordering::Relaxed);
    }

    #[inline]
    fn tag(quotient: u128) -> u128 {
        quotient + 1
    }

    #[inline]
    fn stored_tag(w: u128) -> u128 {
        w >> QUOTIENT_SHIFT
    }

    #[inline]
    fn pack(quotient: u128, e: Entry) -> u128 {
        debug_assert!(quotient <= MAX_QUOTIENT);
        ((quotient + 1) << QUOTIENT_SHIFT) | u128::from(payload(e))
    }

    #[inline]
    fn unpack(w: u128) -> Entry {
        unpack_payload(w as u64)
    }

    #[inline]
    fn work(w: u128) -> u8 {
        ((w as u64 >> WORK_SHIFT) & WORK_MASK) as u8
    }

    #[inline]
    fn stored_quotient(w: u128) -> u128 {
        Self::stored_tag(w) - 1
    }

    #[inline]
    fn is_empty(w: u128) -> bool {
        w == 0
    }
}
