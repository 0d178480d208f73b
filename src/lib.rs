//! # mancala
//!
//! Rules, notation and exact analysis of five two-row mancala games: Kalah, Dakon,
//! Djenon-aboure, Walak-pussa and San-Yao, exactly as `docs/rules.md` specifies them.
//!
//! - [`board`]: sides, pits, moves and the packed pit array.
//! - [`notation`]: position text ⇄ [`notation::Setup`].
//! - [`position`]: validated, always-normalised [`Position`]s; playing moves.
//! - [`diagram`]: a position drawn as a player sees it.
//! - [`rules`]: one file per game, and the sowing machinery they share.
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

#![deny(missing_docs)]

pub mod board;
pub mod diagram;
pub mod endgame;
pub mod game;
pub mod matches;
pub mod notation;
pub mod opening;
pub mod perft;
pub mod position;
pub mod rank;
pub mod reference_values;
pub mod round_perfect;
pub mod rules;
pub mod variant;

pub use board::{Board, MoveList};
pub use position::{IllegalMove, Position, PositionError};
