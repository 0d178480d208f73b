//! Best moves and the principal variation, once the value is known: null-window tests on the
//! children, each searched as a fresh root so that its answer does not depend on the path.

use super::order::move_order;
use super::outcome::SearchError;
use super::shared::Job;
use super::threads::Pool;
use crate::game::{Child, Children, Game};

impl<G: Game> Pool<'_, G> {
    /// Whether the move to `c` achieves `value` for the mover (it can do no better, as `value` is
    /// the maximum): one null-window test on the child, searched as a fresh root so that its
    /// value is path-independent. `likely`: whether the answer is expected to be yes (a hint for
    /// the threads, see [`Pool::move_bound`]).
    pub(super) fn achieves(
        &mut self,
        c: &Child<G>,
        value: i32,
        likely: bool,
    ) -> Result<bool, SearchError> {
        Ok(self.move_bound(c, value, likely)? >= value)
    }

    /// The null-window test "does the move to `c` reach `t` for the mover?" as a fail-soft bound
    /// `r` on the move's value `gain ± F(next)`: `r >= t` proves it is at least `r`, `r < t` that
    /// it is at most `r`. A test the child's stake settles costs no search.
    ///
    /// `likely`: whether the move is expected to reach `t`. The child's mover must then find one
    /// good move (a CUT node) when the turn passes, or fail with every move (an ALL node) when
    /// it is kept, and the other way round; at an ALL root the threads start on different moves
    /// (see [`super::defer::put_off`]). Only the threads' spread depends on it, never the answer.
    pub(super) fn move_bound(
        &mut self,
        c: &Child<G>,
        t: i32,
        likely: bool,
    ) -> Result<i32, SearchError> {
        let s = c.next.stake();
        // The move reaches t  <=>  F(next) >= u (turn kept: gain + F >= t), or
        // F(next) <= gain - t  <=>  !(F(next) >= u) (turn passed: gain - F >= t).
        let (sign, u) = if c.turn_passed {
            (-1, c.gain - t + 1)
        } else {
            (1, t - c.gain)
        };
        let f = if u > s {
            s // F <= s < u
        } else if u <= -s {
            -s // F >= -s >= u
        } else {
            // "F(next) >= u" is expected to answer no (an ALL root) when the move is expected to
            // fall short and keeps the turn, or expected to reach `t` and passes it.
            self.bound_expecting(&c.next, u, likely == c.turn_passed)?
        };
        Ok(c.gain + sign * f)
    }

    /// The null-window test `F(pos) >= t` as a fail-soft bound `r`: `r >= t` proves
    /// `F(pos) >= r`, `r < t` proves `F(pos) <= r`. Settled by the table when a stored bound
    /// decides it (stored bounds are true bounds on F, path-independent by construction), else
    /// by a null-window search of `pos` as a fresh root.
    pub(super) fn bound(&mut self, pos: &G, t: i32) -> Result<i32, SearchError> {
        self.bound_expecting(pos, t, false)
    }

    /// [`Pool::bound`], expected to answer no (`F(pos) < t`) when `all`.
    fn bound_expecting(&mut self, pos: &G, t: i32, all: bool) -> Result<i32, SearchError> {
        if let Some(e) = self.tt.probe(pos.key()) {
            if e.lower >= t {
                return Ok(e.lower);
            }
            if e.upper < t {
                return Ok(e.upper);
            }
        }
        self.run(Job::AtLeast(*pos, t, all))
    }

    /// A principal variation from `root`, whose value is `value`: from each position, the first
    /// child in the search's static order that achieves the position's value, until the game
    /// ends or (cyclic games) a position repeats.
    pub(super) fn pv(&mut self, root: &G, value: i32) -> Result<Vec<G::Move>, SearchError> {
        let mut pv = Vec::new();
        let mut seen = Vec::new();
        let (mut pos, mut value) = (*root, value);
        let mut children = Children::new();
        loop {
            if G::CAN_CYCLE {
                // A principal variation of a cyclic game may loop forever; stop at the repetition.
                let k = pos.key();
                if seen.contains(&k) {
                    break;
                }
                seen.push(k);
            }
            children.clear();
            if pos
                .children_until(&mut children, self.cfg.borrowed_stop())
                .is_err()
            {
                return Err(SearchError::Interrupted);
            }
            let kids = children.as_slice();
            // The first child, in the search's static order (turn-keeping moves, then gain, then
            // the game's hint; no table move, so the PV does not depend on the thread count),
            // that achieves the value. That order nearly always tries a best move first, and its
            // test is then answered from the bounds the value passes left in the table; in
            // `children()` order, each worse move tried first would cost a fresh proof that it is
            // worse.
            let order = move_order(kids, None, |_, c| c.gain);
            let hint = self.table_move(&pos);
            let mut next = None;
            for &i in &order[..kids.len()] {
                let c = &kids[usize::from(i)];
                if self.achieves(c, value, hint == Some(G::move_index(c.mv)))? {
                    next = Some(*c);
                    break;
                }
            }
            let Some(c) = next else {
                debug_assert!(children.is_empty(), "no child achieves the proven value");
                break;
            };
            pv.push(c.mv);
            value = if c.turn_passed {
                c.gain - value
            } else {
                value - c.gain
            };
            pos = c.next;
        }
        Ok(pv)
    }

    /// The best move the table holds for `pos`: a guess at which of its moves reaches its value.
    pub(super) fn table_move(&self, pos: &G) -> Option<u8> {
        self.tt.probe(pos.key()).and_then(|e| e.best)
    }
}
