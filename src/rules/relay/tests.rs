//! Brent's cycle finding of [`super::relay`] (the real loop, [`relay_from`], with its [`Brent`]
//! counters) on synthetic laps: every tail and cycle length, and a cycle longer than 2^32 laps.

use super::{relay_from, Brent, LapEnd, Laps, SowError};
use crate::board::Pits;
use crate::stop::{Stop, StopToken};
use std::sync::Mutex;

/// Held by the tests that run long relays, so that two of them never share the two cores.
static LONG_RELAYS: Mutex<()> = Mutex::new(());

/// Laps until a synthetic sowing's state repeats: the board never changes and the pit to lift
/// steps from `x` to `f(x)` (so the lap-boundary state is the pit alone), never stopping.
fn laps_to_repeat(brent: Brent, x0: usize, f: impl Fn(usize) -> usize) -> u64 {
    let _alone = LONG_RELAYS.lock().unwrap_or_else(|e| e.into_inner());
    let mut laps = 0u64;
    let mut pits = Pits::from_slice(&[1, 2, 3]);
    let end = relay_from(
        brent,
        &mut pits,
        x0,
        Laps::UNSHARED,
        Stop::never(),
        |_, lift| {
            laps += 1;
            LapEnd::Relay(f(lift))
        },
    );
    assert_eq!(end, Err(SowError::Endless));
    laps
}

#[test]
fn brent_finds_every_cycle_after_any_tail() {
    for tail in 0..40usize {
        for len in 1..70usize {
            // 0, 1, ..., tail - 1 lead into the cycle tail, ..., tail + len - 1.
            let f = |x: usize| if x + 1 < tail + len { x + 1 } else { tail };
            let laps = laps_to_repeat(Brent::new(), 0, f);
            // Brent's bound: the saved state is on the cycle once the power passes the tail,
            // and a power at least the cycle's length meets it within one more circuit.
            let bound = 2 * (tail + len).next_power_of_two() as u64 + len as u64;
            assert!(laps <= bound, "tail {tail}, cycle {len}: {laps} laps");
        }
    }
}

#[test]
fn a_sowing_that_stops_is_not_endless() {
    let mut pits = Pits::from_slice(&[0, 0]);
    let end = relay_from(
        Brent::new(),
        &mut pits,
        0,
        Laps::UNSHARED,
        Stop::never(),
        |pits, lift| {
            pits.add(lift, 1);
            if pits.get(0) == 200 {
                LapEnd::Stop(7)
            } else {
                LapEnd::Relay(lift)
            }
        },
    );
    assert_eq!(end, Ok(7));
    assert_eq!(pits, Pits::from_slice(&[200, 0]));
}

#[test]
fn the_counters_go_past_2_to_the_32() {
    // The state after 2^32 + 2^31 - 1 laps: power 2^32, steps 2^32 - 1.
    let mut b = Brent {
        power: 1 << 32,
        steps: (1 << 32) - 1,
    };
    assert!(
        b.tick(),
        "the 2^32-th lap since the last move moves the saved state"
    );
    assert_eq!(
        b,
        Brent {
            power: 1 << 33,
            steps: 0
        }
    );
    assert!(!b.tick());
    assert_eq!(b.steps, 1);
    // Near the top: 2^62 doubles to 2^63 without overflow.
    let mut b = Brent {
        power: 1 << 62,
        steps: (1 << 62) - 1,
    };
    assert!(b.tick());
    assert_eq!(b.power, 1 << 63);
}

/// A cycle of 2^32 + 3 laps, run from the counters as they stand after 2^33 - 1 laps of a long
/// sowing (power 2^33, the saved state just moved onto the cycle): it is found after exactly one
/// circuit. 32-bit counters cannot get there: `power` wraps to 0 when it doubles past 2^31 (or
/// panics, with overflow checks), after which the saved state never moves again and a cycle not
/// through it is never found. About 4.3e9 cheap laps: a few seconds in an optimised build.
#[test]
fn a_cycle_longer_than_2_to_the_32_is_found() {
    const LEN: usize = (1 << 32) + 3;
    let at = Brent {
        power: 1 << 33,
        steps: 0,
    };
    let f = |x: usize| if x + 1 == LEN { 0 } else { x + 1 };
    assert_eq!(laps_to_repeat(at, 5, f), LEN as u64);
}

/// A sowing that would run for ages (its state never repeats) gives up once its stop is raised,
/// with [`SowError::Abandoned`] as a value; without the request it would never return. Two such
/// sowings run at once, each with its own token, the way two searches of one process do: the
/// one stopped gives up, the other goes on and ends by itself (after 2^25 laps, well past
/// several stop checks), unaffected by the first one's stop.
#[test]
fn two_long_sowings_stop_independently() {
    let _alone = LONG_RELAYS.lock().unwrap_or_else(|e| e.into_inner());
    let (stopped, running) = (StopToken::new(), StopToken::new());
    let never_repeats = Brent {
        power: 1 << 62,
        steps: 0,
    };
    const FINITE: usize = 1 << 25;
    let (a, b) = std::thread::scope(|s| {
        let a = s.spawn(|| {
            let mut pits = Pits::from_slice(&[1, 2, 3]);
            relay_from(
                never_repeats,
                &mut pits,
                0,
                Laps::UNSHARED,
                stopped.as_stop(),
                |_, lift| LapEnd::Relay(lift + 1),
            )
        });
        let b = s.spawn(|| {
            let mut pits = Pits::from_slice(&[1, 2, 3]);
            relay_from(
                never_repeats,
                &mut pits,
                0,
                Laps::UNSHARED,
                running.as_stop(),
                |_, lift| {
                    if lift == FINITE {
                        LapEnd::Stop(lift)
                    } else {
                        LapEnd::Relay(lift + 1)
                    }
                },
            )
        });
        std::thread::sleep(std::time::Duration::from_millis(20));
        stopped.stop();
        (a.join().unwrap(), b.join().unwrap())
    });
    assert!(matches!(a, Err(SowError::Abandoned { .. })), "{a:?}");
    assert_eq!(b, Ok(FINITE));
    assert!(!running.is_stopped());
}

/// A synthetic lap of a counter in two pits (pit 0 the low digit, pit 1 the high one, base 256),
/// the pit to lift always 0: one lap adds 1. Stops when the high digit reaches `stop_at`, if it
/// ever does (`wrap` makes the high digit count modulo `wrap`: the state then cycles).
fn counter_lap(
    laps: &mut u64,
    stop_at: u8,
    wrap: u8,
) -> impl FnMut(&mut Pits, usize) -> LapEnd + '_ {
    move |pits, _| {
        *laps += 1;
        if pits.get(0) == 255 {
            pits.set(0, 0);
            pits.set(1, (pits.get(1) + 1) % wrap);
        } else {
            pits.add(0, 1);
        }
        if pits.get(1) == stop_at {
            LapEnd::Stop(9)
        } else {
            LapEnd::Relay(0)
        }
    }
}

/// A long relay run again ends as the first run did (same board, same payload, or endless), and
/// stops at one of the landmarks the first run filed, long before its end.
#[test]
fn landmarks_end_a_known_relay_early_and_alike() {
    // Made-up laps of their own, one site per lap function (the finite and the endless counter
    // pass through the same states, and would wrongly share landmarks under one `Laps`).
    let run_on = |laps: Laps, stop_at: u8, wrap: u8| {
        let mut n = 0u64;
        let mut pits = Pits::from_slice(&[0, 0]);
        let end = relay_from(
            Brent::new(),
            &mut pits,
            0,
            laps,
            Stop::never(),
            counter_lap(&mut n, stop_at, wrap),
        );
        (end, pits, n)
    };
    let run = |stop_at, wrap| {
        run_on(
            Laps::new(stop_at, crate::board::Ring { holes: 1 }, 0),
            stop_at,
            wrap,
        )
    };
    // Finite: 40 * 256 laps.
    let (end, pits, first) = run(40, 255);
    assert_eq!(
        (end, pits, first),
        (Ok(9), Pits::from_slice(&[0, 40]), 40 * 256)
    );
    let (end, pits, again) = run(40, 255);
    assert_eq!((end, pits), (Ok(9), Pits::from_slice(&[0, 40])));
    assert!(
        again < first / 2,
        "{again} laps the second time, {first} the first"
    );
    // Endless: the counter wraps at 32 * 256 and never reaches 200.
    let (end, _, first) = run(200, 32);
    assert_eq!(end, Err(SowError::Endless));
    let (end, _, again) = run(200, 32);
    assert_eq!(end, Err(SowError::Endless));
    assert!(
        again < first / 2,
        "{again} laps the second time, {first} the first"
    );
    // The same relay with laps that share nothing runs to its end every time.
    assert_eq!(run_on(Laps::UNSHARED, 40, 255).2, 40 * 256);
}
