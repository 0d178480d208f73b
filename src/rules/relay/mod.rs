//! Relay sowing: a chain of laps, each lifting the pit the last one chose, with exact
//! endless-sowing detection (Brent's cycle finding) and a stop that can abandon it.

use super::SowError;
use crate::board::Pits;
use crate::stop::Stop;

/// What a lap of a relay game decided at its end.
pub(crate) enum LapEnd {
    /// Lift this pit and sow another lap.
    Relay(usize),
    /// The sowing is over (the payload is whatever the game needs: the last pit, usually).
    Stop(usize),
}

/// Runs laps from the lap-boundary state (`pits`, lifting `lift`) until one stops, or proves the
/// sowing endless.
///
/// Sowing is deterministic and its lap-boundary state is (board, pit to lift), so it is endless
/// exactly when that state repeats (docs/rules.md §2.9). Brent's algorithm finds a repetition with
/// O(1) memory: keep a saved state, compare every new state with it, and move it to the current
/// state whenever the count since the last move reaches the next power of two. Once the saved
/// state lies on the cycle and the power exceeds the cycle length, the next circuit meets it.
/// No cap on laps: a finite sowing always stops before any state repeats.
///
/// It looks at `stop` whenever Brent's step count reaches a multiple of 2^20 laps, and gives up
/// with [`SowError::Abandoned`] when it is raised: a sowing of a cyclic game can run billions of
/// laps before it ends or repeats, longer than any time limit, and has no other way out.
#[inline]
pub(crate) fn relay(
    pits: &mut Pits,
    lift: usize,
    stop: Stop<'_>,
    lap: impl FnMut(&mut Pits, usize) -> LapEnd,
) -> Result<usize, SowError> {
    relay_from(Brent::new(), pits, lift, stop, lap)
}

/// [`relay`] with Brent's counters as `brent` says (the saved state is the one given): so that a
/// test can run the real loop, on a synthetic lap, from where the counters stand after billions
/// of laps (a relay that long takes hours). `relay` passes fresh counters; inlined, that costs
/// nothing measurable (a Walak-pussa build and solve: the same time within the 3 % noise).
#[inline(always)]
fn relay_from(
    mut brent: Brent,
    pits: &mut Pits,
    mut lift: usize,
    stop: Stop<'_>,
    mut lap: impl FnMut(&mut Pits, usize) -> LapEnd,
) -> Result<usize, SowError> {
    let mut saved = (*pits, lift);
    loop {
        match lap(pits, lift) {
            LapEnd::Stop(l) => return Ok(l),
            LapEnd::Relay(next) => lift = next,
        }
        if lift == saved.1 && *pits == saved.0 {
            return Err(SowError::Endless);
        }
        if brent.tick() {
            saved = (*pits, lift);
        } else if brent.at_checkpoint() && stop.is_raised() {
            return Err(SowError::Abandoned);
        }
    }
}

/// The lap counters of Brent's algorithm in [`relay`]: when to move the saved state.
///
/// They are `u64`. With 255 seeds the lap-boundary states of a relay game far exceed 2^32, so a
/// sowing can run more than 2^32 laps before its state repeats; 32-bit counters would overflow
/// there (in release builds `power` would wrap to 0, the saved state would never move again,
/// and a cycle not through it would never be found). A `u64` `power` doubles from 1, so it
/// overflows only after more than 2^63 laps: centuries at a nanosecond a lap.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Brent {
    /// The current power of two: the saved state moves after this many laps.
    power: u64,
    /// Laps since the saved state last moved.
    steps: u64,
}

impl Brent {
    pub(crate) fn new() -> Self {
        Brent { power: 1, steps: 0 }
    }

    /// Whether the count since the saved state moved is a whole number of 2^20 laps: where a long
    /// sowing looks whether its stop was raised.
    #[inline]
    pub(crate) fn at_checkpoint(&self) -> bool {
        self.steps & ((1 << 20) - 1) == 0
    }

    /// Counts a lap; true when the saved state must move to the current one.
    #[inline]
    pub(crate) fn tick(&mut self) -> bool {
        self.steps += 1;
        if self.steps == self.power {
            self.power *= 2;
            self.steps = 0;
            true
        } else {
            false
        }
    }
}

#[cfg(test)]
mod tests;
