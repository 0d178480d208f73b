//! Why a table cannot be built.

use std::fmt;

/// Why a table cannot be built.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TtError {
    /// The game's keys are beyond even the wide entry's reach in a table this size:
    /// `key_bound / buckets` does not fit its quotient field, so entries could not identify
    /// positions exactly (only keys of 2^100 and more can be refused, see the module docs).
    KeyTooLarge {
        /// The game's exclusive key bound.
        key_bound: u128,
        /// The table size asked for, in bytes.
        requested_bytes: usize,
        /// The smallest table size, in bytes, whose wide entries hold these keys.
        min_bytes: u128,
        /// The bits of the wide entry's quotient field (carried here, not imported, so that this
        /// module depends on no table module).
        quotient_bits: u32,
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
                quotient_bits,
            } => write!(
                f,
                "transposition table of {requested_bytes} bytes is too small for exact keys below \
                 {key_bound}: the key quotient would not fit the wide entry's {quotient_bits} \
                 bits; use at least {min_bytes} bytes"
            ),
            TtError::StakeTooLarge { stake, max } => write!(
                f,
                "stake {stake} exceeds the transposition table's value range (at most {max})"
            ),
            // Worded as every other failed allocation ([`crate::AllocError`]).
            TtError::Alloc { bytes } => write!(
                f,
                "{}",
                crate::AllocError {
                    bytes: *bytes as u64,
                    what: "the transposition table".into(),
                }
            ),
        }
    }
}

impl std::error::Error for TtError {}
