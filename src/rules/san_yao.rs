//! San-Yao (docs/rules.md §7): Walak-pussa's sowing and capture; the game ends below two stones;
//! forced passes as in Djenon-aboure.

use super::{pass_or_end, GameKind, NoOption, NotCandidate, Rules, SowError, TurnEnd};
use crate::board::Board;
use crate::board::Side;
use crate::stop::{Abandoned, Stop};

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

    #[inline]
    fn first_lap_ends(&self, board: &Board, _side: Side, pit: usize) -> bool {
        super::next_pit_first_lap_ends(board, pit)
    }

    fn sow(
        &self,
        board: &mut Board,
        side: Side,
        pit: usize,
        stop: Stop<'_>,
    ) -> Result<TurnEnd, SowError> {
        super::next_pit_relay_and_capture(board, side, pit, stop)
    }

    fn settle(&self, board: &mut Board, stop: Stop<'_>) -> Result<(), Abandoned> {
        if board.to_move.is_none() {
            return Ok(());
        }
        let ring = board.ring();
        if board.pits.sum(0..ring.len()) < 2 {
            // A lone stone goes to the owner of its pit (of its row, unless it is a son, §13.1):
            // that is each side taking what it owns.
            super::each_takes_owned(board);
            return Ok(());
        }
        pass_or_end(self, board, stop)
    }

    type Opt = NoOption;

    fn option(&self, o: NoOption) -> bool {
        match o {}
    }

    fn set_option(&mut self, o: NoOption, _on: bool) {
        match o {}
    }
}
