//! The vocabulary of the board: sides, pits, moves, the packed pit array, and the [`Board`]
//! (everything on the table, without rules).

use std::fmt;

/// A player. South is player 0 and moves first; North is player 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Side {
    /// Player 0, owner of `p[0..n)`; moves first.
    South = 0,
    /// Player 1, owner of `p[n..2n)`.
    North = 1,
}

impl Side {
    /// Both sides, South first.
    pub const ALL: [Side; 2] = [Side::South, Side::North];

    /// The other player.
    #[inline]
    pub const fn other(self) -> Side {
        match self {
            Side::South => Side::North,
            Side::North => Side::South,
        }
    }

    /// 0 for South, 1 for North (the index into `stores`).
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The notation letter, `S` or `N`.
    pub const fn letter(self) -> char {
        match self {
            Side::South => 'S',
            Side::North => 'N',
        }
    }

    /// `+1` for South, `-1` for North: multiplies a future value into a South-minus-North one.
    #[inline]
    pub const fn sign(self) -> i32 {
        match self {
            Side::South => 1,
            Side::North => -1,
        }
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Side::South => "South",
            Side::North => "North",
        })
    }
}

/// A pit, by its index `0..2n` in sowing order (`p[i]` in docs/rules.md).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Pit(pub u8);

impl Pit {
    /// The index as `usize`.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

/// A move: the pit number `k` in `1..=n`, counted in sowing order within the mover's own row
/// (docs/rules.md §2.6). South's move `k` sows `p[k-1]`, North's sows `p[n+k-1]`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move(pub u8);

impl Move {
    /// The pit this move sows when `side` moves on a board of `holes` holes per row: the
    /// `k`-th pit counted in sowing order from the mover's move-1 pit. Moves `n+1..=2n` name
    /// pits of the other row, which a player may own as sons (docs/rules.md §13.2).
    #[inline]
    pub const fn pit(self, side: Side, holes: u8) -> Pit {
        let i = self.0 - 1 + side.index() as u8 * holes;
        Pit(if i >= 2 * holes { i - 2 * holes } else { i })
    }

    /// The move that sows `pit` for `side`: `1..=n` on its own row, `n+1..=2n` on the other.
    #[inline]
    pub const fn from_pit(pit: Pit, side: Side, holes: u8) -> Move {
        let base = side.index() as u8 * holes;
        Move(if pit.0 >= base {
            pit.0 + 1 - base
        } else {
            pit.0 + 1 + 2 * holes - base
        })
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// The most holes per row of any game (Dakon goes up to 10).
pub const MAX_HOLES: usize = 10;

/// The most seeds the board (all pits together) may hold. Keeping the board total within a byte
/// means no pit can ever overflow its 8-bit counter, whatever the sowing does.
pub const MAX_BOARD_SEEDS: u32 = 255;

/// The most seeds a store (or capture tally) may hold in an analysis position.
pub const MAX_STORE: u32 = 60_000;

/// The pit counts of a board, one byte per pit, in sowing order.
///
/// ```text
///  byte:  0    1   ...  n-1 | n   n+1  ... 2n-1 | 2n ... 31
///  pit:  p0   p1   ... p[n-1]| p[n] ...   p[2n-1]| always 0
///         South's row         | North's row       | padding
///  lanes: bytes 0..16 = first u128, bytes 16..32 = second u128 (little-endian)
/// ```
///
/// Two 128-bit lanes hold up to 20 pits (Dakon's 2 × 10) with room to spare. Sowing works byte by
/// byte; equality and hashing compare the two lanes at once. The padding bytes are always 0, so
/// two boards are equal exactly when their pits are. No pit overflows: the board total is at most
/// [`MAX_BOARD_SEEDS`].
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
#[repr(C, align(16))]
pub struct Pits([u8; 32]);

impl Pits {
    /// All pits empty.
    pub const EMPTY: Pits = Pits([0; 32]);

    /// The pits `counts[0..]`, the rest empty.
    ///
    /// # Panics
    /// When `counts` is longer than 32.
    #[inline]
    pub fn from_slice(counts: &[u8]) -> Pits {
        let mut p = Pits::EMPTY;
        p.0[..counts.len()].copy_from_slice(counts);
        p
    }

    /// Pits 0..16 as one word, pit `i` in byte lane `i` (little-endian).
    #[inline(always)]
    pub fn low_word(&self) -> u128 {
        u128::from_le_bytes(self.0[..16].try_into().expect("16 bytes"))
    }

    /// Pits 16..32 as one word, pit `16 + i` in byte lane `i` (little-endian).
    #[inline(always)]
    pub fn high_word(&self) -> u128 {
        u128::from_le_bytes(self.0[16..].try_into().expect("16 bytes"))
    }

    /// The pits of `word` (pit `i` in byte lane `i`), pits 16..32 empty.
    #[inline(always)]
    pub fn from_low_word(word: u128) -> Pits {
        let mut p = Pits::EMPTY;
        p.0[..16].copy_from_slice(&word.to_le_bytes());
        p
    }

    /// The seeds in pit `i`.
    #[inline(always)]
    pub fn get(&self, i: usize) -> u8 {
        self.0[i]
    }

    /// Sets pit `i`.
    #[inline(always)]
    pub fn set(&mut self, i: usize, v: u8) {
        self.0[i] = v;
    }

    /// Adds `v` seeds to pit `i`.
    #[inline(always)]
    pub fn add(&mut self, i: usize, v: u8) {
        self.0[i] += v;
    }

    /// Empties pit `i` and returns what it held.
    #[inline(always)]
    pub fn take(&mut self, i: usize) -> u8 {
        std::mem::take(&mut self.0[i])
    }

    /// Adds `v` to each of the first `len` pits (a full circuit of a long lap).
    #[inline]
    pub fn add_all(&mut self, len: usize, v: u8) {
        for x in &mut self.0[..len] {
            *x += v;
        }
    }

    /// The seeds in pits `range`, summed.
    #[inline]
    pub fn sum(&self, range: std::ops::Range<usize>) -> u32 {
        self.0[range].iter().map(|&x| x as u32).sum()
    }

    /// The seeds in all 32 pit slots. Pits past the board's `2n` are always 0 (nothing writes
    /// there), so this is the seeds on the board. The search asks for it several times per node
    /// (stake, layer, key), so it is summed in four words rather than 32 bytes:
    ///
    /// ```text
    /// word x (8 pits):      p7 p6 p5 p4 p3 p2 p1 p0        one byte each
    /// x & LO + (x>>8) & LO:  p7+p6 | p5+p4 | p3+p2 | p1+p0  four 16-bit lanes, each <= 510
    /// acc = Σ over 4 words:  four lanes, each <= 2040
    /// acc * 0x0001_0001_0001_0001 >> 48:  the sum of the lanes (<= 8160: no lane carries)
    /// ```
    #[inline]
    pub fn total(&self) -> u32 {
        const LO: u64 = 0x00ff_00ff_00ff_00ff;
        let mut acc = 0u64;
        for w in self.0.chunks_exact(8) {
            let x = u64::from_le_bytes(w.try_into().expect("8-byte chunk"));
            acc += (x & LO) + ((x >> 8) & LO);
        }
        (acc.wrapping_mul(0x0001_0001_0001_0001) >> 48) as u32
    }

    /// [`Pits::total`] of the pits of a board, which hold at most [`MAX_BOARD_SEEDS`] seeds in
    /// all (wrong beyond). Then no byte lane of the four 8-pit words summed carries, and one
    /// multiply adds up the lanes of the sum:
    ///
    /// ```text
    /// x = Σ over 4 words:          s7 s6 ... s1 s0      lane i: pits i, i+8, i+16, i+24
    /// x * 0x0101_0101_0101_0101:   lane 7 = s0 + ... + s7, the total
    /// ```
    ///
    /// The search asks for it several times per node (stake, layer): a third of
    /// [`Pits::total`]'s instructions.
    #[inline(always)]
    pub fn board_total(&self) -> u32 {
        let w = self.low_word().wrapping_add(self.high_word());
        let x = (w as u64).wrapping_add((w >> 64) as u64);
        (x.wrapping_mul(0x0101_0101_0101_0101) >> 56) as u32
    }

    /// Whether every pit in `range` is empty.
    #[inline]
    pub fn all_empty(&self, range: std::ops::Range<usize>) -> bool {
        self.0[range].iter().all(|&x| x == 0)
    }

    /// The first `len` pits as a slice.
    #[inline]
    pub fn as_slice(&self, len: usize) -> &[u8] {
        &self.0[..len]
    }

    /// Empties every pit in `range` and returns the seeds taken.
    #[inline]
    pub fn take_all(&mut self, range: std::ops::Range<usize>) -> u32 {
        let mut s = 0;
        for x in &mut self.0[range] {
            s += std::mem::take(x) as u32;
        }
        s
    }
}

impl fmt::Debug for Pits {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.0.iter()).finish()
    }
}

/// The ring of `2 * holes` pits with arithmetic modulo the ring size.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ring {
    /// Holes per row, `n`.
    pub holes: u8,
}

impl Ring {
    /// Number of pits, `2n`.
    #[inline(always)]
    pub const fn len(self) -> usize {
        2 * self.holes as usize
    }

    /// Always false: a board has at least one hole per row.
    pub const fn is_empty(self) -> bool {
        false
    }

    /// The next pit in sowing order.
    #[inline(always)]
    pub const fn next(self, i: usize) -> usize {
        if i + 1 == self.len() {
            0
        } else {
            i + 1
        }
    }

    /// The pit `k <= 2n` steps after pit `i` in sowing order (one compare, no division).
    #[inline(always)]
    pub const fn ahead(self, i: usize, k: usize) -> usize {
        debug_assert!(k <= self.len());
        let j = i + k;
        if j >= self.len() {
            j - self.len()
        } else {
            j
        }
    }

    /// The previous pit in sowing order.
    #[inline(always)]
    pub const fn prev(self, i: usize) -> usize {
        if i == 0 {
            self.len() - 1
        } else {
            i - 1
        }
    }

    /// The pit opposite `i`: `2n - 1 - i`.
    #[inline(always)]
    pub const fn opposite(self, i: usize) -> usize {
        self.len() - 1 - i
    }

    /// The side that owns pit `i`.
    #[inline(always)]
    pub const fn owner(self, i: usize) -> Side {
        if i < self.holes as usize {
            Side::South
        } else {
            Side::North
        }
    }

    /// The pit indices of `side`'s row.
    #[inline(always)]
    pub const fn row(self, side: Side) -> std::ops::Range<usize> {
        let n = self.holes as usize;
        side.index() * n..side.index() * n + n
    }
}

/// Everything on the table: pits, stores (or capture tallies), board size, the side to move, and
/// each pit's status for the round (docs/rules.md §13.1).
///
/// ```text
///  offset: 0 .. 32        32..36     36     37        40..44   44..48
///  field:  pits (Pits)    stores     holes  to_move   burnt    sons      48 bytes, align 16
///  burnt:  bit i set = p[i] is burnt (out of the ring, always 0 seeds)
///  sons:   bit i set = p[i] is a son (owned by the player opposite its row; San-Yao only)
/// ```
///
/// The masks fill what was padding, so the board is as large as without them. Both are 0 in a
/// single game and in every first round: then every pit is open and owned by its row's player.
/// They are fixed for the whole round.
///
/// `to_move` is `None` once the game is over; the pits are then all empty. A `Board` by itself
/// carries no rules; [`Position`](crate::Position) pairs it with them and keeps it normalised.
///
/// `#[repr(C)]` keeps the fields where the drawing puts them (the asserts below check it).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
#[repr(C)]
pub struct Board {
    /// The pit counts, `p[0..2n)`.
    pub pits: Pits,
    /// `stores[0]` is South's store or tally, `stores[1]` North's.
    pub stores: [u16; 2],
    /// Holes per row, `n`.
    pub holes: u8,
    /// The player to move, or `None` when the game is over.
    pub to_move: Option<Side>,
    /// Bit `i` set: pit `i` is burnt for the round.
    pub burnt: u32,
    /// Bit `i` set: pit `i` is a son, owned by the player opposite its row.
    pub sons: u32,
}

// The drawing above, checked when the crate compiles.
const _: () = {
    use std::mem::{align_of, offset_of, size_of};
    assert!(offset_of!(Board, pits) == 0);
    assert!(offset_of!(Board, stores) == 32);
    assert!(offset_of!(Board, holes) == 36);
    assert!(offset_of!(Board, to_move) == 37);
    assert!(offset_of!(Board, burnt) == 40);
    assert!(offset_of!(Board, sons) == 44);
    assert!(size_of::<Board>() == 48);
    assert!(align_of::<Board>() == 16);
};

impl Board {
    /// The ring of pits of this board.
    #[inline(always)]
    pub const fn ring(&self) -> Ring {
        Ring { holes: self.holes }
    }

    /// Whether some pit is burnt or a son (a later round of a match).
    #[inline(always)]
    pub const fn has_statuses(&self) -> bool {
        self.burnt | self.sons != 0
    }

    /// Whether pit `i` is burnt.
    #[inline(always)]
    pub const fn is_burnt(&self, i: usize) -> bool {
        self.burnt >> i & 1 == 1
    }

    /// Whether pit `i` is a son.
    #[inline(always)]
    pub const fn is_son(&self, i: usize) -> bool {
        self.sons >> i & 1 == 1
    }

    /// Who owns pit `i`: its row's player, or the one opposite for a son (docs/rules.md §13.1). A
    /// burnt pit reads as its row's; nobody sows from it, and it never holds seeds.
    #[inline(always)]
    pub const fn owner(&self, i: usize) -> Side {
        let row = self.ring().owner(i);
        if self.is_son(i) {
            row.other()
        } else {
            row
        }
    }

    /// The pits `side` owns (open pits of its row, sons on the other), in increasing move number.
    #[inline(always)]
    pub fn owned(&self, side: Side) -> OwnedPits {
        let n = self.holes as usize;
        let len = 2 * n;
        let row_bits = ((1u32 << n) - 1) << (side.index() * n);
        let other_bits = ((1u32 << n) - 1) << (side.other().index() * n);
        let mask = (row_bits & !self.burnt & !self.sons) | (other_bits & self.sons);
        // Rotate so that bit k is move k + 1: the mover's row first, then the other.
        let rotated = if side == Side::North {
            (mask >> n) | ((mask & ((1u32 << n) - 1)) << n)
        } else {
            mask
        };
        OwnedPits {
            mask: rotated,
            offset: side.index() * n,
            len,
        }
    }

    /// Seeds on the board (in pits, not in stores).
    #[inline]
    pub fn seeds_on_board(&self) -> u32 {
        debug_assert!(
            self.pits.all_empty(self.ring().len()..32),
            "seeds past the board's last pit: {:?}",
            self.pits
        );
        debug_assert!(self.pits.total() <= MAX_BOARD_SEEDS, "{:?}", self.pits);
        self.pits.board_total()
    }

    /// The pit counts as a slice of `2n` bytes.
    #[inline]
    pub fn pit_slice(&self) -> &[u8] {
        self.pits.as_slice(self.ring().len())
    }
}

/// The pits a player owns, in increasing move number ([`Board::owned`]).
#[derive(Clone, Copy, Debug)]
pub struct OwnedPits {
    mask: u32,
    offset: usize,
    len: usize,
}

impl Iterator for OwnedPits {
    type Item = usize;
    #[inline(always)]
    fn next(&mut self) -> Option<usize> {
        if self.mask == 0 {
            return None;
        }
        let k = self.mask.trailing_zeros() as usize;
        self.mask &= self.mask - 1;
        let i = k + self.offset;
        Some(if i >= self.len { i - self.len } else { i })
    }
}

/// The legal moves of a position, in increasing move number: a list in place (no allocation)
/// that reads as a slice of its moves only (`Deref<Target = [Move]>`, iteration, `Debug`,
/// equality), never the unused room behind them.
///
/// ```
/// use mancala::{board::Move, rules::Kalah, Position};
/// let p: Position<Kalah> = "0,0,0,0,3,1/1,1,1,1,1,1/0,0/S".parse::<mancala::notation::Setup>()
///     .map(|s| Position::from_setup(Kalah::default(), &s).unwrap())
///     .unwrap();
/// let moves = p.legal_moves();
/// assert_eq!(moves.len(), 2);
/// assert_eq!(format!("{moves:?}"), "[Move(5), Move(6)]");
/// assert_eq!(moves.iter().map(|m| m.0).collect::<Vec<_>>(), [5, 6]);
/// ```
#[derive(Clone, Copy, Default)]
pub struct MoveList {
    len: u8,
    // A player may own pits on both rows (sons, docs/rules.md §13.1).
    moves: [Move; 2 * MAX_HOLES],
}

impl MoveList {
    pub(crate) fn push(&mut self, m: Move) {
        self.moves[self.len as usize] = m;
        self.len += 1;
    }

    /// The moves as a slice.
    pub fn as_slice(&self) -> &[Move] {
        &self.moves[..self.len as usize]
    }

    /// Number of legal moves.
    pub fn len(&self) -> usize {
        self.len as usize
    }

    /// Whether there are none (the game is over).
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

impl std::ops::Deref for MoveList {
    type Target = [Move];
    fn deref(&self) -> &[Move] {
        self.as_slice()
    }
}

impl fmt::Debug for MoveList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.as_slice()).finish()
    }
}

impl PartialEq for MoveList {
    fn eq(&self, other: &Self) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl Eq for MoveList {}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = std::slice::Iter<'a, Move>;
    fn into_iter(self) -> Self::IntoIter {
        self.as_slice().iter()
    }
}

impl IntoIterator for MoveList {
    type Item = Move;
    type IntoIter = std::iter::Take<std::array::IntoIter<Move, { 2 * MAX_HOLES }>>;
    fn into_iter(self) -> Self::IntoIter {
        self.moves.into_iter().take(self.len as usize)
    }
}

#[cfg(test)]
mod tests {
    use super::Pits;

    /// The word-wise sum equals the byte-by-byte sum, up to every pit full (no lane overflow).
    #[test]
    fn total_is_the_sum_of_the_pits() {
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        for round in 0..2000 {
            let mut p = [0u8; 32];
            for (i, v) in p.iter_mut().enumerate() {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                *v = match round % 4 {
                    0 => 255,
                    1 => (x >> 56) as u8,
                    2 => (x >> 60) as u8,
                    _ => (i * 8) as u8,
                };
            }
            let want: u32 = p.iter().map(|&v| u32::from(v)).sum();
            assert_eq!(Pits(p).total(), want, "{p:?}");
        }
        assert_eq!(Pits([255; 32]).total(), 8160);
        assert_eq!(Pits::EMPTY.total(), 0);
    }

    /// The one-multiply sum equals the byte-by-byte sum on every board a position may hold
    /// (at most 255 seeds): spread over all 32 slots, piled in one, and up to the limit.
    #[test]
    fn board_total_is_the_sum_of_a_boards_pits() {
        let mut x = 0x2545_f491_4f6c_dd1du64;
        for round in 0..4000 {
            let mut p = [0u8; 32];
            let mut left = 255u32;
            for v in p.iter_mut() {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                let want = match round % 3 {
                    0 => (x >> 61) as u32,
                    1 => (x >> 59) as u32,
                    _ => (x >> 56) as u32,
                };
                *v = want.min(left) as u8;
                left -= u32::from(*v);
            }
            let want: u32 = p.iter().map(|&v| u32::from(v)).sum();
            assert_eq!(Pits(p).board_total(), want, "{p:?}");
        }
        for i in 0..32 {
            let mut p = [0u8; 32];
            p[i] = 255;
            assert_eq!(Pits(p).board_total(), 255, "{p:?}");
        }
        assert_eq!(Pits::EMPTY.board_total(), 0);
    }
}
