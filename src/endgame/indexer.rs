//! [`MancalaIndexer`]: a perfect index of each layer (see the module docs of [`crate::endgame`]).

use solver::{AllocError, Indexer, Schedule};

use super::kalah_stages::KalahStages;
use crate::board::{Pits, Side};
use crate::rank;
use crate::rules::{with_word_size, KalahWord, Rules};
use crate::Position;

/// The largest row tables [`Indexer::schedule_bytes`] makes to measure a schedule exactly.
const MEASURED_SCHEDULE: u64 = 256 << 20;

/// A perfect index of the positions of one game on one board size, layer by layer (see the
/// module docs).
#[derive(Clone, Copy, Debug)]
pub struct MancalaIndexer<R: Rules> {
    rules: R,
    holes: u8,
    /// Kalah's one-word move generator, when the rules are Kalah's and the board fits a word.
    pub(super) word: Option<KalahWord>,
}

impl<R: Rules> MancalaIndexer<R> {
    /// The index of `rules` on `holes` holes per row.
    pub fn new(rules: R, holes: u8) -> Self {
        let word = KalahWord::for_rules(&rules, holes);
        Self { rules, holes, word }
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
        let rank = pos.mover_rank_in_layer();
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

    /// For Kalah on up to 7 holes: `KalahStages`, by the potential of docs/rules.md §8.2.
    fn schedule(&self, layer: u32) -> Result<Option<Box<dyn Schedule + '_>>, AllocError> {
        let Some(word) = self.word else {
            return Ok(None);
        };
        // The rank of a word needs at most `257 - 2n` seeds.
        if layer as usize + self.pits() > 257 {
            return Ok(None);
        }
        Ok(Some(Box::new(KalahStages::new(word, layer)?)))
    }

    /// Exact when the row tables take at most 256 MiB: the schedule is made and
    /// measured (a few milliseconds at the sizes that can be built). Beyond, only the row tables,
    /// from their count, without making them: making them would take seconds and gigabytes
    /// (and could fail) just to state an estimate, whose layer is then hundreds of times larger.
    fn schedule_bytes(&self, layer: u32) -> u64 {
        let Some(word) = self.word else { return 0 };
        if layer as usize + self.pits() > 257 {
            return 0;
        }
        let rows = KalahStages::row_table_bytes(word.holes() as usize, layer);
        if rows > MEASURED_SCHEDULE {
            return rows;
        }
        KalahStages::new(word, layer).map_or(rows, |s| s.heap_bytes())
    }
}

impl<R: Rules> MancalaIndexer<R> {
    /// The position of the layout `pits` (read from the mover's first pit) with South to move,
    /// when normalisation leaves it as it is: a board where normalisation changes anything (the
    /// game ends, or the turn passes at once) is never met by the search with South to move.
    pub(super) fn live(&self, pits: &[u8]) -> Option<Position<R>> {
        if let Some(word) = &self.word {
            let p = Pits::from_slice(pits);
            let w = p.low_word();
            let live = with_word_size!(word.holes(), |N, M| word.live::<N>(w));
            return live.then(|| Position::south_to_move_unchecked(self.rules, self.holes, p));
        }
        self.general_live(pits)
    }

    /// [`MancalaIndexer::live`] by the general position code: normalise, and see whether
    /// anything changed.
    pub(super) fn general_live(&self, pits: &[u8]) -> Option<Position<R>> {
        let p = Position::from_pits_unchecked(self.rules, self.holes, pits, Side::South);
        // Compared as whole boards, not as slices: a slice comparison of run-time length is a
        // call to `memcmp` in the build's inner loop.
        (p.to_move() == Some(Side::South) && p.board().pits == Pits::from_slice(pits)).then_some(p)
    }
}
