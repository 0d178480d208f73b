//! Exact alpha-beta search: null-window bisection at the root, a shared lock-free transposition
//! table, and Lazy-SMP threads.
//!
//! # What is computed
//!
//! The future value `F` of [`crate::game`]: `F(x) = max_c c.gain ± F(c.next)`, negating only when
//! the turn passed, `F = 0` at the end of the game, and `0` for an infinite play.
//!
//! # Pieces
//!
//! - `node`: the negamax core, one function with numbered steps: window clamped to the stake
//!   (Pons), transposition-table cutoffs, the repetition rule, enhanced transposition cutoff over
//!   the children (the oracle's values before the first child is searched, the table's entries
//!   after it, when their loads have had time to arrive), move ordering, and the store.
//! - this module: the drivers. [`solve`] pins the root value by MTD(f)-style null-window searches
//!   within `-stake..=stake` (each test sits at the bound the last one proved, with a bisection
//!   fallback; every pass leaves bounds in the table for the next), then finds every best move and
//!   a principal variation by further null-window tests, each on a child searched as a fresh root.
//!   [`analyze`] solves every child. [`Solver`] keeps one table across several calls.
//!
//! # Threads
//!
//! Every thread runs the same driver on the same job, sharing the table (Lazy SMP). A thread that
//! enters a node another thread is busy with defers that child to the end of its own move list
//! (the ABDADA idea), so the threads spread over different subtrees and meet again through the
//! table; at nodes expected to be ALL nodes near the root even the first child is deferred
//! (`node::DEFER_FIRST_PLY`). In a value job thread 0 alone makes the heuristic first guess, and
//! the threads share the bounds proven so far: a thread gives up a test that another has
//! answered. The first thread to finish a job answers it and stops the others. Every value a thread
//! can return is exact, so the answer does not depend on the number of threads or on timing; only
//! node counts do. One thread is fully deterministic.
//!
//! # Cycles
//!
//! When [`Game::CAN_CYCLE`] is true, a position that repeats one on the current search path is
//! scored 0 (an infinite play wins nothing), and every result carries the smallest ply of a path
//! position it was cut against. Why this is exact:
//!
//! 1. Both players have positional optimal strategies σ (for the maximiser) and τ, optimal from
//!    every position (the layered threshold construction of the rules' retrograde analysis builds
//!    them).
//! 2. Consider any "stopped" game: play from the root, but stop with payoff 0 when a position
//!    repeats one earlier in the play, and possibly (by any rule, even history-dependent) stop at a
//!    position `z` with payoff `F(z)` (a table bound or an endgame-table value stands for this). A
//!    play following σ stops either at `z`, where accumulated gain + `F(z)` ≥ `F(root)` because σ
//!    is optimal everywhere, or at a repetition; then σ and the opponent's moves could repeat the
//!    cycle forever, a play consistent with σ whose value (cycles win nothing, since any gain
//!    lowers the layer) is the accumulated gain, so that too is ≥ `F(root)`. By symmetry with τ,
//!    the stopped game's value is exactly `F(root)`.
//! 3. Alpha-beta computes the stopped game's value (bounds thereof) exactly, so the root is exact.
//! 4. A result at ply `d` that was never cut against a path position above `d` is what a fresh
//!    search from that node would have computed; by 2 it is a true bound on `F` and may be stored.
//!    A result cut against a position above it depended on the path (graph-history interaction)
//!    and is stored only as a move hint.
//!
//! Table bounds are only used for cutoffs in cyclic games, never to narrow the window: a narrowed
//! window could mix `F` with a path-dependent value into a number that is neither. Repetitions
//! can only occur within a layer, so the path is scanned back only over same-layer positions.
//! With `CAN_CYCLE == false` all of this compiles away.

mod node;
#[cfg(test)]
mod tests;

use std::fmt;
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicU16, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Instant;

use crate::game::{Children, Game};
use crate::tt::{TranspositionTable, TtError};

use node::Searcher;

/// Exact values from outside the search, such as endgame tables.
pub trait Oracle<G: Game>: Sync {
    /// The exact future value of `pos`, when known. The search asks at every node it cannot
    /// settle from its transposition table, so a "don't know" answer should be cheap.
    fn probe(&self, pos: &G) -> Option<i32>;

    /// Whether [`Oracle::probe`] will answer for `pos`: if so, where the answer is, and the load
    /// of it started. The search calls it for every child of a node before it reads any (the
    /// enhanced transposition cutoff), so that their memory loads overlap; a child the oracle
    /// answers is then settled by [`Oracle::probe_at`], without a table probe or a search. The
    /// default says "don't know" (`None`): the search still asks `probe` when it visits the child.
    fn prefetch(&self, pos: &G) -> Option<OracleSlot> {
        let _ = pos;
        None
    }

    /// The answer for `pos` at `at`, which [`Oracle::prefetch`] returned for it: what `probe`
    /// says, without finding it again (for tables, ranking the position a second time).
    fn probe_at(&self, pos: &G, at: OracleSlot) -> i32 {
        let _ = at;
        self.probe(pos)
            .expect("Oracle::prefetch located a position that Oracle::probe does not answer")
    }
}

/// Where an oracle keeps the answer for a position, in its own coordinates (for endgame tables: a
/// layer and an entry), as [`Oracle::prefetch`] found it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct OracleSlot {
    /// The part of the oracle (for tables, the layer).
    pub part: u32,
    /// The place within the part.
    pub index: u64,
}

/// Live counters for a progress display, updated by the search every few thousand nodes.
#[derive(Debug)]
pub struct Progress {
    nodes: AtomicU64,
    lower: AtomicI32,
    upper: AtomicI32,
}

impl Default for Progress {
    fn default() -> Self {
        Self::new()
    }
}

impl Progress {
    /// Fresh counters.
    pub fn new() -> Self {
        Self {
            nodes: AtomicU64::new(0),
            lower: AtomicI32::new(0),
            upper: AtomicI32::new(0),
        }
    }

    /// Nodes searched so far, over all threads and jobs (approximate while running).
    pub fn nodes(&self) -> u64 {
        self.nodes.load(Ordering::Relaxed)
    }

    /// The bounds proved so far on the value of the position being solved at the moment (the
    /// root, or the child being analysed).
    pub fn bounds(&self) -> (i32, i32) {
        (
            self.lower.load(Ordering::Relaxed),
            self.upper.load(Ordering::Relaxed),
        )
    }

    fn start_job(&self, lower: i32, upper: i32) {
        self.lower.store(lower, Ordering::Relaxed);
        self.upper.store(upper, Ordering::Relaxed);
    }

    fn narrow(&self, lower: i32, upper: i32) {
        self.lower.fetch_max(lower, Ordering::Relaxed);
        self.upper.fetch_min(upper, Ordering::Relaxed);
    }
}

/// How to search.
#[derive(Clone, Debug)]
pub struct SearchConfig {
    /// Search threads (at least 1; 0 is taken as 1).
    pub threads: usize,
    /// Transposition table size in bytes (rounded down to whole 16-byte buckets).
    pub tt_bytes: usize,
    /// Set this flag to stop the search; it then returns [`SearchError::Interrupted`].
    pub stop: Option<Arc<AtomicBool>>,
    /// Counters the search keeps up to date for a progress display.
    pub progress: Option<Arc<Progress>>,
}

impl Default for SearchConfig {
    /// All available cores, a 256 MiB table, no stop flag, no progress counters.
    fn default() -> Self {
        Self {
            threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
            tt_bytes: 256 << 20,
            stop: None,
            progress: None,
        }
    }
}

/// The outcome of [`solve`].
#[derive(Clone, Debug)]
pub struct SearchResult<G: Game> {
    /// The exact future value for the side to move.
    pub value: i32,
    /// Every move that achieves `value`, in `children()` order. Empty when the game is over.
    pub best: Vec<G::Move>,
    /// A principal variation: from each position, the first move in `children()` order that
    /// achieves its value, until the game ends or a position repeats. Deterministic.
    pub pv: Vec<G::Move>,
    /// Nodes searched, over all threads.
    pub nodes: u64,
    /// Transposition table probes.
    pub tt_probes: u64,
    /// Probes that found the position.
    pub tt_hits: u64,
    /// Wall-clock time.
    pub seconds: f64,
    /// The transposition table's actual size in bytes.
    pub tt_bytes: usize,
}

/// Why a search gave no answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SearchError {
    /// The stop flag was raised.
    Interrupted,
    /// The transposition table could not be built.
    Table(TtError),
}

impl fmt::Display for SearchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SearchError::Interrupted => f.write_str("search interrupted"),
            SearchError::Table(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for SearchError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            SearchError::Table(e) => Some(e),
            SearchError::Interrupted => None,
        }
    }
}

impl From<TtError> for SearchError {
    fn from(e: TtError) -> Self {
        SearchError::Table(e)
    }
}

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

/// Stack size of search threads: the recursion keeps a move list per ply on the stack, and plays
/// within a layer of a cyclic game can be long. Only touched pages are committed.
const STACK_BYTES: usize = 256 << 20;

/// Depth of the heuristic iterative-deepening search run before the exact passes of a job that
/// asks for a value: at depth 16 it costs a few hundred thousand nodes (the heuristic search has
/// no table of its own) and, on Kalah with 6 holes, cut the exact search by about 20%; deeper
/// iterations grow much faster than they help.
const GUESS_DEPTH: u32 = 16;

/// Positions with less at stake than this are solved without the heuristic look-ahead: their
/// exact search is cheap anyway.
const GUESS_MIN_STAKE: i32 = 24;

/// Entries in the table of positions being searched (the ABDADA deferral hint). A collision only
/// makes a thread defer a child it need not have; it never affects a value.
const BUSY_BITS: u32 = 16;

/// A search context that keeps its transposition table across calls (for example `solve` then
/// `analyze` on the same position, or many positions of one game).
pub struct Solver<'o, G: Game> {
    tt: TranspositionTable,
    cfg: SearchConfig,
    oracle: Option<&'o dyn Oracle<G>>,
    busy: Box<[AtomicU16]>,
    stats: Stats,
}

/// Counters summed over threads.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Stats {
    pub(crate) nodes: u64,
    pub(crate) probes: u64,
    pub(crate) hits: u64,
}

impl Stats {
    fn add(&mut self, o: Stats) {
        self.nodes += o.nodes;
        self.probes += o.probes;
        self.hits += o.hits;
    }
}

/// One unit of work for all threads: decide whether `F(pos) >= t`, or find `F(pos)` exactly
/// within known bounds.
#[derive(Clone, Copy)]
enum Job<G> {
    AtLeast(G, i32),
    Exact(G, i32, i32),
}

/// State shared by the threads of one job.
pub(crate) struct Shared<'a, G: Game> {
    pub(crate) tt: &'a TranspositionTable,
    pub(crate) oracle: Option<&'a dyn Oracle<G>>,
    pub(crate) busy: &'a [AtomicU16],
    pub(crate) threads: usize,
    /// Plies below which a thread defers even a first child that another thread is in
    /// (`node::DEFER_FIRST_PLY` for value jobs, 0 for yes/no tests).
    pub(crate) defer_first_ply: u32,
    pub(crate) stop: Option<&'a AtomicBool>,
    pub(crate) progress: Option<&'a Progress>,
    /// Raised by the first thread that finishes the job.
    pub(crate) done: AtomicBool,
    /// The bounds on a value job's value proven so far by any thread. Each thread runs its own
    /// sequence of null-window tests; a thread whose test another thread has answered gives it
    /// up and goes on from the new bounds. Without this, the thread that lost the race finished
    /// each test on its own: on Kalah(6,4) standard with K=19 tables, 2 threads, the first test
    /// took one thread 1.1 M nodes and the other 5.0 M, 4 M of the solve's 32-35 M spent on a
    /// question already answered (the wall time it saves was within this machine's noise).
    lower: AtomicI32,
    upper: AtomicI32,
    /// The heuristic guess of a value job, once thread 0 has made it (`GUESS_PENDING` until
    /// then, `GUESS_STOPPED` when it was stopped).
    pub(crate) guess: AtomicI32,
}

/// [`Shared::guess`] before thread 0 has made it.
pub(crate) const GUESS_PENDING: i32 = i32::MIN;
/// [`Shared::guess`] when thread 0 was stopped before it made it.
pub(crate) const GUESS_STOPPED: i32 = i32::MIN + 1;

impl<G: Game> Shared<'_, G> {
    /// The bounds proven so far on the value job's value.
    pub(crate) fn proven(&self) -> (i32, i32) {
        (
            self.lower.load(Ordering::Relaxed),
            self.upper.load(Ordering::Relaxed),
        )
    }

    /// Records bounds a thread proved.
    pub(crate) fn prove(&self, lo: i32, hi: i32) {
        self.lower.fetch_max(lo, Ordering::Relaxed);
        self.upper.fetch_min(hi, Ordering::Relaxed);
    }
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
        let tt = TranspositionTable::for_game(root, cfg.tt_bytes)?;
        let busy = (0..1 << BUSY_BITS).map(|_| AtomicU16::new(0)).collect();
        Ok(Self {
            tt,
            cfg,
            oracle,
            busy,
            stats: Stats::default(),
        })
    }

    /// The transposition table (for statistics such as [`TranspositionTable::hashfull`]).
    pub fn table(&self) -> &TranspositionTable {
        &self.tt
    }

    /// The exact future value of `pos` (a position reachable from the solver's root).
    ///
    /// # Errors
    /// [`SearchError::Interrupted`] when the stop flag was raised.
    pub fn value(&mut self, pos: &G) -> Result<i32, SearchError> {
        let s = pos.stake();
        self.run(Job::Exact(*pos, -s, s))
    }

    /// Solves `pos` (a position reachable from the solver's root): value, best moves, PV.
    ///
    /// # Errors
    /// [`SearchError::Interrupted`] when the stop flag was raised.
    pub fn solve(&mut self, pos: &G) -> Result<SearchResult<G>, SearchError> {
        let start = Instant::now();
        let before = self.stats;
        let value = self.value(pos)?;
        let mut children = Children::new();
        pos.children(&mut children);
        let mut best = Vec::new();
        for c in children.as_slice() {
            if self.achieves(c, value)? {
                best.push(c.mv);
            }
        }
        let pv = self.pv(pos, value)?;
        Ok(SearchResult {
            value,
            best,
            pv,
            nodes: self.stats.nodes - before.nodes,
            tt_probes: self.stats.probes - before.probes,
            tt_hits: self.stats.hits - before.hits,
            seconds: start.elapsed().as_secs_f64(),
            tt_bytes: self.tt.bytes(),
        })
    }

    /// The exact value of every legal move of `pos` from the mover's point of view, in
    /// `children()` order.
    ///
    /// # Errors
    /// [`SearchError::Interrupted`] when the stop flag was raised.
    pub fn analyze(&mut self, pos: &G) -> Result<Vec<(G::Move, i32)>, SearchError> {
        let mut children = Children::new();
        pos.children(&mut children);
        let mut out = Vec::with_capacity(children.len());
        for c in children.as_slice() {
            let f = self.value(&c.next)?;
            out.push((
                c.mv,
                if c.turn_passed {
                    c.gain - f
                } else {
                    c.gain + f
                },
            ));
        }
        Ok(out)
    }

    /// Counters summed over every call so far.
    pub fn nodes(&self) -> u64 {
        self.stats.nodes
    }

    /// Whether the move to `c` achieves `value` for the mover (it can do no better, as `value` is
    /// the maximum): one null-window test on the child, searched as a fresh root so that its
    /// value is path-independent.
    fn achieves(&mut self, c: &crate::game::Child<G>, value: i32) -> Result<bool, SearchError> {
        let s = c.next.stake();
        if c.turn_passed {
            // gain - F(next) >= value  <=>  F(next) <= gain - value
            //                          <=>  !(F(next) >= gain - value + 1)
            let t = c.gain - value + 1;
            Ok(t > s || (t > -s && !self.at_least(&c.next, t)?))
        } else {
            let t = value - c.gain;
            Ok(t <= -s || (t <= s && self.at_least(&c.next, t)?))
        }
    }

    /// Whether `F(pos) >= t`: settled by the table when a stored bound decides it (stored bounds
    /// are true bounds on F, path-independent by construction), else by a null-window search.
    fn at_least(&mut self, pos: &G, t: i32) -> Result<bool, SearchError> {
        if let Some(e) = self.tt.probe(pos.key()) {
            if e.lower >= t {
                return Ok(true);
            }
            if e.upper < t {
                return Ok(false);
            }
        }
        Ok(self.run(Job::AtLeast(*pos, t))? == 1)
    }

    fn pv(&mut self, root: &G, value: i32) -> Result<Vec<G::Move>, SearchError> {
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
            pos.children(&mut children);
            let kids = children.as_slice();
            // The first child, in the search's static order (turn-keeping moves, then gain, then
            // the game's hint; no table move, so the PV does not depend on the thread count),
            // that achieves the value. That order nearly always tries a best move first, and its
            // test is then answered from the bounds the value passes left in the table. In
            // `children()` order, each worse move tried first cost a fresh proof that it is
            // worse: on Kalah(6,4) standard that was 46 M of 159 M nodes (1 thread); now 0.3 M.
            let order = node::move_order(kids, None, |_, c| c.gain);
            let mut next = None;
            for &i in &order[..kids.len()] {
                let c = &kids[usize::from(i)];
                if self.achieves(c, value)? {
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

    /// Runs a job on all threads; the first to finish answers. `AtLeast` answers 1 or 0.
    fn run(&mut self, job: Job<G>) -> Result<i32, SearchError> {
        let pos = match job {
            Job::AtLeast(p, _) | Job::Exact(p, _, _) => p,
        };
        if pos.is_over() {
            return Ok(match job {
                Job::AtLeast(_, t) => i32::from(t <= 0),
                Job::Exact(..) => 0,
            });
        }
        if let (Some(p), Job::Exact(_, lo, hi)) = (&self.cfg.progress, job) {
            p.start_job(lo, hi);
        }
        let threads = self.cfg.threads.max(1);
        // Marks are updated without atomic read-modify-writes (see `Searcher::mark_busy`), so a
        // race may have left one set: start every job from none.
        for b in self.busy.iter() {
            b.store(0, Ordering::Relaxed);
        }
        let shared = Shared {
            tt: &self.tt,
            oracle: self.oracle,
            busy: &self.busy,
            threads,
            defer_first_ply: match job {
                Job::Exact(..) => node::DEFER_FIRST_PLY,
                Job::AtLeast(..) => 0,
            },
            stop: self.cfg.stop.as_deref(),
            progress: self.cfg.progress.as_deref(),
            done: AtomicBool::new(false),
            lower: AtomicI32::new(match job {
                Job::Exact(_, lo, _) => lo,
                Job::AtLeast(..) => i32::MIN,
            }),
            upper: AtomicI32::new(match job {
                Job::Exact(_, _, hi) => hi,
                Job::AtLeast(..) => i32::MAX,
            }),
            guess: AtomicI32::new(GUESS_PENDING),
        };
        let mut answer = None;
        let mut stats = Stats::default();
        std::thread::scope(|scope| {
            let handles: Vec<_> = (0..threads)
                .map(|id| {
                    let shared = &shared;
                    std::thread::Builder::new()
                        .name(format!("search-{id}"))
                        .stack_size(STACK_BYTES)
                        .spawn_scoped(scope, move || {
                            let mut s = Searcher::new(shared, id);
                            let r = run_job(&mut s, job);
                            if r.is_some() {
                                shared.done.store(true, Ordering::Relaxed);
                            }
                            (r, s.finish())
                        })
                        .expect("cannot spawn a search thread")
                })
                .collect();
            for h in handles {
                let (r, st) = h.join().unwrap_or_else(|e| std::panic::resume_unwind(e));
                stats.add(st);
                // Every completed answer is exact; they agree, so take the first.
                if answer.is_none() {
                    answer = r;
                }
            }
        });
        self.stats.add(stats);
        answer.ok_or(SearchError::Interrupted)
    }
}

/// One thread's share of a job; `None` when it was stopped.
fn run_job<G: Game>(s: &mut Searcher<'_, '_, G>, job: Job<G>) -> Option<i32> {
    match job {
        Job::AtLeast(pos, t) => {
            let r = s.root(&pos, t - 1, t)?;
            Some(i32::from(r >= t))
        }
        Job::Exact(pos, mut lo, mut hi) => {
            // MTD(f)-style null-window tests: the first asks whether the position reaches the
            // heuristic guess (or is won, F >= 1, when there is none); after that each test sits at the bound just proved (fail-soft results
            // often land on the value itself), so the proof that ends the search comes next. If
            // the bound keeps creeping one way (8 tests in a row), bisect instead, to bound the
            // number of passes.
            if lo >= hi {
                return Some(lo);
            }
            // A heuristic look-ahead first (see `GUESS_DEPTH`): move hints for the top of the
            // tree, and a first guess to test instead of 0.
            let mut first = 0;
            if pos.stake() >= GUESS_MIN_STAKE {
                first = s.shared_guess(&pos, GUESS_DEPTH)? - 1;
            }
            let mut med = first.clamp(lo, hi - 1);
            let mut run = 0;
            let mut last_high = None;
            loop {
                // A test after one that failed high is expected to fail low: there every move
                // of the side to move must be refuted (see `node::DEFER_FIRST_PLY`).
                let high = match s.test(&pos, med, last_high == Some(true)) {
                    Ok(r) => {
                        if r > med {
                            lo = r.min(hi);
                        } else {
                            hi = r.max(lo);
                        }
                        s.prove(lo, hi);
                        r > med
                    }
                    // Another thread answered this test: go on from its bounds.
                    Err(true) => s.proven().0 > med,
                    Err(false) => return None,
                };
                let (l, h) = s.proven();
                (lo, hi) = (lo.max(l), hi.min(h));
                if lo >= hi {
                    break;
                }
                run = if last_high == Some(high) { run + 1 } else { 0 };
                last_high = Some(high);
                med = if run >= 8 {
                    lo + (hi - lo).div_euclid(2)
                } else if high {
                    lo
                } else {
                    hi - 1
                };
            }
            Some(lo)
        }
    }
}
