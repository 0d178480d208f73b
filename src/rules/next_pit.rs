//! The next-pit relay and the alternating capture chain of Walak-pussa and San-Yao.

use super::{lap_ring, lap_track, relay, LapEnd, Laps, OpenRing, SowError, Track, TurnEnd};
use crate::board::{Board, Side};
use crate::stop::Stop;

/// The sowing and capture of Walak-pussa and San-Yao (§6.3–§6.4, §7.3–§7.4).
///
/// Next-pit relay: after each lap, if the pit after the last one holds seeds, lift it and sow
/// from the pit after it. When that pit is empty the sowing stops, and the pit after the empty
/// one is captured if occupied, followed by the alternating chain (empty, occupied, empty, ...).
pub(crate) fn next_pit_relay_and_capture(
    board: &mut Board,
    side: Side,
    pit: usize,
    stop: Stop<'_>,
) -> Result<TurnEnd, SowError> {
    if board.burnt == 0 {
        next_pit_relay_and_capture_on(board.ring(), board, side, pit, stop)
    } else {
        next_pit_relay_and_capture_on(OpenRing::of(board), board, side, pit, stop)
    }
}

/// [`Rules::first_lap_ends`] of the next-pit relay: the lap sows the handful from the pit after
/// the origin, so its last seed lands `count` pits on and the pit after that is the one looked
/// at, which the lap never reaches but with whole circuits. The sowing stops there when that pit
/// is empty: no whole circuit, and it was empty before or is the origin just lifted. Boards with
/// burnt pits are left to the sowing (`false`).
///
/// [`Rules::first_lap_ends`]: super::Rules::first_lap_ends
#[inline]
pub(crate) fn next_pit_first_lap_ends(board: &Board, pit: usize) -> bool {
    let len = board.ring().len();
    let count = usize::from(board.pits.get(pit));
    if board.burnt != 0 || count >= len {
        return false;
    }
    let after = board.ring().ahead(pit, count + 1);
    after == pit || board.pits.get(after) == 0
}

/// [`next_pit_relay_and_capture`] on `track`: every "next pit" passes over burnt pits.
#[inline]
fn next_pit_relay_and_capture_on<T: Track>(
    ring: T,
    board: &mut Board,
    side: Side,
    pit: usize,
    stop: Stop<'_>,
) -> Result<TurnEnd, SowError> {
    let laps = Laps::new(2, board.ring(), board.burnt);
    let last = relay(&mut board.pits, pit, laps, stop, |pits, lift| {
        let count = pits.take(lift) as u32;
        let last = if T::ALL_OPEN {
            lap_ring(pits, ring.ring(), ring.next(lift), count)
        } else {
            lap_track(pits, ring, ring.next(lift), count)
        };
        let after = ring.next(last);
        if pits.get(after) > 0 {
            LapEnd::Relay(after)
        } else {
            LapEnd::Stop(last)
        }
    })?;
    // `last + 1` is empty. Capture `last + 2`, then keep going while the pit after the captured
    // one is empty and the next is not. Captured pits become empty, so the chain ends.
    let mut taken: u16 = 0;
    let mut at = ring.next(ring.next(last));
    while board.pits.get(at) > 0 {
        taken += board.pits.take(at) as u16;
        let gap = ring.next(at);
        if board.pits.get(gap) > 0 {
            break;
        }
        at = ring.next(gap);
    }
    board.stores[side.index()] += taken;
    Ok(TurnEnd::Passes)
}
