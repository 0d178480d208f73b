//! `mancala engine`: the engine protocol on stdin/stdout (docs/protocol.md), for tournament
//! harnesses and GUIs, in the manner of chess's UCI: one command a line in, one reply a line
//! out, the search in a thread of its own so that `stop` and `isready` are answered while it runs.

use super::{engine, PositionArgs};
use anyhow::{anyhow, bail, Result};
use clap::{Args, Parser};
use mancala::rules::Rules;
use mancala::Position;
use mancala_cli::watch::{OnSignal, Watcher};
use solver::search::{Progress, Proven, SearchConfig, SearchError, Solver};
use std::io::{BufRead, Write};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// The protocol's version, raised when a reply changes meaning.
const PROTOCOL: u32 = 1;

/// How often a running search reports its nodes and bounds.
const INFO_EVERY: Duration = Duration::from_secs(1);

#[derive(Args, Debug)]
pub(super) struct EngineArgs {
    /// Search threads (default: all cores).
    #[arg(long)]
    threads: Option<usize>,
    /// Transposition table size in MiB, fixed (default: starts at 8 MiB and grows with the search, up to 4 GiB or half the free memory).
    #[arg(long, value_name = "MB")]
    hash_mb: Option<u64>,
    /// Probe the endgame tables in DIR (default directory when no DIR is given).
    #[arg(long, value_name = "DIR", num_args = 0..=1)]
    tables: Option<Option<std::path::PathBuf>>,
}

/// The arguments of a `position` line: the same as every command's position arguments.
#[derive(Parser, Debug)]
#[command(name = "position", no_binary_name = true, disable_help_flag = true)]
struct PositionLine {
    #[command(flatten)]
    pos: PositionArgs,
}

/// How long a `go` may search.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Limit {
    /// Until the value and a best move are proven, or `stop`.
    Infinite,
    /// At most this long (then the best move found so far, and the proven bounds).
    MoveTime(Duration),
    /// A heuristic look-ahead of this many plies: a move and an estimate, never a value.
    Depth(u32),
}

/// A search in progress.
struct Running {
    stop: Arc<AtomicBool>,
    /// Raised by the search just before it prints its bestmove: from then on the other end may
    /// send the next command, and the search counts as over.
    answered: Arc<AtomicBool>,
    handle: JoinHandle<()>,
}

pub(super) fn run(args: &EngineArgs) -> Result<ExitCode> {
    let threads = engine::threads(args.threads)?;
    let hash = engine::hash_bytes(args.hash_mb)?;
    let tables = args
        .tables
        .as_ref()
        .map(|d| d.clone().unwrap_or_else(mancala::endgame::default_dir));
    let mut position: Option<PositionArgs> = None;
    let mut running: Option<Running> = None;
    for line in std::io::stdin().lock().lines() {
        let line = line?;
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some((&command, rest)) = words.split_first() else {
            continue;
        };
        // A search that has given its bestmove is over (its thread ends at once): forget it.
        if running
            .as_ref()
            .is_some_and(|r| r.answered.load(Ordering::SeqCst))
        {
            finish(&mut running);
        }
        match command {
            "protocol" => {
                say(&format!(
                    "id name mancala {}\nid protocol {PROTOCOL}\nprotocolok",
                    env!("CARGO_PKG_VERSION")
                ));
            }
            "isready" => say("readyok"),
            "position" if running.is_some() => say("error a search is running: send stop first"),
            "position" => match parse_position(rest) {
                Ok(p) => position = Some(p),
                Err(e) => say(&format!("error {}", one_line(&e))),
            },
            "go" if running.is_some() => say("error a search is running: send stop first"),
            "go" => match (parse_limit(rest), &position) {
                (Err(e), _) => say(&format!("error {}", one_line(&e))),
                (Ok(_), None) => say("error no position: send position first"),
                (Ok(limit), Some(p)) => {
                    let stop = Arc::new(AtomicBool::new(false));
                    let answered = Arc::new(AtomicBool::new(false));
                    let job = Job {
                        pos: p.clone(),
                        limit,
                        threads,
                        hash,
                        tables: tables.clone(),
                        stop: stop.clone(),
                        answered: answered.clone(),
                    };
                    let handle = std::thread::spawn(move || job.run());
                    running = Some(Running {
                        stop,
                        answered,
                        handle,
                    });
                }
            },
            "stop" => finish(&mut running),
            "quit" => break,
            other => say(&format!("error unknown command '{other}'")),
        }
    }
    // End of input or `quit`: stop a search that still runs, after it has said its move.
    finish(&mut running);
    Ok(ExitCode::SUCCESS)
}

/// Stops the running search, if any, and waits until it has printed its bestmove.
fn finish(running: &mut Option<Running>) {
    if let Some(r) = running.take() {
        // The search's stop flag also reaches a sowing in progress.
        r.stop.store(true, Ordering::Relaxed);
        let _ = r.handle.join();
    }
}

/// Prints one reply (one or more lines) and flushes: the other end waits for it. A closed
/// stdout ends the process quietly, as the end of the conversation.
fn say(text: &str) {
    let mut out = std::io::stdout().lock();
    if writeln!(out, "{text}").and_then(|_| out.flush()).is_err() {
        std::process::exit(0);
    }
}

/// An error as one protocol line.
fn one_line(e: &anyhow::Error) -> String {
    format!("{e:#}").replace('\n', " ")
}

/// `position GAME [--holes N] [--seeds S] [--position POS] [rule options] [moves M1 M2 ...]`:
/// checked now (an error names the problem), played at `go`.
fn parse_position(words: &[&str]) -> Result<PositionArgs> {
    let (args, moves) = match words.iter().position(|w| *w == "moves") {
        Some(i) => (&words[..i], &words[i + 1..]),
        None => (words, &[][..]),
    };
    let mut line = PositionLine::try_parse_from(args).map_err(|e| {
        let text = e.to_string();
        let first = text.lines().next().unwrap_or("invalid position arguments");
        anyhow!("{}", first.trim_start_matches("error: "))
    })?;
    line.pos
        .moves
        .extend(moves.iter().map(|m| (*m).to_string()));
    let v = line.pos.variant()?;
    mancala::with_rules!(v, r => line.pos.position(r).map(|_| ()))?;
    Ok(line.pos)
}

/// `go [movetime MS | depth N | infinite]`.
fn parse_limit(words: &[&str]) -> Result<Limit> {
    let number = |w: Option<&&str>, what: &str| -> Result<u64> {
        let w = w.ok_or_else(|| anyhow!("go {what} needs a number"))?;
        w.parse()
            .map_err(|_| anyhow!("go {what} needs a whole number, not '{w}'"))
    };
    match words {
        [] | ["infinite"] => Ok(Limit::Infinite),
        ["movetime", rest @ ..] if rest.len() <= 1 => Ok(Limit::MoveTime(Duration::from_millis(
            number(rest.first(), "movetime")?,
        ))),
        ["depth", rest @ ..] if rest.len() <= 1 => {
            let d = number(rest.first(), "depth")?;
            if d == 0 || d > 64 {
                bail!("go depth takes 1 to 64 plies, not {d}");
            }
            Ok(Limit::Depth(d as u32))
        }
        _ => bail!(
            "go takes 'movetime MS', 'depth N' or 'infinite', not '{}'",
            words.join(" ")
        ),
    }
}

/// One `go`, run on its own thread.
struct Job {
    pos: PositionArgs,
    limit: Limit,
    threads: usize,
    hash: engine::HashSize,
    tables: Option<std::path::PathBuf>,
    stop: Arc<AtomicBool>,
    answered: Arc<AtomicBool>,
}

impl Job {
    fn run(self) {
        let reply = self
            .pos
            .variant()
            .and_then(|v| mancala::with_rules!(v, r => self.search(r)));
        self.answered.store(true, Ordering::SeqCst);
        match reply {
            Ok(lines) => say(&lines),
            // An error still ends the `go` with a bestmove line, so the other end never hangs.
            Err(e) => say(&format!("error {}\nbestmove none", one_line(&e))),
        }
    }

    fn search<R: Rules>(&self, rules: R) -> Result<String> {
        let p = self.pos.position(rules)?;
        if p.is_over() {
            return Ok(format!("bestmove none value {:+}", p.final_value(0)));
        }
        let started = Instant::now();
        if let Limit::Depth(depth) = self.limit {
            let Some(g) = solver::lookahead::best_move(&p, depth, &self.stop) else {
                return Ok(format!(
                    "info string stopped before depth {depth} finished\nbestmove {}",
                    first_move(&p)
                ));
            };
            let estimate = p.final_value(g.estimate);
            return Ok(format!(
                "info depth {depth} estimate {estimate:+} time {}\nbestmove {} estimate {estimate:+}",
                started.elapsed().as_millis(),
                g.mv.0
            ));
        }
        let tb = self
            .tables
            .as_ref()
            .map(|d| engine::tables_for_search(d, &p))
            .transpose()?;
        let oracle = tb
            .as_ref()
            .map(|t| t as &dyn solver::search::Oracle<Position<R>>);
        let progress = Arc::new(Progress::new());
        let cfg = SearchConfig {
            threads: self.threads,
            tt_bytes: engine::tt_bytes(&p, self.hash),
            tt_max_bytes: engine::tt_max_bytes(&p, self.hash),
            stop: Some(self.stop.clone()),
            progress: Some(progress.clone()),
            ..SearchConfig::default()
        };
        let limit = match self.limit {
            Limit::MoveTime(t) => Some(t),
            _ => None,
        };
        let mut proven = Proven::default();
        let (tx, rx) = mpsc::channel::<()>();
        let result = std::thread::scope(|s| {
            // Progress lines once a second, as UCI's `info`.
            let progress = &progress;
            s.spawn(move || {
                while let Err(mpsc::RecvTimeoutError::Timeout) = rx.recv_timeout(INFO_EVERY) {
                    let (lo, hi) = progress.bounds();
                    let (a, b) = (p.final_value(lo), p.final_value(hi));
                    say(&format!(
                        "info nodes {} time {} bounds {:+} {:+}",
                        progress.nodes(),
                        started.elapsed().as_millis(),
                        a.min(b),
                        a.max(b)
                    ));
                }
            });
            let r = Watcher::new("searching", OnSignal::Stop)
                .stop(self.stop.clone())
                .deadline(limit)
                .run(|| {
                    Solver::new(&p, cfg, oracle).and_then(|mut s| s.solve_tracked(&p, &mut proven))
                });
            drop(tx);
            r
        });
        let ms = started.elapsed().as_millis();
        match result {
            Ok(r) => {
                let best = r.best.iter().map(|m| m.0).min().expect("a running game");
                Ok(format!(
                    "info nodes {} time {ms}\nbestmove {best} value {:+}",
                    r.nodes,
                    p.final_value(r.value)
                ))
            }
            Err(SearchError::Interrupted) => {
                let nodes = progress.nodes();
                if let (Some(v), Some(m)) = (proven.value, proven.best.first()) {
                    // The value and this move's optimality are proven: nothing is a guess.
                    return Ok(format!(
                        "info nodes {nodes} time {ms}\nbestmove {} value {:+}",
                        m.0,
                        p.final_value(v)
                    ));
                }
                let (lo, hi) = match proven.value {
                    Some(v) => (v, v),
                    None => progress.bounds(),
                };
                let (a, b) = (p.final_value(lo), p.final_value(hi));
                let mv = engine::fallback_move(&p, &proven.worse).map_or(0, |m| m.0);
                Ok(format!(
                    "info nodes {nodes} time {ms}\nbestmove {mv} bounds {:+} {:+}",
                    a.min(b),
                    a.max(b)
                ))
            }
            Err(e) => Err(engine::search_error(e)),
        }
    }
}

/// The lowest-numbered legal move (a position whose game is not over has one).
fn first_move<R: Rules>(p: &Position<R>) -> u8 {
    p.legal_moves().as_slice().first().map_or(0, |m| m.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn go_limits_parse() {
        assert_eq!(parse_limit(&[]).unwrap(), Limit::Infinite);
        assert_eq!(parse_limit(&["infinite"]).unwrap(), Limit::Infinite);
        assert_eq!(
            parse_limit(&["movetime", "250"]).unwrap(),
            Limit::MoveTime(Duration::from_millis(250))
        );
        assert_eq!(parse_limit(&["depth", "7"]).unwrap(), Limit::Depth(7));
        assert!(parse_limit(&["depth", "0"]).is_err());
        assert!(parse_limit(&["movetime"]).is_err());
        assert!(parse_limit(&["movetime", "-3"]).is_err());
        assert!(parse_limit(&["sometime"]).is_err());
    }

    #[test]
    fn position_lines_parse_like_the_command_line() {
        let p = parse_position(&["kalah", "--holes", "4", "--seeds", "3", "moves", "2", "S4"]);
        assert_eq!(p.unwrap().moves, vec!["2", "S4"]);
        assert!(parse_position(&["kalah", "--holes", "99"]).is_err());
        assert!(parse_position(&["chess"]).is_err());
        assert!(parse_position(&["kalah", "moves", "7"]).is_err());
    }
}
