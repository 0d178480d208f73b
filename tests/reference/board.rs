//! The board as a plain `Vec<u32>` of `2n` pits in sowing order, and the bookkeeping every
//! game's sowing shares: the Kalah/Dakon store ring, a turn's outcome, endless-relay detection.

use super::RefPos;
use std::collections::HashMap;

/// The whole board as `2n` pits in sowing order.
pub(super) fn board_of(p: &RefPos) -> Vec<u32> {
    let mut b = p.south.clone();
    b.extend_from_slice(&p.north);
    b
}

pub(super) fn make_pos(board: &[u32], stores: [u32; 2], to_move: Option<usize>) -> RefPos {
    let n = board.len() / 2;
    RefPos {
        south: board[..n].to_vec(),
        north: board[n..].to_vec(),
        stores,
        to_move,
    }
}

/// Owner of pit `i` on a board of `n` holes per row.
pub(super) fn owner(n: usize, i: usize) -> usize {
    if i < n {
        0
    } else {
        1
    }
}

pub(super) fn row_sum(board: &[u32], n: usize, side: usize) -> u32 {
    board[side * n..side * n + n].iter().sum()
}

pub(super) fn board_sum(board: &[u32]) -> u32 {
    board.iter().sum()
}

/// Each player adds the seeds in their own row to their own store; the board is cleared.
pub(super) fn sweep_own_rows(board: &mut [u32], stores: &mut [u32; 2]) {
    let n = board.len() / 2;
    stores[0] += row_sum(board, n, 0);
    stores[1] += row_sum(board, n, 1);
    board.iter_mut().for_each(|c| *c = 0);
}

/// Every seed on the board leaves it, scored by nobody.
pub(super) fn set_aside(board: &mut [u32]) {
    board.iter_mut().for_each(|c| *c = 0);
}

/// `side` takes every seed on the board.
pub(super) fn sweep_all_to(board: &mut [u32], stores: &mut [u32; 2], side: usize) {
    stores[side] += board_sum(board);
    board.iter_mut().for_each(|c| *c = 0);
}

/// Where a seed can be dropped in Kalah and Dakon: a pit, or the mover's own store
/// (the opponent's store is skipped, so it is never a position).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Slot {
    Pit(usize),
    OwnStore,
}

/// Next position in the store ring of Kalah/Dakon for `mover`.
pub(super) fn next_slot(n: usize, mover: usize, s: Slot) -> Slot {
    match s {
        Slot::Pit(i) => {
            if i == mover * n + n - 1 {
                Slot::OwnStore
            } else {
                Slot::Pit((i + 1) % (2 * n))
            }
        }
        // After the own store comes the first pit of the opponent's row.
        Slot::OwnStore => Slot::Pit(((mover + 1) * n) % (2 * n)),
    }
}

/// Outcome of one complete turn's sowing and capturing.
#[derive(Clone, Debug)]
pub(super) struct Turn {
    pub(super) board: Vec<u32>,
    pub(super) stores: [u32; 2],
    pub(super) extra_turn: bool,
    /// Where each lap's last seed landed (`None` = the mover's own store).
    pub(super) lap_ends: Vec<Option<usize>>,
}

/// An endless relay: the lap-boundary state first seen before lap `first_lap`
/// (0-based) recurs `period` laps later.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Endless {
    pub(super) first_lap: usize,
    pub(super) period: usize,
}

/// Lap-boundary bookkeeping (docs/rules.md §2.9): `seen` is the hash set of lap-boundary states
/// (board, stores, pit about to be lifted), each with the lap it was first seen at. Returns
/// `Err` if this state was seen before, which proves the sowing endless; no caps are used.
pub(super) fn check_state(
    seen: &mut HashMap<(Vec<u32>, [u32; 2], usize), usize>,
    board: &[u32],
    stores: [u32; 2],
    lift: usize,
    lap: usize,
) -> Result<(), Endless> {
    let key = (board.to_vec(), stores, lift);
    if let Some(&first) = seen.get(&key) {
        return Err(Endless {
            first_lap: first,
            period: lap - first,
        });
    }
    seen.insert(key, lap);
    Ok(())
}
