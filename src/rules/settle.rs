//! The end-of-game settlements shared by the games (each side takes its own row or what it owns;
//! one side takes everything) and the no-move rule of the relay games.

use super::{Rules, SowError};
use crate::board::{Board, Side};
use crate::stop::{Abandoned, Stop};

/// Each player adds the seeds left in their own row to their store (the common final sweep).
pub(crate) fn each_takes_own_row(board: &mut Board) {
    let ring = board.ring();
    for side in Side::ALL {
        let s = board.pits.take_all(ring.row(side));
        board.stores[side.index()] += s as u16;
    }
    board.to_move = None;
}

/// Each player adds the seeds left in the pits they own to their store: San-Yao's sweep, which
/// goes by the owner of a pit (docs/rules.md §13.1); with no sons, [`each_takes_own_row`].
pub(crate) fn each_takes_owned(board: &mut Board) {
    if board.sons == 0 {
        return each_takes_own_row(board);
    }
    for i in 0..board.ring().len() {
        let s = board.pits.take(i);
        board.stores[board.owner(i).index()] += s as u16;
    }
    board.to_move = None;
}

/// `side` takes every seed left on the board, and the game is over.
pub(crate) fn one_takes_all(board: &mut Board, side: Side) {
    let len = board.ring().len();
    let s = board.pits.take_all(0..len);
    board.stores[side.index()] += s as u16;
    board.to_move = None;
}

/// Whether `side` has a legal move: a candidate (among the pits it owns) whose sowing ends.
pub(crate) fn has_legal_move<R: Rules>(
    rules: &R,
    board: &Board,
    side: Side,
    stop: Stop<'_>,
) -> Result<bool, Abandoned> {
    let candidates = || {
        board
            .owned(side)
            .filter(|&pit| rules.candidate(board, side, pit).is_ok())
    };
    // First the arithmetic (a candidate whose first lap ends), then the sowings, so that a
    // relay is sown only when no candidate is settled without one.
    if !R::CAN_CYCLE {
        return Ok(candidates().next().is_some());
    }
    if candidates().any(|pit| rules.first_lap_ends(board, side, pit)) {
        return Ok(true);
    }
    for pit in candidates() {
        match rules.sow(&mut board.clone(), side, pit, stop) {
            Ok(_) => return Ok(true),
            Err(SowError::Endless) => {}
            Err(SowError::Abandoned { .. }) => return Err(Abandoned),
        }
    }
    Ok(false)
}

/// The no-move rule shared by Djenon-aboure and San-Yao: a player with no legal move passes; if
/// neither player can move, each takes the seeds in the pits they own (their own row when there
/// are no sons; Djenon-aboure never has any).
pub(crate) fn pass_or_end<R: Rules>(
    rules: &R,
    board: &mut Board,
    stop: Stop<'_>,
) -> Result<(), Abandoned> {
    let Some(side) = board.to_move else {
        return Ok(());
    };
    if has_legal_move(rules, board, side, stop)? {
        return Ok(());
    }
    if has_legal_move(rules, board, side.other(), stop)? {
        board.to_move = Some(side.other());
    } else {
        each_takes_owned(board);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::super::{lap_ring, DjenonAboure, Rules, SanYao, SowError, WalakPussa};
    use crate::board::{Board, Pits, Side};
    use crate::stop::Stop;

    /// Whether the first lap of sowing `pit` ends the sowing, by sowing that lap on a copy:
    /// origin first and "3 or 5 and more relays" for Djenon-aboure, else the next-pit relay.
    fn one_lap_ends(djenon: bool, board: &Board, pit: usize) -> bool {
        let ring = board.ring();
        let mut pits = board.pits;
        let count = u32::from(pits.take(pit));
        if djenon {
            let last = lap_ring(&mut pits, ring, pit, count);
            !matches!(pits.get(last), 3 | 5..)
        } else {
            let last = lap_ring(&mut pits, ring, ring.next(pit), count);
            pits.get(ring.next(last)) == 0
        }
    }

    /// `first_lap_ends` says exactly what sowing the first lap says for handfuls shorter than the
    /// ring (it leaves longer ones to the sowing), and a sowing it vouches for ends (the no-move
    /// rules take its word for a legal move).
    fn check<R: Rules>(rules: R, djenon: bool) {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = |m: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed % m
        };
        let (mut fired, mut candidates) = (0, 0);
        for _ in 0..20_000 {
            let holes = 2 + next(5) as u8;
            let top = [4, 8, 16, 40][next(4) as usize];
            let counts: Vec<u8> = (0..2 * holes).map(|_| next(top) as u8).collect();
            let board = Board {
                pits: Pits::from_slice(&counts),
                stores: [0, 0],
                holes,
                to_move: Some(Side::South),
                burnt: 0,
                sons: 0,
            };
            for pit in board.owned(Side::South) {
                if rules.candidate(&board, Side::South, pit).is_err() {
                    continue;
                }
                candidates += 1;
                let says = rules.first_lap_ends(&board, Side::South, pit);
                let short = usize::from(board.pits.get(pit)) < board.ring().len();
                let ends = one_lap_ends(djenon, &board, pit);
                assert_eq!(says, ends && short, "{counts:?} pit {pit}");
                if says {
                    fired += 1;
                    let sown = rules.sow(&mut board.clone(), Side::South, pit, Stop::never());
                    assert!(
                        !matches!(sown, Err(SowError::Endless)),
                        "{counts:?} pit {pit}"
                    );
                }
            }
        }
        assert!(
            fired > candidates / 10 && fired < candidates,
            "{fired} of {candidates}"
        );
    }

    #[test]
    fn first_lap_ends_is_the_first_lap() {
        check(DjenonAboure, true);
        check(SanYao, false);
        for singleton_restriction in [false, true] {
            check(
                WalakPussa {
                    singleton_restriction,
                },
                false,
            );
        }
    }
}
