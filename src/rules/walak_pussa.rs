//! Walak-pussa (docs/rules.md §6): next-pit relay round the `2n` pits, alternating capture chain;
//! a player with no legal move loses the rest of the board to the opponent.

use super::{
    one_takes_all, GameKind, GameOption, NotCandidate, RuleOption, Rules, SowError, TurnEnd,
};
use crate::board::Board;
use crate::board::Side;
use crate::stop::{Abandoned, Stop};

/// Walak-pussa, with its option (off: the standard rules).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct WalakPussa {
    /// A singleton may be sown only when no own pit holds two or more (§6.2).
    pub singleton_restriction: bool,
}

impl Rules for WalakPussa {
    const KIND: GameKind = GameKind::WalakPussa;
    // Endless relays (W2) and cross-turn cycles (W3) both exist.
    const CAN_CYCLE: bool = true;

    #[inline]
    fn candidate(&self, board: &Board, side: Side, pit: usize) -> Result<(), NotCandidate> {
        match board.pits.get(pit) {
            0 => Err(NotCandidate::Empty),
            1 if self.singleton_restriction
                && board.owned(side).any(|p| board.pits.get(p) >= 2) =>
            {
                Err(NotCandidate::SingletonRestricted)
            }
            _ => Ok(()),
        }
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
        let Some(side) = board.to_move else {
            return Ok(());
        };
        if !super::has_legal_move(self, board, side, stop)? {
            one_takes_all(board, side.other());
        }
        Ok(())
    }

    type Opt = WalakPussaOption;

    fn option(&self, o: WalakPussaOption) -> bool {
        match o {
            WalakPussaOption::SingletonRestriction => self.singleton_restriction,
        }
    }

    fn set_option(&mut self, o: WalakPussaOption, on: bool) {
        match o {
            WalakPussaOption::SingletonRestriction => self.singleton_restriction = on,
        }
    }
}

/// Walak-pussa's rule option.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum WalakPussaOption {
    /// [`WalakPussa::singleton_restriction`].
    SingletonRestriction,
}

impl GameOption for WalakPussaOption {
    const ALL: &'static [Self] = &[WalakPussaOption::SingletonRestriction];

    fn declaration(self) -> RuleOption {
        match self {
            WalakPussaOption::SingletonRestriction => RuleOption {
                name: "singleton-restriction",
                help: "a single seed may be sown only when no own pit holds two or more",
            },
        }
    }
}
