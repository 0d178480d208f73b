//! The engine core: which pits are candidates and legal, the end and pass rules (normalisation),
//! playing a move, the start position. The per-game sowing lives in one file per game.

use super::board::{
    board_of, board_sum, make_pos, row_sum, set_aside, sweep_all_to, sweep_own_rows, Endless, Turn,
};
use super::dakon::sow_dakon;
use super::djenon_aboure::sow_djenon;
use super::kalah::sow_kalah;
use super::relay::sow_next_pit_relay;
use super::{RefGame, RefPos};

/// Plays the sowing of pit `pit` (a board index) for `mover`. The pit is assumed to be a
/// candidate. Returns `Err` for an endless relay.
pub(super) fn sow_turn(
    g: RefGame,
    board: &[u32],
    stores: [u32; 2],
    mover: usize,
    pit: usize,
) -> Result<Turn, Endless> {
    match g {
        RefGame::Kalah { empty_capture, .. } => {
            Ok(sow_kalah(board, stores, mover, pit, empty_capture))
        }
        RefGame::Dakon {
            nembak_takes_landing_seed,
            no_mikul,
        } => sow_dakon(
            board,
            stores,
            mover,
            pit,
            nembak_takes_landing_seed,
            no_mikul,
        ),
        RefGame::DjenonAboure => sow_djenon(board, stores, mover, pit),
        RefGame::WalakPussa { .. } | RefGame::SanYao => {
            sow_next_pit_relay(board, stores, mover, pit)
        }
    }
}

/// Is board pit `pit` (owned by `side`) a candidate?
pub(super) fn is_candidate(g: RefGame, board: &[u32], side: usize, pit: usize) -> bool {
    let n = board.len() / 2;
    let c = board[pit];
    match g {
        RefGame::DjenonAboure => c >= 2,
        RefGame::WalakPussa {
            singleton_restriction: true,
        } => {
            let has_big = board[side * n..side * n + n].iter().any(|&x| x >= 2);
            c >= 2 || (c == 1 && !has_big)
        }
        _ => c >= 1,
    }
}

pub(super) fn candidates_on(g: RefGame, board: &[u32], side: usize) -> Vec<u8> {
    let n = board.len() / 2;
    (1..=n)
        .filter(|&k| is_candidate(g, board, side, side * n + k - 1))
        .map(|k| k as u8)
        .collect()
}

pub(super) fn legal_on(g: RefGame, board: &[u32], side: usize) -> Vec<u8> {
    let n = board.len() / 2;
    candidates_on(g, board, side)
        .into_iter()
        .filter(|&k| sow_turn(g, board, [0, 0], side, side * n + k as usize - 1).is_ok())
        .collect()
}

pub fn candidates(g: RefGame, p: &RefPos) -> Vec<u8> {
    match p.to_move {
        None => Vec::new(),
        Some(side) => candidates_on(g, &board_of(p), side),
    }
}

pub fn legal_moves(g: RefGame, p: &RefPos) -> Vec<u8> {
    match p.to_move {
        None => Vec::new(),
        Some(side) => legal_on(g, &board_of(p), side),
    }
}

/// Applies the game's end and no-move rules to a position as if it had arisen after a
/// move (forced passes, game end with the final sweep). Game-over positions are returned unchanged.
pub fn normalize(g: RefGame, p: &RefPos) -> RefPos {
    let side = match p.to_move {
        None => return p.clone(),
        Some(s) => s,
    };
    let n = p.south.len();
    let mut b = board_of(p);
    let mut st = p.stores;
    match g {
        RefGame::Kalah {
            end_when_mover_empty,
            leftovers_unscored,
            ..
        } => {
            let ends = if end_when_mover_empty {
                row_sum(&b, n, side) == 0
            } else {
                row_sum(&b, n, 0) == 0 || row_sum(&b, n, 1) == 0
            };
            if ends {
                if leftovers_unscored {
                    // §3.5: no final sweep; the seeds leave the board and the stores stand.
                    set_aside(&mut b);
                } else {
                    sweep_own_rows(&mut b, &mut st);
                }
                return make_pos(&b, st, None);
            }
            p.clone()
        }
        RefGame::Dakon { .. } => {
            if row_sum(&b, n, side) == 0 {
                sweep_all_to(&mut b, &mut st, 1 - side);
                return make_pos(&b, st, None);
            }
            p.clone()
        }
        RefGame::WalakPussa { .. } => {
            if legal_on(g, &b, side).is_empty() {
                sweep_all_to(&mut b, &mut st, 1 - side);
                return make_pos(&b, st, None);
            }
            p.clone()
        }
        RefGame::DjenonAboure | RefGame::SanYao => {
            if g == RefGame::SanYao && board_sum(&b) < 2 {
                // A single remaining stone goes to the owner of its row.
                sweep_own_rows(&mut b, &mut st);
                return make_pos(&b, st, None);
            }
            if !legal_on(g, &b, side).is_empty() {
                return p.clone();
            }
            if !legal_on(g, &b, 1 - side).is_empty() {
                return make_pos(&b, st, Some(1 - side));
            }
            sweep_own_rows(&mut b, &mut st);
            make_pos(&b, st, None)
        }
    }
}

/// Plays move `mv` (1..=n) for the side to move of `p` (taken as given, not normalised
/// first) and returns the normalised result.
pub fn play(g: RefGame, p: &RefPos, mv: u8) -> Result<RefPos, String> {
    let side = p.to_move.ok_or_else(|| "game is over".to_string())?;
    let n = p.south.len();
    if mv < 1 || mv as usize > n {
        return Err(format!("move {mv} out of range 1..={n}"));
    }
    let b = board_of(p);
    let pit = side * n + mv as usize - 1;
    if b[pit] == 0 {
        return Err(format!("move {mv}: empty pit"));
    }
    if !is_candidate(g, &b, side, pit) {
        return Err(format!("move {mv}: not a candidate"));
    }
    let t = sow_turn(g, &b, p.stores, side, pit).map_err(|e| {
        format!(
            "move {mv}: endless sowing (state of lap {} recurs after {} laps)",
            e.first_lap, e.period
        )
    })?;
    let next = if t.extra_turn { side } else { 1 - side };
    Ok(normalize(g, &make_pos(&t.board, t.stores, Some(next))))
}

/// Standard start: `holes` pits a side with `seeds` each, empty stores, South to move; normalised.
pub fn start(g: RefGame, holes: usize, seeds: u32) -> RefPos {
    let p = RefPos {
        south: vec![seeds; holes],
        north: vec![seeds; holes],
        stores: [0, 0],
        to_move: Some(0),
    };
    normalize(g, &p)
}
