//! Djenon-aboure (docs/rules.md §5): origin-first landing-pit relay round the `2n` pits, capture of
//! 2s and 4s walking backwards; forced passes; endless relays are illegal.

use super::{
    lap_ring, pass_or_end, relay, GameKind, LapEnd, Laps, NoOption, NotCandidate, Rules, SowError,
    TurnEnd,
};
use crate::board::Board;
use crate::board::Side;
use crate::stop::{Abandoned, Stop};

/// Djenon-aboure (no options).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct DjenonAboure;

impl Rules for DjenonAboure {
    const KIND: GameKind = GameKind::DjenonAboure;
    // Endless relays exist (J3); cross-turn cycles are not ruled out (§5.7).
    const CAN_CYCLE: bool = true;

    #[inline]
    fn candidate(&self, board: &Board, _side: Side, pit: usize) -> Result<(), NotCandidate> {
        match board.pits.get(pit) {
            0 => Err(NotCandidate::Empty),
            1 => Err(NotCandidate::Single),
            _ => Ok(()),
        }
    }

    /// The lap sows the handful from the origin itself: the last seed lands in pit
    /// `origin + count - 1` round the ring, and the sowing stops there unless that pit then
    /// holds 3 or 5 and more. Handfuls of a whole circuit or more are left to the sowing.
    #[inline]
    fn first_lap_ends(&self, board: &Board, _side: Side, pit: usize) -> bool {
        let len = board.ring().len();
        let count = usize::from(board.pits.get(pit));
        if count >= len {
            // Whole circuits: rare, and left to the sowing, which keeps this free of divisions.
            return false;
        }
        let last = board.ring().ahead(pit, count - 1);
        let before = if last == pit {
            0
        } else {
            usize::from(board.pits.get(last))
        };
        let after = before + 1;
        matches!(after, 1 | 2 | 4)
    }

    fn sow(
        &self,
        board: &mut Board,
        side: Side,
        pit: usize,
        stop: Stop<'_>,
    ) -> Result<TurnEnd, SowError> {
        let ring = board.ring();
        let laps = Laps::new(1, ring, board.burnt);
        let last = relay(&mut board.pits, pit, laps, stop, |pits, lift| {
            // Origin first: the lap's first seed goes back into the pit just emptied, which is
            // the same as sowing the whole handful starting *at* the origin.
            let count = pits.take(lift) as u32;
            let last = lap_ring(pits, ring, lift, count);
            match pits.get(last) {
                3 | 5.. => LapEnd::Relay(last),
                _ => LapEnd::Stop(last),
            }
        })?;
        if matches!(board.pits.get(last), 2 | 4) {
            // Capture `last`, then walk backwards across both rows while pits hold 2 or 4. The
            // walk stops at `last` at the latest, which is now empty.
            let mut taken = board.pits.take(last) as u16;
            let mut at = ring.prev(last);
            while matches!(board.pits.get(at), 2 | 4) {
                taken += board.pits.take(at) as u16;
                at = ring.prev(at);
            }
            board.stores[side.index()] += taken;
        }
        Ok(TurnEnd::Passes)
    }

    fn settle(&self, board: &mut Board, stop: Stop<'_>) -> Result<(), Abandoned> {
        pass_or_end(self, board, stop)
    }

    type Opt = NoOption;

    fn option(&self, o: NoOption) -> bool {
        match o {}
    }

    fn set_option(&mut self, o: NoOption, _on: bool) {
        match o {}
    }
}
