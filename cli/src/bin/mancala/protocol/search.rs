//! One `go`, on a thread of its own: the exact search (or the look-ahead of `go depth`, or the
//! value of every move for `MultiPV` and the calibrated player), its `info` lines, and the one
//! `bestmove` line that ends every `go`, whatever happens.

use super::guess;
use super::limits::Limits;
use super::options::Options;
use super::reply::{centiseeds, one_line, say, Dialect};
use crate::{setup, PositionArgs};
use anyhow::Result;
use mancala::board::{Move, Side};
use mancala::calibrated::{Calibrated, Pick};
use mancala::rules::Rules;
use mancala::stop::{Stop, StopToken};
use mancala::Position;
use mancala_cli::watch::{OnSignal, Watcher};
use solver::search::{Oracle, Progress, Proven, SearchConfig, SearchError, Solver};
use solver::{Children, Game};
use std::fmt::Write as _;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc, Mutex};
use std::time::{Duration, Instant};

/// How often a running search reports its nodes and bounds.
const INFO_EVERY: Duration = Duration::from_secs(1);

/// How often the monitor looks at the node count (`go nodes`).
const MONITOR_TICK: Duration = Duration::from_millis(10);

/// How long the look-ahead may deepen after a search without a time limit was stopped (`stop`,
/// `go nodes`, a signal) before it proved a best move: the other end waits for the bestmove.
const GUESS_AFTER_STOP: Duration = Duration::from_millis(100);

/// One `go`.
pub(super) struct Job {
    /// The position, as arguments that name it directly (no moves to sow).
    pub pos: PositionArgs,
    pub limits: Limits,
    pub options: Options,
    pub dialect: Dialect,
    /// The calibrated player, whose draws go on from one `go` to the next.
    pub player: Arc<Mutex<Calibrated>>,
    /// This `go`'s own stop: `stop`, `quit`, the end of input, a signal or the time limit.
    pub stop: StopToken,
    /// Raised just before the bestmove is printed: from then on the `go` counts as over.
    pub answered: Arc<AtomicBool>,
}

impl Job {
    /// Runs the `go` to its bestmove line.
    pub(super) fn run(self) {
        let reply = self
            .pos
            .variant()
            .and_then(|v| mancala::with_rules!(v, r => self.search(r)));
        self.answered.store(true, Ordering::SeqCst);
        match reply {
            Ok(lines) => say(&lines),
            // An error still ends the `go` with a bestmove line, so the other end never hangs.
            Err(e) => say(&format!(
                "{}\nbestmove {}",
                self.dialect.error(&one_line(&e)),
                self.dialect.no_move()
            )),
        }
    }

    fn search<R: Rules>(&self, rules: R) -> Result<String> {
        let p = self.pos.position(rules)?;
        let Some(mover) = p.to_move() else {
            let v = p.final_value(0);
            return Ok(match self.dialect {
                Dialect::Native => format!("bestmove none value {v:+}"),
                Dialect::Uci => format!("info string the game is over: {v:+}\nbestmove (none)"),
            });
        };
        let started = Instant::now();
        let budget = self.limits.budget(mover);
        if let Some(depth) = self.limits.depth {
            return Ok(self.look_ahead(&p, depth, budget, started));
        }
        let tb = self
            .options
            .tables
            .as_ref()
            .map(|d| setup::tables_for_search(d, &p))
            .transpose()?;
        let oracle = tb.as_ref().map(|t| t as &dyn Oracle<Position<R>>);
        let ctx = Context {
            p,
            mover,
            started,
            progress: Arc::new(Progress::new()),
        };
        if self.options.multipv > 1 || !self.options.calibration.is_perfect() {
            self.every_move(&ctx, oracle, budget)
        } else {
            self.best_move(&ctx, oracle, budget)
        }
    }

    /// `go depth N`: a plain look-ahead, a move and an estimate.
    fn look_ahead<R: Rules>(
        &self,
        p: &Position<R>,
        depth: u32,
        budget: Option<Duration>,
        started: Instant,
    ) -> String {
        let g = Watcher::new("looking ahead", OnSignal::Consume)
            .stop(self.stop.clone())
            .deadline(budget)
            .run(|| solver::lookahead::best_move(p, depth, self.stop.as_stop()));
        let Some(g) = g else {
            let mv =
                open_move(p, &[]).map_or(self.dialect.no_move().to_string(), |m| m.0.to_string());
            return format!("info string stopped before depth {depth} finished\nbestmove {mv}");
        };
        let estimate = p.final_value(g.estimate);
        let cp = centiseeds(estimate, p.to_move().unwrap_or(Side::South));
        let ms = started.elapsed().as_millis();
        match self.dialect {
            Dialect::Native => format!(
                "info depth {depth} score cp {cp} time {ms} estimate {estimate:+} pv {m}\nbestmove {m} estimate {estimate:+}",
                m = g.mv.0
            ),
            Dialect::Uci => format!(
                "info depth {depth} score cp {cp} time {ms} pv {m}\ninfo string estimate {estimate:+} (a {depth}-ply look-ahead, not a proven value)\nbestmove {m}",
                m = g.mv.0
            ),
        }
    }

    /// The exact value and a best move; when the time runs out first, the proven bounds and
    /// the choice of the look-ahead deepened in the time left among the moves not proven worse.
    fn best_move<R: Rules>(
        &self,
        ctx: &Context<R>,
        oracle: Option<&dyn Oracle<Position<R>>>,
        budget: Option<Duration>,
    ) -> Result<String> {
        let p = &ctx.p;
        // Half the time for the exact search: if it cannot prove a move by then, the other half
        // deepens the look-ahead that chooses the move.
        let exact_time = budget.map(|b| b / 2);
        let mut proven = Proven::default();
        let result = self.watched(ctx, exact_time, true, || {
            Solver::new(p, self.config(p, &ctx.progress), oracle)
                .and_then(|mut s| s.solve_tracked(p, &mut proven))
        });
        let ms = ctx.started.elapsed().as_millis();
        let nodes = ctx.progress.nodes();
        let (value, best, pv) = match result {
            Ok(r) => {
                let best = r
                    .best
                    .iter()
                    .copied()
                    .min_by_key(|m| m.0)
                    .expect("a running game");
                (r.value, best, r.pv)
            }
            // The value and this move's optimality are proven: nothing is a guess.
            Err(SearchError::Interrupted) if proven.value.is_some() && !proven.best.is_empty() => {
                let best = proven.best[0];
                (proven.value.unwrap_or_default(), best, vec![best])
            }
            Err(SearchError::Interrupted) => {
                let (lo, hi) = match proven.value {
                    Some(v) => (v, v),
                    None => ctx.progress.bounds(),
                };
                let until = match budget {
                    Some(b) => ctx.started + b,
                    None => Instant::now() + GUESS_AFTER_STOP,
                };
                return Ok(self.unproven(ctx, lo, hi, &proven.worse, until, nodes));
            }
            Err(e) => return Err(setup::search_error(e)),
        };
        let v = p.final_value(value);
        let cp = centiseeds(v, ctx.mover);
        let pv = words(&pv);
        let depth = pv.split(' ').count();
        Ok(match self.dialect {
            Dialect::Native => format!(
                "info depth {depth} score cp {cp} nodes {nodes} time {ms} value {v:+} pv {pv}\nbestmove {} value {v:+}",
                best.0
            ),
            Dialect::Uci => format!(
                "info depth {depth} score cp {cp} nodes {nodes} time {ms} pv {pv}\ninfo string value {v:+} (exact: the final score, South minus North)\nbestmove {}",
                best.0
            ),
        })
    }

    /// The reply of a search stopped before it proved a best move: the future value lies in
    /// `[lo, hi]`; the move is the deepened look-ahead's choice among those not `worse`.
    fn unproven<R: Rules>(
        &self,
        ctx: &Context<R>,
        lo: i32,
        hi: i32,
        worse: &[Move],
        until: Instant,
        nodes: u64,
    ) -> String {
        let p = &ctx.p;
        let (a, b) = (p.final_value(lo), p.final_value(hi));
        let (low, high) = (a.min(b), a.max(b));
        let guess = guess::deepen(p, worse, until);
        let ms = ctx.started.elapsed().as_millis();
        let mv = guess
            .map(|g| g.mv)
            .or_else(|| open_move(p, worse))
            .map_or(self.dialect.no_move().to_string(), |m| m.0.to_string());
        // The side to move's proven floor, as UCI's lower bound.
        let floor = centiseeds(p.final_value(lo), ctx.mover);
        let mut out = String::new();
        let depth = guess.map_or(0, |g| g.depth);
        let _ = write!(
            out,
            "info depth {depth} score cp {floor} lowerbound nodes {nodes} time {ms}"
        );
        match self.dialect {
            Dialect::Native => {
                let _ = write!(
                    out,
                    " bounds {low:+} {high:+} pv {mv}\nbestmove {mv} bounds {low:+} {high:+}"
                );
            }
            Dialect::Uci => {
                let _ = write!(
                    out,
                    " pv {mv}\ninfo string value in [{low:+}, {high:+}] (proven); move {mv} is a {depth}-ply look-ahead's choice, not proven best\nbestmove {mv}"
                );
            }
        }
        out
    }

    /// Every move's exact value, the best `MultiPV` of them reported, and the move the
    /// calibrated player picks among them (the first best when it plays perfectly).
    fn every_move<R: Rules>(
        &self,
        ctx: &Context<R>,
        oracle: Option<&dyn Oracle<Position<R>>>,
        budget: Option<Duration>,
    ) -> Result<String> {
        let p = &ctx.p;
        let mut valued: Vec<Valued> = Vec::new();
        let mut children = Children::new();
        let outcome = self.watched(ctx, budget, false, || -> Result<bool, SearchError> {
            if p.children_until(&mut children, self.stop.as_stop())
                .is_err()
            {
                return Ok(false);
            }
            let mut solver = Solver::new(p, self.config(p, &ctx.progress), oracle)?;
            for c in children.as_slice() {
                let (value, mut pv) = if c.next.is_over() {
                    (c.next.final_value(0), Vec::new())
                } else {
                    match solver.solve(&c.next) {
                        Ok(r) => (c.next.final_value(r.value), r.pv),
                        Err(SearchError::Interrupted) => return Ok(false),
                        Err(e) => return Err(e),
                    }
                };
                pv.insert(0, c.mv);
                valued.push(Valued {
                    mv: c.mv,
                    value,
                    pv,
                });
            }
            Ok(true)
        });
        let complete = outcome.map_err(setup::search_error)?;
        let ms = ctx.started.elapsed().as_millis();
        let nodes = ctx.progress.nodes();
        let mover = ctx.mover;
        // Best first (for the side to move), then in move order.
        let mut ranked: Vec<&Valued> = valued.iter().collect();
        ranked.sort_by_key(|v| (-mover.sign() * v.value, v.mv.0));
        let mut out = String::new();
        for (k, v) in ranked
            .iter()
            .take(self.options.multipv as usize)
            .enumerate()
        {
            let pv = words(&v.pv);
            let _ = write!(
                out,
                "info multipv {} depth {} score cp {} nodes {nodes} time {ms}",
                k + 1,
                v.pv.len(),
                centiseeds(v.value, mover)
            );
            if self.dialect == Dialect::Native {
                let _ = write!(out, " value {:+}", v.value);
            }
            let _ = writeln!(out, " pv {pv}");
        }
        let Some(best) = ranked.first().copied() else {
            // Stopped before one move was valued: as a stopped single search.
            let (lo, hi) = (-p.stake(), p.stake());
            let until = Instant::now() + GUESS_AFTER_STOP;
            out.push_str(&self.unproven(ctx, lo, hi, &[], until, nodes));
            return Ok(out);
        };
        if !complete {
            // The best move valued so far is no proven best: the value is at least its value.
            let (a, b) = (best.value, p.final_value(p.stake()));
            let (low, high) = (a.min(b), a.max(b));
            let _ = write!(
                out,
                "info string stopped after {} of {} moves: {} is the best of those valued",
                valued.len(),
                children.len(),
                best.mv.0
            );
            let _ = match self.dialect {
                Dialect::Native => write!(out, "\nbestmove {} bounds {low:+} {high:+}", best.mv.0),
                Dialect::Uci => write!(out, "\nbestmove {}", best.mv.0),
            };
            return Ok(out);
        }
        let values: Vec<(Move, i32)> = valued
            .iter()
            .map(|v| (v.mv, mover.sign() * v.value))
            .collect();
        let perfect = valued
            .iter()
            .filter(|v| v.value == best.value)
            .map(|v| v.mv)
            .min_by_key(|m| m.0)
            .expect("the best move is among them");
        let (mv, pick) = self
            .player
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .choose(&values, perfect);
        if pick != Pick::Perfect || !self.options.calibration.is_perfect() {
            let c = self.options.calibration;
            let how = match pick {
                Pick::Perfect => "the perfect move",
                Pick::Random => "a uniformly random move",
                Pick::Softmax => "a softmax draw",
            };
            let _ = writeln!(
                out,
                "info string calibrated (epsilon {}, temperature {}): {} is {how}",
                c.epsilon(),
                c.temperature(),
                mv.0
            );
        }
        let _ = match self.dialect {
            Dialect::Native => write!(out, "bestmove {} value {:+}", mv.0, best.value),
            Dialect::Uci => write!(out, "bestmove {}", mv.0),
        };
        Ok(out)
    }

    /// The search's configuration: the options' threads and table, this `go`'s stop.
    fn config<R: Rules>(&self, p: &Position<R>, progress: &Arc<Progress>) -> SearchConfig {
        SearchConfig {
            threads: self.options.threads,
            tt_bytes: setup::tt_bytes(p, self.options.hash),
            tt_max_bytes: setup::tt_max_bytes(p, self.options.hash),
            stop: Some(self.stop.clone()),
            progress: Some(progress.clone()),
            ..SearchConfig::default()
        }
    }

    /// Runs `work` under this `go`'s watch: the deadline `limit`, `go nodes`, a signal (which
    /// stops this search only: the engine goes on), and an `info` line every second (with the
    /// root's proven bounds when `root_bounds`).
    fn watched<R: Rules, T>(
        &self,
        ctx: &Context<R>,
        limit: Option<Duration>,
        root_bounds: bool,
        work: impl FnOnce() -> T,
    ) -> T {
        let (tx, rx) = mpsc::channel::<()>();
        std::thread::scope(|s| {
            let progress = &ctx.progress;
            let stop = &self.stop;
            s.spawn(move || {
                let mut next_info = ctx.started + INFO_EVERY;
                while let Err(mpsc::RecvTimeoutError::Timeout) = rx.recv_timeout(MONITOR_TICK) {
                    let nodes = progress.nodes();
                    if self.limits.nodes.is_some_and(|n| nodes >= n) {
                        stop.stop();
                    }
                    if Instant::now() >= next_info {
                        next_info += INFO_EVERY;
                        say(&self.progress_line(ctx, nodes, root_bounds));
                    }
                }
            });
            // Consume: the signal stops this search and is forgotten, so the next `go` runs.
            let r = Watcher::new("searching", OnSignal::Consume)
                .stop(self.stop.clone())
                .deadline(limit)
                .run(work);
            drop(tx);
            r
        })
    }

    /// A progress `info` line.
    fn progress_line<R: Rules>(&self, ctx: &Context<R>, nodes: u64, root_bounds: bool) -> String {
        let ms = ctx.started.elapsed().as_millis();
        let nps = u128::from(nodes) * 1000 / ms.max(1);
        let mut line = format!("info nodes {nodes} nps {nps} time {ms}");
        if root_bounds {
            let (lo, hi) = ctx.progress.bounds();
            let (a, b) = (ctx.p.final_value(lo), ctx.p.final_value(hi));
            let floor = centiseeds(ctx.p.final_value(lo), ctx.mover);
            let _ = write!(line, " score cp {floor} lowerbound");
            if self.dialect == Dialect::Native {
                let _ = write!(line, " bounds {:+} {:+}", a.min(b), a.max(b));
            }
        }
        line
    }
}

/// What a search of one position shares with its watch.
struct Context<R: Rules> {
    p: Position<R>,
    mover: Side,
    started: Instant,
    progress: Arc<Progress>,
}

/// A move with its exact value (final, South minus North) and a principal variation from it.
struct Valued {
    mv: Move,
    value: i32,
    pv: Vec<Move>,
}

/// Moves as UCI writes a PV: pit numbers, space-separated.
fn words(moves: &[Move]) -> String {
    let w: Vec<String> = moves.iter().map(|m| m.0.to_string()).collect();
    w.join(" ")
}

/// The lowest-numbered legal move not in `worse` (else the lowest-numbered legal move), for a
/// search that has no better choice; `None` when the game is over or the legality of a move
/// cannot be settled (a relay still sowing after a million laps).
fn open_move<R: Rules>(p: &Position<R>, worse: &[Move]) -> Option<Move> {
    // A raised stop lets every ordinary move finish; only a relay past a million laps gives up.
    let moves = p.legal_moves_until(Stop::raised()).ok()?;
    let open = moves.as_slice().iter().find(|m| !worse.contains(m));
    open.or(moves.as_slice().first()).copied()
}
