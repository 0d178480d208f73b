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

#[cfg(test)]
mod tests {
    use super::move_order;
    use crate::game::{Child, Children, Game, MAX_MOVES};
    use crate::toy::take::{Take, TakeSpec};

    /// The packed sort against a plain stable sort by the documented keys: random lists of up
    /// to `MAX_MOVES` children with many ties, values at both ends of their range, with and
    /// without a table move.
    #[test]
    fn move_order_is_the_stable_sort_by_its_keys() {
        static SPEC: TakeSpec = TakeSpec { vals: Vec::new() };
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move |n: u64| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state % n
        };
        for _ in 0..20_000 {
            let n = 1 + next(MAX_MOVES as u64) as usize;
            let mut kids: Children<Take> = Children::new();
            for i in 0..n {
                let gain = match next(4) {
                    0 => next(3) as i32 - 1,
                    1 => 510 - next(3) as i32,
                    2 => next(3) as i32 - 510,
                    _ => next(1021) as i32 - 510,
                };
                kids.push(Child {
                    mv: i as u8 + 1,
                    next: Take { spec: &SPEC, n: 0 },
                    gain,
                    turn_passed: next(2) == 0,
                });
            }
            let kids = kids.as_slice();
            let tt_move = (next(3) != 0).then(|| next(MAX_MOVES as u64 + 2) as u8);
            let got = move_order(kids, tt_move, |_, c| c.gain);
            let mut want: Vec<usize> = (0..n).collect();
            want.sort_by_key(|&i| {
                let c = &kids[i];
                let tt = tt_move == Some(Take::move_index(c.mv));
                std::cmp::Reverse((tt, !c.turn_passed, c.gain, Take::order_hint(c.mv)))
            });
            let got: Vec<usize> = got[..n].iter().map(|&i| usize::from(i)).collect();
            assert_eq!(got, want, "{tt_move:?} {:?}", kids);
        }
    }
}
