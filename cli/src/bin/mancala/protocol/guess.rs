//! The move a timed search plays when its time ran out before it proved one best: the choice of
//! a look-ahead deepened one ply at a time until its own deadline, among the moves the exact
//! search did not prove worse.
//!
//! A fixed shallow look-ahead is not enough: after `go movetime 2000` from Kalah(6,4)'s start
//! the engine once played 6 (a 6-ply look-ahead's choice, worth +4) where a 12-ply look-ahead,
//! a quarter of a second's work, finds 3 (+8). Deepening until the deadline means a timed
//! search never plays a move that a look-ahead it had time for rates worse than its choice.

use mancala::board::Move;
use mancala::rules::Rules;
use mancala::stop::{Stop, StopToken};
use mancala::Position;
use solver::lookahead;
use solver::{Children, Game};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// The deepest look-ahead tried (the deadline ends the deepening long before on large boards).
const MAX_DEPTH: u32 = 64;

/// How often the timer looks at the clock.
const TICK: Duration = Duration::from_millis(2);

/// What the deepest finished look-ahead chose.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Guess {
    /// Its depth in plies.
    pub depth: u32,
    /// The move: the first of the best, in move order, among the moves not proven worse.
    pub mv: Move,
    /// Its estimated future value for the side to move (exact only where every line ends
    /// within the horizon).
    pub estimate: i32,
}

/// Deepens a look-ahead from `p` until `until`, choosing among the moves not in `worse`;
/// `None` when not even one ply finished in time (or the game is over).
pub(super) fn deepen<R: Rules>(p: &Position<R>, worse: &[Move], until: Instant) -> Option<Guess> {
    let stop = StopToken::new();
    let done = AtomicBool::new(false);
    std::thread::scope(|s| {
        s.spawn(|| {
            while !done.load(Ordering::Relaxed) {
                if Instant::now() >= until {
                    stop.stop();
                    return;
                }
                std::thread::sleep(TICK);
            }
        });
        let mut found = None;
        for depth in 1..=MAX_DEPTH {
            if Instant::now() >= until {
                break;
            }
            match choose(p, depth, worse, stop.as_stop()) {
                Some(g) => found = Some(g),
                None => break,
            }
        }
        done.store(true, Ordering::Relaxed);
        found
    })
}

/// The `depth`-ply look-ahead's choice among the moves not in `worse`; `None` when stopped.
fn choose<R: Rules>(p: &Position<R>, depth: u32, worse: &[Move], stop: Stop<'_>) -> Option<Guess> {
    // Most often the look-ahead's own choice is open: one alpha-beta search from the root.
    let g = lookahead::best_move(p, depth, stop)?;
    if !worse.contains(&g.mv) {
        return Some(Guess {
            depth,
            mv: g.mv,
            estimate: g.estimate,
        });
    }
    // It was proven worse: value each open move on its own, one ply less below it.
    let mut children = Children::new();
    p.children_until(&mut children, stop).ok()?;
    let mut best: Option<Guess> = None;
    for c in children
        .as_slice()
        .iter()
        .filter(|c| !worse.contains(&c.mv))
    {
        let below = if c.next.is_over() {
            0
        } else {
            let e = lookahead::best_move(&c.next, depth.saturating_sub(1).max(1), stop)?.estimate;
            if c.turn_passed {
                -e
            } else {
                e
            }
        };
        let estimate = c.gain + below;
        if best.is_none_or(|b| estimate > b.estimate) {
            best = Some(Guess {
                depth,
                mv: c.mv,
                estimate,
            });
        }
    }
    if stop.is_raised() {
        return None;
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use mancala::rules::Kalah;

    #[test]
    fn the_deepest_finished_look_ahead_chooses_among_the_open_moves() {
        let p = Position::start(Kalah::default(), 4, 3).unwrap();
        let soon = Instant::now() + Duration::from_millis(200);
        let g = deepen(&p, &[], soon).expect("a look-ahead finishes in time");
        let fixed = lookahead::best_move(&p, g.depth, Stop::never()).unwrap();
        assert_eq!((g.mv, g.estimate), (fixed.mv, fixed.estimate));
        // With its choice proven worse, the best of the others by the same look-ahead.
        let g = deepen(
            &p,
            &[fixed.mv],
            soon.max(Instant::now() + Duration::from_millis(200)),
        )
        .unwrap();
        assert_ne!(g.mv, fixed.mv);
        assert!(g.estimate <= fixed.estimate);
        // A deadline already past: nothing finished.
        assert_eq!(deepen(&p, &[], Instant::now()), None);
    }
}
