//! Game-agnostic exact search.
//!
//! This crate knows nothing of any particular game. A game implements the small [`Game`] trait
//! (its legal moves with their results, an exact key, the stake still in play, a layer number);
//! the crate computes exact values of positions:
//!
//! - [`game`]: the trait and the value convention (future value of the side to move; turns need
//!   not alternate; games may cycle).
//! - [`tt`]: the exact, lock-free transposition table shared by all threads.
//! - [`search`]: alpha-beta with MTD(f) / null-window bisection at the root, parallel driver.
//! - [`retro`]: retrograde analysis, layer by layer, over an indexable game.
//! - [`lookahead`]: a depth-limited heuristic search, for a move to play where no exact one is known.
//! - [`stop`]: stopping a computation from outside, as a value ([`StopToken`], [`Stop`], [`Abandoned`]).

#![deny(missing_docs)]

pub mod game;
pub mod lookahead;
mod memory;
pub mod retro;
pub mod search;
pub mod stop;
pub mod tt;

#[cfg(test)]
mod toy;

pub use game::{Child, Children, FixedVec, Game, MAX_MOVES};
pub use memory::{advise_huge_pages, huge_vec, prefetch, return_freed_blocks, try_vec, AllocError};
pub use retro::{
    layer_working_bytes, placed_moves, solve_layer, solve_layer_by_graph, solve_layer_split,
    Collective, Indexer, LayerError, LayerWatch, Lower, Placed, Schedule, Stoppable, OVER,
};
pub use search::{
    analyze, solve, Oracle, OracleFault, OracleSlot, Progress, Proven, SearchConfig, SearchError,
    SearchResult, Solver,
};
pub use stop::{Abandoned, Stop, StopToken};
pub use tt::{TranspositionTable, TtError};
