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
    for pit in board.owned(side) {
        if rules.candidate(board, side, pit).is_err() {
            continue;
        }
        if !R::CAN_CYCLE {
            return Ok(true);
        }
        match rules.sow(&mut board.clone(), side, pit, stop) {
            Ok(_) => return Ok(true),
            Err(SowError::Endless) => {}
            Err(SowError::Abandoned) => return Err(Abandoned),
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
