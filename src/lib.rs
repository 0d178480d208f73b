//! # mancala
//!
//! Rules, notation and exact analysis of five two-row mancala games: Kalah, Dakon,
//! Djenon-aboure, Walak-pussa and San-Yao, exactly as `docs/rules.md` specifies them.
//!
//! - [`solve()`] and [`analyze`] ([`analysis`]): a position solved, every value the final
//!   score (South minus North).
//! - [`board`]: sides, pits, moves and the packed pit array.
//! - [`notation`]: position text ⇄ [`notation::Setup`].
//! - [`position`]: validated, always-normalised [`Position`]s; playing moves.
//! - [`diagram`]: a position drawn as a player sees it.
//! - [`rules`]: one file per game, and the sowing machinery they share.
//! - [`calibrated`]: calibrated opponents, a perfect player weakened by a known amount.
//! - [`stop`]: stopping one computation (a search, a long sowing) from outside, as a value.
//! - [`rank`]: the combinatorial rank of a board (exact key and table index).
//! - [`game`]: the bridge to the game-agnostic `solver` crate.
//! - [`variant`]: a game with its options chosen at run time (the CLI's view).
//! - [`mod@matches`]: multi-round matches: burnt pits, sons, lending, who starts (docs/rules.md §13).
//! - [`round_perfect`]: round-perfect play, the first best move with §13.5's exception on cycles.
//!
//! ```
//! use mancala::{Position, rules::Kalah, board::Move};
//! let start = Position::start(Kalah::default(), 6, 4).unwrap();
//! let after = start.try_play(Move(3)).unwrap(); // last seed in the store: extra turn
//! assert_eq!(after.to_string(), "4,4,0,5,5,5/4,4,4,4,4,4/1,0/S");
//! ```

//!
//! One dependency is enough: the search ([`solver`]) and the endgame tables ([`tables`]) are
//! re-exported whole, and what a solve needs ([`SearchConfig`], [`SearchError`], [`Tablebase`])
//! at the top.
//!
//! ```
//! use mancala::{rules::Kalah, Position, SearchConfig, StopToken};
//! let start = Position::start(Kalah::default(), 4, 3).unwrap();
//! let stop = StopToken::new(); // another thread may call `stop.stop()` to end the search early
//! let cfg = SearchConfig { threads: 1, stop: Some(stop.clone()), ..SearchConfig::default() };
//! let solved = mancala::solve(&start, &cfg).unwrap();
//! assert_eq!(solved.value, 6); // final score, South minus North
//! let after: Vec<_> = mancala::analyze(&start, &cfg).unwrap();
//! assert_eq!(after.len(), start.legal_moves().len());
//! ```

#![deny(missing_docs)]

pub mod analysis;
pub mod answers;
pub mod board;
pub mod calibrated;
pub mod diagram;
pub mod endgame;
pub mod game;
pub mod matches;
pub mod notation;
pub mod opening;
pub mod perft;
pub mod pie;
pub mod position;
pub mod rank;
pub mod reference_values;
pub mod review;
pub mod round_perfect;
pub mod rules;
pub mod stop;
#[cfg(test)]
mod stop_tests;
pub mod variant;

pub use analysis::{analyze, solve, Solution};
pub use board::{Board, MoveList};
pub use position::{IllegalMove, PlayError, Position, PositionError, StatusError};
pub use solver;
pub use solver::{SearchConfig, SearchError};
pub use stop::{Abandoned, StopToken};
pub use tables;
pub use tables::Tablebase;

/// The README's code blocks, run as doc tests (only its Rust blocks are compiled), so that its
/// library example cannot drift from the API.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
