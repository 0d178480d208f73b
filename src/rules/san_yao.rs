//! San-Yao (docs/rules.md §7): Walak-pussa's sowing and capture; the game ends below two stones;
//! forced passes as in Djenon-aboure.

use super::{pass_or_end, GameKind, NotCandidate, RuleOption, Rules, TurnEnd};
use crate::board::Board;
use crate::board::Side;

/// San-Yao (no options).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct SanYao;

impl Rules for SanYao {
    const KIND: GameKind = GameKind::SanYao;
    // Endless relays (Y2) and cross-turn cycles (Y3) both exist.
    const CAN_CYCLE: bool = true;

    #[inline]
    fn candidate(&self, board: &Board, _side: Side, pit: usize) -> Result<(), NotCandidate> {
        super::any_seeds(board, pit)
    }

    fn sow(&self, board: &mut Board, side: Side, pit: usize) -> Result<TurnEnd, super::Endless> {
        super::next_pit_relay_and_capture(board, side, pit)
    }

    fn settle(&self, board: &mut Board) {
        if board.to_move.is_none() {
            return;
        }
        let ring = board.ring();
        if board.pits.sum(0..ring.len()) < 2 {
            // A lone stone goes to the owner of its pit (of its row, unless it is a son, §13.1):
            // that is each side taking what it owns.
            super::each_takes_owned(board);
            return;
        }
        pass_or_end(self, board);
    }

    const OPTIONS: &'static [RuleOption] = &[];
}
