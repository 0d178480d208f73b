//! What each pit's move does on all the boards of one mover's row ([`Plan`]), and a move of
//! [`KalahWord`] placed in the tables ([`placed`]).
//!
//! # The rank arithmetic, on 2 holes
//!
//! A slot is the rank of the board seen from the mover ([`crate::rank`]): the sum over its pits,
//! the last left out, of `C(b_j, j + 1)` with `b_j` the position of bar `j`. Split at the rows,
//! the mover's row `a` contributes terms that depend on `a` alone, and the opponent's row `b`
//! terms that depend on `b` and on the seeds in `a` ([`rank::rank64_terms`]). Take layer 3,
//! `a = [1, 1]`, `b = [1, 0]`, so the board is `[1, 1, 1, 0]` with bars at 1, 3 and 5:
//!
//! ```text
//! slot = C(1,1) + C(3,2)    (a in front: 1 + 3 = 4)
//!      + C(5,3)             (b behind 2 seeds, its last pit left out: 10)
//!      = 14                 of C(6,3) = 20 slots
//! ```
//!
//! Move 1 (pit 0 of `a`, one seed) ends in pit 1, which holds a seed: no capture, the turn
//! passes, and the child is seen from the opponent, `(b, a') = ([1, 0], [0, 2])`. Its slot is
//! `b`'s terms in front (they change from board to board as `b` runs) plus `a'`'s behind `b`'s
//! one seed (the same for every `b` of that seed count): the plan works out the second part once
//! per row `a` ([`Step::Within`]) and each board costs one add.
//!
//! ```
//! use mancala::rank::{rank64_in_layer, rank64_terms};
//! assert_eq!(rank64_terms(&[1, 1], 0, 0), 4); // a in front
//! assert_eq!(rank64_terms(&[1], 2, 2), 10); // b behind a's 2 seeds, its last pit left out
//! assert_eq!(rank64_in_layer(&[1, 1], &[1, 0]), 14);
//! let within = rank64_terms(&[0], 2, 1); // a' = [0, 2] behind one seed: C(3,3)
//! assert_eq!(within, 1);
//! assert_eq!(rank64_terms(&[1, 0], 0, 0) + within, rank64_in_layer(&[1, 0], &[0, 2]));
//! assert_eq!(rank64_in_layer(&[1, 0], &[0, 2]), 3);
//! ```

use solver::{FixedVec, Placed, OVER};

use crate::rank;
use crate::rules::{KalahWord, WordMove};

/// The moves of the live board `w` (mover's view, `2N` lanes; `M = 2N`) of `seeds` seeds,
/// placed, by [`KalahWord`]: each child is ranked from its word
/// ([`rank::rank64_of_word`]), and its layer is `seeds` less what the move banked.
#[inline(always)]
pub(super) fn word_moves<const N: usize, const M: usize>(
    word: &KalahWord,
    w: u128,
    seeds: u32,
    out: &mut FixedVec<Placed>,
) {
    word.for_each_move::<N>(w, |_, mv| out.push(placed::<M>(mv, seeds)));
}

/// What each pit's move does on the boards `(a, b)` of one mover's row `a` (see
/// [`KalahStages::visit`]).
pub(super) struct Plan {
    pub(super) steps: [Step; 8],
}

/// One pit's move in a [`Plan`].
#[derive(Clone, Copy)]
pub(super) enum Step {
    /// The pit is empty: no move.
    Empty,
    /// Ends in the mover's row without a capture; the rank terms of the sown row behind the
    /// opponent's.
    Within(u64),
    /// Ends in the store; the rank terms of the sown row in front.
    Store(u64),
    /// Passes the store and ends this many pits into the opponent's row (no lap), leaving seeds
    /// in the mover's row; the rank terms of the sown row behind the opponent's, which now
    /// holds that many more seeds.
    Beyond(u8, u64),
    /// Ends in an empty pit of the mover's row, opposite the opponent's pit `opposite`; `row` is
    /// the mover's row after the capture (pits as bytes). `no_capture`: under the standard rule,
    /// the rank terms of the sown row behind the opponent's for when the opposite pit is empty
    /// and the seed stays (none under the empty-capture rule, which banks it anyway).
    Capture {
        opposite: u8,
        row: u64,
        no_capture: Option<u64>,
    },
    /// Depends on the opponent's row: sow the whole board.
    Sow,
}

impl Plan {
    /// The plan of the mover's row `a` (`N` pits) against opponent's rows of `seeds_b` seeds.
    #[inline(always)]
    pub(super) fn of<const N: usize>(a: u64, seeds_b: u32, empty_capture: bool) -> Plan {
        let mut steps = [Step::Empty; 8];
        let pits = a.to_le_bytes();
        for j in 0..N {
            let s = pits[j] as usize;
            if s == 0 {
                continue;
            }
            let last = j + s;
            // The row after the sowing, when it stays in the row or ends in the store.
            let mut sown = pits;
            sown[j] = 0;
            for x in &mut sown[j + 1..last.min(N)] {
                *x += 1;
            }
            let sown_seeds: u32 = sown[..N].iter().map(|&x| u32::from(x)).sum();
            steps[j] = if last < N && pits[last] > 0 && seeds_b > 0 {
                // Lands on seeds (no capture); the opponent's row is not empty, so the game goes
                // on whatever the rule for its end.
                sown[last] += 1;
                Step::Within(rank::rank64_terms(&sown[..N - 1], N, seeds_b))
            } else if last == N && seeds_b > 0 && sown_seeds > 0 {
                // Banks one seed and moves again; both rows hold seeds, so the game goes on.
                Step::Store(rank::rank64_terms(&sown[..N], 0, 0))
            } else if last < N && pits[last] == 0 && seeds_b > 0 && sown_seeds > 0 {
                // Lands in an empty pit of the mover's row. What happens depends on the pit
                // opposite; the mover's row keeps seeds after a capture (`sown` is that row: its
                // pit `last` is still empty), so the game goes on unless the capture empties the
                // opponent's row.
                let no_capture = (!empty_capture).then(|| {
                    let mut stays = sown;
                    stays[last] = 1;
                    rank::rank64_terms(&stays[..N - 1], N, seeds_b)
                });
                Step::Capture {
                    opposite: (N - 1 - last) as u8,
                    row: u64::from_le_bytes(sown),
                    no_capture,
                }
            } else if last > N && last <= 2 * N && sown_seeds > 0 {
                // Banks one seed and ends in the opponent's row, which now holds seeds; the
                // mover's row still does, so the game goes on whatever the rule for its end.
                let r = last - N;
                Step::Beyond(
                    r as u8,
                    rank::rank64_terms(&sown[..N - 1], N, seeds_b + r as u32),
                )
            } else {
                Step::Sow
            };
        }
        Plan { steps }
    }
}

/// A move from [`KalahWord`] as [`Placed`], from a board of `seeds` seeds, ranking the child.
#[inline(always)]
pub(super) fn placed<const M: usize>(mv: WordMove, seeds: u32) -> Placed {
    match mv {
        WordMove::Over { mover, opponent } => Placed {
            gain: mover as i32 - opponent as i32,
            turn_passed: true,
            layer: OVER,
            slot: 0,
        },
        WordMove::Next {
            pits,
            banked,
            passed,
        } => Placed {
            gain: banked as i32,
            turn_passed: passed,
            layer: seeds - banked,
            slot: rank::rank64_of_word::<M>(pits),
        },
    }
}
