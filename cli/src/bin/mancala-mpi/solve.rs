//! `mancala-mpi solve`: rank 0 manages, the other ranks work (on one rank, rank 0 does both).
//! The manager ([`solver::search::manager`]) keeps the top `--split-depth` plies of the tree and
//! asks the workers null-window tests "is the future value of `p` at least `b`?" on the
//! positions `p` of that depth: MTD(f) at the root, each root test decided by its children down
//! to those jobs; the same test reached twice is one job; a position's jobs always go to the
//! same worker (a hash of the position), whose transposition table then serves them; a job that
//! a sibling's result has made useless is cancelled. Rank 0 journals every finished job, so that
//! a killed run started again with the same journal does not run it again. The first root test
//! sits at the search's heuristic guess (`Solver::guess`), made on rank 0 before the jobs.
//!
//! Messages (three words, point to point; only each rank's main thread calls MPI): rank 0 sends
//! `JOB [id, frontier index, bound]`, `CANCEL [id, 0, 0]` and, at the end, `STOP`; a worker
//! answers every job once, `ANSWER [id, 1, result]`, `ANSWER [id, 0, 0]` (cancelled) or
//! `ANSWER [id, 2, rank]` (its search failed, for instance on endgame tables that contradict
//! themselves: the worker says why, rank 0 stops every rank, and all exit with an error). A worker
//! searches on a thread of its own (with the ordinary threads, table and endgame tables), while
//! its main thread polls for messages every millisecond and raises the search's stop flag when
//! the running job is cancelled. The frontier's positions are worked out on every rank, so a job
//! names its position by its index.

use crate::args::SolveArgs;
use crate::comm::{self, Message, World};
use anyhow::{bail, Context, Result};
use mancala::board::Move;
use mancala::endgame::{open_for_search, MancalaIndexer};
use mancala::rules::{KalahNode, KalahNodeIndexer, Rules};
use mancala::stop::StopToken;
use mancala::Position;
use mancala_cli::json;
use solver::search::manager::{Counts, Manager, Order, Outcome, Poll};
use solver::search::split::{frontier, Journal};
use solver::{Collective, Game, Oracle, SearchConfig, SearchError, Solver};
use std::collections::{HashMap, HashSet};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tables::{TableError, Tablebase};

const JOB: i32 = 1;
const CANCEL: i32 = 2;
const STOP: i32 = 3;
const ANSWER: i32 = 4;

/// Jobs a worker holds at a time: one running, one waiting, so that it never idles while its
/// answer travels.
const PER_WORKER: usize = 2;

/// Runs the solve on every rank.
pub fn run(a: &SolveArgs, world: &World) -> Result<()> {
    let v = a.variant()?;
    mancala::with_rules!(v, r => solve(a, r, world))
}

fn solve<R: Rules>(a: &SolveArgs, rules: R, world: &World) -> Result<()> {
    let kind = R::KIND;
    let holes = mancala_cli::args::holes(kind, a.holes)?;
    let seeds = mancala_cli::args::seeds(kind, holes, a.seeds)?;
    if a.split_depth == 0 {
        bail!("--split-depth must be at least 1 (the root's moves)");
    }
    let root = Position::start(rules, holes, seeds)?;
    // A Kalah board the one-word node holds is searched as that node (the same tree, keys and
    // moves in fewer instructions: docs/performance.md, "mancala-mpi searches the Kalah node"),
    // with the tables seen through the node's index; any other as a `Position`.
    macro_rules! as_node {
        ($($n:literal),*) => {
            match holes {
                $($n => {
                    if let Some(node) = KalahNode::<$n>::from_position(&root) {
                        let rules = node.rules();
                        return solve_as(a, world, &root, node, |tb| {
                            tb.reindexed(KalahNodeIndexer::<$n>::new(rules))
                        });
                    }
                })*
                _ => {}
            }
        };
    }
    as_node!(1, 2, 3, 4, 5, 6, 7);
    solve_as(a, world, &root, root, Ok)
}

/// The solve of `root`, searched as `node` (the same position as a node of type `G`), with the
/// tables seen through `view`.
fn solve_as<R: Rules, G: Game<Move = Move>, T: Oracle<G>>(
    a: &SolveArgs,
    world: &World,
    root: &Position<R>,
    node: G,
    view: impl FnOnce(Tablebase<MancalaIndexer<R>>) -> Result<T, TableError>,
) -> Result<()> {
    let kind = R::KIND;
    let threads = mancala_cli::args::threads(a.threads)?;
    let started = Instant::now();
    let is_root = world.rank() == 0;
    let jobs = frontier(&node, a.split_depth);
    // The journal's first line names the solve, so that a journal of another one is refused.
    let header = format!(
        "mancala-mpi solve (null-window jobs) {root} {kind:?} {:?} depth {}",
        a.rules_names(),
        a.split_depth
    );
    let opened = match (&a.journal, is_root) {
        (Some(path), true) => Journal::open(path, &header)
            .map(|(j, d)| (Some(j), d))
            .map_err(anyhow::Error::msg),
        _ => Ok((None, Vec::new())),
    };
    let (mut journal, done) = comm::agree(world, opened)?;
    let workers = if world.ranks() == 1 {
        1
    } else {
        world.ranks() - 1
    };
    let me = if world.ranks() == 1 {
        Some(0)
    } else {
        world.rank().checked_sub(1)
    };
    if is_root {
        eprintln!(
            "solving {root} ({}): null-window jobs on {} positions at depth {} ({} results from the journal), {workers} worker rank{} x {threads} thread{}, {} MiB table each",
            kind.name(),
            jobs.len(),
            a.split_depth,
            done.len(),
            if workers == 1 { "" } else { "s" },
            if threads == 1 { "" } else { "s" },
            a.hash_mb
        );
    }
    let tables = match (&a.tables, me) {
        (Some(dir), Some(_)) => open_for_search(dir, root)
            .and_then(view)
            .map(Some)
            .with_context(|| format!("opening the tables in {}", dir.display())),
        _ => Ok(None),
    };
    let tables = comm::agree(world, tables)?;
    let oracle = tables.as_ref().map(|t| t as &dyn Oracle<G>);
    let stop = StopToken::new();
    let cfg = SearchConfig {
        threads,
        tt_bytes: usize::try_from(a.hash_mb << 20).context("--hash-mb is too large")?,
        stop: Some(stop.clone()),
        ..SearchConfig::default()
    };
    let search = match me {
        Some(_) => Solver::new(&node, cfg, oracle)
            .map(Some)
            .map_err(|e| anyhow::anyhow!("{e}")),
        None => Ok(None),
    };
    let mut search = comm::agree(world, search)?;
    let mut manager = Manager::new(node, a.split_depth, workers, PER_WORKER);
    for &(k, b, r) in &done {
        manager.learn(k, b, r);
    }
    // The first root test at the heuristic guess, as `Solver::value` starts: made by rank 0's
    // worker when it has one (its table keeps the move hints), else by a small solver of its own,
    // whose nodes count with the others; none when the journal's results already give the
    // value. Every rank agrees on how it went, so that no worker waits for a manager that failed.
    let mut guess_nodes = 0;
    let (lo, hi) = manager.root_interval();
    let guess = match (is_root && lo < hi, search.as_mut()) {
        (false, _) => Ok(1),
        (true, Some(s)) => s.guess(&node),
        (true, None) => {
            let small = SearchConfig {
                threads,
                tt_bytes: (a.hash_mb.min(256) << 20) as usize,
                ..SearchConfig::default()
            };
            Solver::new(&node, small, None).and_then(|mut s| {
                let g = s.guess(&node);
                guess_nodes = s.nodes();
                g
            })
        }
    };
    manager.start_at(comm::agree(
        world,
        guess.map_err(|e| anyhow::anyhow!("{e}")),
    )?);
    let index: HashMap<u128, usize> = jobs.iter().enumerate().map(|(i, p)| (p.key(), i)).collect();
    // Rank 0's progress on stderr: the root's value as far as it is known.
    let report = |lo: i32, hi: i32, c: Counts| {
        let (a, b) = (root.final_value(lo), root.final_value(hi));
        eprintln!(
            "value in [{:+}, {:+}] after {} jobs ({} cancelled), {:.1} s",
            a.min(b),
            a.max(b),
            c.finished,
            c.cancelled,
            started.elapsed().as_secs_f64()
        );
    };
    // A failure of the manager (a journal it cannot write) still stops the workers, and then
    // reaches every rank, so that none waits for ever.
    let (outcome, nodes) = std::thread::scope(|scope| {
        let local = search.map(|s| Worker::start(scope, s, &jobs, stop.clone()));
        match (is_root, local) {
            (true, Some(w)) => {
                let mut link = Local(w);
                let o = manage(&mut manager, &mut link, &index, journal.as_mut(), &report);
                (o.map(Some), link.0.finish())
            }
            (true, None) => {
                let mut link = Remote(world);
                let o = manage(&mut manager, &mut link, &index, journal.as_mut(), &report);
                for r in 1..world.ranks() {
                    world.send(r, STOP, [0; 3]);
                }
                (o.map(Some), guess_nodes)
            }
            (false, Some(w)) => work(world, w),
            (false, None) => unreachable!("every rank but 0 works"),
        }
    });
    let nodes = world.gather(nodes);
    let outcome = comm::agree(world, outcome)?;
    if let Some(o) = outcome {
        let Counts {
            issued,
            finished,
            cancelled,
            reused,
        } = manager.counts();
        let nodes = nodes.iter().sum::<u64>();
        let seconds = started.elapsed().as_secs_f64();
        let value = root.final_value(o.value);
        if a.json {
            let best = o.best.iter().map(|m| m.0).collect();
            let v = json::SolveMpi {
                head: json::PositionHead::of("solve", root),
                complete: true,
                value,
                winner: json::Winner::of(value),
                future: o.value,
                best,
                nodes,
                seconds,
                ranks: world.ranks(),
                threads,
                split_depth: a.split_depth,
                jobs: json::MpiJobs {
                    issued,
                    finished,
                    reused,
                    cancelled,
                },
            };
            json::print(&mut std::io::stdout().lock(), &v)?;
            return Ok(());
        }
        let best: Vec<String> = o.best.iter().map(|m| m.0.to_string()).collect();
        println!("value {value:+}");
        println!("best {}", best.join(" "));
        println!(
            "{finished} jobs ({reused} from the journal), {} nodes, {:.3} s on {} rank{}; {issued} issued, {cancelled} cancelled",
            nodes,
            seconds,
            world.ranks(),
            if world.ranks() == 1 { "" } else { "s" }
        );
    }
    Ok(())
}

/// How a job ended.
#[derive(Clone, Debug)]
enum Reply {
    /// Its result.
    Bound(i32),
    /// Cancelled before it finished.
    Cancelled,
    /// The search failed: the error on the worker's own rank, or (at rank 0) the rank whose
    /// search failed.
    Failed(Failure),
}

/// A failed search, as the rank that hears of it knows it.
#[derive(Clone, Debug)]
enum Failure {
    /// On this rank: the error itself.
    Here(SearchError),
    /// On another rank, which says why.
    On(usize),
}

/// An answer: the job, and how it ended.
type Answer = (u64, Reply);

/// An [`Answer`] as an `ANSWER` message from worker rank `rank`.
fn encode((id, reply): &Answer, rank: usize) -> Message {
    match reply {
        Reply::Bound(r) => [*id, 1, *r as i64 as u64],
        Reply::Cancelled => [*id, 0, 0],
        Reply::Failed(_) => [*id, 2, rank as u64],
    }
}

/// How the manager reaches its workers.
trait Link<G: Game> {
    /// Hands out one order.
    fn order(&mut self, o: Order<G>, index: &HashMap<u128, usize>);
    /// Waits for at least one answer; returns every answer that has arrived.
    fn answers(&mut self) -> Vec<Answer>;
}

/// The manager's loop: orders out, answers in (each finished one journaled), until the outcome;
/// `report` hears of every change of the root's interval.
fn manage<G: Game>(
    m: &mut Manager<G>,
    link: &mut impl Link<G>,
    index: &HashMap<u128, usize>,
    mut journal: Option<&mut Journal>,
    report: &dyn Fn(i32, i32, Counts),
) -> Result<Outcome<G>> {
    let mut known = m.root_interval();
    loop {
        let now = m.root_interval();
        if now != known {
            known = now;
            report(now.0, now.1, m.counts());
        }
        match m.poll() {
            Poll::Done(o) => return Ok(o),
            Poll::Orders(orders) => {
                for o in orders {
                    link.order(o, index);
                }
            }
        }
        for (id, r) in link.answers() {
            match r {
                Reply::Bound(r) => {
                    let (key, bound) = m.finished(id, r);
                    if let Some(j) = journal.as_deref_mut() {
                        j.append(key, bound, r).context("writing the journal")?;
                    }
                }
                Reply::Cancelled => m.cancelled(id),
                Reply::Failed(Failure::Here(e)) => return Err(e.into()),
                Reply::Failed(Failure::On(rank)) => {
                    bail!("the search on rank {rank} failed (see its message)")
                }
            }
        }
    }
}

/// The workers are the other ranks.
struct Remote<'w>(&'w World);

impl<G: Game> Link<G> for Remote<'_> {
    fn order(&mut self, o: Order<G>, index: &HashMap<u128, usize>) {
        match o {
            Order::Run {
                id,
                worker,
                pos,
                bound,
            } => {
                let i = index[&pos.key()];
                self.0
                    .send(worker + 1, JOB, [id, i as u64, bound as i64 as u64]);
            }
            Order::Cancel { id, worker } => self.0.send(worker + 1, CANCEL, [id, 0, 0]),
        }
    }

    fn answers(&mut self) -> Vec<Answer> {
        let mut out = Vec::new();
        let mut wait = true;
        while let Some(msg) = self.0.receive_any(ANSWER, wait) {
            out.push(decode(msg));
            wait = false;
        }
        out
    }
}

/// The one worker is in this process.
struct Local<'s>(Worker<'s>);

impl<G: Game> Link<G> for Local<'_> {
    fn order(&mut self, o: Order<G>, index: &HashMap<u128, usize>) {
        match o {
            Order::Run { id, pos, bound, .. } => self.0.submit(id, index[&pos.key()], bound),
            Order::Cancel { id, .. } => self.0.cancel(id),
        }
    }

    fn answers(&mut self) -> Vec<Answer> {
        let mut out = Vec::new();
        if let Ok(a) = self.0.answers.recv() {
            self.0.answered(a.0);
            out.push(a);
        }
        while let Ok(a) = self.0.answers.try_recv() {
            self.0.answered(a.0);
            out.push(a);
        }
        out
    }
}

fn decode(msg: Message) -> Answer {
    let reply = match msg[1] {
        1 => Reply::Bound(msg[2] as i64 as i32),
        2 => Reply::Failed(Failure::On(msg[2] as usize)),
        _ => Reply::Cancelled,
    };
    (msg[0], reply)
}

/// A worker rank's loop: jobs and cancels from rank 0 to the search thread, answers back, until
/// rank 0 says stop. Returns how its searches went (the first failure, if any) and the nodes
/// searched.
fn work<G: Game>(world: &World, mut w: Worker<'_>) -> (Result<Option<Outcome<G>>>, u64) {
    let mut failed: Option<SearchError> = None;
    let mut answer = |w: &mut Worker<'_>, a: Answer| {
        w.answered(a.0);
        if let Reply::Failed(Failure::Here(e)) = &a.1 {
            failed.get_or_insert_with(|| e.clone());
        }
        world.send(0, ANSWER, encode(&a, world.rank()));
    };
    loop {
        let mut busy = false;
        while let Some((tag, msg)) = world.try_receive_from(0) {
            busy = true;
            match tag {
                JOB => w.submit(msg[0], msg[1] as usize, msg[2] as i64 as i32),
                CANCEL => w.cancel(msg[0]),
                _ => {
                    let nodes = w.finish();
                    return (failed.map_or(Ok(None), |e| Err(e.into())), nodes);
                }
            }
        }
        while let Ok(a) = w.answers.try_recv() {
            busy = true;
            answer(&mut w, a);
        }
        if !busy {
            // The search thread lives until `finish`, so the channel stays open until then.
            if let Ok(a) = w.answers.recv_timeout(Duration::from_millis(1)) {
                answer(&mut w, a);
            }
        }
    }
}

/// What the search thread and the thread that talks to it share.
#[derive(Default)]
struct Running {
    /// The job being searched.
    now: Option<u64>,
    /// Jobs cancelled before the search thread got to them (or while it searched them).
    cancelled: HashSet<u64>,
}

/// A search thread that runs jobs in order, one at a time, with one [`Solver`] (so its
/// transposition table serves every job), answering each once.
struct Worker<'s> {
    jobs: Option<mpsc::Sender<(u64, usize, i32)>>,
    answers: mpsc::Receiver<Answer>,
    running: Arc<Mutex<Running>>,
    stop: StopToken,
    /// Jobs submitted and not yet answered.
    pending: HashSet<u64>,
    thread: std::thread::ScopedJoinHandle<'s, u64>,
}

impl<'s> Worker<'s> {
    fn start<'e, G: Game>(
        scope: &'s std::thread::Scope<'s, 'e>,
        mut solver: Solver<'e, G>,
        positions: &'e [G],
        stop: StopToken,
    ) -> Self {
        let (jobs, rx) = mpsc::channel::<(u64, usize, i32)>();
        let (tx, answers) = mpsc::channel();
        let running = Arc::new(Mutex::new(Running::default()));
        let (r, halt) = (running.clone(), stop.clone());
        let thread = std::thread::Builder::new()
            .name("worker".into())
            .spawn_scoped(scope, move || {
                // After a failure every job fails the same way (an oracle's fault stays), without
                // a search; the jobs are still answered, so that no one waits for them.
                let mut failed: Option<SearchError> = None;
                for (id, i, bound) in rx {
                    if let Some(e) = &failed {
                        let _ = tx.send((id, Reply::Failed(Failure::Here(e.clone()))));
                        continue;
                    }
                    {
                        let mut r = r.lock().expect("worker state");
                        if r.cancelled.remove(&id) {
                            let _ = tx.send((id, Reply::Cancelled));
                            continue;
                        }
                        r.now = Some(id);
                    }
                    let result = solver.bound(&positions[i], bound);
                    {
                        let mut r = r.lock().expect("worker state");
                        r.now = None;
                        r.cancelled.remove(&id);
                        // A stop raised for this job (if it finished first, its result stands).
                        halt.reset();
                    }
                    let answer = match result {
                        Ok(v) => Reply::Bound(v),
                        Err(SearchError::Interrupted) => Reply::Cancelled,
                        Err(e) => {
                            failed = Some(e.clone());
                            Reply::Failed(Failure::Here(e))
                        }
                    };
                    let _ = tx.send((id, answer));
                }
                solver.nodes()
            })
            .expect("cannot spawn the search thread");
        Worker {
            jobs: Some(jobs),
            answers,
            running,
            stop,
            pending: HashSet::new(),
            thread,
        }
    }

    fn submit(&mut self, id: u64, i: usize, bound: i32) {
        self.pending.insert(id);
        if let Some(j) = &self.jobs {
            j.send((id, i, bound)).expect("the search thread is gone");
        }
    }

    /// Cancels job `id` if it is still to be answered: dropped if it waits, stopped if it runs.
    fn cancel(&mut self, id: u64) {
        if !self.pending.contains(&id) {
            return; // answered already
        }
        let mut r = self.running.lock().expect("worker state");
        r.cancelled.insert(id);
        if r.now == Some(id) {
            self.stop.stop();
        }
    }

    /// Job `id` was answered.
    fn answered(&mut self, id: u64) {
        self.pending.remove(&id);
        self.running
            .lock()
            .expect("worker state")
            .cancelled
            .remove(&id);
    }

    /// Ends the search thread; returns the nodes it searched.
    fn finish(mut self) -> u64 {
        self.stop.stop();
        self.jobs = None;
        self.thread
            .join()
            .unwrap_or_else(|e| std::panic::resume_unwind(e))
    }
}
