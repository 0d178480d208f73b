//! Kalah's one-word fast path: [`KalahWord`], the sowing masks and the lane helpers.

use super::Kalah;
use crate::rules::Rules;

/// Kalah's moves on a board held in one 128-bit word: the rules of `kalah/mod.rs` once more, for
/// the table builder, which generates the children of every position of every layer and needs
/// nothing but the pits of each child, what the move banked and whether the turn passed. Tests
/// check that both forms give the same children on every position of small layers.
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
/// circuit's ones and one of a precomputed mask (`MASKS`), with no loop over seeds. The store lane
/// then holds what the sowing banked. At most 7 holes (15 lanes) and 255 seeds (no lane
/// overflows; the board never holds more, see [`crate::board::MAX_BOARD_SEEDS`]).
#[derive(Clone, Copy, Debug)]
pub struct KalahWord {
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
        /// Seeds the mover banks by the move, final sweep included (none under
        /// `leftovers-unscored`).
        mover: u32,
        /// Seeds the opponent banks in the final sweep (none under `leftovers-unscored`).
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
pub(super) const fn ones(lanes: usize) -> u128 {
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

/// The byte in lane `i < 8` (the low half: shifts of one 64-bit register).
#[inline(always)]
fn low_lane(word: u128, i: usize) -> u32 {
    debug_assert!(i < 8);
    (word as u64 >> (8 * i)) as u8 as u32
}

/// 0xff in lane `i < 8`.
#[inline(always)]
fn low_lane_mask(i: usize) -> u128 {
    debug_assert!(i < 8);
    u128::from(0xffu64 << (8 * i))
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

    /// The generator for `rules` on `holes` holes when they are Kalah's rules and the board fits
    /// a word; `None` for every other game. The search and the table builder, generic over the
    /// rules, then sow whole boards as one 128-bit word; the tests check it against
    /// [`Rules::sow`].
    ///
    /// Kalah's fast path is Kalah's business, so it is not a method of the generic
    /// [`Rules`] trait that every game would have to answer: the rules are
    /// asked whether they are Kalah's by type. For each concrete `R` that test is a constant (the
    /// compiler folds the type comparison), so the other games' code has no trace of it and
    /// Kalah's has no branch.
    #[inline(always)]
    pub(crate) fn for_rules<R: Rules>(rules: &R, holes: u8) -> Option<Self> {
        let kalah = (rules as &dyn std::any::Any).downcast_ref::<Kalah>()?;
        KalahWord::new(*kalah, holes)
    }

    /// The generator for `rules` on `N` holes (`1..=7`, which the caller's type checks).
    #[inline(always)]
    pub(super) fn sized<const N: usize>(rules: Kalah) -> Self {
        debug_assert!((1..=7).contains(&N));
        KalahWord {
            rules,
            holes: N as u8,
        }
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
        // The high bit of each non-empty lane of the mover's row (lanes `0..N`, `N <= 7`: the
        // low 64 bits), visited lowest first: a branch per move rather than a look at every pit.
        const LOW7: u64 = 0x7f7f_7f7f_7f7f_7f7f;
        let row = board as u64 & (u64::MAX >> (8 * (8 - N)));
        let mut full = (((row & LOW7) + LOW7) | row) & !LOW7;
        while full != 0 {
            let j = (full.trailing_zeros() / 8) as usize;
            full &= full - 1;
            f(j, self.sow::<N>(board, j));
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
        // The mover's row (lanes `0..N`) and the store (lane `N`) are in the low 64 bits.
        let s = low_lane(board, j) as usize;
        debug_assert!(s > 0);
        let (laps, r) = if s < c { (0, s) } else { (s / c, s % c) };
        let mut w = (board & !low_lane_mask(j)) + ones(c) * laps as u128 + MASKS[c][j][r];
        let last = if j + r >= c { j + r - c } else { j + r };
        let mut banked = low_lane(w, N);
        let extra_turn = last == N;
        // "Was empty" is "holds 1 now", which also covers the emptied origin refilled by a lap
        // of 2n + 1 seeds (§3.3, example K5).
        if last < N && low_lane(w, last) == 1 {
            let opposite = 2 * N - last;
            let taken = lane(w, opposite);
            if taken > 0 || self.rules.empty_capture {
                w &= !(low_lane_mask(last) | lane_mask(opposite));
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
            // Under `leftovers-unscored` (§3.5) the seeds left in the pits go to no one: only
            // what the move itself banked counts.
            if self.rules.leftovers_unscored {
                WordMove::Over {
                    mover: banked,
                    opponent: 0,
                }
            } else {
                WordMove::Over {
                    mover: banked + lane_sum(mine),
                    opponent: lane_sum(theirs),
                }
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
