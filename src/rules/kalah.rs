//! Kalah (RULES.md §3): one lap through the own store, extra turn on a store landing, capture
//! from an own empty pit.

use super::{each_takes_own_row, lap_with_store, GameKind, Landing, NotCandidate, Rules, TurnEnd};
use crate::board::Board;
use crate::board::Side;

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

    fn as_kalah(&self) -> Option<Kalah> {
        Some(*self)
    }

    /// The mover's free moves minus the opponent's: pits whose sowing ends in the owner's store
    /// and so earns an extra turn. A free move is worth a seed and a tempo, and the opponent's
    /// free moves are threats the mover may have to spoil.
    ///
    /// Measured (1 thread, nodes, against no estimate): Kalah(6,4) standard with K=18 tables
    /// 47.9 M -> 40.5 M, without tables 131.4 M -> 112.4 M; empty-capture with K=17 tables
    /// 24.7 M -> 21.2 M; 5x4 -12%, 6x3 -10%, 4x6 -10%, 5x5 +4%. An eighth of the seeds in the
    /// mover's row minus the opponent's made (6,4) standard 9% worse; the mover's free moves
    /// alone did as well on standard but cut empty-capture by only 6%.
    fn estimate(&self, mine: &[u8], theirs: &[u8]) -> i32 {
        free_moves(mine) - free_moves(theirs)
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

/// Kalah's moves on a board held in one 128-bit word: the rules above once more, for the table
/// builder, which generates the children of every position of every layer and needs nothing but
/// the pits of each child, what the move banked and whether the turn passed. Tests check that
/// both forms give the same children on every position of small layers.
///
/// The board is seen from the mover, one byte lane per sowing step:
///
/// ```text
/// lane:   0  1 ... n-1 |   n   | n+1 ... 2n | 2n+1 ... 15
///         mover's row   | store | opponent's | always 0
///         (pit 0 first) | (0)   | row        |
/// ```
///
/// So a sowing of `s` seeds from lane `j` is `s / (2n+1)` seeds in every lane of the circuit plus
/// one in each of the `s % (2n+1)` lanes after `j`, cyclically: one add of a multiple of the
/// circuit's ones and one of a precomputed mask ([`MASKS`]), with no loop over seeds. The store lane
/// then holds what the sowing banked. At most 7 holes (15 lanes) and 255 seeds (no lane
/// overflows; the board never holds more, see [`crate::board::MAX_BOARD_SEEDS`]).
#[derive(Clone, Copy, Debug)]
pub(crate) struct KalahWord {
    rules: Kalah,
    /// Holes per row.
    holes: u8,
}

/// Runs `$body` with the word's board size as constants: `$n` holes and `$m = 2 * $n` pits, for
/// `$holes` in `1..=7` (what [`KalahWord::new`] accepts). Every shift and mask of the word code
/// is then a constant, and the rank's loop unrolls.
macro_rules! with_word_size {
    ($holes:expr, |$n:ident, $m:ident| $body:expr) => {
        match $holes {
            1 => with_word_size!(@ 1, 2, $n, $m, $body),
            2 => with_word_size!(@ 2, 4, $n, $m, $body),
            3 => with_word_size!(@ 3, 6, $n, $m, $body),
            4 => with_word_size!(@ 4, 8, $n, $m, $body),
            5 => with_word_size!(@ 5, 10, $n, $m, $body),
            6 => with_word_size!(@ 6, 12, $n, $m, $body),
            _ => with_word_size!(@ 7, 14, $n, $m, $body),
        }
    };
    (@ $nv:literal, $mv:literal, $n:ident, $m:ident, $body:expr) => {{
        const $n: usize = $nv;
        #[allow(dead_code)] // not every body needs the pit count
        const $m: usize = $mv;
        $body
    }};
}
pub(crate) use with_word_size;

/// One move of [`KalahWord::for_each_move`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum WordMove {
    /// The game is over after the move.
    Over {
        /// Seeds the mover banks by the move, final sweep included.
        mover: u32,
        /// Seeds the opponent banks in the final sweep.
        opponent: u32,
    },
    /// The game goes on.
    Next {
        /// The board seen from the next mover: `2n` lanes, no store lane.
        pits: u128,
        /// Seeds the move put in the mover's store (the net gain: the opponent banks nothing).
        banked: u32,
        /// Whether the turn passed (the board is then the opponent's view).
        passed: bool,
    },
}

/// `MASKS[c][j][r]`: 1 in each of the `r` lanes after lane `j` in a circuit of `c` lanes.
static MASKS: [[[u128; 16]; 16]; 16] = sow_masks();

const fn sow_masks() -> [[[u128; 16]; 16]; 16] {
    let mut t = [[[0u128; 16]; 16]; 16];
    let mut c = 1;
    while c < 16 {
        let mut j = 0;
        while j < c {
            let mut r = 0;
            while r < c {
                let mut m = 0u128;
                let mut k = 1;
                while k <= r {
                    m |= 1u128 << (8 * ((j + k) % c));
                    k += 1;
                }
                t[c][j][r] = m;
                r += 1;
            }
            j += 1;
        }
        c += 1;
    }
    t
}

/// 1 in each of the first `lanes` lanes.
const fn ones(lanes: usize) -> u128 {
    (u128::MAX / 0xff) >> (8 * (16 - lanes))
}

/// 0xff in lane `i`.
#[inline(always)]
fn lane_mask(i: usize) -> u128 {
    0xffu128 << (8 * i)
}

/// The byte in lane `i`.
#[inline(always)]
fn lane(word: u128, i: usize) -> u32 {
    (word >> (8 * i)) as u8 as u32
}

/// The sum of all lanes (at most 255).
#[inline(always)]
fn lane_sum(word: u128) -> u32 {
    (word.wrapping_mul(ones(16)) >> 120) as u32
}

/// The board `pits` (`2N` lanes) seen from the other side: the two rows swap places. Its own
/// inverse.
#[inline(always)]
pub(crate) fn rotate<const N: usize>(pits: u128) -> u128 {
    (pits >> (8 * N)) | ((pits & (ones(N) * 0xff)) << (8 * N))
}

impl KalahWord {
    /// The generator for `rules` on `holes` holes, or `None` when the board is too wide for one
    /// word (8 holes: 17 lanes).
    pub(crate) fn new(rules: Kalah, holes: u8) -> Option<Self> {
        (1..=7)
            .contains(&holes)
            .then_some(KalahWord { rules, holes })
    }

    /// Holes per row: the `N` every call must name.
    pub(crate) fn holes(&self) -> u8 {
        self.holes
    }

    /// The rules it sows by.
    pub(crate) fn rules(&self) -> Kalah {
        self.rules
    }

    /// Whether the board `pits` (`2N` lanes, mover's row first) is a position the mover plays
    /// on, unchanged by the end-of-game rule (§3.4): the game is on, so the tables hold it.
    #[inline(always)]
    pub(crate) fn live<const N: usize>(&self, pits: u128) -> bool {
        debug_assert_eq!(N, self.holes as usize);
        let mover = pits & (ones(N) * 0xff) != 0;
        if self.rules.end_when_mover_empty {
            mover
        } else {
            mover && pits >> (8 * N) != 0
        }
    }

    /// Calls `f(pit, result)` for each legal move of the mover of `pits` (`2N` lanes, mover's row
    /// first; a live board), in increasing pit order. `N` is the number of holes, a constant so
    /// that every shift and mask below is one.
    #[inline(always)]
    pub(crate) fn for_each_move<const N: usize>(
        &self,
        pits: u128,
        mut f: impl FnMut(usize, WordMove),
    ) {
        debug_assert_eq!(N, self.holes as usize);
        let board = open_store::<N>(pits);
        for j in 0..N {
            if lane(board, j) != 0 {
                f(j, self.sow::<N>(board, j));
            }
        }
    }

    /// The move from pit `j` (not empty) of the mover of `pits` (as in
    /// [`KalahWord::for_each_move`]).
    #[inline(always)]
    pub(crate) fn one_move<const N: usize>(&self, pits: u128, j: usize) -> WordMove {
        self.sow::<N>(open_store::<N>(pits), j)
    }

    /// Sows pit `j` (not empty) of `board` (the lanes of the type's docs, store lane empty).
    #[inline(always)]
    fn sow<const N: usize>(&self, board: u128, j: usize) -> WordMove {
        let c = 2 * N + 1;
        let row = ones(N) * 0xff;
        let opp_row = row << (8 * (N + 1));
        let s = lane(board, j) as usize;
        debug_assert!(s > 0);
        let (laps, r) = if s < c { (0, s) } else { (s / c, s % c) };
        let mut w = (board & !lane_mask(j)) + ones(c) * laps as u128 + MASKS[c][j][r];
        let last = if j + r >= c { j + r - c } else { j + r };
        let mut banked = lane(w, N);
        let extra_turn = last == N;
        // "Was empty" is "holds 1 now", which also covers the emptied origin refilled by a lap
        // of 2n + 1 seeds (§3.3, example K5).
        if last < N && lane(w, last) == 1 {
            let opposite = 2 * N - last;
            let taken = lane(w, opposite);
            if taken > 0 || self.rules.empty_capture {
                w &= !(lane_mask(last) | lane_mask(opposite));
                banked += 1 + taken;
            }
        }
        let mine = w & row;
        let theirs = w & opp_row;
        let over = if self.rules.end_when_mover_empty {
            if extra_turn {
                mine == 0
            } else {
                theirs == 0
            }
        } else {
            mine == 0 || theirs == 0
        };
        if over {
            WordMove::Over {
                mover: banked + lane_sum(mine),
                opponent: lane_sum(theirs),
            }
        } else if extra_turn {
            WordMove::Next {
                pits: mine | (theirs >> 8),
                banked,
                passed: false,
            }
        } else {
            WordMove::Next {
                pits: (theirs >> (8 * (N + 1))) | (mine << (8 * N)),
                banked,
                passed: true,
            }
        }
    }
}

/// `pits` (`2N` lanes) with the store lane opened between the rows.
#[inline(always)]
fn open_store<const N: usize>(pits: u128) -> u128 {
    let row = ones(N) * 0xff;
    (pits & row) | ((pits & !row) << 8)
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
