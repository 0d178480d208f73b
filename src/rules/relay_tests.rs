//! Brent's cycle finding of [`super::relay`] ([`until_repeat`] with its [`Brent`] counters), on
//! synthetic step functions: every tail and cycle length, and a cycle longer than 2^32 steps.

use super::{until_repeat, Brent, Endless};

/// Steps until a synthetic sowing's state repeats: the state `x` steps to `f(x)` and never
/// stops. Returns the steps taken, counted by the step function itself.
fn steps_to_repeat(brent: Brent, x0: u64, f: impl Fn(u64) -> u64) -> u64 {
    let (mut x, mut steps) = (x0, 0u64);
    let end: Result<(), Endless> = until_repeat(&mut x, brent, |x| {
        *x = f(*x);
        steps += 1;
        None
    });
    assert_eq!(end, Err(Endless));
    steps
}

#[test]
fn brent_finds_every_cycle_after_any_tail() {
    for tail in 0..40u64 {
        for len in 1..70u64 {
            // 0, 1, ..., tail - 1 lead into the cycle tail, ..., tail + len - 1.
            let f = |x: u64| if x + 1 < tail + len { x + 1 } else { tail };
            let steps = steps_to_repeat(Brent::new(), 0, f);
            // Brent's bound: the saved state is on the cycle once the power passes the tail,
            // and a power at least the cycle's length meets it within one more circuit.
            let bound = 2 * (tail + len).next_power_of_two() + len;
            assert!(steps <= bound, "tail {tail}, cycle {len}: {steps} steps");
        }
    }
}

#[test]
fn a_sowing_that_stops_is_not_endless() {
    let mut x = 0u64;
    let end = until_repeat(&mut x, Brent::new(), |x| {
        *x += 1;
        (*x == 1000).then_some(*x * 2)
    });
    assert_eq!((end, x), (Ok(2000), 1000));
}

#[test]
fn the_counters_go_past_2_to_the_32() {
    // The state after 2^32 + 2^31 - 1 steps: power 2^32, steps 2^32 - 1.
    let mut b = Brent {
        power: 1 << 32,
        steps: (1 << 32) - 1,
    };
    assert!(
        b.tick(),
        "the 2^32-th step since the last move moves the saved state"
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

/// A cycle of 2^32 + 3 steps, run from the counters as they stand after 2^33 - 1 steps of a long
/// sowing (power 2^33, the saved state just moved onto the cycle): it is found after exactly one
/// circuit. 32-bit counters cannot get there: `power` wraps to 0 when it doubles past 2^31 (or
/// panics, with overflow checks), after which the saved state never moves again and a cycle not
/// through it is never found. About 4.3e9 cheap steps: a few seconds in an optimised build.
#[test]
fn a_cycle_longer_than_2_to_the_32_is_found() {
    const LEN: u64 = (1 << 32) + 3;
    let at = Brent {
        power: 1 << 33,
        steps: 0,
    };
    let f = |x: u64| if x + 1 == LEN { 0 } else { x + 1 };
    assert_eq!(steps_to_repeat(at, 5, f), LEN);
}
