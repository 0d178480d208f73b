//! The bridge to the game-agnostic `solver` crate: a [`Position`] is a [`solver::Game`].
//!
//! The search sees the **future value**: seeds the side to move will still win minus seeds the
//! opponent will still win (docs/rules.md §2.8). Stores stay out of the key; the value of a position
//! is `store[0] - store[1] ± F` (see [`final_value`]).
//!
//! The key is the combinatorial rank ([`crate::rank`]) of the pits **seen from the mover**: the
//! mover's row first, then the opponent's. All five games treat the two players alike, so a
//! board with North to move has the same future value as the rotated board with South to move,
//! and one key space (and one endgame table) serves both sides.

use crate::board::Board;
use crate::board::{Move, Pit, Pits, Side};
use crate::rank;
use crate::rules::Rules;
use crate::rules::{rotate, with_word_size, KalahWord, WordMove};
use crate::stop::{finished, Abandoned, Stop};
use crate::Position;
use solver::{Child, Children, Game};

impl<R: Rules> Position<R> {
    /// Pit `j` counted from the mover's first pit: `j < n` is the mover's row, `j >= n` the
    /// opponent's, both in sowing order. A finished game reads as South's view.
    #[inline(always)]
    pub fn mover_pit(&self, j: usize) -> u8 {
        let b = self.board();
        let len = b.ring().len();
        let offset = match b.to_move {
            Some(Side::North) => b.holes as usize,
            _ => 0,
        };
        let i = j + offset;
        b.pits.get(if i >= len { i - len } else { i })
    }

    /// The pit counts from the mover's first pit ([`Position::mover_pit`] for `j` in `0..2n`) as
    /// two slices, `(front, back)`: the pits from the mover's first pit to the end of the array,
    /// then the ones before it (empty when South moves). Ranking loops over slices are much
    /// cheaper than over a chained iterator.
    #[inline(always)]
    pub fn mover_rows(&self) -> (&[u8], &[u8]) {
        let b = self.board();
        let pits = b.pit_slice();
        match b.to_move {
            Some(Side::North) => {
                let (back, front) = pits.split_at(b.holes as usize);
                (front, back)
            }
            _ => (pits, &pits[..0]),
        }
    }

    /// The future value `f` of the side to move turned into the final South-minus-North score.
    pub fn final_value(&self, future: i32) -> i32 {
        let [s, n] = self.score();
        s as i32 - n as i32 + self.to_move().map_or(0, |side| side.sign() * future)
    }
}

/// `store[0] - store[1] ± future`: the value of `p` given the future value of its side to move.
pub fn final_value<R: Rules>(p: &Position<R>, future: i32) -> i32 {
    p.final_value(future)
}

impl<R: Rules> Position<R> {
    /// The rules' one-word move generator ([`KalahWord::for_rules`]), when they have one, the
    /// board fits a word and
    /// the game is on with at most `257 - 2n` seeds (what a word's rank needs,
    /// [`rank::rank64_of_word`]).
    #[inline(always)]
    fn word(&self) -> Option<KalahWord> {
        let b = self.board();
        let word = KalahWord::for_rules(self.rules(), b.holes)?;
        if b.to_move.is_none() || b.seeds_on_board() as usize + b.ring().len() > 257 {
            return None;
        }
        Some(word)
    }

    /// The rank of the pits seen from the mover within their layer ([`rank::rank64_in_layer`]
    /// of [`Position::mover_rows`]): an endgame table's index. By the one-word rank when the
    /// rules sow by word and the board fits one, which is what the search probes most: the
    /// slice rank's loop cost 4 % of a Kalah solve with tables (docs/performance.md).
    #[inline(always)]
    pub(crate) fn mover_rank_in_layer(&self) -> u64 {
        if self.word().is_some() {
            with_word_size!(self.board().holes, |N, M| {
                rank::rank64_of_word::<M>(self.mover_word::<N>())
            })
        } else {
            let (front, back) = self.mover_rows();
            rank::rank64_in_layer(front, back)
        }
    }

    /// The pits from the mover's view (`2N` lanes, mover's row first).
    #[inline(always)]
    fn mover_word<const N: usize>(&self) -> u128 {
        let w = self.board().pits.low_word();
        if self.board().to_move == Some(Side::North) {
            rotate::<N>(w)
        } else {
            w
        }
    }

    /// [`Game::children`] by [`KalahWord`] on `N` holes: the mover's view sown as one word, each
    /// child turned back to the board's own orientation with its stores.
    #[inline(always)]
    fn word_children<const N: usize>(&self, word: &KalahWord, out: &mut Children<Self>) {
        let b = self.board();
        let Some(side) = b.to_move else { return };
        // Each child's board is built whole from values in registers: filling in a copy of the
        // parent field by field, then copying it into the list, made the CPU wait on a 16-byte
        // load of bytes just written one or two at a time (a failed store forward; a quarter
        // of this function's time).
        let banked_by = |mover: u32, opponent: u32| {
            let [s, n] = b.stores;
            let (mover, opponent) = (mover as u16, opponent as u16);
            if side == Side::South {
                [s + mover, n + opponent]
            } else {
                [s + opponent, n + mover]
            }
        };
        word.for_each_move::<N>(self.mover_word::<N>(), |pit, mv| {
            let (next, gain, turn_passed) = match mv {
                WordMove::Over { mover, opponent } => (
                    Board {
                        pits: Pits::EMPTY,
                        stores: banked_by(mover, opponent),
                        holes: N as u8,
                        to_move: None,
                        burnt: 0,
                        sons: 0,
                    },
                    mover as i32 - opponent as i32,
                    true,
                ),
                WordMove::Next {
                    pits,
                    banked,
                    passed,
                } => {
                    let to_move = if passed { side.other() } else { side };
                    let pits = if to_move == Side::North {
                        rotate::<N>(pits)
                    } else {
                        pits
                    };
                    (
                        Board {
                            pits: Pits::from_low_word(pits),
                            stores: banked_by(banked, 0),
                            holes: N as u8,
                            to_move: Some(to_move),
                            burnt: 0,
                            sons: 0,
                        },
                        banked as i32,
                        passed,
                    )
                }
            };
            out.push(Child {
                mv: Move::from_pit(Pit(pit as u8), Side::South, N as u8),
                next: Position::from_board_unchecked(*self.rules(), next),
                gain,
                turn_passed,
            });
        });
    }

    /// [`Game::children`] by the general position code, for every game.
    pub fn general_children(&self, out: &mut Children<Self>) {
        finished(self.general_children_until(out, Stop::never()));
    }

    /// [`Position::general_children`] that gives up once `stop` is raised during a long sowing.
    #[inline(always)]
    pub fn general_children_until(
        &self,
        out: &mut Children<Self>,
        stop: Stop<'_>,
    ) -> Result<(), Abandoned> {
        let Some(mover) = self.to_move() else {
            return Ok(());
        };
        let before = self.score();
        self.for_each_child_until(stop, |mv, next| {
            let after = next.score();
            let won = after[mover.index()] as i32 - before[mover.index()] as i32;
            let lost = after[mover.other().index()] as i32 - before[mover.other().index()] as i32;
            out.push(Child {
                mv,
                next,
                gain: won - lost,
                turn_passed: next.to_move() != Some(mover),
            });
        })
    }

    /// [`Game::key`] from the pit counts, for every game.
    pub fn general_key(&self) -> u128 {
        let b = self.board();
        let m = b.ring().len();
        let seeds = self.layer();
        if seeds <= rank::KEY64_MAX_SEEDS[m] {
            let (front, back) = self.mover_rows();
            rank::key64(front, back) as u128
        } else {
            rank::key(m, seeds, |j| self.mover_pit(j))
        }
    }
}

impl<R: Rules> Game for Position<R> {
    type Move = Move;
    const CAN_CYCLE: bool = R::CAN_CYCLE;

    /// Kalah on up to 7 holes takes [`KalahWord`] (see `Position::word_children`); the
    /// other games take the general position code.
    #[inline]
    fn children(&self, out: &mut Children<Self>) {
        if let Some(word) = self.word() {
            let holes = self.board().holes;
            return with_word_size!(holes, |N, M| self.word_children::<N>(&word, out));
        }
        self.general_children(out);
    }

    /// [`Game::children`], giving up once the search's `stop` is raised inside a long sowing of a
    /// cyclic game ([`crate::stop`]). Kalah's one-lap sowings never look at it.
    #[inline]
    fn children_until(&self, out: &mut Children<Self>, stop: Stop<'_>) -> Result<(), Abandoned> {
        if let Some(word) = self.word() {
            let holes = self.board().holes;
            with_word_size!(holes, |N, M| self.word_children::<N>(&word, out));
            return Ok(());
        }
        self.general_children_until(out, stop)
    }

    /// From the board as one word ([`rank::key64_of_word_counted`]) for Kalah on up to 7 holes,
    /// where the search asks for it at every node; else [`Position::general_key`]. In a round with
    /// burnt pits or sons (docs/rules.md §13.1) the board seen from North is not the rotated board
    /// seen from South (the statuses do not rotate with it), so the key also says who moves. The
    /// statuses themselves are fixed for the round, so every position a search meets has the
    /// root's; a table is never shared between searches of different status patterns (each
    /// search makes its own, and endgame tables hold all-open positions only).
    #[inline]
    fn key(&self) -> u128 {
        let b = self.board();
        if KalahWord::for_rules(self.rules(), b.holes).is_some() && b.to_move.is_some() {
            // The rank counts the seeds itself (`Board::seeds_on_board` would count them again)
            // and declines a board with more than a word's key can take.
            let key = with_word_size!(b.holes, |N, M| {
                rank::key64_of_word_counted::<M>(self.mover_word::<N>())
            });
            if let Some(key) = key {
                return u128::from(key);
            }
        }
        // Kalah (the word path above) never has statuses.
        if self.board().has_statuses() {
            let north = self.to_move() == Some(Side::North);
            return self.general_key() * 2 + u128::from(north);
        }
        self.general_key()
    }

    fn key_bound(&self) -> u128 {
        let bound = rank::layers_below(self.layer() + 1, self.board().ring().len());
        if self.board().has_statuses() {
            bound * 2
        } else {
            bound
        }
    }

    /// The rules' guess ([`Rules::estimate`]) from the mover's row and the opponent's.
    fn estimate(&self) -> i32 {
        if self.to_move().is_none() {
            return 0;
        }
        let (front, back) = self.mover_rows();
        let n = usize::from(self.board().holes);
        // `front` is the whole ring when South moves, North's row when North does.
        let (mine, theirs) = if back.is_empty() {
            (&front[..n], &front[n..2 * n])
        } else {
            (front, back)
        };
        self.rules().estimate(mine, theirs)
    }

    #[inline]
    fn stake(&self) -> i32 {
        self.board().seeds_on_board() as i32
    }

    #[inline]
    fn layer(&self) -> u32 {
        self.board().seeds_on_board()
    }

    #[inline]
    fn move_index(mv: Move) -> u8 {
        mv.0
    }

    /// The move number: moves are numbered in sowing order, so a larger number is a pit nearer
    /// the end of the mover's row (the store, in Kalah and Dakon). Sowing from there keeps more
    /// seeds at home and more often ends in the store; trying those moves first is the classic
    /// Kalah ordering (its node savings: docs/performance.md, "Figures behind comments").
    #[inline]
    fn order_hint(mv: Move) -> u8 {
        mv.0
    }

    #[inline]
    fn is_over(&self) -> bool {
        Position::is_over(self)
    }
}
