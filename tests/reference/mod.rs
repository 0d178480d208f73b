#![allow(dead_code)]
//! Independent reference implementation of the five mancala games of `docs/rules.md`
//! (Kalah, Dakon, Djenon-aboure, Walak-pussa, San-Yao), used as a test oracle.
//!
//! Written for clarity, not speed: the board is a plain `Vec<u32>` of `2n` pits in
//! sowing order (`p[0..n)` South, `p[n..2n)` North), seeds are dropped one at a
//! time, endless relays are detected with a hash set of lap-boundary states, and
//! `value` is a brute-force whole-graph retrograde solver (docs/rules.md §8.5).
//!
//! Implementation-defined limit (docs/rules.md §2.5 item 3): every pit and store is a
//! `u32`, and the total of all counts must fit in a `u32`; larger input is rejected
//! by `parse`.
//!
//! The files: `notation` (parse and format), `board` (the pit vector and the sowing
//! bookkeeping the games share), one file per game's sowing and captures (`kalah`, `dakon`,
//! `djenon_aboure`, `relay` for Walak-pussa and San-Yao), `engine` (candidates, legal moves, the
//! end and pass rules, playing a move), `brute` (the brute-force solver), `search` (an exact
//! alpha-beta search for Kalah, for boards too big for the brute force), `pie` (the swap game of
//! the pie rule, §3.9, played out by the brute force) and `rounds` (match
//! rounds: pit statuses, sowing over burnt pits, sons, and the setup between rounds, §13). Nothing here uses
//! the `mancala` crate: its purpose is differential testing against it.

mod board;
mod brute;
mod dakon;
mod djenon_aboure;
mod engine;
mod kalah;
mod notation;
mod pie;
mod relay;
pub mod rounds;
mod search;
#[cfg(test)]
mod tests;

pub use brute::{round_value, value};
pub use engine::{candidates, legal_moves, normalize, play, start};
pub use notation::{format, parse};
pub use pie::{first_turns, swap_game};
pub use search::Search;

/// A game with its options.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RefGame {
    Kalah {
        empty_capture: bool,
        end_when_mover_empty: bool,
        /// docs/rules.md §3.5: at the end the pits' seeds are set aside, scored by nobody.
        leftovers_unscored: bool,
    },
    Dakon {
        nembak_takes_landing_seed: bool,
        no_mikul: bool,
    },
    DjenonAboure,
    WalakPussa {
        singleton_restriction: bool,
    },
    SanYao,
}

/// A position: South's row and North's row, both in sowing order; the two stores
/// (capture tallies); the side to move (0 = South, 1 = North, `None` = game over).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct RefPos {
    pub south: Vec<u32>,
    pub north: Vec<u32>,
    pub stores: [u32; 2],
    pub to_move: Option<usize>,
}
