//! Live counters for a progress display ([`Progress`]).

use std::sync::atomic::{AtomicI32, AtomicU64, Ordering};

/// Live counters for a progress display, updated by the search every few thousand nodes: the
/// nodes searched, the bounds proved on the position being solved, and, while a solve settles
/// its root's moves, the root move proven to reach the best value so far.
///
/// Every number here is proven when it is read (bounds only narrow within a job), so a display
/// built from them shows exact values or true bounds, never a guess. Two reads are not one
/// snapshot, so a display combines them only where each is true on its own: the best move's
/// value comes packed with the move ([`Progress::best_move`]).
#[derive(Debug)]
pub struct Progress {
    nodes: AtomicU64,
    lower: AtomicI32,
    upper: AtomicI32,
    /// The root move of a solve proven to reach the highest value so far, packed as
    /// `(move index + 1) << 32 | value as u32`; 0 for none.
    best: AtomicU64,
}

impl Default for Progress {
    fn default() -> Self {
        Self::new()
    }
}

impl Progress {
    /// Fresh counters.
    pub fn new() -> Self {
        Self {
            nodes: AtomicU64::new(0),
            lower: AtomicI32::new(0),
            upper: AtomicI32::new(0),
            best: AtomicU64::new(0),
        }
    }

    /// Nodes searched so far, over all threads and jobs (approximate while running).
    pub fn nodes(&self) -> u64 {
        self.nodes.load(Ordering::Relaxed)
    }

    /// The bounds proved so far on the value of the position being solved at the moment (the
    /// root, or the child being analysed).
    pub fn bounds(&self) -> (i32, i32) {
        (
            self.lower.load(Ordering::Relaxed),
            self.upper.load(Ordering::Relaxed),
        )
    }

    /// While a solve settles its root's moves ([`Solver::solve`](super::Solver::solve)): the
    /// index ([`Game::move_index`](crate::Game::move_index)) of a root move and a future value
    /// it is proven to reach at least, the highest so far (the first such move in `children()`
    /// order). The root's value lies between that value and the upper bound of
    /// [`Progress::bounds`], so when the bounds meet at it the move is proven best. `None`
    /// before any move is proven to reach anything, and from the start of every job.
    pub fn best_move(&self) -> Option<(u8, i32)> {
        let packed = self.best.load(Ordering::Relaxed);
        let index = (packed >> 32) as u32;
        (index != 0).then(|| ((index - 1) as u8, packed as u32 as i32))
    }

    /// Starts the display over for a position whose value is known to lie in
    /// `[lower, upper]` (its stake, or less): bounds reset, no best move. The search does this
    /// at the start of each job; a driver that runs several jobs for one question (an analysis
    /// valuing moves one by one) calls it before each, so that a display never takes one
    /// position's bounds for another's.
    pub fn restart(&self, lower: i32, upper: i32) {
        self.start_job(lower, upper);
    }

    pub(super) fn start_job(&self, lower: i32, upper: i32) {
        self.best.store(0, Ordering::Relaxed);
        self.lower.store(lower, Ordering::Relaxed);
        self.upper.store(upper, Ordering::Relaxed);
    }

    pub(super) fn narrow(&self, lower: i32, upper: i32) {
        self.lower.fetch_max(lower, Ordering::Relaxed);
        self.upper.fetch_min(upper, Ordering::Relaxed);
    }

    /// The root move `index` is proven to reach `value`: kept when it beats the best so far
    /// (the one driver thread settling the root writes it; a display reads it).
    pub(super) fn reach(&self, index: u8, value: i32) {
        if self.best_move().is_none_or(|(_, v)| value > v) {
            let packed = (u64::from(index) + 1) << 32 | u64::from(value as u32);
            self.best.store(packed, Ordering::Relaxed);
        }
    }

    pub(super) fn add_nodes(&self, n: u64) {
        self.nodes.fetch_add(n, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_best_move_keeps_the_highest_value_and_a_new_job_forgets_it() {
        let p = Progress::new();
        assert_eq!(p.best_move(), None);
        p.reach(3, -5);
        assert_eq!(p.best_move(), Some((3, -5)));
        // A tie keeps the first; only a higher value replaces it.
        p.reach(1, -5);
        assert_eq!(p.best_move(), Some((3, -5)));
        p.reach(0, 7);
        assert_eq!(p.best_move(), Some((0, 7)));
        p.restart(-10, 10);
        assert_eq!((p.best_move(), p.bounds()), (None, (-10, 10)));
        p.reach(255, i32::MIN + 1);
        assert_eq!(p.best_move(), Some((255, i32::MIN + 1)));
    }
}
