//! The pie rule (docs/rules.md §3.9) played out by brute force: the first player's whole first
//! turn (every sequence of sowings until the other side is to move, or the game ends), then both
//! choices of the second player (play on, or swap sides), each solved by [`value`].

use super::brute::value;
use super::engine::{legal_moves, play};
use super::{RefGame, RefPos};

/// The swap game of one start.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SwapGame {
    /// Every first turn (its moves) with `v(t)`, the final South-minus-North value after it, in
    /// increasing move order.
    pub turns: Vec<(Vec<u8>, i32)>,
    /// The first player's result under perfect play of the swap game.
    pub pie_value: i32,
}

/// The swap game from `start` (South, the first player, to move).
pub fn swap_game(g: RefGame, start: &RefPos) -> SwapGame {
    let first = start.to_move.expect("a side to move");
    let turns: Vec<(Vec<u8>, i32)> = first_turns(g, start)
        .into_iter()
        .map(|(moves, q)| (moves, value(g, &q)))
        .collect();
    // After the turn the second player either plays on, leaving the first player the margin
    // `v` seen from their side, or swaps, which gives the first player the other side of the
    // same position: the negated margin. They choose what is worse for the first player, who
    // chooses the turn that is best for them against that.
    let sign = if first == 0 { 1 } else { -1 };
    let pie_value = turns
        .iter()
        .map(|&(_, v)| {
            let keep = sign * v;
            let swap = -sign * v;
            keep.min(swap)
        })
        .max()
        .expect("a first turn");
    SwapGame { turns, pie_value }
}

/// Every whole first turn from `start` (its moves, in increasing move order) with the position
/// it leaves: the other side to move, or the game over.
pub fn first_turns(g: RefGame, start: &RefPos) -> Vec<(Vec<u8>, RefPos)> {
    let first = start.to_move.expect("a side to move");
    let mut out = Vec::new();
    turns_from(g, start, first, &mut Vec::new(), &mut out);
    out
}

fn turns_from(
    g: RefGame,
    p: &RefPos,
    first: usize,
    path: &mut Vec<u8>,
    out: &mut Vec<(Vec<u8>, RefPos)>,
) {
    for mv in legal_moves(g, p) {
        let q = play(g, p, mv).expect("a legal move");
        path.push(mv);
        if q.to_move == Some(first) {
            turns_from(g, &q, first, path, out);
        } else {
            out.push((path.clone(), q));
        }
        path.pop();
    }
}
