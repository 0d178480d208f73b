//! `verify`: claims about the games checked by computation, each as one command whose output can
//! be pasted into a paper.
//!
//! - `verify first-player GAME --holes A..B --seeds C..D`: solves the start of every board size
//!   in the ranges (the first player's advantage), with a per-size time limit; sizes cut off are
//!   reported as unknown, never guessed. Table on stdout; optional CSV, JSON and an SVG heatmap.
//! - `verify published`: the Kalah values of REFERENCE.md (built in: [`mancala::reference_values`]),
//!   row by row: agree, disagree or skipped. Exit status 1 on any disagreement.
//! - `verify opening GAME`: the first player's whole first turn, searched exhaustively
//!   ([`mancala::opening`]): is there a winning opening (docs/rules.md §9)? With `--solve`, also the
//!   full game's value.
//!
//! - `verify match GAME --holes A..B --seeds C..D`: the round-perfect match of docs/rules.md §13.5
//!   for each size ([`matches`]).
//!
//! One file per claim (`first_player.rs` with its `heatmap.rs`, `published.rs`, `opening.rs`);
//! this file holds what they share: solving one start within a time limit, and files written
//! atomically.

mod first_player;
mod heatmap;
mod matches;
mod opening;
mod published;

use super::engine;
use super::json::SizeStatus;
use anyhow::{anyhow, Context, Result};
use clap::{Args, Subcommand};
use mancala::rules::Rules;
use mancala::Position;
use solver::search::{Oracle, SearchConfig, SearchError, Solver};
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// `mancala verify ...`
#[derive(Args, Debug)]
pub struct VerifyArgs {
    #[command(subcommand)]
    what: VerifyCommand,
}

#[derive(Subcommand, Debug)]
enum VerifyCommand {
    /// Solve the start of every board size in a range: the first player's advantage.
    FirstPlayer(first_player::FirstPlayerArgs),
    /// Check the published Kalah values of REFERENCE.md (built in) that fit the time limit.
    Published(published::PublishedArgs),
    /// Search the first player's whole first turn for an outright win (the Dakon first-player claim).
    Opening(opening::OpeningArgs),
    /// The round-perfect match (docs/rules.md §13.5) of Dakon, Walak-pussa or San-Yao for each size.
    Match(matches::MatchArgs),
}

/// Search resources shared by the subcommands that solve games.
#[derive(Args, Debug, Clone)]
struct EngineArgs {
    /// Search threads (default: all cores).
    #[arg(long)]
    threads: Option<usize>,
    /// Transposition table size in MiB per solve (default 256; small boards use only what they can fill).
    #[arg(long, value_name = "MIB")]
    hash_mb: Option<u64>,
}

/// `N`, `A..B` or `A..=B` (both ends included).
fn parse_range(s: &str) -> Result<(u32, u32), String> {
    let num = |t: &str| -> Result<u32, String> {
        t.trim()
            .parse::<u32>()
            .map_err(|_| format!("'{s}' is not a number N or a range A..B of whole numbers"))
    };
    let (a, b) = match s.split_once("..") {
        Some((a, b)) => (num(a)?, num(b.strip_prefix('=').unwrap_or(b))?),
        None => {
            let n = num(s)?;
            (n, n)
        }
    };
    if a > b {
        return Err(format!("'{s}' is an empty range: {a} is greater than {b}"));
    }
    Ok((a, b))
}

/// A positive, finite number of seconds.
pub(super) fn parse_seconds(s: &str) -> Result<f64, String> {
    match s.trim().parse::<f64>() {
        Ok(x) if x.is_finite() && x > 0.0 && x <= 1e9 => Ok(x),
        _ => Err(format!("'{s}' is not a positive number of seconds")),
    }
}

pub(super) fn run(a: VerifyArgs) -> Result<ExitCode> {
    match a.what {
        VerifyCommand::FirstPlayer(a) => first_player::run(&a),
        VerifyCommand::Published(a) => published::run(&a),
        VerifyCommand::Match(a) => matches::run(&a),
        VerifyCommand::Opening(a) => {
            let v = a.pos.variant()?;
            mancala::with_rules!(v, r => opening::run(&a, r))
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Solving one start position with a time limit.

/// Threads, table size and time limit: how to run each solve.
struct Engine {
    threads: usize,
    hash_bytes: u64,
    limit: Option<Duration>,
}

impl Engine {
    fn new(e: &EngineArgs, limit: Option<f64>) -> Result<Self> {
        Ok(Self {
            threads: engine::threads(e.threads)?,
            hash_bytes: engine::hash_bytes(e.hash_mb)?,
            limit: limit.map(Duration::from_secs_f64),
        })
    }
}

/// The outcome of solving one start position.
#[derive(Clone, Debug)]
struct Solved {
    holes: u8,
    seeds: u8,
    /// Final South minus North; `None` when the time limit cut the search off.
    value: Option<i32>,
    /// Solved, or why not.
    status: SizeStatus,
    best: Vec<u8>,
    nodes: u64,
    seconds: f64,
}

/// Solves `p` (its final South-minus-North value and best moves) within the engine's time limit.
/// A timer thread raises the search's stop flag at the deadline (or on Ctrl-C).
fn solve_limited<R: Rules>(
    p: &Position<R>,
    engine: &Engine,
    oracle: Option<&dyn Oracle<Position<R>>>,
) -> Result<Solved> {
    let stop = Arc::new(AtomicBool::new(false));
    let cfg = SearchConfig {
        threads: engine.threads,
        tt_bytes: engine::tt_bytes(p, engine.hash_bytes),
        stop: Some(stop.clone()),
        ..SearchConfig::default()
    };
    let started = Instant::now();
    let (result, nodes) =
        engine::with_deadline(engine.limit, &stop, || match Solver::new(p, cfg, oracle) {
            Ok(mut solver) => {
                let r = solver.solve(p);
                (r, solver.nodes())
            }
            Err(e) => (Err(e), 0),
        });
    if engine::interrupted() {
        return Err(engine::Interrupted("the search was stopped before it finished".into()).into());
    }
    let seconds = started.elapsed().as_secs_f64();
    let (holes, seeds) = (
        p.board().holes,
        p.board().pit_slice().first().copied().unwrap_or(0),
    );
    let unknown = Solved {
        holes,
        seeds,
        value: None,
        status: SizeStatus::TimeLimit,
        best: Vec::new(),
        nodes,
        seconds,
    };
    match result {
        Ok(r) => Ok(Solved {
            value: Some(p.final_value(r.value)),
            status: SizeStatus::Solved,
            best: r.best.iter().map(|m| m.0).collect(),
            nodes: r.nodes,
            ..unknown
        }),
        Err(SearchError::Interrupted) => Ok(unknown),
        // A board too large for the transposition table's exact keys: no value, said why.
        Err(e) => {
            eprintln!(
                "warning: {} {holes}x{seeds}: cannot be solved here ({e}); reported as unknown",
                R::KIND.name()
            );
            Ok(Solved {
                status: SizeStatus::Unsolvable,
                ..unknown
            })
        }
    }
}

/// "South", "North", "draw" or "unknown".
fn winner(value: Option<i32>) -> &'static str {
    match value.map(|v| v.cmp(&0)) {
        Some(std::cmp::Ordering::Greater) => "South",
        Some(std::cmp::Ordering::Less) => "North",
        Some(std::cmp::Ordering::Equal) => "draw",
        None => "unknown",
    }
}

fn value_text(value: Option<i32>) -> String {
    value.map_or_else(|| "unknown".to_string(), |v| format!("{v:+}"))
}

/// A progress line on stderr when someone is watching.
fn note(text: &str) {
    if std::io::stderr().is_terminal() {
        eprintln!("{text}");
    }
}

// ---------------------------------------------------------------------------------------------
// Files: written whole to a temporary file next to the target, then renamed over it.

/// A file to be written atomically; created (and removed) once up front, so that an unwritable
/// path is reported before any long computation.
struct OutFile {
    path: PathBuf,
    tmp: PathBuf,
}

impl OutFile {
    fn new(path: &Path, flag: &str) -> Result<Self> {
        let name = path
            .file_name()
            .ok_or_else(|| anyhow!("{flag} {}: not a file name", path.display()))?
            .to_string_lossy()
            .into_owned();
        let tmp = path.with_file_name(format!(".{name}.tmp-{}", std::process::id()));
        std::fs::write(&tmp, b"")
            .with_context(|| format!("{flag} {}: cannot write there", path.display()))?;
        let _ = std::fs::remove_file(&tmp);
        Ok(Self {
            path: path.to_path_buf(),
            tmp,
        })
    }

    fn write(&self, bytes: &[u8], flag: &str) -> Result<()> {
        let ctx = || format!("{flag} {}", self.path.display());
        std::fs::write(&self.tmp, bytes).with_context(ctx)?;
        if let Err(e) = std::fs::rename(&self.tmp, &self.path) {
            let _ = std::fs::remove_file(&self.tmp);
            return Err(e).with_context(ctx);
        }
        Ok(())
    }
}
