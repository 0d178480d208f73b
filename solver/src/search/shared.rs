//! What the threads of one job share: the job ([`Job`]), the shared state ([`Shared`]), and the
//! counters each thread hands back ([`Stats`]).

use std::sync::atomic::{AtomicBool, AtomicI32, AtomicU64, Ordering};

use super::config::SearchConfig;
use super::defer::BusyMarks;
use super::oracle::Oracle;
use super::progress::Progress;
use crate::game::Game;
use crate::stop::Stop;
use crate::tt::{Table, Width};

/// Counters summed over threads.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Stats {
    pub(super) nodes: u64,
    pub(super) probes: u64,
    pub(super) hits: u64,
    /// Positions looked up in the oracle (endgame tables), and those it answered.
    pub(super) oracle_probes: u64,
    pub(super) oracle_hits: u64,
}

impl Stats {
    pub(super) fn add(&mut self, o: Stats) {
        self.nodes += o.nodes;
        self.probes += o.probes;
        self.hits += o.hits;
        self.oracle_probes += o.oracle_probes;
        self.oracle_hits += o.oracle_hits;
    }
}

/// One unit of work for all threads: decide whether `F(pos) >= t`, or find `F(pos)` exactly
/// within known bounds, or only its first proven floor ([`Job::Floor`]), or make the heuristic
/// first guess of `F(pos)` alone.
#[derive(Clone, Copy)]
pub(super) enum Job<G> {
    /// Whether `F(pos) >= t`; the flag says whether the answer is expected to be no (the root
    /// is then an ALL node, see [`super::defer::Place`]), a hint that only spreads the threads.
    AtLeast(G, i32, bool),
    Exact(G, i32, i32),
    /// As [`Job::Exact`], but done at the first test after the heuristic guess that fails high:
    /// its answer is then a proven floor, and the caller settles the rest move by move (see
    /// `Solver::solve_tracked`). Done earlier when the value is found.
    Floor(G, i32, i32),
    Guess(G),
}

/// State shared by the threads of one job.
pub(super) struct Shared<'a, G: Game, W: Width> {
    /// The transposition table, of one entry width ([`Width`]); the search is compiled for each.
    pub(super) tt: &'a Table<W>,
    pub(super) oracle: Option<&'a dyn Oracle<G>>,
    pub(super) busy: &'a BusyMarks,
    pub(super) threads: usize,
    /// Plies below which nodes take part in the deferral ([`SearchConfig::defer_ply`]).
    pub(super) defer_ply: u32,
    /// Plies below which a thread defers even a first child that another thread is in
    /// ([`SearchConfig::defer_first_ply`] for value jobs and yes/no tests expected to answer no,
    /// 0 for the other yes/no tests).
    pub(super) defer_first_ply: u32,
    /// Plies up to which expected ALL nodes give the other threads a head start
    /// ([`SearchConfig::head_start_ply`] in yes/no tests with a CUT root, 0 in the other jobs:
    /// only the root, when it is an ALL node).
    pub(super) head_start_ply: u32,
    /// The search's stop ([`SearchConfig::stop`], or one never raised).
    pub(super) stop: Stop<'a>,
    pub(super) progress: Option<&'a Progress>,
    /// Raised by the first thread that finishes the job.
    pub(super) done: AtomicBool,
    /// The job's nodes over all threads (flushed now and then), when the table may grow.
    pub(super) nodes: AtomicU64,
    /// The job gives up for a bigger table past this many nodes (`u64::MAX`: never).
    pub(super) grow_after: u64,
    /// Raised when the job gave up for a bigger table.
    pub(super) outgrown: AtomicBool,
    /// The bounds on a value job's value proven so far by any thread. Each thread runs its own
    /// sequence of null-window tests; a thread whose test another thread has answered gives it
    /// up and goes on from the new bounds. Without this, the thread that lost the race would
    /// finish each test on its own, answering a question already answered.
    lower: AtomicI32,
    upper: AtomicI32,
    /// The heuristic guess of a value job, once thread 0 has made it (`GUESS_PENDING` until
    /// then, `GUESS_STOPPED` when it was stopped).
    pub(super) guess: AtomicI32,
}

/// [`Shared::guess`] before thread 0 has made it.
pub(super) const GUESS_PENDING: i32 = i32::MIN;
/// [`Shared::guess`] when thread 0 was stopped before it made it.
pub(super) const GUESS_STOPPED: i32 = i32::MIN + 1;

impl<'a, G: Game, W: Width> Shared<'a, G, W> {
    /// The shared state of `job`, searched as `cfg` says, with nothing proven yet.
    pub(super) fn new(
        tt: &'a Table<W>,
        oracle: Option<&'a dyn Oracle<G>>,
        busy: &'a BusyMarks,
        cfg: &'a SearchConfig,
        job: Job<G>,
        grow_after: u64,
    ) -> Self {
        Shared {
            tt,
            oracle,
            busy,
            threads: cfg.threads.max(1),
            defer_ply: cfg.defer_ply,
            defer_first_ply: match job {
                Job::Exact(..) | Job::Floor(..) | Job::AtLeast(_, _, true) => cfg.defer_first_ply,
                Job::AtLeast(..) | Job::Guess(..) => 0,
            },
            head_start_ply: match job {
                Job::AtLeast(_, _, false) => cfg.head_start_ply,
                Job::AtLeast(..) | Job::Exact(..) | Job::Floor(..) | Job::Guess(..) => 0,
            },
            stop: cfg.borrowed_stop(),
            progress: cfg.progress.as_deref(),
            done: AtomicBool::new(false),
            nodes: AtomicU64::new(0),
            grow_after,
            outgrown: AtomicBool::new(false),
            lower: AtomicI32::new(match job {
                Job::Exact(_, lo, _) | Job::Floor(_, lo, _) => lo,
                Job::AtLeast(..) | Job::Guess(..) => i32::MIN,
            }),
            upper: AtomicI32::new(match job {
                Job::Exact(_, _, hi) | Job::Floor(_, _, hi) => hi,
                Job::AtLeast(..) | Job::Guess(..) => i32::MAX,
            }),
            guess: AtomicI32::new(GUESS_PENDING),
        }
    }

    /// The bounds proven so far on the value job's value.
    pub(super) fn proven(&self) -> (i32, i32) {
        (
            self.lower.load(Ordering::Relaxed),
            self.upper.load(Ordering::Relaxed),
        )
    }

    /// Records bounds a thread proved.
    pub(super) fn prove(&self, lo: i32, hi: i32) {
        self.lower.fetch_max(lo, Ordering::Relaxed);
        self.upper.fetch_min(hi, Ordering::Relaxed);
    }
}
