//! The pits a sowing steps through (the whole ring, or the ring without its burnt pits) and the
//! laps round them, with and without the mover's store.

use crate::board::{Board, Pits, Ring, Side};

/// Where a lap of a store game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Landing {
    /// In the mover's own store.
    Store,
    /// In pit `L`.
    Pit(usize),
}

/// The pits a sowing steps through: the whole ring ([`Ring`], every pit open), or the ring
/// without its burnt pits ([`OpenRing`], a later round of a match, docs/rules.md §13.1). The sowing
/// code is written once over this trait; a game picks the track once per turn, so a board with
/// every pit open runs the same code as before there were statuses.
pub(crate) trait Track: Copy {
    /// Whether no pit is ever burnt (the plain [`Ring`]), so its laps may use [`lap_ring`].
    const ALL_OPEN: bool;
    /// The physical ring (for `opposite`, rows and owners, which stay physical).
    fn ring(self) -> Ring;
    /// Whether pit `i` is out of the ring.
    fn is_burnt(self, i: usize) -> bool;
    /// The number of pits in the ring (open pits).
    fn open_len(self) -> usize;
    /// The next open pit after `i` in sowing order.
    fn next(self, i: usize) -> usize;
    /// Adds `v` to every open pit (whole circuits of a long lap).
    fn add_all(self, pits: &mut Pits, v: u8);
}

impl Track for Ring {
    const ALL_OPEN: bool = true;
    #[inline(always)]
    fn ring(self) -> Ring {
        self
    }
    #[inline(always)]
    fn is_burnt(self, _i: usize) -> bool {
        false
    }
    #[inline(always)]
    fn open_len(self) -> usize {
        self.len()
    }
    #[inline(always)]
    fn next(self, i: usize) -> usize {
        Ring::next(self, i)
    }
    #[inline(always)]
    fn add_all(self, pits: &mut Pits, v: u8) {
        pits.add_all(self.len(), v);
    }
}

/// The ring without its burnt pits (bit `i` of `burnt`: pit `i` is out). At least one pit is
/// open whenever anything is sown: the pit sown from.
#[derive(Clone, Copy, Debug)]
pub(crate) struct OpenRing {
    ring: Ring,
    burnt: u32,
}

impl OpenRing {
    /// The open ring of `board`.
    #[inline]
    pub(crate) fn of(board: &Board) -> OpenRing {
        OpenRing {
            ring: board.ring(),
            burnt: board.burnt,
        }
    }
}

impl Track for OpenRing {
    const ALL_OPEN: bool = false;
    #[inline(always)]
    fn ring(self) -> Ring {
        self.ring
    }
    #[inline(always)]
    fn is_burnt(self, i: usize) -> bool {
        self.burnt >> i & 1 == 1
    }
    #[inline]
    fn open_len(self) -> usize {
        self.ring.len() - self.burnt.count_ones() as usize
    }
    #[inline]
    fn next(self, i: usize) -> usize {
        let mut j = self.ring.next(i);
        while self.is_burnt(j) {
            j = self.ring.next(j);
        }
        j
    }
    #[inline]
    fn add_all(self, pits: &mut Pits, v: u8) {
        for i in 0..self.ring.len() {
            if !self.is_burnt(i) {
                pits.add(i, v);
            }
        }
    }
}

/// Sows `count` seeds one per position, starting at the position after pit `from`, round the
/// `2n` pits and `side`'s own store (the opponent's store is skipped: it is not a step).
///
/// ```text
///        North's store                      South's store
///   ... p[2n-1] |SN| p[0] p[1] ... p[n-1] |SS| p[n] ...     (South sows SS, skips SN)
/// ```
///
/// Whole circuits of `2n + 1` positions are added at once; the origin is not skipped.
#[inline]
pub(crate) fn lap_with_store(board: &mut Board, side: Side, from: usize, count: u32) -> Landing {
    let ring = board.ring();
    lap_with_store_on(ring, board, side, from, count)
}

/// [`lap_with_store`] on `track`: burnt pits are passed over, and the own store keeps its place
/// after the last pit of the mover's row, burnt or not (docs/rules.md §13.1).
#[inline]
pub(crate) fn lap_with_store_on<T: Track>(
    track: T,
    board: &mut Board,
    side: Side,
    from: usize,
    count: u32,
) -> Landing {
    let ring = track.ring();
    let len = ring.len();
    let store_after = ring.row(side).end - 1;
    let circuit = track.open_len() as u32 + 1;
    let mut left = count;
    if left >= circuit {
        let q = left / circuit;
        track.add_all(&mut board.pits, q as u8);
        board.stores[side.index()] += q as u16;
        left -= q * circuit;
        if left == 0 {
            return Landing::Pit(from);
        }
    }
    // The cursor is a pit index, or `len` standing for the own store.
    let mut at = from;
    loop {
        at = if at == store_after {
            len
        } else if at == len {
            ring.next(store_after)
        } else {
            ring.next(at)
        };
        if at != len && track.is_burnt(at) {
            continue;
        }
        if at == len {
            board.stores[side.index()] += 1;
        } else {
            board.pits.add(at, 1);
        }
        left -= 1;
        if left == 0 {
            return if at == len {
                Landing::Store
            } else {
                Landing::Pit(at)
            };
        }
    }
}

/// Sows `count >= 1` seeds one per pit round the `2n` pits, the first into pit `start`, and
/// returns the pit of the last seed. Whole circuits are added at once; nothing is skipped.
#[inline]
pub(crate) fn lap_ring(pits: &mut Pits, ring: Ring, start: usize, count: u32) -> usize {
    debug_assert!(count >= 1);
    let len = ring.len();
    let count = count as usize;
    // The last seed goes into the pit before `at` below (r > 0), or into the pit before `start`
    // after whole circuits only (r == 0): both are `start + count - 1` modulo the ring. Most
    // handfuls are shorter than the ring and need no division (the two divisions were a quarter
    // of a relay sowing's time).
    let (q, r, last) = if count < len {
        (0, count, ring.ahead(start, count - 1))
    } else {
        (count / len, count % len, (start + count - 1) % len)
    };
    if q > 0 {
        pits.add_all(len, q as u8);
    }
    let mut at = start;
    for _ in 0..r {
        pits.add(at, 1);
        at = ring.next(at);
    }
    last
}

/// [`lap_ring`] on `track`: sows `count >= 1` seeds one per open pit, the first into the open
/// pit `start`, and returns the pit of the last seed.
#[inline]
pub(crate) fn lap_track<T: Track>(pits: &mut Pits, track: T, start: usize, count: u32) -> usize {
    debug_assert!(count >= 1 && !track.is_burnt(start));
    let len = track.open_len() as u32;
    let q = count / len;
    let mut r = count % len;
    if q > 0 {
        track.add_all(pits, q as u8);
    }
    if r == 0 {
        // Whole circuits only: the last seed went into the open pit before `start`.
        let mut last = start;
        while track.next(last) != start {
            last = track.next(last);
        }
        return last;
    }
    let mut at = start;
    loop {
        pits.add(at, 1);
        r -= 1;
        if r == 0 {
            return at;
        }
        at = track.next(at);
    }
}

#[cfg(test)]
mod tests {
    use super::lap_ring;
    use crate::board::{Pits, Ring};

    /// The lap (whole circuits at once, then the rest) sows what dropping one seed per pit does, for every ring, start and
    /// handful (up to a board total of 255, the most a pit can reach), with seeds already in the
    /// pits and the padding lanes past the ring left empty.
    #[test]
    fn lap_ring_drops_one_seed_per_pit() {
        for holes in 1..=10u8 {
            let ring = Ring { holes };
            let len = ring.len();
            for start in 0..len {
                for count in 1..=200u32 {
                    let mut before = Pits::EMPTY;
                    for i in 0..len {
                        before.set(i, ((i * 7 + start) % 5) as u8);
                    }
                    let mut want = before;
                    let mut at = start;
                    let mut last = start;
                    for _ in 0..count {
                        want.add(at, 1);
                        last = at;
                        at = ring.next(at);
                    }
                    let mut got = before;
                    assert_eq!(lap_ring(&mut got, ring, start, count), last);
                    assert_eq!(got, want, "holes {holes}, start {start}, count {count}");
                }
            }
        }
    }
}
