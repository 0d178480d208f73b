//! The entry points: [`solve`], [`analyze`], and [`Solver`], which keeps one table across calls.

use std::time::Instant;

use super::config::SearchConfig;
use super::oracle::Oracle;
use super::outcome::{Proven, SearchError, SearchResult};
use super::shared::Job;
use super::threads::Pool;
use crate::game::{Child, Children, Game};
use crate::tt::TranspositionTable;

/// Solves `root`: its exact value, all best moves and a principal variation.
///
/// # Errors
/// [`SearchError::Table`] when the table cannot be built for this game and size;
/// [`SearchError::Interrupted`] when the stop flag was raised.
pub fn solve<G: Game>(
    root: &G,
    cfg: &SearchConfig,
    oracle: Option<&dyn Oracle<G>>,
) -> Result<SearchResult<G>, SearchError> {
    Solver::new(root, cfg.clone(), oracle)?.solve(root)
}

/// The exact value of every legal move of `root`, from the mover's point of view
/// (`gain ± F(next)`), in `children()` order. Empty when the game is over.
///
/// # Errors
/// As [`solve`].
pub fn analyze<G: Game>(
    root: &G,
    cfg: &SearchConfig,
    oracle: Option<&dyn Oracle<G>>,
) -> Result<Vec<(G::Move, i32)>, SearchError> {
    Solver::new(root, cfg.clone(), oracle)?.analyze(root)
}

/// A search context that keeps its transposition table across calls (for example `solve` then
/// `analyze` on the same position, or many positions of one game).
pub struct Solver<'o, G: Game> {
    pool: Pool<'o, G>,
}

impl<'o, G: Game> Solver<'o, G> {
    /// A solver for `root` and the positions reachable from it.
    ///
    /// # Errors
    /// [`SearchError::Table`] when the table cannot be built (size, stake, memory).
    pub fn new(
        root: &G,
        cfg: SearchConfig,
        oracle: Option<&'o dyn Oracle<G>>,
    ) -> Result<Self, SearchError> {
        Ok(Self {
            pool: Pool::new(root, cfg, oracle)?,
        })
    }

    /// The transposition table (for statistics such as [`TranspositionTable::hashfull`]).
    pub fn table(&self) -> &TranspositionTable {
        &self.pool.tt
    }

    /// The exact future value of `pos` (a position reachable from the solver's root).
    ///
    /// # Errors
    /// [`SearchError::Interrupted`] when the stop flag was raised; [`SearchError::Oracle`] when
    /// the oracle found a fault in its own data.
    pub fn value(&mut self, pos: &G) -> Result<i32, SearchError> {
        self.pool.audit(pos)?;
        let s = pos.stake();
        self.pool.run(Job::Exact(*pos, -s, s))
    }

    /// One null-window test, "is the future value of `pos` at least `t`?" (a position reachable
    /// from the solver's root), answered as a fail-soft bound `r`: `r >= t` (yes) proves
    /// `F(pos) >= r`, `r < t` (no) proves `F(pos) <= r`. A position whose game is over answers
    /// 0, its value.
    ///
    /// # Errors
    /// [`SearchError::Interrupted`] when the stop flag was raised; [`SearchError::Oracle`] when
    /// the oracle found a fault in its own data.
    pub fn bound(&mut self, pos: &G, t: i32) -> Result<i32, SearchError> {
        self.pool.audit(pos)?;
        self.pool.bound(pos, t)
    }

    /// The heuristic first guess at the future value of `pos` that [`Solver::value`] starts its
    /// null-window tests from: a look-ahead of [`SearchConfig::guess_depth`] plies with
    /// [`Game::estimate`] at the horizon (it leaves move hints in the table), or 1 ("is it
    /// won?") below [`SearchConfig::guess_min_stake`], or the whole stake when a first test
    /// proves that the mover takes it all. Only a guess, never a bound.
    ///
    /// # Errors
    /// [`SearchError::Interrupted`] when the stop flag was raised; [`SearchError::Oracle`] when
    /// the oracle found a fault in its own data.
    pub fn guess(&mut self, pos: &G) -> Result<i32, SearchError> {
        self.pool.audit(pos)?;
        let stake = pos.stake();
        if stake < self.pool.cfg.guess_min_stake {
            return Ok(1);
        }
        // As the value search does: first whether the mover takes the whole stake, nearly free
        // to refute and, when true, far cheaper than the look-ahead.
        if self.pool.bound(pos, stake)? >= stake {
            return Ok(stake);
        }
        self.pool.run(Job::Guess(*pos))
    }

    /// Solves `pos` (a position reachable from the solver's root): value, best moves, PV.
    ///
    /// # Errors
    /// [`SearchError::Interrupted`] when the stop flag was raised; [`SearchError::Oracle`] when
    /// the oracle found a fault in its own data.
    pub fn solve(&mut self, pos: &G) -> Result<SearchResult<G>, SearchError> {
        self.solve_tracked(pos, &mut Proven::default())
    }

    /// [`Solver::solve`], recording in `proven` the value once known and each move as it is
    /// proven best or worse, so that a stopped solve leaves what it proved.
    ///
    /// # Errors
    /// [`SearchError::Interrupted`] when the stop flag was raised; [`SearchError::Oracle`] when
    /// the oracle found a fault in its own data.
    pub fn solve_tracked(
        &mut self,
        pos: &G,
        proven: &mut Proven<G::Move>,
    ) -> Result<SearchResult<G>, SearchError> {
        let start = Instant::now();
        self.pool.audit(pos)?;
        let before = self.pool.stats;
        let s = pos.stake();
        let (lo, hi) = self.pool.floor(pos, -s, s)?;
        let mut children = Children::new();
        self.pool.root_children(pos, &mut children)?;
        let hint = self.pool.table_move(pos);
        let value = self.settle_moves(children.as_slice(), hint, lo, hi, proven)?;
        let pv = self.pool.pv(pos, value)?;
        let stats = self.pool.stats;
        Ok(SearchResult {
            value,
            best: proven.best.clone(),
            pv,
            nodes: stats.nodes - before.nodes,
            tt_probes: stats.probes - before.probes,
            tt_hits: stats.hits - before.hits,
            oracle_probes: stats.oracle_probes - before.oracle_probes,
            oracle_hits: stats.oracle_hits - before.oracle_hits,
            seconds: start.elapsed().as_secs_f64(),
            tt_bytes: self.pool.tt.bytes(),
        })
    }

    /// The value of a position whose moves are `children`, given a proven floor `floor` (some
    /// move reaches it) and ceiling `ceiling`, settled move by move: each move is first asked
    /// whether it reaches the floor; one that does not is worse, one that does is asked whether
    /// it goes past it (unless the floor is the ceiling), and one that goes past raises the
    /// floor. Below the ceiling this is the proof that ends MTD(f) (no move goes past the value)
    /// taken apart at the root: a worse move then costs one proof that it falls short of the
    /// value, which the best moves need anyway, instead of that one and another that it does not
    /// exceed the value.
    fn settle_moves(
        &mut self,
        children: &[Child<G>],
        hint: Option<u8>,
        floor: i32,
        ceiling: i32,
        proven: &mut Proven<G::Move>,
    ) -> Result<i32, SearchError> {
        let mut v = floor;
        if v >= ceiling {
            proven.value = Some(v);
        }
        // Per move: Some(true) best at `v`, Some(false) worse, None not settled yet.
        let mut settled = vec![None; children.len()];
        for (i, c) in children.iter().enumerate() {
            let likely = hint == Some(G::move_index(c.mv));
            if !self.pool.achieves(c, v, likely)? {
                settled[i] = Some(false);
                proven.worse = worse_of(children, &settled);
                continue;
            }
            self.reached(c, v);
            while v < ceiling {
                let r = self.pool.move_bound(c, v + 1, false)?;
                if r <= v {
                    break;
                }
                // This move reaches r > v: the moves kept as best so far are worse.
                for s in settled.iter_mut().filter(|s| **s == Some(true)) {
                    *s = Some(false);
                }
                proven.worse = worse_of(children, &settled);
                v = r;
                self.reached(c, v);
                if let Some(p) = &self.pool.cfg.progress {
                    p.narrow(v, i32::MAX);
                }
            }
            settled[i] = Some(true);
            if v >= ceiling {
                proven.value = Some(v);
                proven.best = best_of(children, &settled);
            }
        }
        debug_assert!(
            children.is_empty() || settled.contains(&Some(true)),
            "no move reaches the proven floor"
        );
        proven.value = Some(v);
        proven.best = best_of(children, &settled);
        if let Some(p) = &self.pool.cfg.progress {
            p.narrow(v, v);
        }
        Ok(v)
    }

    /// Tells the progress display that the root move to `c` is proven to reach `v`.
    fn reached(&self, c: &Child<G>, v: i32) {
        if let Some(p) = &self.pool.cfg.progress {
            p.reach(G::move_index(c.mv), v);
        }
    }

    /// The exact future value of `pos` and its best moves in `children()` order: all of them, or
    /// only the first when `first_only`. After the value, each move costs one null-window test
    /// ("does it reach the value?"), far less than its exact value ([`Solver::analyze`]) when
    /// it is worse; no principal variation is built.
    ///
    /// # Errors
    /// [`SearchError::Interrupted`] when the stop flag was raised; [`SearchError::Oracle`] when
    /// the oracle found a fault in its own data.
    pub fn best_moves(
        &mut self,
        pos: &G,
        first_only: bool,
    ) -> Result<(i32, Vec<G::Move>), SearchError> {
        let value = self.value(pos)?;
        let mut children = Children::new();
        self.pool.root_children(pos, &mut children)?;
        let mut best = Vec::new();
        let hint = self.pool.table_move(pos);
        for c in children.as_slice() {
            if self
                .pool
                .achieves(c, value, hint == Some(G::move_index(c.mv)))?
            {
                best.push(c.mv);
                if first_only {
                    break;
                }
            }
        }
        Ok((value, best))
    }

    /// The exact value of every legal move of `pos` from the mover's point of view, in
    /// `children()` order.
    ///
    /// # Errors
    /// [`SearchError::Interrupted`] when the stop flag was raised; [`SearchError::Oracle`] when
    /// the oracle found a fault in its own data.
    pub fn analyze(&mut self, pos: &G) -> Result<Vec<(G::Move, i32)>, SearchError> {
        let mut proven = Proven::default();
        self.analyze_tracked(pos, &mut proven)?;
        Ok(proven.valued)
    }

    /// [`Solver::analyze`], recording each move's value in `proven.valued` as it is found, so
    /// that a stopped analysis leaves the moves it valued.
    ///
    /// # Errors
    /// [`SearchError::Interrupted`] when the stop flag was raised; [`SearchError::Oracle`] when
    /// the oracle found a fault in its own data.
    pub fn analyze_tracked(
        &mut self,
        pos: &G,
        proven: &mut Proven<G::Move>,
    ) -> Result<(), SearchError> {
        let mut children = Children::new();
        self.pool.root_children(pos, &mut children)?;
        for c in children.as_slice() {
            let f = self.value(&c.next)?;
            proven
                .valued
                .push((c.mv, c.gain + if c.turn_passed { -f } else { f }));
        }
        if !children.is_empty() {
            proven.value = proven.valued.iter().map(|v| v.1).max();
        }
        Ok(())
    }

    /// Counters summed over every call so far.
    pub fn nodes(&self) -> u64 {
        self.pool.stats.nodes
    }
}

/// The moves settled as worse (`Some(false)`), in `children()` order.
fn worse_of<G: Game>(children: &[Child<G>], settled: &[Option<bool>]) -> Vec<G::Move> {
    settled_as(children, settled, false)
}

/// The moves settled as best (`Some(true)`), in `children()` order.
fn best_of<G: Game>(children: &[Child<G>], settled: &[Option<bool>]) -> Vec<G::Move> {
    settled_as(children, settled, true)
}

fn settled_as<G: Game>(
    children: &[Child<G>],
    settled: &[Option<bool>],
    best: bool,
) -> Vec<G::Move> {
    children
        .iter()
        .zip(settled)
        .filter(|(_, s)| **s == Some(best))
        .map(|(c, _)| c.mv)
        .collect()
}
