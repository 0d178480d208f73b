//! The heuristic guess: a depth-limited look-ahead with [`Game::estimate`] at the horizon, run
//! before the exact passes of a value job ([`SearchConfig::guess_depth`]). It gives the first
//! null-window test its threshold and leaves move hints near the root; its values are never
//! taken for bounds on the future value.
//!
//! [`SearchConfig::guess_depth`]: super::SearchConfig::guess_depth

use std::sync::atomic::Ordering;

use super::node::Searcher;
use super::order::move_order;
use super::shared::{GUESS_PENDING, GUESS_STOPPED};
use crate::game::{Children, Game};
use crate::tt::{Entry, Slot, Width};

impl<G: Game, W: Width> Searcher<'_, '_, G, W> {
    /// Iterative deepening to `depth` with the heuristic ([`Game::estimate`]) at the horizon:
    /// leaves only move hints in the table, and returns the last iteration's heuristic value
    /// (a first guess for the exact search); `None` when stopped.
    pub(super) fn guess(&mut self, pos: &G, depth: u32) -> Option<i32> {
        let key = pos.key();
        let slot = self.sh.tt.slot(key);
        let s = pos.stake();
        let mut v = 0;
        for d in 1..=depth.max(1) {
            v = self.heuristic(pos, slot, d, -s - 1, s + 1);
            if self.aborted {
                return None;
            }
        }
        Some(v)
    }

    /// [`Searcher::guess`] made by thread 0 alone, which the other threads wait for: they would
    /// search the same tree, and the move hints that two interleaved look-aheads leave in the
    /// table differ from run to run.
    pub(super) fn shared_guess(&mut self, pos: &G, depth: u32) -> Option<i32> {
        if self.id == 0 {
            let g = self.guess(pos, depth);
            self.sh
                .guess
                .store(g.unwrap_or(GUESS_STOPPED), Ordering::Release);
            return g;
        }
        loop {
            match self.sh.guess.load(Ordering::Acquire) {
                GUESS_STOPPED => return None,
                GUESS_PENDING => {
                    if self.sh.stop.is_raised() {
                        return None;
                    }
                    // The look-ahead spreads its stores over the whole table, so on a large
                    // fresh table its time goes to the kernel zeroing the pages it touches
                    // first; fault the rest in meanwhile instead of sleeping.
                    if !self.sh.tt.fault_in_chunk() {
                        std::thread::sleep(std::time::Duration::from_micros(50));
                    }
                }
                g => return Some(g),
            }
        }
    }

    /// Depth-limited fail-soft alpha-beta on a heuristic value. Its results are not bounds on the
    /// future value, so only the best move is stored, as an ordering hint (bounds `-stake..=stake`,
    /// which leave stored bounds as they are), and over an entry that holds bounds only when the
    /// look-ahead below it was the larger search: the exact search's hints are the better ones,
    /// but not those of a cheap test such as the value job's first ("does the mover take the
    /// whole stake?"), which would otherwise take the top of the tree from the look-ahead.
    fn heuristic(
        &mut self,
        pos: &G,
        slot: Slot<W::Quotient>,
        depth: u32,
        mut alpha: i32,
        beta: i32,
    ) -> i32 {
        self.stats.nodes += 1;
        let nodes_before = self.stats.nodes;
        if self.stats.nodes >= self.next_poll {
            self.poll();
        }
        if self.aborted {
            return 0;
        }
        let stake = pos.stake();
        let mut tt_move = None;
        // The work of the exact search behind the stored bounds, if any.
        let mut bounds_work = None;
        if let Some(e) = self.probe(slot) {
            if e.lower == e.upper {
                return e.lower;
            }
            tt_move = e.best;
            if e.lower > -stake || e.upper < stake {
                bounds_work = Some(e.work);
            }
        }
        // Endgame tables know the value outright: the look-ahead needs nothing below them.
        let asked = self.sh.oracle.filter(|o| pos.layer() <= o.max_layer());
        if let Some(v) = asked.and_then(|o| o.probe(pos)) {
            return v;
        }
        if depth == 0 {
            return pos.estimate().clamp(-stake, stake);
        }
        let mut children = Children::new();
        if pos.children_until(&mut children, self.sh.stop).is_err() {
            self.aborted = true;
            return 0;
        }
        let kids = children.as_slice();
        let n = kids.len();
        if n == 0 {
            return 0;
        }
        // The exact search's order (step 8 of the node), with the gain for the child's value.
        let order = move_order(kids, tt_move, |_, c| c.gain);
        let mut best = i32::MIN;
        let mut best_i = None;
        for &i in &order[..n] {
            let c = &kids[usize::from(i)];
            let cs = self.sh.tt.slot(c.next.key());
            let v = if c.turn_passed {
                c.gain - self.heuristic(&c.next, cs, depth - 1, c.gain - beta, c.gain - alpha)
            } else {
                c.gain + self.heuristic(&c.next, cs, depth - 1, alpha - c.gain, beta - c.gain)
            };
            if self.aborted {
                return 0;
            }
            if v > best {
                best = v;
                best_i = Some(usize::from(i));
                if v > alpha {
                    alpha = v;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        let larger =
            bounds_work.is_none_or(|w| w < Entry::work_of(self.stats.nodes - nodes_before));
        if larger {
            if let Some(i) = best_i {
                self.sh.tt.store_at(
                    slot,
                    Entry {
                        lower: -stake,
                        upper: stake,
                        best: Some(G::move_index(kids[i].mv)),
                        work: 0,
                    },
                );
            }
        }
        best
    }
}
