//! `perft`: move-sequence counts per depth and per first move (`mancala::perft`).

use super::{json, setup, PositionArgs};
use anyhow::{bail, Result};
use clap::Args;
use mancala::rules::Rules;
use mancala::stop::Stop;
use mancala_cli::watch::{OnSignal, Spinner, Watcher};
use std::io::Write;
use std::process::ExitCode;
use std::time::Duration;
use std::time::Instant;

/// The deepest count asked for: the counts grow about sixfold a ply, so depth 30 is already far
/// beyond any machine; the limit only keeps a typo from running forever.
const MAX_DEPTH: u32 = 64;

#[derive(Args, Debug)]
pub(super) struct PerftArgs {
    #[command(flatten)]
    pub(super) pos: PositionArgs,
    /// Count move sequences of 1 to N plies (an extra turn is a ply of its own).
    #[arg(long, value_name = "N")]
    depth: u32,
    /// Threads counting first moves in parallel (default: all cores; the counts are the same).
    #[arg(long)]
    threads: Option<usize>,
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
}

pub(super) fn run<R: Rules>(args: &PerftArgs, rules: R) -> Result<ExitCode> {
    if args.depth > MAX_DEPTH {
        bail!(
            "--depth {} is more than perft counts (at most {MAX_DEPTH})",
            args.depth
        );
    }
    let threads = setup::threads(args.threads)?;
    let p = args.pos.position(rules)?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()?;
    let started = Instant::now();
    // A signal ends the process (exit 130): a partial count means nothing.
    let spinner = Spinner::new(Duration::from_secs(1), |_| {
        "counting… (Ctrl-C stops it)".to_string()
    });
    let counts = Watcher::new("counting", OnSignal::Exit)
        .spinner(true, spinner)
        .run(|| pool.install(|| mancala::perft::perft(&p, args.depth, Stop::never())))
        .expect("perft stops only on its stop, which nothing raises");
    let seconds = started.elapsed().as_secs_f64();
    let mut out = std::io::stdout().lock();
    if args.json {
        let v = json::Perft {
            head: json::PositionHead::of("perft", &p),
            depth: args.depth,
            depths: (1..)
                .zip(&counts.depths)
                .map(|(depth, c)| json::PerftDepth {
                    depth,
                    nodes: c.nodes,
                    ends: c.ends,
                })
                .collect(),
            divide: counts
                .divide
                .iter()
                .map(|&(m, nodes)| json::PerftMove { pit: m.0, nodes })
                .collect(),
            seconds,
        };
        json::print(&mut out, &v)?;
        return Ok(ExitCode::SUCCESS);
    }
    writeln!(out, "position: {p}")?;
    if p.is_over() {
        writeln!(out, "the game is over: no moves, every count is 0")?;
    }
    writeln!(
        out,
        "{:>5}  {:>20}  {:>16}",
        "depth", "sequences", "of them ending"
    )?;
    for (d, c) in (1..).zip(&counts.depths) {
        writeln!(out, "{d:>5}  {:>20}  {:>16}", c.nodes, c.ends)?;
    }
    if !counts.divide.is_empty() {
        writeln!(out, "by first move, at depth {}:", args.depth)?;
        for (m, n) in &counts.divide {
            writeln!(out, "  {:>2}  {n}", m.0)?;
        }
    }
    let total: u64 = counts.depths.iter().map(|c| c.nodes).sum();
    writeln!(
        out,
        "{total} positions visited in {seconds:.3} s ({:.2} M/s), {threads} thread{}",
        total as f64 / seconds.max(1e-9) / 1e6,
        if threads == 1 { "" } else { "s" }
    )?;
    Ok(ExitCode::SUCCESS)
}
