//! A Kalah search node that *is* the mover's word (issue 57, sessions 21-22).
//!
//! [`KalahNode<N>`] is a [`solver::Game`] of its own for Kalah on `N <= 7` holes: 16 bytes, the
//! board seen from the side to move (as `KalahWord::for_each_move` takes it and
//! `WordMove::Next` gives it back), so a child is its sowing's word and nothing is turned back
//! to South's orientation, drawn as a [`crate::board::Board`] or dispatched on the rules' type or
//! the board's size at run time. Keys, children (moves, order, gains), layers, stakes, estimates
//! and move hints are exactly those of [`Position`]'s word path (`src/game.rs`), so a search
//! over either type visits the same nodes and finds the same values (`node_tests.rs`). Used
//! through [`crate::answers::AnySolver`] by every search but the MPI solver's: the analyzer's
//! (`solve`, `analyze`, `serve`, `--batch`, the engine protocol, Python's `Analyzer`), the
//! review, play's engine, `dataset`, `verify`, `pie`, `round_perfect` and Python's `solve`
//! (docs/performance.md, "The Kalah node as its own word, a prototype").
//!
//! The word's lanes:
//!
//! ```text
//! lane:   0 ... N-1  | N ... 2N-1 | 2N ... 14 | 15
//!         mover's row | opponent's | always 0  | the rules' options (bit 0 empty-capture,
//!                     |  row       |           |  1 end-when-mover-empty, 2 leftovers-unscored)
//! ```
//!
//! The options ride in the top lane, which neither the sowing (its store lane pushes the top
//! lane out of the word) nor the rank (it reads the prefix sums of lanes `0..2N` only) sees, so
//! the node needs no second word. A finished game is the word with every pit empty: a board the
//! game goes on from always has a seed in the mover's row.

use super::word::{ones, rotate, KalahWord, WordMove};
use super::Kalah;
use crate::board::{Move, Pit, Side};
use crate::position::Position;
use crate::rank;
use crate::rules::Rules;
use solver::{Child, Children, Game, Indexer};

/// Kalah on `N` holes (1 to 7) seen from the side to move, as one word (see the module's docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct KalahNode<const N: usize> {
    word: u128,
}

/// The top lane, where the options are.
const OPTIONS_SHIFT: u32 = 120;

/// 1 in every byte lane.
const WORD_ONES: u128 = u128::MAX / 0xff;

/// `rank::key64_of_word_counted::<2N>` for a constant `N` (the match folds away: no dispatch at
/// run time; stable Rust cannot name `2 * N` as a const argument).
#[inline(always)]
fn key64_of_word<const N: usize>(word: u128) -> Option<u64> {
    match N {
        1 => rank::key64_of_word_counted::<2>(word),
        2 => rank::key64_of_word_counted::<4>(word),
        3 => rank::key64_of_word_counted::<6>(word),
        4 => rank::key64_of_word_counted::<8>(word),
        5 => rank::key64_of_word_counted::<10>(word),
        6 => rank::key64_of_word_counted::<12>(word),
        _ => rank::key64_of_word_counted::<14>(word),
    }
}

/// `rank::rank64_of_word::<2N>`, as [`key64_of_word`] names it.
#[inline(always)]
fn rank64_of_word<const N: usize>(word: u128) -> u64 {
    match N {
        1 => rank::rank64_of_word::<2>(word),
        2 => rank::rank64_of_word::<4>(word),
        3 => rank::rank64_of_word::<6>(word),
        4 => rank::rank64_of_word::<8>(word),
        5 => rank::rank64_of_word::<10>(word),
        6 => rank::rank64_of_word::<12>(word),
        _ => rank::rank64_of_word::<14>(word),
    }
}

impl<const N: usize> KalahNode<N> {
    const SIZE_OK: () = assert!(N >= 1 && N <= 7, "a Kalah word holds 1 to 7 holes");

    /// The pits' lanes, `0..2N`.
    const PITS: u128 = ones(2 * N) * 0xff;

    /// The node of `p` when its rules are Kalah's, it has `N` holes and a word's rank can key it
    /// (at most `257 - 2N` seeds on the board: what [`Position`]'s word path takes); a finished
    /// game is the empty board.
    pub fn from_position<R: Rules>(p: &Position<R>) -> Option<Self> {
        let () = Self::SIZE_OK;
        let b = p.board();
        if usize::from(b.holes) != N || b.has_statuses() {
            return None;
        }
        let word = KalahWord::for_rules(p.rules(), b.holes)?;
        let options = u128::from(options_byte(word.rules())) << OPTIONS_SHIFT;
        let Some(side) = b.to_move else {
            return Some(Self { word: options });
        };
        if b.seeds_on_board() as usize + 2 * N > 257 {
            return None;
        }
        let pits = b.pits.low_word();
        let pits = if side == Side::North {
            rotate::<N>(pits)
        } else {
            pits
        };
        debug_assert!(word.live::<N>(pits), "{p}");
        Some(Self {
            word: pits | options,
        })
    }

    /// The position with South to move (stores empty), or the finished empty board.
    pub fn position(&self) -> Position<Kalah> {
        // An empty board with South to move settles into the finished game.
        let bytes = self.pits().to_le_bytes();
        Position::from_pits_unchecked(self.rules(), N as u8, &bytes[..2 * N], Side::South)
    }

    /// The rules (from the top lane).
    #[inline(always)]
    pub fn rules(&self) -> Kalah {
        let o = (self.word >> OPTIONS_SHIFT) as u8;
        Kalah {
            empty_capture: o & 1 != 0,
            end_when_mover_empty: o & 2 != 0,
            leftovers_unscored: o & 4 != 0,
        }
    }

    /// The pits, mover's row first (lanes `0..2N`).
    #[inline(always)]
    pub fn pits(&self) -> u128 {
        self.word & Self::PITS
    }

    /// The seeds on the board: the last pit's prefix sum (the options' lane is above it).
    #[inline(always)]
    fn seeds(&self) -> u32 {
        u32::from((self.word.wrapping_mul(WORD_ONES) >> (8 * (2 * N - 1))) as u8)
    }

    /// [`Position::general_key`] from the word's lanes: a board with more seeds than a word's
    /// 64-bit key takes.
    #[cold]
    #[inline(never)]
    fn general_key(&self) -> u128 {
        let bytes = self.pits().to_le_bytes();
        let m = 2 * N;
        let seeds = self.seeds();
        if seeds <= rank::KEY64_MAX_SEEDS[m] {
            u128::from(rank::key64(&bytes[..m], &[]))
        } else {
            rank::key(m, seeds, |j| bytes[j])
        }
    }
}

/// The options as the top lane holds them.
fn options_byte(k: Kalah) -> u8 {
    u8::from(k.empty_capture)
        | u8::from(k.end_when_mover_empty) << 1
        | u8::from(k.leftovers_unscored) << 2
}

impl<const N: usize> Game for KalahNode<N> {
    type Move = Move;
    const CAN_CYCLE: bool = Kalah::CAN_CYCLE;
    // A single lap on one word makes children cheap beside the wait for the node's own table
    // entry, so the search generates them first. `Position`'s general move code (Kalah on more
    // than 7 holes, the relay games) is dear enough that it does not pay there
    // (docs/performance.md, "A node's children before its own table entry").
    const EARLY_CHILDREN: bool = true;

    /// `KalahWord::for_each_move` on the node's own word: each child is the sowing's word
    /// with the options put back, in the order and with the move numbers of [`Position`]'s.
    #[inline]
    fn children(&self, out: &mut Children<Self>) {
        let options = self.word & !Self::PITS;
        let word = KalahWord::sized::<N>(self.rules());
        word.for_each_move::<N>(self.pits(), |pit, mv| {
            let (next, gain, turn_passed) = match mv {
                WordMove::Over { mover, opponent } => {
                    (options, mover as i32 - opponent as i32, true)
                }
                WordMove::Next {
                    pits,
                    banked,
                    passed,
                } => (pits | options, banked as i32, passed),
            };
            out.push(Child {
                mv: Move::from_pit(Pit(pit as u8), Side::South, N as u8),
                next: KalahNode { word: next },
                gain,
                turn_passed,
            });
        });
    }

    /// [`Position`]'s key: the word's rank ([`rank::key64_of_word_counted`]), or the general key
    /// of the same pits when the board holds more seeds than a word's key takes.
    #[inline]
    fn key(&self) -> u128 {
        match key64_of_word::<N>(self.word) {
            Some(key) => u128::from(key),
            None => self.general_key(),
        }
    }

    fn key_bound(&self) -> u128 {
        rank::layers_below(self.seeds() + 1, 2 * N)
    }

    #[inline]
    fn stake(&self) -> i32 {
        self.seeds() as i32
    }

    #[inline]
    fn layer(&self) -> u32 {
        self.seeds()
    }

    #[inline]
    fn move_index(mv: Move) -> u8 {
        mv.0
    }

    /// As [`Position`]'s: the rules' guess from the mover's row and the opponent's.
    fn estimate(&self) -> i32 {
        if self.is_over() {
            return 0;
        }
        let bytes = self.word.to_le_bytes();
        self.rules().estimate(&bytes[..N], &bytes[N..2 * N])
    }

    /// As [`Position`]'s: the move number.
    #[inline]
    fn order_hint(mv: Move) -> u8 {
        mv.0
    }

    #[inline]
    fn is_over(&self) -> bool {
        self.pits() == 0
    }
}

/// The endgame tables' index of [`KalahNode`]: the slots of
/// [`crate::endgame::MancalaIndexer`] for the same rules and size (the rank of the pits from the
/// mover's view within their layer), so a [`tables::Tablebase`] opened with it reads the same
/// files and answers a node without turning it into a [`Position`]; only the word's rank, no
/// dispatch on the rules or the size and no rotation.
#[derive(Clone, Copy, Debug)]
pub struct KalahNodeIndexer<const N: usize> {
    rules: Kalah,
}

impl<const N: usize> KalahNodeIndexer<N> {
    /// The index of `rules` on `N` holes.
    pub fn new(rules: Kalah) -> Self {
        let () = KalahNode::<N>::SIZE_OK;
        Self { rules }
    }
}

impl<const N: usize> Indexer for KalahNodeIndexer<N> {
    type G = KalahNode<N>;

    fn layer_len(&self, layer: u32) -> u64 {
        u64::try_from(rank::layer_len(layer, 2 * N)).unwrap_or(u64::MAX)
    }

    /// The word's rank in its layer: a node never holds more than a word's rank takes.
    #[inline]
    fn index(&self, pos: &KalahNode<N>) -> u64 {
        rank64_of_word::<N>(pos.pits())
    }

    /// The layout with South to move when the game goes on from it (as `MancalaIndexer`'s).
    fn position(&self, layer: u32, index: u64) -> Option<KalahNode<N>> {
        let mut pits = [0u8; 16];
        rank::unrank_in_layer(layer, 2 * N, u128::from(index), &mut pits[..2 * N]);
        let word = u128::from_le_bytes(pits);
        KalahWord::sized::<N>(self.rules)
            .live::<N>(word)
            .then(|| KalahNode {
                word: word | u128::from(options_byte(self.rules)) << OPTIONS_SHIFT,
            })
    }
}
