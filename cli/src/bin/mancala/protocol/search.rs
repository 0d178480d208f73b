//! One `go`, on a thread of its own: the exact search (or the look-ahead of `go depth`, or the
//! value of every move for `MultiPV` and the calibrated player), its `info` lines, and the one
//! `bestmove` line that ends every `go`, whatever happens.
//!
//! The searches run on an [`Analyzer`] kept between `go`s ([`Kept`]): its transposition table
//! keeps what earlier searches of the game proved, and its endgame tables are opened once, not
//! per `go`. A `go` after `setoption` of the threads, the table or the tables, or on another
//! game or board, gets a new one.

use super::limits::Limits;
use super::options::Options;
use super::reply::{centiseeds, one_line, say, Dialect};
use crate::{setup, PositionArgs};
use anyhow::Result;
use mancala::answers::{self, Analyzer, AnalyzerConfig};
use mancala::board::{Move, Side};
use mancala::calibrated::{Calibrated, Pick};
use mancala::rules::Rules;
use mancala::stop::{Stop, StopToken};
use mancala::Position;
use mancala_cli::watch::{OnSignal, Watcher};
use solver::search::{Progress, Proven, SearchError};
use solver::{Children, Game};
use std::any::Any;
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
    /// The analyzer of the previous `go`s.
    pub kept: Arc<Mutex<Kept>>,
}

/// The analyzer a `go` leaves for the next one, with what it was made for (the game and board,
/// the threads, the table size and the tables).
#[derive(Default)]
pub(super) struct Kept(Option<(String, Box<dyn Any + Send>)>);

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
        let (made_for, mut analyzer) = self.analyzer(&p);
        let progress = analyzer.progress();
        let ctx = Context {
            p,
            mover,
            started,
            nodes_before: progress.nodes(),
            progress,
        };
        let reply = if self.options.multipv > 1 || !self.options.calibration.is_perfect() {
            self.every_move(&ctx, &mut analyzer, budget)
        } else {
            self.best_move(&ctx, &mut analyzer, budget)
        };
        // Kept even after an error: a table that failed is refused again by the next `go`.
        self.kept.lock().unwrap_or_else(|e| e.into_inner()).0 = Some((made_for, analyzer));
        reply
    }

    /// The analyzer of the previous `go` when it was made for this game, board and options,
    /// else a new one; with what it is made for.
    fn analyzer<R: Rules>(&self, p: &Position<R>) -> (String, Box<Analyzer<R>>) {
        let o = &self.options;
        let made_for = format!(
            "{} {} {:?} {:?}",
            answers::rules_identity(p.rules(), p.board().holes),
            o.threads,
            o.hash,
            o.tables
        );
        let kept = self.kept.lock().unwrap_or_else(|e| e.into_inner()).0.take();
        let analyzer = kept
            .filter(|(m, _)| *m == made_for)
            .and_then(|(_, a)| a.downcast::<Analyzer<R>>().ok())
            .unwrap_or_else(|| {
                // The engine answers from its search alone, as docs/protocol.md says.
                Box::new(Analyzer::new(AnalyzerConfig::search_only(
                    o.threads,
                    o.hash,
                    o.tables.clone(),
                )))
            });
        (made_for, analyzer)
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
        analyzer: &mut Analyzer<R>,
        budget: Option<Duration>,
    ) -> Result<String> {
        let p = &ctx.p;
        // Half the time for the exact search: if it cannot prove a move by then, the other half
        // deepens the look-ahead that chooses the move.
        let exact_time = budget.map(|b| b / 2);
        let mut proven = Proven::default();
        let result = self
            .watched(ctx, exact_time, true, || {
                analyzer.search(p, &self.stopped_by(), |s| s.solve_tracked(p, &mut proven))
            })
            .map_err(analyzer_error)?;
        let ms = ctx.started.elapsed().as_millis();
        let nodes = ctx.nodes();
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
        let guess = crate::fallback::deepen(p, worse, until);
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
        analyzer: &mut Analyzer<R>,
        budget: Option<Duration>,
    ) -> Result<String> {
        let p = &ctx.p;
        let mut valued: Vec<Valued> = Vec::new();
        let mut children = Children::new();
        let outcome = self.watched(ctx, budget, false, || {
            if p.children_until(&mut children, self.stop.as_stop())
                .is_err()
            {
                return Ok(Ok(false));
            }
            analyzer.search(p, &self.stopped_by(), |solver| {
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
            })
        });
        let complete = outcome
            .map_err(analyzer_error)?
            .map_err(setup::search_error)?;
        let ms = ctx.started.elapsed().as_millis();
        let nodes = ctx.nodes();
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

    /// The analyzer's limits: this `go`'s stop, which the watch raises (the deadline, `go
    /// nodes`, a signal) as `stop` and `quit` do.
    fn stopped_by(&self) -> answers::Limits {
        answers::Limits {
            time: None,
            stop: Some(self.stop.clone()),
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
            let stop = &self.stop;
            s.spawn(move || {
                let mut next_info = ctx.started + INFO_EVERY;
                while let Err(mpsc::RecvTimeoutError::Timeout) = rx.recv_timeout(MONITOR_TICK) {
                    let nodes = ctx.nodes();
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
    /// The analyzer's live counters, and its node count when this `go` started.
    progress: Arc<Progress>,
    nodes_before: u64,
}

impl<R: Rules> Context<R> {
    /// The nodes this `go` searched so far.
    fn nodes(&self) -> u64 {
        self.progress.nodes().saturating_sub(self.nodes_before)
    }
}

/// An analyzer's error in the engine's words: the tables named by their option.
fn analyzer_error(e: answers::AnalyzerError) -> anyhow::Error {
    match e {
        answers::AnalyzerError::Tables { dir, source } => {
            anyhow::Error::new(source).context(format!("--tables {}", dir.display()))
        }
        answers::AnalyzerError::Search(e) => setup::search_error(e),
        other => anyhow::Error::new(other),
    }
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
