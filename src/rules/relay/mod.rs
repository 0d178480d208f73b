//! Relay sowing: a chain of laps, each lifting the pit the last one chose, with exact
//! endless-sowing detection (Brent's cycle finding), a stop that can abandon it, and the landmarks
//! that let a long relay met again end early (`landmarks`).

mod landmarks;

use super::{SowError, LOOK_EVERY};
use crate::board::{Pits, Ring};
use crate::stop::Stop;

use landmarks::{End, KNOWN_AFTER};

/// Which laps a relay runs, as far as they depend on anything but the lap-boundary state: the
/// game's kind of lap, the ring, the burnt pits. Relays with different `Laps` never share what
/// they learnt ([`landmarks`]); the same `Laps` must always mean the same lap function.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Laps(u64);

impl Laps {
    /// The laps of call site `site` (a small number of the caller's choosing, one per lap
    /// function) on `ring` without the pits of `burnt`.
    #[inline]
    pub(crate) fn new(site: u8, ring: Ring, burnt: u32) -> Laps {
        Laps(u64::from(site) | u64::from(ring.holes) << 8 | u64::from(burnt) << 16)
    }

    /// Laps that share nothing: the relay neither looks for landmarks nor files any (tests'
    /// synthetic laps, many different functions on one thread).
    pub(crate) const UNSHARED: Laps = Laps(u64::MAX);
}

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
/// It looks at `stop` whenever Brent's step count reaches a multiple of [`LOOK_EVERY`] laps, and gives up
/// with [`SowError::Abandoned`] when it is raised: a sowing of a cyclic game can run billions of
/// laps before it ends or repeats, longer than any time limit, and has no other way out.
#[inline]
pub(crate) fn relay(
    pits: &mut Pits,
    lift: usize,
    laps: Laps,
    stop: Stop<'_>,
    lap: impl FnMut(&mut Pits, usize) -> LapEnd,
) -> Result<usize, SowError> {
    relay_from(Brent::new(), pits, lift, laps, stop, lap)
}

/// [`relay`] with Brent's counters as `brent` says (the saved state is the one given): so that a
/// test can run the real loop, on a synthetic lap, from where the counters stand after billions
/// of laps (a relay that long takes hours). `relay` passes fresh counters; inlined, that costs
/// nothing measurable (docs/performance.md, "Figures behind comments").
#[inline(always)]
fn relay_from(
    brent: Brent,
    pits: &mut Pits,
    lift: usize,
    laps: Laps,
    stop: Stop<'_>,
    lap: impl FnMut(&mut Pits, usize) -> LapEnd,
) -> Result<usize, SowError> {
    let saved = (*pits, lift);
    run::<false>(brent, saved, pits, lift, laps, stop, lap)
}

/// The loop of [`relay_from`] from the saved state `saved` and the state (`pits`, `lift`).
///
/// Without `MARKS` it is the plain loop; a relay that reaches [`KNOWN_AFTER`] laps (Brent's power
/// gets there at lap `KNOWN_AFTER - 1`) goes on in the same loop with `MARKS`, which also looks
/// out for landmarks ([`landmarks`]): a relay that reaches a lap-boundary state an earlier relay
/// passed through ends as that one did. Short relays, nearly all of them, pay nothing for it: a
/// landmark check on every relay would slow every table build (docs/performance.md, "Figures
/// behind comments").
#[inline(always)]
fn run<const MARKS: bool>(
    mut brent: Brent,
    mut saved: (Pits, usize),
    pits: &mut Pits,
    mut lift: usize,
    laps: Laps,
    stop: Stop<'_>,
    mut lap: impl FnMut(&mut Pits, usize) -> LapEnd,
) -> Result<usize, SowError> {
    let mut passed = landmarks::Passed::default();
    loop {
        match lap(pits, lift) {
            LapEnd::Stop(l) => {
                if MARKS {
                    passed.remember(laps, End::Stop(*pits, l));
                }
                return Ok(l);
            }
            LapEnd::Relay(next) => lift = next,
        }
        if lift == saved.1 && *pits == saved.0 {
            if MARKS {
                passed.remember(laps, End::Endless);
            }
            return Err(SowError::Endless);
        }
        if MARKS {
            if let Some(end) = passed.pass(laps, pits, lift) {
                passed.remember(laps, end);
                return match end {
                    End::Stop(p, l) => {
                        *pits = p;
                        Ok(l)
                    }
                    End::Endless => Err(SowError::Endless),
                };
            }
        }
        if brent.tick() {
            saved = (*pits, lift);
            if !MARKS && brent.power == KNOWN_AFTER && laps != Laps::UNSHARED {
                return long_run(brent, saved, pits, lift, laps, stop, lap);
            }
        } else if brent.at_checkpoint() && stop.is_raised() {
            return Err(SowError::Abandoned { laps: brent.laps() });
        }
    }
}

/// [`run`] with landmarks, out of line: the rare relay that runs [`KNOWN_AFTER`] laps.
#[cold]
#[inline(never)]
fn long_run(
    brent: Brent,
    saved: (Pits, usize),
    pits: &mut Pits,
    lift: usize,
    laps: Laps,
    stop: Stop<'_>,
    lap: impl FnMut(&mut Pits, usize) -> LapEnd,
) -> Result<usize, SowError> {
    run::<true>(brent, saved, pits, lift, laps, stop, lap)
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

    /// Whether the count since the saved state moved is a whole number of [`LOOK_EVERY`] laps:
    /// where a long sowing looks whether its stop was raised.
    #[inline]
    pub(crate) fn at_checkpoint(&self) -> bool {
        self.steps & (LOOK_EVERY - 1) == 0
    }

    /// The laps counted so far: the saved state moved after 1, 2, 4, ... `power / 2` laps (in
    /// all `power - 1`), and `steps` laps have been run since.
    pub(crate) fn laps(&self) -> u64 {
        self.power - 1 + self.steps
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
