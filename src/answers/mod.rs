//! Exact answers for every front end: one [`Analyzer`] that asks, cheapest first, the opening
//! book, the memory of proven positions, the endgame tables and the search.
//!
//! The command line, the web server, the engine protocol and the Python package all ask an
//! [`Analyzer`] for values, so that each of them answers from the same sources in the same
//! order and says which one answered ([`Source`]). An analyzer keeps what is costly to build
//! across calls: the endgame tables (opened once per process, [`shared_tables`]) and one
//! transposition table, sized to the position as the command line sizes it ([`TableSize`]).
//! A search stopped by its time limit or its stop flag still answers with what it proved
//! ([`Bounds`]), never with a bare error.
//!
//! The book and the memory file values under a position's key, which leaves out the burnt pits
//! and sons of a match's round: a position with any of them is never answered from them nor
//! kept in the memory, and the kept transposition table serves one status pattern only. A
//! memory that cannot be opened (busy, read-only, another program's database) is left as it
//! is: the analyzer goes on without it and says so ([`Analyzer::take_notes`]).
//!
//! - [`analyzer`]: the [`Analyzer`] and its configuration.
//! - [`answer`]: what it answers ([`Answer`], [`Analysis`], [`Bounds`], [`Source`]).
//! - [`book`]: the opening book built into the program.
//! - [`identity`]: the stable name of a game's rules and board, under which values are kept.
//! - [`live`]: a live view of a question being answered (the best move so far, the bounds).
//! - [`memory`]: the memory of proven positions, a SQLite file shared by every process.
//! - [`sizing`]: the transposition table's size for a position.
//! - [`shared_tables`]: endgame tables opened once per process.
//! - `watch`: the timer beside a search (a time limit, a stop token from outside).

pub mod analyzer;
pub mod answer;
pub mod any_solver;
pub mod book;
pub mod identity;
pub mod live;
pub mod memory;
pub mod node_tables;
pub mod shared_tables;
pub mod sizing;
pub(crate) mod watch;

pub use analyzer::{Analyzer, AnalyzerConfig, AnalyzerError, Limits, MemoryChoice, TablesChoice};
pub use answer::{Analysis, Answer, Bounds, MoveAnswer, Source};
pub use any_solver::AnySolver;
pub use identity::rules_identity;
pub use live::{Live, LiveAnalysis, LiveSolve};
pub use sizing::TableSize;

#[cfg(test)]
mod tests;
