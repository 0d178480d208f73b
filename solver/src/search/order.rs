//! Move ordering: in which order a node searches its children ([`move_order`]). Each key of
//! the order is there because it made the benchmark solves' trees smaller (the measurements are
//! in docs/performance.md).

use crate::game::{Child, Game, MAX_MOVES};

/// The indexes of `kids` in the order to search them: the table's move first, then moves that
/// keep the turn, then by `value(i, child)` (a guess at the child's value for the mover), then by
/// the game's order hint; remaining ties keep `children()` order (insertion sort is stable, and
/// there are few children).
pub(super) fn move_order<G: Game>(
    kids: &[Child<G>],
    tt_move: Option<u8>,
    value: impl Fn(usize, &Child<G>) -> i32,
) -> [u8; MAX_MOVES] {
    let mut order = [0u8; MAX_MOVES];
    let mut score = [0i32; MAX_MOVES];
    for (i, c) in kids.iter().enumerate() {
        let s = if tt_move == Some(G::move_index(c.mv)) {
            i32::MAX
        } else {
            // |value| <= 2 * 255 < 2048, so the turn bit dominates.
            (i32::from(!c.turn_passed) * 2048 + value(i, c)) * 64
                + i32::from(G::order_hint(c.mv).min(63))
        };
        let mut j = i;
        while j > 0 && score[j - 1] < s {
            score[j] = score[j - 1];
            order[j] = order[j - 1];
            j -= 1;
        }
        score[j] = s;
        order[j] = i as u8;
    }
    order
}
