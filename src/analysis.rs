//! Solving a position from the library, with every value the final score.
//!
//! The search itself ([`solver`]) works on the **future value**: the net seeds the side to move
//! will still win, stores left out (so that transpositions share entries). A user asks for the
//! value docs/rules.md defines: the final score, South's seeds minus North's, at the end of
//! perfect play. [`solve`] and [`analyze`] return that, and keep the future value by its own
//! name ([`Solution::future`]). A search stops early when its [`SearchConfig::stop`] token is
//! raised ([`crate::stop::StopToken::stop`]); then the result is [`SearchError::Interrupted`].
//!
//! ```
//! use mancala::{rules::Kalah, Position, SearchConfig};
//! let start = Position::start(Kalah::default(), 4, 3).unwrap();
//! let cfg = SearchConfig { threads: 1, tt_bytes: 16 << 20, ..SearchConfig::default() };
//! let s = mancala::solve(&start, &cfg).unwrap();
//! assert_eq!(s.value, 6); // South wins by 6 (docs/rules.md §3.7)
//! assert_eq!(s.future, 6); // nothing is in the stores yet
//! ```

use crate::answers::AnySolver;
use crate::board::Move;
use crate::rules::Rules;
use crate::Position;
use solver::{SearchConfig, SearchError};

/// A solved position.
#[derive(Clone, Debug, PartialEq)]
pub struct Solution {
    /// The final score under perfect play: South's seeds minus North's at the end of the game
    /// (stores included).
    pub value: i32,
    /// The net seeds the side to move will still win from here (what the search computes):
    /// `value` is the stores' difference plus this, from South's side.
    pub future: i32,
    /// Every move that achieves the value, in move order. Empty when the game is over.
    pub best: Vec<Move>,
    /// A principal variation: from each position, the first best move, until the game ends or
    /// (cyclic games) a position repeats.
    pub pv: Vec<Move>,
    /// Nodes searched, over all threads.
    pub nodes: u64,
    /// Wall-clock time in seconds.
    pub seconds: f64,
}

/// Solves `p` exactly: its final score under perfect play, its best moves and a principal
/// variation.
///
/// # Errors
/// [`SearchError::Interrupted`] when `cfg.stop` was raised; [`SearchError::Table`] when the
/// transposition table cannot be built for this position and size.
pub fn solve<R: Rules>(p: &Position<R>, cfg: &SearchConfig) -> Result<Solution, SearchError> {
    // Over the Kalah node when `p` is one (the same tree, values and moves; fewer instructions).
    let r = AnySolver::new(p, cfg.clone(), None)?.solve(p)?;
    Ok(Solution {
        value: p.final_value(r.value),
        future: r.value,
        best: r.best,
        pv: r.pv,
        nodes: r.nodes,
        seconds: r.seconds,
    })
}

/// Every legal move of `p` with the final score (South minus North) that perfect play reaches
/// after it, in move order. Empty when the game is over.
///
/// # Errors
/// As [`solve`].
pub fn analyze<R: Rules>(
    p: &Position<R>,
    cfg: &SearchConfig,
) -> Result<Vec<(Move, i32)>, SearchError> {
    let moves = AnySolver::new(p, cfg.clone(), None)?.analyze(p)?;
    // Each value is the mover's net future winnings by that move: the same turn into the final
    // score as the position's own future value.
    Ok(moves
        .into_iter()
        .map(|(m, v)| (m, p.final_value(v)))
        .collect())
}
