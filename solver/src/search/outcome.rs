//! What a search returns: a [`SearchResult`], or a [`SearchError`] saying why there is none.

use std::fmt;

use super::oracle::OracleFault;
use crate::game::Game;
use crate::tt::TtError;

/// The outcome of [`solve`].
///
/// [`solve`]: super::solve
#[derive(Clone, Debug)]
pub struct SearchResult<G: Game> {
    /// The exact future value for the side to move.
    pub value: i32,
    /// Every move that achieves `value`, in `children()` order. Empty when the game is over.
    pub best: Vec<G::Move>,
    /// A principal variation: from each position, the first move in `children()` order that
    /// achieves its value, until the game ends or a position repeats. Deterministic.
    pub pv: Vec<G::Move>,
    /// Nodes searched, over all threads.
    pub nodes: u64,
    /// Transposition table probes.
    pub tt_probes: u64,
    /// Probes that found the position.
    pub tt_hits: u64,
    /// Positions looked up in the oracle (endgame tables); 0 without one.
    pub oracle_probes: u64,
    /// Those the oracle answered.
    pub oracle_hits: u64,
    /// Wall-clock time.
    pub seconds: f64,
    /// The transposition table's actual size in bytes.
    pub tt_bytes: usize,
}

/// What a solve or an analysis has proven so far, kept up to date while it runs, so that a
/// search stopped by its flag still says what it finished ([`Solver::solve_tracked`],
/// [`Solver::analyze_tracked`]).
///
/// [`Solver::solve_tracked`]: super::Solver::solve_tracked
/// [`Solver::analyze_tracked`]: super::Solver::analyze_tracked
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Proven<M> {
    /// The exact future value of the position, once known.
    pub value: Option<i32>,
    /// Moves proven to achieve `value`, in `children()` order (solve).
    pub best: Vec<M>,
    /// Moves proven not to achieve it, in `children()` order (solve).
    pub worse: Vec<M>,
    /// Moves with their exact value from the mover's point of view, in `children()` order
    /// (analyze).
    pub valued: Vec<(M, i32)>,
}

impl<M> Default for Proven<M> {
    fn default() -> Self {
        Self {
            value: None,
            best: Vec::new(),
            worse: Vec::new(),
            valued: Vec::new(),
        }
    }
}

/// Why a search gave no answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SearchError {
    /// The stop flag was raised.
    Interrupted,
    /// The transposition table could not be built.
    Table(TtError),
    /// The oracle found a fault in its own data ([`Oracle::fault`](super::Oracle::fault)): its
    /// error says which.
    Oracle(OracleFault),
}

impl fmt::Display for SearchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SearchError::Interrupted => f.write_str("search interrupted"),
            SearchError::Table(e) => write!(f, "{e}"),
            SearchError::Oracle(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for SearchError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            SearchError::Table(e) => Some(e),
            SearchError::Oracle(e) => Some(e),
            SearchError::Interrupted => None,
        }
    }
}

impl From<TtError> for SearchError {
    fn from(e: TtError) -> Self {
        SearchError::Table(e)
    }
}
