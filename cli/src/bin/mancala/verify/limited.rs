//! Solving one start position within a time limit, as every `verify` claim does: the search
//! flags, the resources they make, the outcome, and how it is worded.

use crate::setup;
use anyhow::Result;
use clap::Args;
use mancala::answers::AnySolver;
use mancala::endgame::MancalaIndexer;
use mancala::rules::Rules;
use mancala::stop::StopToken;
use mancala::Position;
use mancala_cli::exit::Interrupted;
use mancala_cli::json::SizeStatus;
use mancala_cli::signal;
use mancala_cli::watch::{OnSignal, Watcher};
use solver::search::{SearchConfig, SearchError};
use std::io::IsTerminal;
use std::time::{Duration, Instant};
use tables::Tablebase;

/// Search resources shared by the subcommands that solve games.
#[derive(Args, Debug, Clone)]
pub(super) struct EngineArgs {
    /// Search threads (default: all cores).
    #[arg(long)]
    pub(super) threads: Option<usize>,
    /// Transposition table size in MiB per solve (default 256; small boards use only what they can fill).
    #[arg(long, value_name = "MIB")]
    pub(super) hash_mb: Option<u64>,
}

/// Threads, table size and time limit: how to run each solve.
pub(super) struct Engine {
    pub(super) threads: usize,
    pub(super) hash_bytes: setup::HashSize,
    pub(super) limit: Option<Duration>,
}

impl Engine {
    pub(super) fn new(e: &EngineArgs, limit: Option<f64>) -> Result<Self> {
        Ok(Self {
            threads: setup::threads(e.threads)?,
            hash_bytes: setup::hash_bytes(e.hash_mb)?,
            limit: limit.map(Duration::from_secs_f64),
        })
    }
}

/// The outcome of solving one start position.
#[derive(Clone, Debug)]
pub(super) struct Solved {
    pub(super) holes: u8,
    pub(super) seeds: u8,
    /// Final South minus North; `None` when the time limit cut the search off.
    pub(super) value: Option<i32>,
    /// Solved, or why not.
    pub(super) status: SizeStatus,
    pub(super) best: Vec<u8>,
    pub(super) nodes: u64,
    pub(super) seconds: f64,
}

/// Solves `p` (its final South-minus-North value and best moves) within the engine's time limit.
/// A timer thread raises the search's stop token at the deadline (or on Ctrl-C). Over the Kalah
/// node when `p` is one, `tables` read through a view made for this search.
pub(super) fn solve_limited<R: Rules>(
    p: &Position<R>,
    engine: &Engine,
    tables: Option<&Tablebase<MancalaIndexer<R>>>,
) -> Result<Solved> {
    let stop = StopToken::new();
    let cfg = SearchConfig {
        threads: engine.threads,
        tt_bytes: setup::tt_bytes(p, engine.hash_bytes),
        tt_max_bytes: setup::tt_max_bytes(p, engine.hash_bytes),
        stop: Some(stop.clone()),
        ..SearchConfig::default()
    };
    let started = Instant::now();
    let (result, nodes) = Watcher::new("the search", OnSignal::Stop)
        .stop(stop.clone())
        .deadline(engine.limit)
        .run(|| {
            AnySolver::scoped(p, cfg, tables, |solver| {
                let r = solver.solve(p);
                (r, solver.nodes())
            })
            .unwrap_or_else(|e| (Err(e), 0))
        });
    if signal::interrupted() {
        return Err(Interrupted("the search was stopped before it finished".into()).into());
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
pub(super) fn winner(value: Option<i32>) -> &'static str {
    match value.map(|v| v.cmp(&0)) {
        Some(std::cmp::Ordering::Greater) => "South",
        Some(std::cmp::Ordering::Less) => "North",
        Some(std::cmp::Ordering::Equal) => "draw",
        None => "unknown",
    }
}

pub(super) fn value_text(value: Option<i32>) -> String {
    value.map_or_else(|| "unknown".to_string(), |v| format!("{v:+}"))
}

/// A progress line on stderr when someone is watching.
pub(super) fn note(text: &str) {
    if std::io::stderr().is_terminal() {
        eprintln!("{text}");
    }
}
