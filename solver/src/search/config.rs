//! How to search: threads, table size, stop token, progress counters, and the tuning rules.

use std::sync::Arc;

use super::progress::Progress;
use crate::stop::{Stop, StopToken};

/// How to search.
///
/// The tuning fields change how fast a value is found, never the value. Their defaults were
/// tuned on a sowing game's benchmark; every construction outside the tests fills them from
/// `..SearchConfig::default()`.
#[derive(Clone, Debug)]
pub struct SearchConfig {
    /// Search threads (at least 1; 0 is taken as 1).
    pub threads: usize,
    /// Transposition table size in bytes (rounded down to whole buckets of 16 bytes, or 32 with
    /// wide entries).
    pub tt_bytes: usize,
    /// The most the transposition table may grow to, in bytes. A job whose nodes outnumber the
    /// table's entries [`GROW_AFTER`](super::GROW_AFTER) times over is stopped, the table grows
    /// fourfold (keeping every entry) and the job starts again, so a solve allocates about what
    /// its tree can use; from [`LARGE_TABLE_BYTES`](super::LARGE_TABLE_BYTES) on, only after
    /// [`GROW_AFTER_LARGE`](super::GROW_AFTER_LARGE) times, and beside an oracle only after
    /// [`GROW_AFTER_ORACLE`](super::GROW_AFTER_ORACLE) times. `0`, or no more than `tt_bytes`: the
    /// table keeps its size.
    pub tt_max_bytes: usize,
    /// Raise this token ([`StopToken::stop`]) to stop the search, the move generations inside it
    /// too; it then returns [`SearchError::Interrupted`].
    ///
    /// [`SearchError::Interrupted`]: super::SearchError::Interrupted
    pub stop: Option<StopToken>,
    /// Counters the search keeps up to date for a progress display.
    pub progress: Option<Arc<Progress>>,
    /// Depth of the heuristic iterative-deepening search (with [`Game::estimate`] at the
    /// horizon) that a job asking for a value runs before its exact passes: it leaves move
    /// hints for the top of the tree and gives the first null-window test its threshold. Deeper
    /// iterations grow much faster than they help. Default 16: a 16-ply look-ahead.
    ///
    /// [`Game::estimate`]: crate::Game::estimate
    pub guess_depth: u32,
    /// Positions with less at stake than this are solved without the heuristic look-ahead:
    /// their exact search is cheap anyway, and the first test is then "is it won?". Default 24:
    /// a stake of 24 or more gets the look-ahead.
    pub guess_min_stake: i32,
    /// How many null-window tests in a row may move the bound the same way as the test before
    /// them (it keeps creeping one way) before the value search bisects the remaining interval
    /// instead of testing next to the bound just proved; this bounds the number of passes.
    /// Default 8: once 8 tests in a row have repeated the previous one's direction, the next test
    /// bisects.
    pub bisect_after: u32,
    /// With several threads, nodes at a ply below this mark themselves busy, so that other
    /// threads put off searching them (the ABDADA deferral); deeper nodes are too small for the
    /// shared marks' traffic to pay off. Default 32: nodes at plies 0 to 31 take part.
    pub defer_ply: u32,
    /// In a job that finds a value, and in a yes/no test of the best moves or the principal
    /// variation whose root is expected to be an ALL node (a move expected to fall short when it
    /// keeps the turn, to reach the bound when it passes it), expected ALL nodes at a ply below
    /// this put off even their first child when another thread is in it: at an ALL node every
    /// move must be refuted, so a second thread does better starting on a sibling than following
    /// the first down the same move, while at a CUT node it would spend itself on moves that one
    /// refutation makes needless. (The other yes/no tests never do: their root is a CUT node,
    /// where one refutation is wanted.) Default 24: plies 0 to 23.
    pub defer_first_ply: u32,
    /// In a yes/no test whose root is expected to be a CUT node (the other tests of the best
    /// moves and the principal variation), expected ALL nodes at a ply up to this give the other
    /// threads the head start an ALL root gives them: thread `id` puts off their first `id`
    /// moves. Below a CUT root every thread takes the same refutation, and at the ALL nodes under
    /// it, where every move must be searched, threads that arrive together would otherwise all
    /// start on the first move; the busy marks separate them only after one has entered it.
    /// Deeper, the nodes are small and the head start sends threads into moves that a cut above
    /// makes needless. Default 4: plies 1 to 4 (a CUT root's first ALL nodes).
    pub head_start_ply: u32,
    /// Use the wide (16-byte) table entries even when the narrow ones would do: for tests and
    /// for measuring the wide path against the narrow one on the same search. Default false: the
    /// table picks its width from the keys (see [`crate::tt`]), which never changes a value.
    pub wide_table: bool,
}

impl Default for SearchConfig {
    /// All available cores, a 256 MiB table, no stop token, no progress counters, and the tuning
    /// defaults documented on each field.
    fn default() -> Self {
        Self {
            threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
            tt_bytes: 256 << 20,
            tt_max_bytes: 0,
            stop: None,
            progress: None,
            guess_depth: 16,
            guess_min_stake: 24,
            bisect_after: 8,
            defer_ply: 32,
            defer_first_ply: 24,
            head_start_ply: 4,
            wide_table: false,
        }
    }
}

impl SearchConfig {
    /// The stop the search's code looks at: [`SearchConfig::stop`]'s, or one never raised.
    #[inline]
    pub(crate) fn borrowed_stop(&self) -> Stop<'_> {
        self.stop.as_ref().map_or(Stop::never(), StopToken::as_stop)
    }
}
