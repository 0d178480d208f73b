//! The manager of a distributed solve, as a state machine that knows nothing of how its jobs
//! travel (the MPI binary's `solve` drives it over MPI; the tests drive it with an in-process
//! worker): the top `depth` plies of the tree are the manager's, and every question it cannot
//! answer from what it knows becomes a job, a null-window test "is the future value of `p` at
//! least `b`?" on a position `p` exactly `depth` plies below the root (the [`frontier`]).
//!
//! # How the value is found
//!
//! The root value is pinned by MTD(f): a sequence of root tests "F(root) >= t?", each at the
//! bound the last one proved (bisecting when the bound keeps creeping one way), from `t = 1`
//! ("is it won?") or a first guess ([`Manager::start_at`]). Then every root move whose value is still unknown gets its own test, "does
//! this move reach the value?", as [`Solver::solve`] does: the best moves are those that do,
//! the same set.
//!
//! A test on a node above the frontier is decided by its children (a child's value for the
//! mover is its gain plus or minus the child's future value, [`crate::game`]): true when one
//! child's test is true, false when all are false. What the manager knows is, for every
//! frontier position, an interval of its future value: each finished job (position, bound,
//! fail-soft result `r`) narrows it (`r >= b` proves `F >= r`, `r < b` proves `F <= r`). From
//! these intervals every node's interval follows by minimax ([`Manager::poll`] recomputes them
//! after every answer), and a test is decided once the interval is on one side of its bound.
//!
//! # Jobs
//!
//! Every undecided test needs the undecided tests of its children, down to the frontier, where
//! each is a job `(position, bound)`: the list of those jobs, in a depth-first walk in the
//! search's static move order (turn-keeping moves, then gain), is what the manager wants done. The same `(position, bound)` reached by two paths (a
//! transposition) is one job. Jobs are placed by a hash of the position ([`owner`]), so that a
//! position always goes to the same worker, whose transposition table then serves its later
//! jobs; each worker has at most `per_worker` jobs at a time (one running, the next waiting), the
//! first of the list first. A job that the wanted list no longer holds (a sibling's answer
//! decided its node, or the root test it served is decided) is cancelled; a worker answers every
//! job once, with its result or with "cancelled".
//!
//! The answers are exact bounds whatever their order, so the value and the best moves do not
//! depend on the number of workers or on timing; only the jobs run and the nodes searched do.
//!
//! [`frontier`]: super::split::frontier
//! [`owner`]: super::split::owner
//! [`Solver::solve`]: super::Solver::solve

use std::collections::{HashMap, HashSet};

use super::order::move_order;
use super::split::owner;
use crate::game::{Child, Children, Game};

/// What the manager asks of its workers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Order<G> {
    /// Run the test "F(pos) >= bound?" and answer [`Manager::finished`] with its fail-soft
    /// result (or [`Manager::cancelled`] if it was cancelled meanwhile).
    Run {
        /// The job's number, for the answer.
        id: u64,
        /// The worker (`0..workers`) that runs it.
        worker: usize,
        /// A position of the frontier.
        pos: G,
        /// The test's bound.
        bound: i32,
    },
    /// Stop job `id` if it still runs (or drop it if it waits), and answer "cancelled"; a job
    /// already answered needs nothing.
    Cancel {
        /// The job's number.
        id: u64,
        /// The worker it was given to.
        worker: usize,
    },
}

/// What [`Manager::poll`] says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Poll<G: Game> {
    /// Send these orders (maybe none), then wait for an answer.
    Orders(Vec<Order<G>>),
    /// The solve is over and no job is out.
    Done(Outcome<G>),
}

/// The result of the solve.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome<G: Game> {
    /// The exact future value of the root.
    pub value: i32,
    /// Every move that achieves it, in `children()` order (empty when the game is over).
    pub best: Vec<G::Move>,
}

/// The manager's counters.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// Jobs given to workers.
    pub issued: u64,
    /// Jobs answered with a result.
    pub finished: u64,
    /// Jobs answered "cancelled".
    pub cancelled: u64,
    /// Results learned from a journal ([`Manager::learn`]).
    pub reused: u64,
}

/// A job given out and not yet answered.
struct Out {
    key: u128,
    bound: i32,
    worker: usize,
    cancelling: bool,
}

/// Where the root driver is.
enum Phase {
    /// Pinning the value: the root test "F(root) >= t?"; `high` is whether the last test was
    /// true, `run` how many tests in a row went the same way.
    Value {
        t: i32,
        high: Option<bool>,
        run: u32,
    },
    /// The value is `value`: deciding which root moves achieve it.
    Best { value: i32 },
    /// Known.
    Known(i32, Vec<usize>),
}

/// Tests in a row that move the bound the same way before the root driver bisects (as
/// [`super::SearchConfig::bisect_after`]'s default).
const BISECT_AFTER: u32 = 8;

/// The manager of a distributed solve (see the module docs).
pub struct Manager<G: Game> {
    root: G,
    depth: u32,
    workers: usize,
    per_worker: usize,
    /// What is known of the future value of frontier positions, by key: `(lo, hi)`.
    known: HashMap<u128, (i32, i32)>,
    /// Every node's interval, by (key, plies left), for the current `known`.
    cache: HashMap<(u128, u32), (i32, i32)>,
    out: HashMap<u64, Out>,
    /// The jobs out, by (key, bound), to merge a job wanted twice.
    out_by_test: HashMap<(u128, i32), u64>,
    load: Vec<usize>,
    next_id: u64,
    phase: Phase,
    counts: Counts,
}

impl<G: Game> Manager<G> {
    /// A manager for the solve of `root` with the top `depth` plies (at least 1) its own, over
    /// `workers` workers of at most `per_worker` jobs each.
    ///
    /// # Panics
    /// When `depth`, `workers` or `per_worker` is 0.
    pub fn new(root: G, depth: u32, workers: usize, per_worker: usize) -> Self {
        assert!(depth >= 1, "the manager keeps at least the root's moves");
        assert!(workers >= 1 && per_worker >= 1, "no worker");
        Manager {
            root,
            depth,
            workers,
            per_worker,
            known: HashMap::new(),
            cache: HashMap::new(),
            out: HashMap::new(),
            out_by_test: HashMap::new(),
            load: vec![0; workers],
            next_id: 0,
            phase: Phase::Value {
                t: 1,
                high: None,
                run: 0,
            },
            counts: Counts::default(),
        }
    }

    /// Makes the first root test "F(root) >= t?" instead of "F(root) >= 1?" (for instance at
    /// [`super::Solver::guess`]); only a guess, so it changes the jobs, never the outcome. Call
    /// it before the first [`Manager::poll`].
    pub fn start_at(&mut self, t: i32) {
        if let Phase::Value { high: None, .. } = self.phase {
            self.phase = Phase::Value {
                t,
                high: None,
                run: 0,
            };
        }
    }

    /// A result learned elsewhere (a journal of an earlier run of the same solve): the test
    /// "F(p) >= bound?" of the frontier position with this key answered `result`.
    pub fn learn(&mut self, key: u128, bound: i32, result: i32) {
        self.narrow(key, bound, result);
        self.counts.reused += 1;
    }

    /// The interval of the root's future value that the results so far prove (for progress
    /// reports).
    pub fn root_interval(&mut self) -> (i32, i32) {
        let root = self.root;
        self.interval(&root, self.depth)
    }

    /// The counters so far.
    pub fn counts(&self) -> Counts {
        self.counts
    }

    /// The answer to job `id`: its fail-soft result. Returns the job's test, `(key, bound)`,
    /// for the journal.
    ///
    /// # Panics
    /// When no job `id` is out.
    pub fn finished(&mut self, id: u64, result: i32) -> (u128, i32) {
        let o = self.answered(id);
        self.narrow(o.key, o.bound, result);
        self.counts.finished += 1;
        (o.key, o.bound)
    }

    /// Job `id` was cancelled before it finished.
    ///
    /// # Panics
    /// When no job `id` is out.
    pub fn cancelled(&mut self, id: u64) {
        self.answered(id);
        self.counts.cancelled += 1;
    }

    fn answered(&mut self, id: u64) -> Out {
        let o = self
            .out
            .remove(&id)
            .expect("an answer to a job that is not out");
        self.out_by_test.remove(&(o.key, o.bound));
        self.load[o.worker] -= 1;
        o
    }

    fn narrow(&mut self, key: u128, bound: i32, r: i32) {
        let e = self.known.entry(key).or_insert((i32::MIN, i32::MAX));
        if r >= bound {
            e.0 = e.0.max(r);
        } else {
            e.1 = e.1.min(r);
        }
        debug_assert!(e.0 <= e.1, "contradictory results for one position");
        self.cache.clear();
    }

    /// What to do next: the orders that the answers so far call for, or the outcome once it
    /// is known and every job is answered.
    pub fn poll(&mut self) -> Poll<G> {
        let wanted = self.advance();
        let mut orders = Vec::new();
        // Cancel what is no longer wanted.
        let keep: HashSet<(u128, i32)> = wanted.iter().map(|&(p, b)| (p.key(), b)).collect();
        let mut ids: Vec<u64> = self.out.keys().copied().collect();
        ids.sort_unstable();
        for id in ids {
            let o = self.out.get_mut(&id).expect("out");
            if !o.cancelling && !keep.contains(&(o.key, o.bound)) {
                o.cancelling = true;
                orders.push(Order::Cancel {
                    id,
                    worker: o.worker,
                });
            }
        }
        // Give out the wanted jobs in order, to workers with room.
        for (pos, bound) in wanted {
            let key = pos.key();
            if self.out_by_test.contains_key(&(key, bound)) {
                continue;
            }
            let worker = owner(key, self.workers);
            if self.load[worker] >= self.per_worker {
                continue;
            }
            let id = self.next_id;
            self.next_id += 1;
            self.load[worker] += 1;
            self.out.insert(
                id,
                Out {
                    key,
                    bound,
                    worker,
                    cancelling: false,
                },
            );
            self.out_by_test.insert((key, bound), id);
            self.counts.issued += 1;
            orders.push(Order::Run {
                id,
                worker,
                pos,
                bound,
            });
        }
        if let Phase::Known(value, best) = &self.phase {
            if self.out.is_empty() {
                let mut kids = Children::new();
                self.root.children(&mut kids);
                let best = best.iter().map(|&i| kids.as_slice()[i].mv).collect();
                return Poll::Done(Outcome {
                    value: *value,
                    best,
                });
            }
        }
        Poll::Orders(orders)
    }

    /// Moves the root driver on as far as what is known allows; returns the jobs wanted now.
    fn advance(&mut self) -> Vec<(G, i32)> {
        let root = self.root;
        let mut kids = Children::new();
        root.children(&mut kids);
        if kids.is_empty() {
            self.phase = Phase::Known(0, Vec::new());
        }
        loop {
            match self.phase {
                Phase::Known(..) => return Vec::new(),
                Phase::Value { t, high, run } => {
                    let (lo, hi) = self.interval(&root, self.depth);
                    if lo >= hi {
                        self.phase = Phase::Best { value: lo };
                        continue;
                    }
                    if lo < t && t <= hi {
                        let mut wanted = Vec::new();
                        self.want(&root, self.depth, t, &mut wanted, &mut HashSet::new());
                        return wanted;
                    }
                    // The test is decided: the next one, at the bound just proved.
                    let now = lo >= t;
                    let run = if high == Some(now) { run + 1 } else { 0 };
                    let t = if run >= BISECT_AFTER {
                        lo + 1 + (hi - lo).div_euclid(2)
                    } else if now {
                        lo + 1
                    } else {
                        hi
                    };
                    self.phase = Phase::Value {
                        t,
                        high: Some(now),
                        run,
                    };
                }
                Phase::Best { value } => {
                    let mut wanted = Vec::new();
                    let mut best = Vec::new();
                    let mut open = false;
                    let mut seen = HashSet::new();
                    for (i, c) in kids.as_slice().iter().enumerate() {
                        let (lo, hi) = self.child_interval(c);
                        if lo >= value {
                            best.push(i);
                        } else if hi >= value {
                            open = true;
                            let t = child_test(c, value);
                            self.want(&c.next, self.depth - 1, t, &mut wanted, &mut seen);
                        }
                    }
                    if open {
                        return wanted;
                    }
                    self.phase = Phase::Known(value, best);
                }
            }
        }
    }

    /// The interval of `p`'s future value that what is known proves, `plies` above the
    /// frontier.
    fn interval(&mut self, p: &G, plies: u32) -> (i32, i32) {
        if p.is_over() {
            return (0, 0);
        }
        let key = p.key();
        if plies == 0 {
            let s = p.stake();
            let (lo, hi) = self.known.get(&key).copied().unwrap_or((-s, s));
            return (lo.max(-s), hi.min(s));
        }
        if let Some(&v) = self.cache.get(&(key, plies)) {
            return v;
        }
        let mut kids = Children::new();
        p.children(&mut kids);
        let (mut lo, mut hi) = (i32::MIN, i32::MIN);
        for c in kids.as_slice() {
            let (l, h) = self.interval_below(c, plies - 1);
            lo = lo.max(l);
            hi = hi.max(h);
        }
        self.cache.insert((key, plies), (lo, hi));
        (lo, hi)
    }

    /// The interval of a root child's value for the mover.
    fn child_interval(&mut self, c: &Child<G>) -> (i32, i32) {
        self.interval_below(c, self.depth - 1)
    }

    /// The interval of child `c`'s value for the mover, its position `plies` above the frontier.
    fn interval_below(&mut self, c: &Child<G>, plies: u32) -> (i32, i32) {
        if c.next.is_over() {
            return (c.gain, c.gain);
        }
        let (l, h) = self.interval(&c.next, plies);
        if c.turn_passed {
            (c.gain - h, c.gain - l)
        } else {
            (c.gain + l, c.gain + h)
        }
    }

    /// Appends the jobs that the undecided test "F(p) >= t?" needs, depth first in move order,
    /// each (key, bound) once.
    fn want(
        &mut self,
        p: &G,
        plies: u32,
        t: i32,
        wanted: &mut Vec<(G, i32)>,
        seen: &mut HashSet<(u128, u32, i32)>,
    ) {
        let (lo, hi) = self.interval(p, plies);
        if lo >= t || hi < t || !seen.insert((p.key(), plies, t)) {
            return;
        }
        if plies == 0 {
            wanted.push((*p, t));
            return;
        }
        let mut kids = Children::new();
        p.children(&mut kids);
        let kids = kids.as_slice();
        // The search's static order (turn-keeping moves, then gain, then the game's hint): the
        // child most likely to reach `t` first, so its jobs go out first.
        let order = move_order(kids, None, |_, c| c.gain);
        for &i in &order[..kids.len()] {
            let c = &kids[usize::from(i)];
            if c.next.is_over() {
                continue;
            }
            // Undecided at `p` means no child reaches `t` yet; those that may are wanted.
            let (_, h) = self.interval_below(c, plies - 1);
            if h >= t {
                let ct = child_test(c, t);
                self.want(&c.next, plies - 1, ct, wanted, seen);
            }
        }
    }
}

/// The bound of the test on `c.next` that decides whether move `c` reaches `t` for the mover:
/// when the turn passed the move reaches `t` if that test is false, else if it is true.
fn child_test<G: Game>(c: &Child<G>, t: i32) -> i32 {
    if c.turn_passed {
        // gain - F >= t  <=>  F <= gain - t  <=>  !(F >= gain - t + 1)
        c.gain - t + 1
    } else {
        t - c.gain
    }
}

#[cfg(test)]
mod tests;
