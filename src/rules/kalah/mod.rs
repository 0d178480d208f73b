//! Kalah (docs/rules.md §3): one lap through the own store, extra turn on a store landing, capture
//! from an own empty pit.
//!
//! # Three implementations of one sowing
//!
//! Kalah is the game the tools are fastest on, and its sowing exists three times, each for a
//! caller that cannot afford the one before it:
//!
//! | where | what | used by |
//! |---|---|---|
//! | [`Kalah`]'s [`Rules::sow`] (this file) | the rules as docs/rules.md states them, seed by seed on the shared [`lap_with_store`] | everything; the reference for the other two |
//! | [`KalahWord`] (`word.rs`) | the whole board in one 128-bit word: a lap is one add of a mask | the search's children and keys ([`crate::game`]; [`KalahNode`], `node.rs`, the analyzer's search node, is its word), the table builder's moves |
//! | `Plan` (`crate::endgame`'s `kalah_plan.rs`) | what each pit's move does on *every* board of one mover's row, worked out once per row | the table builder's stages |
//!
//! The tests that tie them together:
//! - `endgame::tests::kalah_word_agrees_with_the_rules_on_small_layers` and
//!   `..._on_random_boards`: [`KalahWord`] against [`Rules::sow`] on every board of small layers
//!   and on random big ones, all eight option sets (the same live boards, the same children);
//! - `endgame::tests::kalah_word_children_and_keys_match_the_general_code`: the search's
//!   children and keys from [`KalahWord`] against the general position code;
//! - `endgame::tests::kalah_stages_cover_each_slot_once_children_first`: the stages' moves
//!   (from `Plan`) against the general rules' moves, slot by slot;
//! - `tests/agree.rs`: [`Rules::sow`] against the independent reference engine in
//!   `tests/reference`, on random games.

mod node;
#[cfg(test)]
mod node_tests;
mod word;

pub use node::{KalahNode, KalahNodeIndexer};
pub use word::KalahWord;
pub(crate) use word::{rotate, with_word_size, WordMove};

use crate::board::Board;
use crate::board::Side;
use crate::rules::{
    each_takes_own_row, lap_with_store, GameKind, GameOption, Landing, NotCandidate, RuleOption,
    Rules, SowError, TurnEnd,
};
use crate::stop::{Abandoned, Stop};

/// Kalah, with its three options (all off: the standard rules).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
// Aligned to 4 bytes, a move generation copies the options into each child as one word; as
// three bytes they went through the stack and the word read back stalled on its byte writes.
#[repr(align(4))]
pub struct Kalah {
    /// A last seed in an own empty pit is banked even when the opposite pit is empty (§3.3).
    pub empty_capture: bool,
    /// The game ends only when the player to move has no seeds, not as soon as either row is
    /// empty (§3.4).
    pub end_when_mover_empty: bool,
    /// At the end the seeds left in the pits go to no one: the final sweep is skipped and the
    /// stores stand (§3.5).
    pub leftovers_unscored: bool,
}

impl Rules for Kalah {
    const KIND: GameKind = GameKind::Kalah;
    // Single laps, and a potential that falls on every move inside a layer (§8.2).
    const CAN_CYCLE: bool = false;

    #[inline]
    fn candidate(&self, board: &Board, _side: Side, pit: usize) -> Result<(), NotCandidate> {
        crate::rules::any_seeds(board, pit)
    }

    /// One lap, never a relay: `stop` is not needed.
    #[inline]
    fn sow(
        &self,
        board: &mut Board,
        side: Side,
        pit: usize,
        _stop: Stop<'_>,
    ) -> Result<TurnEnd, SowError> {
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
    fn settle(&self, board: &mut Board, _stop: Stop<'_>) -> Result<(), Abandoned> {
        let Some(side) = board.to_move else {
            return Ok(());
        };
        let ring = board.ring();
        let over = if self.end_when_mover_empty {
            board.pits.all_empty(ring.row(side))
        } else {
            board.pits.all_empty(ring.row(Side::South))
                || board.pits.all_empty(ring.row(Side::North))
        };
        if over {
            if self.leftovers_unscored {
                leftovers_set_aside(board);
            } else {
                each_takes_own_row(board);
            }
        }
        Ok(())
    }

    /// The mover's free moves minus the opponent's: pits whose sowing ends in the owner's store
    /// and so earns an extra turn. A free move is worth a seed and a tempo, and the opponent's
    /// free moves are threats the mover may have to spoil, so ordering by it saves nodes
    /// (docs/performance.md, "Figures behind comments").
    fn estimate(&self, mine: &[u8], theirs: &[u8]) -> i32 {
        free_moves(mine) - free_moves(theirs)
    }

    type Opt = KalahOption;

    fn option(&self, o: KalahOption) -> bool {
        match o {
            KalahOption::EmptyCapture => self.empty_capture,
            KalahOption::EndWhenMoverEmpty => self.end_when_mover_empty,
            KalahOption::LeftoversUnscored => self.leftovers_unscored,
        }
    }

    fn set_option(&mut self, o: KalahOption, on: bool) {
        match o {
            KalahOption::EmptyCapture => self.empty_capture = on,
            KalahOption::EndWhenMoverEmpty => self.end_when_mover_empty = on,
            KalahOption::LeftoversUnscored => self.leftovers_unscored = on,
        }
    }
}

/// Kalah's rule options.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum KalahOption {
    /// [`Kalah::empty_capture`].
    EmptyCapture,
    /// [`Kalah::end_when_mover_empty`].
    EndWhenMoverEmpty,
    /// [`Kalah::leftovers_unscored`].
    LeftoversUnscored,
}

impl GameOption for KalahOption {
    const ALL: &'static [Self] = &[
        KalahOption::EmptyCapture,
        KalahOption::EndWhenMoverEmpty,
        KalahOption::LeftoversUnscored,
    ];

    fn declaration(self) -> RuleOption {
        match self {
            KalahOption::EmptyCapture => RuleOption {
                name: "empty-capture",
                help: "a last seed in an own empty pit is banked even if the opposite pit is empty",
            },
            KalahOption::EndWhenMoverEmpty => RuleOption {
                name: "end-when-mover-empty",
                help: "the game ends only when the player to move has no seeds",
            },
            KalahOption::LeftoversUnscored => RuleOption {
                name: "leftovers-unscored",
                help: "at the end the seeds left in the pits go to no one (no final sweep)",
            },
        }
    }
}

/// The end of the game under `leftovers-unscored` (§3.5): the seeds left in the pits are set
/// aside, scored by no one, and the stores stand. The finished position is written as every
/// finished position is (§2.5): every pit 0, the stores the final scores, side `-`; so its
/// stores can total less than the seeds the game began with.
fn leftovers_set_aside(board: &mut Board) {
    let len = board.ring().len();
    board.pits.take_all(0..len);
    board.to_move = None;
}

/// The pits of `row` (one player's row, in sowing order) whose sowing ends in that player's
/// store: `steps` to the store plus whole laps of `2n + 1` (the own pits, the own store and the
/// opponent's pits; the opponent's store is skipped).
fn free_moves(row: &[u8]) -> i32 {
    let n = row.len();
    let lap = 2 * n + 1;
    let free = row.iter().enumerate().filter(|&(i, &seeds)| {
        let (seeds, steps) = (usize::from(seeds), n - i);
        seeds >= steps && (seeds - steps) % lap == 0
    });
    free.count() as i32
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::Position;
    use solver::Game;

    fn position(s: &str) -> Position<Kalah> {
        let setup = s.parse().expect("notation");
        Position::from_setup(Kalah::default(), &setup).expect("position")
    }

    /// A free move has exactly the steps to the store, or that plus whole laps of 2n + 1.
    #[test]
    fn free_moves_end_in_the_store() {
        assert_eq!(free_moves(&[6, 5, 4, 3, 2, 1]), 6);
        assert_eq!(free_moves(&[4, 4, 4, 4, 4, 4]), 1);
        // 19 = 6 + 13 from the far pit; 14 = 1 + 13 from the nearest; 7 from the fourth overshoots.
        assert_eq!(free_moves(&[19, 0, 0, 7, 0, 14]), 2);
        assert_eq!(free_moves(&[0, 0, 0, 0, 0, 2]), 0);
        assert_eq!(free_moves(&[]), 0);
    }

    /// The search's estimate is the mover's free moves minus the opponent's, from either side.
    #[test]
    fn estimate_is_free_moves_of_the_mover_minus_the_opponent() {
        assert_eq!(position("6,5,4,3,2,1/19,0,0,0,0,1/0,0/S").estimate(), 6 - 2);
        assert_eq!(position("6,5,4,3,2,1/19,0,0,0,0,1/0,0/N").estimate(), 2 - 6);
        assert_eq!(position("4,4,4,4,4,4/4,4,4,4,4,4/0,0/S").estimate(), 0);
        // A finished game has no guess.
        assert_eq!(position("0,0,0/0,0,0/6,6/-").estimate(), 0);
    }
}
