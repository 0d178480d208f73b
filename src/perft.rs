//! Perft: the number of move sequences of each length from a position, the way chess engines
//! check their move generators against each other.
//!
//! A *ply* is one legal move of the side to move: an extra turn is a ply of its own, a forced
//! pass is none (positions are normalised, so a side that cannot move never has the move). The
//! count at depth `d` is the number of distinct move sequences of exactly `d` plies, so a game
//! that ends sooner contributes to the depth where it ends and to none below it (chess's
//! convention: a mate at ply 3 is not a leaf of perft 4). `ends` counts those: the sequences of
//! exactly `d` plies after which the game is over.
//!
//! ```
//! use mancala::{perft::perft, rules::Kalah, Position};
//! use mancala::stop::Stop;
//! let start = Position::start(Kalah::default(), 6, 4).unwrap();
//! let counts = perft(&start, 2, Stop::never()).unwrap();
//! assert_eq!(counts.depths[0].nodes, 6); // six first moves
//! assert_eq!(counts.divide.len(), 6);
//! ```

use crate::board::Move;
use crate::rules::Rules;
use crate::stop::Stop;
use crate::Position;
use rayon::prelude::*;

/// The counts at one depth.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DepthCount {
    /// Move sequences of exactly this many plies.
    pub nodes: u64,
    /// Those of them after which the game is over.
    pub ends: u64,
}

/// The result of [`perft`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Perft {
    /// `depths[d - 1]`: the counts at depth `d`, for `d` from 1 to the depth asked.
    pub depths: Vec<DepthCount>,
    /// Each legal first move with the number of sequences of the full depth that start with it
    /// ("divide"), in move order.
    pub divide: Vec<(Move, u64)>,
}

/// How many nodes a worker visits between two looks at the stop.
const STOP_CHECK: u32 = 4096;

/// Counts the move sequences of 1 to `depth` plies from `root` (`depth` 0: none). The first
/// moves are counted in parallel (rayon); the counts do not depend on the thread count. `None`
/// when `stop` was raised before the count finished. Every move is sown under `stop`: a relay
/// of billions of laps (docs/rules.md §2.9) ends the count instead of holding it.
pub fn perft<R: Rules>(root: &Position<R>, depth: u32, stop: Stop<'_>) -> Option<Perft> {
    let mut children = Vec::new();
    root.for_each_child_until(stop, |m, q| children.push((m, q)))
        .ok()?;
    if depth == 0 {
        return Some(Perft {
            depths: Vec::new(),
            divide: Vec::new(),
        });
    }
    let per_child: Vec<Option<Vec<DepthCount>>> = children
        .par_iter()
        .map(|(_, q)| {
            let mut counts = vec![DepthCount::default(); depth as usize];
            let mut walk = Walk {
                counts: &mut counts,
                stop,
                // The first internal node looks at the stop: a raised one stops at once.
                budget: 1,
                stopped: false,
            };
            walk.visit(q, 1, depth);
            (!walk.stopped).then_some(counts)
        })
        .collect();
    let mut depths = vec![DepthCount::default(); depth as usize];
    let mut divide = Vec::with_capacity(children.len());
    for ((m, _), counts) in children.iter().zip(per_child) {
        let counts = counts?;
        for (total, c) in depths.iter_mut().zip(&counts) {
            total.nodes += c.nodes;
            total.ends += c.ends;
        }
        divide.push((*m, counts[depth as usize - 1].nodes));
    }
    Some(Perft { depths, divide })
}

/// One worker's depth-first count.
struct Walk<'a> {
    counts: &'a mut [DepthCount],
    stop: Stop<'a>,
    budget: u32,
    stopped: bool,
}

impl Walk<'_> {
    /// Counts `p`, reached after `ply` plies, and what follows it up to `depth` plies.
    fn visit<R: Rules>(&mut self, p: &Position<R>, ply: u32, depth: u32) {
        let c = &mut self.counts[ply as usize - 1];
        c.nodes += 1;
        if p.is_over() {
            c.ends += 1;
            return;
        }
        if ply == depth || self.stopped {
            return;
        }
        self.budget -= 1;
        if self.budget == 0 {
            self.budget = STOP_CHECK;
            if self.stop.is_raised() {
                self.stopped = true;
                return;
            }
        }
        let stop = self.stop;
        if p.for_each_child_until(stop, |_, q| self.visit(&q, ply + 1, depth))
            .is_err()
        {
            self.stopped = true;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Kalah, SanYao};

    /// Depth 1 is the legal-move count and depth 2 sums the children's move counts: checked
    /// here from the positions themselves, independently of the recursion.
    #[test]
    fn the_first_two_depths_are_move_counts() {
        let start = Position::start(Kalah::default(), 4, 3).unwrap();
        let r = perft(&start, 2, Stop::never()).unwrap();
        assert_eq!(r.depths[0].nodes, start.legal_moves().len() as u64);
        let mut second = 0;
        start.for_each_child(|_, q| second += q.legal_moves().len() as u64);
        assert_eq!(r.depths[1].nodes, second);
        assert_eq!(
            r.divide.iter().map(|&(_, n)| n).sum::<u64>(),
            r.depths[1].nodes
        );
    }

    #[test]
    fn a_raised_stop_gives_no_count() {
        let start = Position::start(SanYao, 5, 5).unwrap();
        assert!(perft(&start, 12, Stop::raised()).is_none());
    }

    #[test]
    fn depth_zero_counts_nothing() {
        let start = Position::start(Kalah::default(), 6, 4).unwrap();
        let r = perft(&start, 0, Stop::never()).unwrap();
        assert!(r.depths.is_empty() && r.divide.is_empty());
    }
}
