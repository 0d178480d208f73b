//! The mancala side of the endgame tables: a perfect index of each layer for the `tables` crate
//! ([`MancalaIndexer`]), table identities ([`table_id`]), the default table directory
//! ([`default_dir`]), opening the tables for a search or a lookup ([`open`]), and Kalah's build
//! stages (`KalahStages`, `Plan`), which the indexer hands the builder as its schedule.
//!
//! Layer `k` holds every board with `k` seeds in its `2n` pits, **seen from the mover**: slot `i`
//! is the rank ([`crate::rank::rank_in_layer`]) of the pit counts read from the mover's first
//! pit, the mover's row first. Every game treats both players alike, so a board with North to
//! move has the value of the rotated board with South to move, and one table serves both sides:
//! `C(k + 2n - 1, 2n - 1)` slots, no hashing, none wasted. A slot whose board is not a normalised
//! position with South to move (one side's row empty when that ends the game, or no legal move so
//! the turn passes at once) is never met by the search; it holds 0.
//!
//! ```
//! use mancala::{board::Move, rules::Kalah, endgame::MancalaIndexer, Position};
//! use solver::Indexer;
//! let ix = MancalaIndexer::new(Kalah::default(), 6);
//! let p = Position::start(Kalah::default(), 6, 4).unwrap().try_play(Move(1)).unwrap(); // North to move
//! let slot = ix.index(&p);
//! let q = ix.position(48, slot).unwrap(); // the same board from North's seat, South to move
//! assert_eq!(q.to_string(), "4,4,4,4,4,4/0,5,5,5,5,4/0,0/S");
//! ```

mod identity;
mod indexer;
mod kalah_plan;
mod kalah_stages;
mod open;
#[cfg(test)]
mod tests;

pub use identity::{default_dir, table_id, TABLES_ENV};
pub use indexer::MancalaIndexer;
pub use open::{open, open_for_layers, open_for_search, reachable_layer, Hold};
