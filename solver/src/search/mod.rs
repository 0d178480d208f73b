//! Exact alpha-beta search: null-window bisection at the root, a shared lock-free transposition
//! table, and Lazy-SMP threads.
//!
//! # What is computed
//!
//! The future value `F` of [`crate::game`]: `F(x) = max_c c.gain ± F(c.next)`, negating only when
//! the turn passed, `F = 0` at the end of the game, and `0` for an infinite play.
//!
//! # Pieces
//!
//! One concept per file:
//!
//! - `solver`: the entry points. [`solve`] pins the root value, then finds every best move and a
//!   principal variation; [`analyze`] solves every child; [`Solver`] keeps one table across
//!   several calls.
//! - `mtdf`: the value of a position, by MTD(f)-style null-window searches within
//!   `-stake..=stake` (each test sits at the bound the last one proved, with a bisection
//!   fallback; every pass leaves bounds in the table for the next).
//! - `pv`: the best moves and a principal variation, by further null-window tests, each on a
//!   child searched as a fresh root.
//! - `node`: the negamax core, one function with numbered steps: window clamped to the stake
//!   (Pons), transposition-table cutoffs (for games that say so, `Game::EARLY_CHILDREN`, after
//!   the children are generated and their loads started), the repetition rule, enhanced
//!   transposition cutoff over
//!   the children (the oracle's values before the first child is searched, the table's entries
//!   after it, when their loads have had time to arrive), move ordering, and the store.
//! - `order`: the move order. `guess`: the heuristic look-ahead that gives the first test its
//!   threshold. `defer`: the ABDADA deferral between threads.
//! - `threads`: a job run on all threads; `shared`: what the threads of a job share.
//! - [`split`] and [`manager`]: a solve split into null-window jobs for other processes (the
//!   frontier, the placement, the journal; the manager's state machine).
//! - [`SearchConfig`] (`config`), [`Oracle`] (`oracle`), [`Progress`] (`progress`),
//!   [`SearchResult`] and [`SearchError`] (`outcome`): the interface.

//! # Threads
//!
//! Every thread runs the same driver on the same job, sharing the table (Lazy SMP). A thread that
//! enters a node another thread is busy with defers that child to the end of its own move list (the
//! ABDADA idea), so the threads spread over different subtrees and meet again through the table; at
//! nodes expected to be ALL nodes near the root even the first child is deferred
//! ([`SearchConfig::defer_first_ply`]), and at the root of a test expected to be an ALL node, or at
//! the first expected ALL nodes below a CUT root ([`SearchConfig::head_start_ply`]), thread `id`
//! starts on the node's move `id`. In a value job thread 0 alone makes the heuristic first guess,
//! and the threads share the bounds proven so far: a thread gives up a test that another has
//! answered. The first thread to finish a job answers it and stops the others. Every value a thread
//! can return is exact, so the answer does not depend on the number of threads or on timing; only
//! node counts do. One thread is fully deterministic.
//!
//! # Cycles
//!
//! When [`Game::CAN_CYCLE`](crate::Game::CAN_CYCLE) is true, a position that repeats one on the current search path is
//! scored 0 (an infinite play wins nothing), and every result carries the smallest ply of a path
//! position it was cut against. Why this is exact:
//!
//! 1. Both players have positional optimal strategies σ (for the maximiser) and τ, optimal from
//!    every position (the layered threshold construction of the rules' retrograde analysis builds
//!    them).
//! 2. Consider any "stopped" game: play from the root, but stop with payoff 0 when a position
//!    repeats one earlier in the play, and possibly (by any rule, even history-dependent) stop at a
//!    position `z` with payoff `F(z)` (a table bound or an endgame-table value stands for this). A
//!    play following σ stops either at `z`, where accumulated gain + `F(z)` ≥ `F(root)` because σ
//!    is optimal everywhere, or at a repetition; then σ and the opponent's moves could repeat the
//!    cycle forever, a play consistent with σ whose value (cycles win nothing, since any gain
//!    lowers the layer) is the accumulated gain, so that too is ≥ `F(root)`. By symmetry with τ,
//!    the stopped game's value is exactly `F(root)`.
//! 3. Alpha-beta computes the stopped game's value (bounds thereof) exactly, so the root is exact.
//! 4. A result at ply `d` that was never cut against a path position above `d` is what a fresh
//!    search from that node would have computed; by 2 it is a true bound on `F` and may be stored.
//!    A result cut against a position above it depended on the path (graph-history interaction)
//!    and is stored only as a move hint.
//!
//! Table bounds are only used for cutoffs in cyclic games, never to narrow the window: a narrowed
//! window could mix `F` with a path-dependent value into a number that is neither. Repetitions
//! can only occur within a layer, so the path is scanned back only over same-layer positions.
//! With `CAN_CYCLE == false` all of this compiles away.

mod config;
mod defer;
mod guess;
pub mod manager;
mod mtdf;
mod node;
mod oracle;
mod order;
mod outcome;
mod progress;
mod pv;
mod shared;
mod solver;
pub mod split;
#[cfg(test)]
mod tests;
mod threads;

pub use config::SearchConfig;
pub use oracle::{Oracle, OracleFault, OracleSlot};
pub use outcome::{Proven, SearchError, SearchResult};
pub use progress::Progress;
pub use solver::{analyze, solve, Solver};
pub use threads::{GROW_AFTER, GROW_AFTER_LARGE, GROW_AFTER_ORACLE, LARGE_TABLE_BYTES};
