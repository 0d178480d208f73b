//! The mancala side of the endgame tables: a perfect index of each layer for the `tables` crate,
//! table identities, and the default table directory.
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
//! use mancala::{board::Move, rules::Kalah, tables::MancalaIndexer, Position};
//! use solver::Indexer;
//! let ix = MancalaIndexer::new(Kalah::default(), 6);
//! let p = Position::start(Kalah::default(), 6, 4).unwrap().try_play(Move(1)).unwrap(); // North to move
//! let slot = ix.index(&p);
//! let q = ix.position(48, slot).unwrap(); // the same board from North's seat, South to move
//! assert_eq!(q.to_string(), "4,4,4,4,4,4/0,5,5,5,5,4/0,0/S");
//! ```

use std::path::PathBuf;

use solver::Indexer;
use tables::TableId;

use crate::board::{Pits, Side};
use crate::rank;
use crate::rules::Rules;
use crate::Position;

/// The environment variable naming the default table directory.
pub const TABLES_ENV: &str = "MANCALA_TABLES";

/// The default table directory: `$MANCALA_TABLES`, else `$XDG_CACHE_HOME/mancala/tables`, else
/// `$HOME/.cache/mancala/tables`, else `mancala-tables` in the current directory.
pub fn default_dir() -> PathBuf {
    let var = |k: &str| {
        std::env::var_os(k)
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
    };
    if let Some(d) = var(TABLES_ENV) {
        return d;
    }
    if let Some(c) = var("XDG_CACHE_HOME") {
        return c.join("mancala").join("tables");
    }
    if let Some(h) = var("HOME") {
        return h.join(".cache").join("mancala").join("tables");
    }
    PathBuf::from("mancala-tables")
}

/// The identity of the tables of `rules` on `holes` holes: game name, options, holes.
pub fn table_id<R: Rules>(rules: &R, holes: u8) -> TableId {
    TableId {
        game: R::KIND.name().to_string(),
        options: rules.option_names().into_iter().map(String::from).collect(),
        holes: holes as u32,
    }
}

/// A perfect index of the positions of one game on one board size, layer by layer (see the
/// module docs).
#[derive(Clone, Copy, Debug)]
pub struct MancalaIndexer<R: Rules> {
    rules: R,
    holes: u8,
}

impl<R: Rules> MancalaIndexer<R> {
    /// The index of `rules` on `holes` holes per row.
    pub fn new(rules: R, holes: u8) -> Self {
        Self { rules, holes }
    }

    /// Pits on the board, `2n`.
    fn pits(&self) -> usize {
        2 * self.holes as usize
    }

    /// The rules.
    pub fn rules(&self) -> &R {
        &self.rules
    }

    /// Holes per row.
    pub fn holes(&self) -> u8 {
        self.holes
    }
}

impl<R: Rules> Indexer for MancalaIndexer<R> {
    type G = Position<R>;

    /// `C(k + 2n - 1, 2n - 1)`, saturated at `u64::MAX` (a layer that large cannot be built
    /// anyway; the builder refuses it by its memory estimate).
    fn layer_len(&self, layer: u32) -> u64 {
        u64::try_from(rank::layer_len(layer, self.pits())).unwrap_or(u64::MAX)
    }

    /// [`rank::rank_in_layer`] of the pits from the mover's first pit, in `u64` arithmetic
    /// ([`rank::rank64_in_layer`]: exact, as the layer's length fits; see `layer_len`).
    #[inline]
    fn index(&self, pos: &Position<R>) -> u64 {
        debug_assert_eq!(pos.board().holes, self.holes);
        let (front, back) = pos.mover_rows();
        let rank = rank::rank64_in_layer(front, back);
        debug_assert_eq!(
            rank as u128,
            rank::rank_in_layer(self.pits(), |j| pos.mover_pit(j))
        );
        rank
    }

    fn position(&self, layer: u32, index: u64) -> Option<Position<R>> {
        let m = self.pits();
        let mut pits = [0u8; 2 * crate::board::MAX_HOLES];
        rank::unrank_in_layer(layer, m, index as u128, &mut pits[..m]);
        self.live(&pits[..m])
    }

    /// Unranks the first slot, then steps from layout to layout ([`rank::next_layout`]), which
    /// costs a few byte operations instead of an unranking per slot.
    fn for_each_position(
        &self,
        layer: u32,
        slots: std::ops::Range<u64>,
        wanted: &mut dyn FnMut(u64) -> bool,
        f: &mut dyn FnMut(u64, Option<Position<R>>),
    ) {
        if slots.is_empty() {
            return;
        }
        let m = self.pits();
        let mut pits = [0u8; 2 * crate::board::MAX_HOLES];
        rank::unrank_in_layer(layer, m, slots.start as u128, &mut pits[..m]);
        for slot in slots {
            if wanted(slot) {
                f(slot, self.live(&pits[..m]));
            }
            rank::next_layout(&mut pits[..m]);
        }
    }
}

impl<R: Rules> MancalaIndexer<R> {
    /// The position of the layout `pits` (read from the mover's first pit) with South to move,
    /// when normalisation leaves it as it is: a board where normalisation changes anything (the
    /// game ends, or the turn passes at once) is never met by the search with South to move.
    fn live(&self, pits: &[u8]) -> Option<Position<R>> {
        let p = Position::from_pits_unchecked(self.rules, self.holes, pits, Side::South);
        // Compared as whole boards, not as slices: a slice comparison of run-time length is a
        // call to `memcmp` (1% of a build).
        (p.to_move() == Some(Side::South) && p.board().pits == Pits::from_slice(pits)).then_some(p)
    }
}
