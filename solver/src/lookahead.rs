//! A depth-limited look-ahead: the move a heuristic search of a few plies prefers, and its
//! estimate. Never a value: the horizon is [`Game::estimate`], so what it returns is a guess.
//!
//! Front ends use it where the exact search gave no move yet (a search stopped by a time limit
//! before it proved any move best, or an engine asked for `go depth N`): a move to play, clearly
//! labelled as unproven, next to the bounds the exact search did prove.

use crate::game::{Children, Game};
use crate::stop::Stop;

/// What [`best_move`] found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Guess<M> {
    /// The first move (in `children()` order) with the best estimate.
    pub mv: M,
    /// Its estimated future value for the side to move: exact where the game ends within the
    /// horizon, [`Game::estimate`] beyond it.
    pub estimate: i32,
}

/// Nodes between two looks at the stop flag.
const STOP_CHECK: u32 = 1024;

/// The move a plain alpha-beta search of `depth` plies prefers from `pos` (`depth` 0 is
/// treated as 1), or `None` when the game is over or `stop` was raised before the search
/// finished. Deterministic: no table, no threads. Every move generation, the root's too, goes
/// through [`Game::children_until`] with `stop`: a move whose sowing runs billions of laps
/// (docs/rules.md §2.9) would otherwise keep the look-ahead, and whoever waits for its move,
/// running long after the stop.
pub fn best_move<G: Game>(pos: &G, depth: u32, stop: Stop<'_>) -> Option<Guess<G::Move>> {
    let mut children = Children::new();
    pos.children_until(&mut children, stop).ok()?;
    let mut search = Search {
        stop,
        // The first node looks at the flag: a raised one stops at once.
        budget: 1,
        stopped: false,
    };
    let stake = pos.stake();
    let mut best: Option<Guess<G::Move>> = None;
    for c in children.as_slice() {
        let alpha = best.map_or(-stake - 1, |b| b.estimate);
        let v = search.child(c, depth.max(1) - 1, alpha, stake + 1);
        if search.stopped {
            return None;
        }
        if best.is_none_or(|b| v > b.estimate) {
            best = Some(Guess {
                mv: c.mv,
                estimate: v,
            });
        }
    }
    best
}

struct Search<'a> {
    stop: Stop<'a>,
    budget: u32,
    stopped: bool,
}

impl Search<'_> {
    /// The value of `c` for the mover before it, searched with `depth` plies left in the
    /// window `(alpha, beta)` of that mover.
    fn child<G: Game>(&mut self, c: &crate::Child<G>, depth: u32, alpha: i32, beta: i32) -> i32 {
        if c.turn_passed {
            c.gain - self.value(&c.next, depth, c.gain - beta, c.gain - alpha)
        } else {
            c.gain + self.value(&c.next, depth, alpha - c.gain, beta - c.gain)
        }
    }

    /// Fail-soft alpha-beta on the future value of `pos` for its side to move.
    fn value<G: Game>(&mut self, pos: &G, depth: u32, mut alpha: i32, beta: i32) -> i32 {
        self.budget -= 1;
        if self.budget == 0 {
            self.budget = STOP_CHECK;
            self.stopped |= self.stop.is_raised();
        }
        if self.stopped {
            return 0;
        }
        let mut children = Children::new();
        if pos.children_until(&mut children, self.stop).is_err() {
            self.stopped = true;
            return 0;
        }
        if children.is_empty() {
            return 0;
        }
        if depth == 0 {
            return pos.estimate();
        }
        let mut best = i32::MIN;
        for c in children.as_slice() {
            let v = self.child(c, depth - 1, alpha, beta);
            best = best.max(v);
            alpha = alpha.max(v);
            if alpha >= beta {
                break;
            }
        }
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::toy::reference::minimax;
    use crate::toy::take::{take_game, Take};
    use std::collections::HashMap;

    /// Beyond the game's length the horizon is never reached: the estimate is the exact value,
    /// and the move achieves it.
    #[test]
    fn a_horizon_past_the_end_gives_the_exact_value() {
        let never = Stop::never();
        for seed in 0..20 {
            let g = take_game(seed, 14, -5, 9);
            let exact = minimax(&g, &mut HashMap::new());
            let guess = best_move(&g, 20, never).unwrap();
            assert_eq!(guess.estimate, exact, "seed {seed}");
            let mut children = Children::new();
            g.children(&mut children);
            let c = children
                .as_slice()
                .iter()
                .find(|c| c.mv == guess.mv)
                .unwrap();
            let after = minimax(&c.next, &mut HashMap::new());
            let v = if c.turn_passed {
                c.gain - after
            } else {
                c.gain + after
            };
            assert_eq!(v, exact, "seed {seed}: the move achieves the value");
        }
    }

    #[test]
    fn no_move_when_over_or_stopped() {
        let g = take_game(1, 10, -5, 9);
        assert!(best_move(&Take { n: 0, ..g }, 3, Stop::never()).is_none());
        assert!(best_move(&g, 30, Stop::raised()).is_none());
    }
}
