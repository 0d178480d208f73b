//! Landmarks of long relays: lap-boundary states remembered with how their relay ended, so that a
//! later relay through one of them need not run on.
//!
//! A relay is a deterministic walk over lap-boundary states (board, pit to lift): every relay
//! that reaches a state goes on from there exactly as the first one did, and ends the same way,
//! with the same board and the same last pit, or endlessly. A search meets the same long relays
//! again and again (every expansion of a position sows each of its moves, and the no-move rules
//! sow the next player's candidates too), and an endless one costs every lap until Brent's
//! algorithm sees a state repeat: millions of laps in Djenon-aboure with 7 holes and 49 seeds.
//!
//! Remembering every state is out of the question, so only *landmarks* are remembered: the states
//! whose hash has its top [`LANDMARK_BITS`] bits clear, one in 2^LANDMARK_BITS, which every relay
//! recognises alike (the distinguished points of parallel collision search). Two relays that run
//! along the same stretch of trajectory pass the same landmarks on it. A relay keeps the first
//! [`FIRST`] landmarks it passes and the last one (on an endless relay the last one before the
//! repetition lies on the cycle, which every relay into that cycle goes round), and when it ends
//! it files them with its end in a small direct-mapped table of its thread, newest first.
//!
//! Relays shorter than [`KNOWN_AFTER`] laps never look: a hash every lap would cost more than
//! the repeats save. The table only saves time: a relay it does not know runs to its end.

use std::cell::RefCell;

use super::Laps;
use crate::board::Pits;

/// Laps after which a relay starts to look out for landmarks: a power of two (see `run`).
pub(crate) const KNOWN_AFTER: u64 = 1 << 10;
const _: () = assert!(KNOWN_AFTER.is_power_of_two());

/// A state is a landmark when the top `LANDMARK_BITS` bits of its hash are 0.
const LANDMARK_BITS: u32 = 8;

/// The landmarks a relay keeps from its start (and the last one).
const FIRST: usize = 8;

/// log2 of the landmarks each thread remembers.
const TABLE_BITS: u32 = 12;

/// How a relay ended: on this board with this payload (the last pit, usually), or never.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum End {
    Stop(Pits, usize),
    Endless,
}

/// A lap-boundary state and its hash.
#[derive(Clone, Copy)]
struct State {
    hash: u64,
    pits: Pits,
    lift: u8,
}

/// A remembered landmark: the laps it belongs to, the state, and how its relay ended.
#[derive(Clone, Copy)]
struct Mark {
    laps: Laps,
    state: State,
    end: End,
}

thread_local! {
    /// This thread's landmarks, allocated when a relay first files one.
    static TABLE: RefCell<Box<[Option<Mark>]>> = RefCell::new(Box::default());
}

/// The landmarks one relay passed and has not filed yet.
#[derive(Default)]
pub(super) struct Passed {
    first: Vec<State>,
    last: Option<State>,
}

/// The hash of a lap-boundary state: the four words of the pits and the pit to lift folded into
/// one word, then one multiplication to spread every bit into the top ones.
#[inline(always)]
fn hash(pits: &Pits, lift: usize) -> u64 {
    let (lo, hi) = (pits.low_word(), pits.high_word());
    let x = (lo as u64)
        ^ ((lo >> 64) as u64).rotate_left(16)
        ^ (hi as u64).rotate_left(32)
        ^ ((hi >> 64) as u64).rotate_left(48)
        ^ (lift as u64) << 59;
    x.wrapping_mul(0x9e37_79b9_7f4a_7c15)
}

/// The table slot of a hash: the bits just below the landmark bits.
#[inline]
fn slot(hash: u64) -> usize {
    (hash >> (64 - LANDMARK_BITS - TABLE_BITS)) as usize & ((1 << TABLE_BITS) - 1)
}

impl Passed {
    /// Looks at the state after a lap: when it is a landmark some relay of `laps` filed, how that
    /// relay ended; when it is a new landmark, keeps it (if it is among the first or the last).
    #[inline(always)]
    pub(super) fn pass(&mut self, laps: Laps, pits: &Pits, lift: usize) -> Option<End> {
        debug_assert!(lift < 32, "a pit to lift, not {lift}");
        let hash = hash(pits, lift);
        if hash >> (64 - LANDMARK_BITS) != 0 {
            return None;
        }
        self.landmark(
            laps,
            State {
                hash,
                pits: *pits,
                lift: lift as u8,
            },
        )
    }

    #[cold]
    fn landmark(&mut self, laps: Laps, state: State) -> Option<End> {
        let known = TABLE.with_borrow(|t| {
            let m = t.get(slot(state.hash))?.as_ref()?;
            (m.laps == laps && m.state.pits == state.pits && m.state.lift == state.lift)
                .then_some(m.end)
        });
        if known.is_none() {
            if self.first.len() < FIRST {
                self.first.push(state);
            } else {
                self.last = Some(state);
            }
        }
        known
    }

    /// Files the landmarks passed with the relay's end.
    #[inline(always)]
    pub(super) fn remember(self, laps: Laps, end: End) {
        if !self.first.is_empty() {
            self.file(laps, end);
        }
    }

    #[cold]
    fn file(self, laps: Laps, end: End) {
        TABLE.with_borrow_mut(|t| {
            if t.is_empty() {
                *t = vec![None; 1 << TABLE_BITS].into_boxed_slice();
            }
            for state in self.first.into_iter().chain(self.last) {
                t[slot(state.hash)] = Some(Mark { laps, state, end });
            }
        });
    }
}
