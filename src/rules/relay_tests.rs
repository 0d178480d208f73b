//! Brent's lap counters of [`super::relay`], past 2^32 laps, on a synthetic step function.

use super::Brent;

/// Laps until a synthetic sowing's state repeats, with [`Brent`] as `relay` uses it: the state
/// `x` steps to `f(x)`; `None` when it stops (never, here).
fn laps_to_repeat(mut brent: Brent, x0: u64, f: impl Fn(u64) -> u64) -> u64 {
    let (mut x, mut saved, mut laps) = (x0, x0, 0u64);
    loop {
        x = f(x);
        laps += 1;
        if x == saved {
            return laps;
        }
        if brent.tick() {
            saved = x;
        }
    }
}

#[test]
fn brent_finds_every_cycle_after_any_tail() {
    for tail in 0..40u64 {
        for len in 1..70u64 {
            // 0, 1, ..., tail - 1 lead into the cycle tail, ..., tail + len - 1.
            let f = |x: u64| if x + 1 < tail + len { x + 1 } else { tail };
            let laps = laps_to_repeat(Brent::new(), 0, f);
            // Brent's bound: the saved state is on the cycle once the power passes the tail,
            // and a power at least the cycle's length meets it within one more circuit.
            let bound = 2 * (tail + len).next_power_of_two() + len;
            assert!(laps <= bound, "tail {tail}, cycle {len}: {laps} laps");
        }
    }
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
    // From there, a cycle of 2^32 + 5 laps starting at the saved state is met after one circuit,
    // where 32-bit counters would have wrapped `power` to 0 and never moved the state again.
    let len = (1u64 << 32) + 5;
    let mut b = Brent {
        power: 1 << 33,
        steps: 0,
    };
    let mut moved = false;
    // Only the counters are simulated (no state): no move before a whole circuit.
    for _ in 0..1000 {
        moved |= b.tick();
    }
    assert!(!moved && b.power > len);
    // Near the top: 2^62 doubles to 2^63 without overflow.
    let mut b = Brent {
        power: 1 << 62,
        steps: (1 << 62) - 1,
    };
    assert!(b.tick());
    assert_eq!(b.power, 1 << 63);
}
