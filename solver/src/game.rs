//! The `Game` trait: everything the search needs to know about a game, and nothing more.
//!
//! The search works on the **future value** of a position: the net stake the side to move will still
//! win from here under perfect play (what it wins minus what the opponent wins). Whatever has
//! already been won stays out of the position's key, so transpositions that differ only in past
//! winnings share one entry, and the value is bounded by the stake still in play (`Game::stake`).
//!
//! A move yields a [`Child`]: the next position, the net stake the mover won *by this move*
//! (`gain`), and whether the turn passed to the opponent. Turns need not alternate: a move may be
//! followed by another move of the same side, so the search negates a child's value only when
//! `turn_passed` is true:
//!
//! ```text
//! F(x) = max over children c of   c.gain + (if c.turn_passed { -F(c.next) } else { F(c.next) })
//! F(x) = 0                        when x has no children (the game is over)
//! ```
//!
//! Games may cycle (the same position recurring with the same side to move) when
//! [`Game::CAN_CYCLE`] is true. An infinite play wins nothing from the point where it begins, so a
//! cycle is worth 0 further value. Cycles never span layers: [`Game::layer`] never increases along
//! a play, and a move that wins anything (`gain != 0`) strictly lowers it.

use std::fmt::Debug;

use crate::stop::{Abandoned, Stop};

/// The most legal moves any position of any supported game can have.
pub const MAX_MOVES: usize = 32;

/// One legal move and its result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Child<G: Game> {
    /// The move played.
    pub mv: G::Move,
    /// The position after the move (already normalised: forced passes applied, game end applied).
    pub next: G,
    /// Net stake the mover won by this move (its winnings minus the opponent's), including any
    /// final settlement when the move ends the game.
    pub gain: i32,
    /// Whether the side to move in `next` is the opponent of the side to move before the move.
    pub turn_passed: bool,
}

/// A list of at most [`MAX_MOVES`] `Copy` items in place: no allocation and no zeroing on the
/// hot path, where every node fills one (docs/performance.md, "Figures behind comments").
pub struct FixedVec<T: Copy> {
    len: usize,
    items: [std::mem::MaybeUninit<T>; MAX_MOVES],
}

/// A fixed-capacity list of children, filled by [`Game::children`].
pub type Children<G> = FixedVec<Child<G>>;

impl<T: Copy> Default for FixedVec<T> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T: Copy> FixedVec<T> {
    /// An empty list.
    pub fn new() -> Self {
        Self {
            len: 0,
            items: [const { std::mem::MaybeUninit::uninit() }; MAX_MOVES],
        }
    }

    /// Appends an item.
    ///
    /// # Panics
    /// When the list already holds [`MAX_MOVES`] items.
    #[inline]
    pub fn push(&mut self, item: T) {
        assert!(self.len < MAX_MOVES, "more than MAX_MOVES items");
        self.items[self.len].write(item);
        self.len += 1;
    }

    /// Fills an empty list with `f(i)` for `i` in `0..n`, calling `f` last index first (so that
    /// work started in `f` starts for the last items first) without reordering anything after.
    ///
    /// # Panics
    /// When the list is not empty or `n > MAX_MOVES`.
    #[inline(always)]
    pub fn fill_rev(&mut self, n: usize, mut f: impl FnMut(usize) -> T) {
        assert!(self.len == 0 && n <= MAX_MOVES, "fill_rev of {n} items");
        for i in (0..n).rev() {
            self.items[i].write(f(i));
        }
        self.len = n;
    }

    /// Removes every item.
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// The items as a slice.
    #[inline]
    pub fn as_slice(&self) -> &[T] {
        // SAFETY: items[..len] were initialised by `push`; `T` is `Copy`, so nothing to drop.
        unsafe { std::slice::from_raw_parts(self.items.as_ptr().cast::<T>(), self.len) }
    }

    /// The items as a mutable slice (for sorting).
    #[inline]
    pub fn as_mut_slice(&mut self) -> &mut [T] {
        // SAFETY: as in `as_slice`.
        unsafe { std::slice::from_raw_parts_mut(self.items.as_mut_ptr().cast::<T>(), self.len) }
    }

    /// Number of items.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the list is empty (for children: the game is over).
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

/// A two-player, zero-sum, perfect-information game with exact integer values.
///
/// Implementations must be deterministic: the same position always yields the same children in
/// the same order.
pub trait Game: Copy + Send + Sync + Debug + 'static {
    /// A move. Small and `Copy`.
    type Move: Copy + Eq + Debug + Send + Sync + 'static;

    /// Whether positions can recur (same key) along a play. When false the search skips all
    /// repetition bookkeeping; when true it handles cycles exactly (see the crate docs).
    const CAN_CYCLE: bool;

    /// Whether the search generates a node's children, and prefetches their table entries
    /// (and oracle slots), before it reads the node's own table entry, so that the memory waits
    /// overlap. It pays where a node's own entry is a wait and its children are cheap, and costs
    /// where the move generation is dear, as it is then wasted on every node the table settles.
    /// A speed hint only: the tree searched and every value are the same either way. The
    /// default keeps the old order (read the entry, then generate).
    const EARLY_CHILDREN: bool = false;

    /// Appends every legal move of the side to move, with its result, to `out` (which the caller
    /// has cleared). No children means the game is over, and the future value is 0.
    fn children(&self, out: &mut Children<Self>);

    /// [`Game::children`] inside a search that `stop` stops. A game whose move generation can
    /// itself run for a long time (a move whose effect takes billions of steps to work out) looks
    /// at `stop` now and then and gives up with `Err(Abandoned)` once it is raised, leaving `out`
    /// unspecified; the search then stops as if it had seen the flag itself. Without this a
    /// search could only be stopped between nodes, never inside one. The default generates the
    /// children and never gives up.
    #[inline]
    fn children_until(&self, out: &mut Children<Self>, stop: Stop<'_>) -> Result<(), Abandoned> {
        let _ = stop;
        self.children(out);
        Ok(())
    }

    /// An exact key of the position *as the search sees it* (everything that determines its
    /// future value, and nothing already won): two positions with the same key have the same
    /// future value. Must be `< self.key_bound()` for every position reachable from `self`.
    fn key(&self) -> u128;

    /// An exclusive upper bound on `key()` over every position reachable from this one.
    fn key_bound(&self) -> u128;

    /// The stake still in play: `|F(x)| <= stake(x)` for the future value `F`.
    fn stake(&self) -> i32;

    /// A layer number that never increases along a play and strictly decreases on any move with
    /// `gain != 0`. Repetitions can only happen within a layer.
    fn layer(&self) -> u32;

    /// Encodes a move as a small integer in `0..MAX_MOVES` (for the transposition table).
    fn move_index(mv: Self::Move) -> u8;

    /// A guess at the future value of the position for the side to move, used only at the
    /// horizon of the heuristic look-ahead that gives the exact search its first guess and its
    /// move hints near the root (never to decide a value), so any answer is safe; 0, the
    /// default, means "no idea". Asked a few hundred thousand times per solve.
    fn estimate(&self) -> i32 {
        0
    }

    /// A tie-break for move ordering, in `0..64`: among children the search cannot tell apart by
    /// what it knows of their values, it tries those with larger hints first. Only an ordering
    /// hint, so any answer is safe; the default 0 keeps `children()` order.
    fn order_hint(mv: Self::Move) -> u8 {
        let _ = mv;
        0
    }

    /// Whether the game is over (no legal moves). Implementations should override this with
    /// something cheaper than generating the children.
    fn is_over(&self) -> bool {
        let mut c = Children::new();
        self.children(&mut c);
        c.is_empty()
    }
}
