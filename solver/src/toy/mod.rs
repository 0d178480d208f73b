//! Toy games shared by the tests of the search and of the retrograde analysis, the generator
//! they are made with, and slow reference solvers to check both against.
//!
//! - [`take`]: take-away, acyclic, with turn-keeping moves; and `WideKeys`, the same game with
//!   keys too large for a small table.
//! - [`graph`]: random layered graphs defined by hashing, acyclic or cyclic; and `Flagged`, a
//!   game searched as if it could cycle (`CycleFlag`) or with its children generated first.
//! - [`digits`]: `Digits`, acyclic, with extra turns, stakes, game-over slots and losing moves.
//! - [`track`]: `Track`, a hand-made cyclic game.
//! - [`rand`]: `Rand`, random layered graphs from a fixed-start generator, cyclic or acyclic.
//! - [`reference`]: docs/rules.md §8.5 by brute force, and memoised minimax.
//! - [`rng`]: the generator (splitmix64).

pub(crate) mod digits;
pub(crate) mod graph;
pub(crate) mod rand;
pub(crate) mod reference;
pub(crate) mod rng;
pub(crate) mod take;
pub(crate) mod track;
