//! Kalah (RULES.md §3): one lap through the own store, extra turn on a store landing, capture
//! from an own empty pit.

use super::{each_takes_own_row, lap_with_store, GameKind, Landing, NotCandidate, Rules, TurnEnd};
use crate::board::Side;
use crate::position::Board;

/// Kalah, with its two options (both off: the standard rules).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Kalah {
    /// A last seed in an own empty pit is banked even when the opposite pit is empty (§3.3).
    pub empty_capture: bool,
    /// The game ends only when the player to move has no seeds, not as soon as either row is
    /// empty (§3.4).
    pub end_when_mover_empty: bool,
}

impl Rules for Kalah {
    const KIND: GameKind = GameKind::Kalah;
    // Single laps, and a potential that falls on every move inside a layer (§8.2).
    const CAN_CYCLE: bool = false;

    #[inline]
    fn candidate(&self, board: &Board, _side: Side, pit: usize) -> Result<(), NotCandidate> {
        super::any_seeds(board, pit)
    }

    #[inline]
    fn sow(&self, board: &mut Board, side: Side, pit: usize) -> Result<TurnEnd, super::Endless> {
        let count = board.pits.take(pit) as u32;
        match lap_with_store(board, side, pit, count) {
            Landing::Store => Ok(TurnEnd::ExtraTurn),
            Landing::Pit(last) => {
                let ring = board.ring();
                // "Was empty" is "holds 1 now", which also covers the emptied origin refilled by
                // a lap of 2n + 1 seeds (example K5).
                if ring.owner(last) == side && board.pits.get(last) == 1 {
                    let opposite = ring.opposite(last);
                    let taken = board.pits.get(opposite);
                    if taken > 0 || self.empty_capture {
                        board.pits.set(last, 0);
                        board.pits.set(opposite, 0);
                        board.stores[side.index()] += 1 + taken as u16;
                    }
                }
                Ok(TurnEnd::Passes)
            }
        }
    }

    #[inline]
    fn settle(&self, board: &mut Board) {
        let Some(side) = board.to_move else { return };
        let ring = board.ring();
        let over = if self.end_when_mover_empty {
            board.pits.all_empty(ring.row(side))
        } else {
            board.pits.all_empty(ring.row(Side::South))
                || board.pits.all_empty(ring.row(Side::North))
        };
        if over {
            each_takes_own_row(board);
        }
    }

    fn option_names(&self) -> Vec<&'static str> {
        let mut v = Vec::new();
        if self.empty_capture {
            v.push("empty-capture");
        }
        if self.end_when_mover_empty {
            v.push("end-when-mover-empty");
        }
        v
    }
}
