//! Threads: every job runs on all threads at once, over one transposition table (Lazy SMP).
//!
//! [`Pool`] keeps what the jobs of a [`Solver`](super::Solver) share (the table, the deferral
//! marks, the configuration and the counters) and runs each job on fresh scoped threads; the
//! first thread to finish answers it and stops the others.

use std::sync::atomic::{AtomicBool, Ordering};

use super::config::SearchConfig;
use super::defer::BusyMarks;
use super::mtdf::run_job;
use super::node::Searcher;
use super::oracle::Oracle;
use super::outcome::SearchError;
use super::shared::{Job, Shared, Stats};
use crate::game::{Children, Game};
use crate::stop::{Stop, StopToken};
use crate::tt::{Table, Tables, TranspositionTable, Width};

/// Stack size of search threads: the recursion keeps a move list per ply on the stack, and plays
/// within a layer of a cyclic game can be long. Only touched pages are committed.
const STACK_BYTES: usize = 256 << 20;

/// A job whose nodes outnumber the table's entries this many times over, when the table may
/// still grow ([`SearchConfig::tt_max_bytes`]), gives up for a table four times larger.
pub const GROW_AFTER: u64 = 1;

/// The table size from which a growing table grows only after [`GROW_AFTER_LARGE`] times its
/// entries in nodes. A table this large costs more than its lookups: the kernel's first touch of
/// every page (about 2.7 s a GiB of system time here) and a page walk on most lookups, whatever
/// the processor's cache. So past it, a bigger table must save many more nodes to pay; below it,
/// the nodes saved win on a small cache as on a large one (docs/performance.md, "Defaults that
/// hold on any machine").
pub const LARGE_TABLE_BYTES: usize = 512 << 20;

/// [`GROW_AFTER`] for a table of at least [`LARGE_TABLE_BYTES`].
pub const GROW_AFTER_LARGE: u64 = 4;
const _: () = assert!(GROW_AFTER_LARGE > GROW_AFTER);

/// [`GROW_AFTER`] for a search with an oracle (endgame tables), at every size. The oracle answers
/// the deep part of the tree, so an entry stands for a shallow subtree and saves little work,
/// while a table past the processor's cache makes every node wait longer for its entry; and the
/// tables' own lookups already fill much of the cache. Kalah(6,4) with K=20 and K=24 tables, both
/// rules, 1 and 2 threads: 8 was within 4 % of the best fixed size in every case, where growing
/// after 1 (to 128-512 MiB) took up to 1.7 times as long (docs/performance.md).
pub const GROW_AFTER_ORACLE: u64 = 8;
const _: () = assert!(GROW_AFTER_ORACLE >= GROW_AFTER_LARGE);

/// The nodes after which a job in a table of `bytes` bytes and `capacity` entries gives up for a
/// bigger one, given the bytes the table may still grow by and whether an oracle answers the
/// tree's deep part.
fn grow_after(bytes: usize, capacity: usize, room: usize, oracle: bool) -> u64 {
    if room < bytes / 2 || room == 0 {
        // A table at its largest (or a fixed one) never gives up, and then behaves exactly as
        // before growth existed.
        return u64::MAX;
    }
    let times = if oracle {
        GROW_AFTER_ORACLE
    } else if bytes >= LARGE_TABLE_BYTES {
        GROW_AFTER_LARGE
    } else {
        GROW_AFTER
    };
    times.saturating_mul(capacity as u64)
}

/// What every job of a solver shares, and the threads that run them.
pub(super) struct Pool<'o, G: Game> {
    pub(super) tt: TranspositionTable,
    /// The root's key bound and stake, which a grown table must hold.
    key_bound: u128,
    stake: i32,
    pub(super) cfg: SearchConfig,
    pub(super) oracle: Option<&'o dyn Oracle<G>>,
    pub(super) busy: BusyMarks,
    pub(super) stats: Stats,
}

impl<'o, G: Game> Pool<'o, G> {
    /// A pool for `root` and the positions reachable from it.
    pub(super) fn new(
        root: &G,
        cfg: SearchConfig,
        oracle: Option<&'o dyn Oracle<G>>,
    ) -> Result<Self, SearchError> {
        let tt = if cfg.wide_table {
            TranspositionTable::wide(cfg.tt_bytes, root.key_bound(), root.stake())?
        } else {
            let max = cfg.tt_max_bytes.max(cfg.tt_bytes);
            TranspositionTable::with_room(cfg.tt_bytes, max, root.key_bound(), root.stake())?
        };
        Ok(Self {
            tt,
            key_bound: root.key_bound(),
            stake: root.stake(),
            cfg,
            oracle,
            busy: BusyMarks::new(),
            stats: Stats::default(),
        })
    }

    /// Runs a job on all threads; the first to finish answers. `AtLeast(pos, t, _)` answers a
    /// fail-soft bound `r`: `r >= t` proves `F(pos) >= r`, `r < t` proves `F(pos) <= r`.
    pub(super) fn run(&mut self, job: Job<G>) -> Result<i32, SearchError> {
        Ok(self.run_bounded(job)?.0)
    }

    /// `Floor(pos, lo, hi)`: bounds `(l, h)` proven on `F(pos)` within `[lo, hi]`, the floor `l`
    /// by the first test after the heuristic guess that failed high (or `l == h`, the value).
    pub(super) fn floor(&mut self, pos: &G, lo: i32, hi: i32) -> Result<(i32, i32), SearchError> {
        let (l, (_, h)) = self.run_bounded(Job::Floor(*pos, lo, hi))?;
        Ok((l, h.max(l)))
    }

    /// [`Pool::run`], with the bounds on a value job's value its threads proved.
    fn run_bounded(&mut self, job: Job<G>) -> Result<(i32, (i32, i32)), SearchError> {
        let pos = match job {
            Job::AtLeast(p, _, _) | Job::Exact(p, _, _) | Job::Floor(p, _, _) | Job::Guess(p) => p,
        };
        if pos.is_over() {
            return Ok((0, (0, 0))); // every job's answer for a game over: F = 0
        }
        if let (Some(p), Job::Exact(_, lo, hi) | Job::Floor(_, lo, hi)) = (&self.cfg.progress, job)
        {
            p.start_job(lo, hi);
        }
        loop {
            self.busy.clear();
            let room = self.cfg.tt_max_bytes.saturating_sub(self.tt.bytes());
            // Nodes past which the job gives up for a bigger table.
            let grow_after = grow_after(
                self.tt.bytes(),
                self.tt.capacity(),
                room,
                self.oracle.is_some(),
            );
            let (answer, stats, outgrown, bounds) = match self.tt.tables() {
                Tables::Narrow(t) => run_on(t, self.oracle, &self.busy, &self.cfg, job, grow_after),
                Tables::Wide(t) => run_on(t, self.oracle, &self.busy, &self.cfg, job, grow_after),
            };
            self.stats.add(stats);
            // A fault found at any time, even by a check after the answer was reached, voids it.
            if let Some(fault) = self.oracle.and_then(|o| o.fault()) {
                return Err(SearchError::Oracle(fault));
            }
            let stopped = self.cfg.stop.as_ref().is_some_and(StopToken::is_stopped);
            if answer.is_some() || !outgrown || stopped {
                return answer.map(|a| (a, bounds)).ok_or(SearchError::Interrupted);
            }
            // Everything the job stored is kept, so it picks up where it gave up.
            let bytes = self.tt.bytes().saturating_mul(4).min(self.cfg.tt_max_bytes);
            if self.tt.grow(bytes, self.key_bound, self.stake).is_err() {
                // No memory for a bigger table: go on in this one, to the end.
                self.cfg.tt_max_bytes = 0;
            }
        }
    }

    /// The children of `pos` for a driver at the root (the moves to settle or value), generated
    /// under the stop flag: a root move whose sowing runs billions of laps (docs/rules.md §2.9)
    /// must not keep a stopped search running.
    pub(super) fn root_children(&self, pos: &G, out: &mut Children<G>) -> Result<(), SearchError> {
        pos.children_until(out, self.cfg.borrowed_stop())
            .map_err(|_| SearchError::Interrupted)
    }

    /// Audits the oracle's answers for `pos` and for each of its children (see
    /// [`Oracle::audit`]), failing with the first fault found. The entry points call it for the
    /// position they answer about, whose value and moves they report; the jobs inside (the
    /// floor, the tests that settle the moves, the principal variation) do not, as their
    /// positions are the search's interior, which the oracle checks by sample. An audit can
    /// cost far more than a search (endgame tables check the position's whole closure within
    /// its layer, most of the layer in a game whose moves often keep it), so it is done once per
    /// answer, not once per job. The stop flag ends it early, as it ends a job.
    ///
    /// It also starts the progress display's bounds at the whole stake, what is known of the
    /// position before any job has run, so that an answer stopped in its audit does not report
    /// the bounds of an earlier one (or none).
    pub(super) fn audit(&self, pos: &G) -> Result<(), SearchError> {
        if let Some(p) = &self.cfg.progress {
            let s = pos.stake();
            p.start_job(-s, s);
        }
        let Some(o) = self.oracle else {
            return Ok(());
        };
        let stop = self.cfg.borrowed_stop();
        if !pos.is_over() {
            audit_with_children(o, pos, stop);
        }
        match o.fault() {
            Some(fault) => Err(SearchError::Oracle(fault)),
            None if stop.is_raised() => Err(SearchError::Interrupted),
            None => Ok(()),
        }
    }
}

/// Audits the oracle's answers for `pos` and for each of its children (see [`Oracle::audit`])
/// until `stop` is raised.
fn audit_with_children<G: Game>(oracle: &dyn Oracle<G>, pos: &G, stop: Stop<'_>) {
    oracle.audit(pos, stop);
    let mut children = Children::new();
    if pos.children_until(&mut children, stop).is_err() {
        return;
    }
    for c in children.as_slice() {
        if stop.is_raised() {
            return;
        }
        oracle.audit(&c.next, stop);
    }
}

/// Runs `job` on all threads over the table `tt` of one entry width (the search is compiled for
/// each width); returns the first answer, the summed counters, whether the job gave up for
/// a bigger table after `grow_after` nodes, and the bounds its threads proved on a value job's
/// value.
fn run_on<G: Game, W: Width>(
    tt: &Table<W>,
    oracle: Option<&dyn Oracle<G>>,
    busy: &BusyMarks,
    cfg: &SearchConfig,
    job: Job<G>,
    grow_after: u64,
) -> (Option<i32>, Stats, bool, (i32, i32)) {
    let shared = Shared::new(tt, oracle, busy, cfg, job, grow_after);
    let mut answer = None;
    let mut stats = Stats::default();
    // Raised once the search threads have finished, for the thread faulting in ahead.
    let over = AtomicBool::new(false);
    std::thread::scope(|scope| {
        // Raised when this closure ends, also by a search thread's panic passed on, so that the
        // scope never waits for a helper waiting for a job that is over.
        let _over = Raise(&over);
        if let Some(ahead) = fault_ahead_to(tt, cfg, grow_after) {
            let (shared, over) = (&shared, &over);
            std::thread::Builder::new()
                .name("fault-ahead".to_owned())
                .spawn_scoped(scope, move || fault_ahead(tt, shared, over, ahead))
                .expect("cannot spawn a thread");
        }
        let handles: Vec<_> = (0..shared.threads)
            .map(|id| {
                let shared = &shared;
                std::thread::Builder::new()
                    .name(format!("search-{id}"))
                    .stack_size(STACK_BYTES)
                    .spawn_scoped(scope, move || {
                        let mut s = Searcher::new(shared, id);
                        let r = run_job(&mut s, job, cfg);
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
    let outgrown = shared.outgrown.load(Ordering::Relaxed);
    (answer, stats, outgrown, shared.proven())
}

/// Raises its flag when dropped.
struct Raise<'a>(&'a AtomicBool);

impl Drop for Raise<'_> {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

/// The smallest table whose next size an idle core faults in ahead: below it the next size
/// costs a few dozen huge pages at most, and small searches get no extra thread.
const FAULT_AHEAD_FROM: usize = 32 << 20;

/// Where the table of a job with `grow_after` could grow to next, when an idle core should
/// fault that memory in ahead ([`Table::fault_ahead_chunk`]): the table grows fourfold, from
/// [`FAULT_AHEAD_FROM`] up to [`LARGE_TABLE_BYTES`] (a large table grows only after four times
/// its entries, often never, and its next size is gigabytes), and the search leaves a core idle.
///
/// Returns the bytes to fault in up to, and the job's node count from which to start: the
/// table's capacity, less an eighth, before the job would grow it. The lead grows with the
/// memory to fault in (three times the table's size): on this machine, for 128 -> 512 MiB, 14 M
/// nodes of search (about 2.5 s) against 2.3 s of faults (192 huge pages at 12 ms each); a lead
/// of half the capacity left a quarter of the pages to the growth (docs/performance.md, "The
/// next size faulted in ahead"). Beside an oracle, whose table grows after eight times its
/// entries, that starts late in the job, so little is faulted in for a table that never grows.
fn fault_ahead_to<W: Width>(
    tt: &Table<W>,
    cfg: &SearchConfig,
    grow_after: u64,
) -> Option<(usize, u64)> {
    let bytes = tt.bytes();
    let upto = bytes.saturating_mul(4).min(cfg.tt_max_bytes);
    let worth = grow_after != u64::MAX
        && (FAULT_AHEAD_FROM..LARGE_TABLE_BYTES).contains(&bytes)
        && cfg.threads.max(1) < cores()
        && tt.room_to_fault(upto);
    let capacity = tt.capacity() as u64;
    let from = grow_after.saturating_sub(capacity - capacity / 8);
    worth.then_some((upto, from))
}

/// The cores this process may run on (1 when unknown), read once.
fn cores() -> usize {
    static CORES: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    *CORES.get_or_init(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
}

/// Waits until the job has searched `from` nodes, then faults the table's next size in (up to
/// byte `upto`), a huge page at a time, until the job is over: the growth then finds its
/// memory mapped, and the search never waited for it.
fn fault_ahead<G: Game, W: Width>(
    tt: &Table<W>,
    shared: &Shared<'_, G, W>,
    over: &AtomicBool,
    (upto, from): (usize, u64),
) {
    while shared.nodes.load(Ordering::Relaxed) < from {
        if over.load(Ordering::Relaxed) {
            return;
        }
        std::thread::sleep(std::time::Duration::from_millis(1));
    }
    while !over.load(Ordering::Relaxed) && tt.fault_ahead_chunk(upto) {}
}

#[cfg(test)]
mod tests {
    use super::{
        cores, fault_ahead_to, grow_after, GROW_AFTER, GROW_AFTER_LARGE, GROW_AFTER_ORACLE,
        LARGE_TABLE_BYTES,
    };
    use crate::search::SearchConfig;
    use crate::tt::{Narrow, Table};

    #[test]
    fn a_large_table_grows_later() {
        let (mib, cap) = (1usize << 20, 1000usize);
        let cap_nodes = cap as u64;
        // Below the large size: after its entries' worth of nodes.
        for bytes in [8 * mib, 128 * mib, LARGE_TABLE_BYTES - 1] {
            assert_eq!(
                grow_after(bytes, cap, 4096 * mib, false),
                GROW_AFTER * cap_nodes
            );
        }
        // At or past it: later.
        for bytes in [LARGE_TABLE_BYTES, 2048 * mib] {
            assert_eq!(
                grow_after(bytes, cap, 8192 * mib, false),
                GROW_AFTER_LARGE * cap_nodes
            );
        }
        // No room to grow by half the table: never.
        assert_eq!(grow_after(512 * mib, cap, 255 * mib, false), u64::MAX);
        assert_eq!(grow_after(8 * mib, cap, 0, false), u64::MAX);
        assert_eq!(grow_after(8 * mib, cap, 0, true), u64::MAX);
    }

    /// An idle core faults the next size in ahead only for a growing table of 32 to 511 MiB,
    /// when the search leaves a core idle, from 7/8 of the table's capacity before the growth.
    #[test]
    fn the_next_size_is_faulted_in_ahead_only_where_it_pays() {
        let mib = 1usize << 20;
        let buckets = |bytes: usize| bytes / Table::<Narrow>::BUCKET_BYTES;
        // Tables with room for 1 GiB: only address space, nothing is touched.
        let room = |bytes: usize| {
            Table::<Narrow>::zeroed_with_room(buckets(bytes), buckets(1024 * mib)).unwrap()
        };
        let cfg = |threads: usize, max: usize| SearchConfig {
            threads,
            tt_max_bytes: max,
            ..SearchConfig::default()
        };
        let growing = cfg(1, 1024 * mib);
        for bytes in [32 * mib, 128 * mib] {
            let t = room(bytes);
            let cap = t.capacity() as u64;
            let after = grow_after(bytes, t.capacity(), 1024 * mib - bytes, false);
            let want = (cores() > 1).then_some((4 * bytes, after - (cap - cap / 8)));
            assert_eq!(fault_ahead_to(&t, &growing, after), want, "{bytes}");
            // Never when the table does not grow (a fixed size: no room), nor on every core.
            assert_eq!(fault_ahead_to(&t, &growing, u64::MAX), None);
            assert_eq!(fault_ahead_to(&t, &cfg(1, 0), after), None);
            assert_eq!(fault_ahead_to(&t, &cfg(cores(), 1024 * mib), after), None);
        }
        // Beside an oracle the start comes late in the job: 8 times the entries, less 7/8.
        let t = room(32 * mib);
        let cap = t.capacity() as u64;
        let after = grow_after(32 * mib, t.capacity(), 992 * mib, true);
        if let Some((_, from)) = fault_ahead_to(&t, &growing, after) {
            assert_eq!(from, 8 * cap - (cap - cap / 8));
        }
        // Small and large tables: never.
        for bytes in [8 * mib, LARGE_TABLE_BYTES] {
            let t = room(bytes);
            let after = grow_after(bytes, t.capacity(), 1024 * mib - bytes, false);
            assert_eq!(fault_ahead_to(&t, &growing, after), None, "{bytes}");
        }
        // The room's end bounds the next size.
        let t = Table::<Narrow>::zeroed_with_room(buckets(32 * mib), buckets(64 * mib)).unwrap();
        let after = grow_after(32 * mib, t.capacity(), 32 * mib, false);
        let capped = fault_ahead_to(&t, &cfg(1, 64 * mib), after).map(|a| a.0);
        assert_eq!(capped, (cores() > 1).then_some(64 * mib));
    }

    #[test]
    fn a_table_beside_an_oracle_grows_later_at_every_size() {
        let (mib, cap) = (1usize << 20, 1000usize);
        for bytes in [8 * mib, 128 * mib, LARGE_TABLE_BYTES, 2048 * mib] {
            assert_eq!(
                grow_after(bytes, cap, 8192 * mib, true),
                GROW_AFTER_ORACLE * cap as u64
            );
        }
    }
}
