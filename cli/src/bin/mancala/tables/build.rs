//! `tables build`: every layer of a game's tables up to K seeds on the board.

use super::WorkArgs;
use crate::setup::{self, mib};
use anyhow::{bail, Context, Result};
use clap::Args;
use mancala::board::MAX_BOARD_SEEDS;
use mancala::endgame::{table_id, MancalaIndexer};
use mancala::rules::{GameKind, Rules};
use mancala::stop::StopToken;
use mancala_cli::args::GameArgs;
use mancala_cli::exit::Interrupted;
use mancala_cli::json;
use mancala_cli::watch::{OnSignal, Watcher};
use std::io::Write;
use std::process::ExitCode;
use std::time::Instant;
use tables::{BuildOptions, Table, TableError};

#[derive(Args, Debug)]
pub(super) struct BuildArgs {
    #[command(flatten)]
    game: GameArgs,
    /// The largest number of seeds on the board to cover.
    #[arg(long, value_name = "K", required_unless_present = "recommended")]
    max_seeds: Option<u32>,
    /// Build what docs/tables.md recommends for the game's standard board (Kalah on 6 holes:
    /// K=24, which every search then uses from the default directory), saying first how much
    /// disk, memory and time it takes.
    #[arg(long, conflicts_with = "max_seeds")]
    recommended: bool,
    #[command(flatten)]
    work: WorkArgs,
    /// Print one JSON object (docs/json.md) at the end instead of a line per layer.
    #[arg(long)]
    json: bool,
}

/// Runs `tables build`.
pub(super) fn run(a: &BuildArgs) -> Result<ExitCode> {
    let v = a.game.variant()?;
    let holes = a.game.holes()?;
    mancala::with_rules!(v, r => build(a, r, holes))
}

/// The tables docs/tables.md recommends: the most seeds on the board worth a table for the
/// standard board of `kind` on `holes` holes, when any. Kalah(6,4) (both rules): K=24, where the
/// search of a middle-game position takes about a second (docs/performance.md); the other games'
/// standard boards are answered by the book and the search without tables.
fn recommended_max_seeds(kind: GameKind, holes: u8) -> Option<u32> {
    match (kind, holes) {
        (GameKind::Kalah, 6) => Some(24),
        _ => None,
    }
}

/// Positions a second one thread builds, measured (docs/tables.md: about 24 M a second on the
/// 2-core development machine's two threads), for the time said before a recommended build.
const BUILD_RATE_PER_THREAD: f64 = 12e6;

/// Bits per entry of a built Kalah table on disk (docs/tables.md: 4.1).
const DISK_BITS_PER_ENTRY: f64 = 4.2;

fn build<R: Rules>(a: &BuildArgs, rules: R, holes: u8) -> Result<ExitCode> {
    let k = match (a.max_seeds, a.recommended) {
        (Some(k), _) => k,
        (None, _) => {
            let Some(k) = recommended_max_seeds(R::KIND, holes) else {
                bail!(
                    "no tables are recommended for {} on {holes} holes: the opening book and the search answer its standard board without them; build some with --max-seeds K",
                    R::KIND.name()
                );
            };
            let ix = MancalaIndexer::new(rules, holes);
            let mem = tables::memory_estimate(&ix, k);
            let threads = a.work.threads()?;
            let dir = a.work.dir();
            eprintln!(
                "recommended: {id} up to K={k} seeds in {}: {} entries, about {} of disk, {} of memory while building, about {:.1} minutes on {threads} thread{} (layers already built are kept)",
                dir.display(),
                mem.entries,
                mib((mem.entries as f64 * DISK_BITS_PER_ENTRY / 8.0) as u64),
                mib(mem.total()),
                mem.entries as f64 / (BUILD_RATE_PER_THREAD * threads as f64) / 60.0,
                if threads == 1 { "" } else { "s" },
                id = table_id(&rules, holes),
            );
            k
        }
    };
    if k > MAX_BOARD_SEEDS {
        bail!("--max-seeds {k} is more than the board can hold ({MAX_BOARD_SEEDS} seeds)");
    }
    let dir = a.work.dir();
    let ix = MancalaIndexer::new(rules, holes);
    let id = table_id(&rules, holes);
    let threads = a.work.threads()?;
    // Layers' arrays are freed and allocated in turn: without this the peak depends on what the
    // allocator kept of the freed ones, and the estimate below could not hold.
    solver::return_freed_blocks();
    // The process itself (code, allocator, threads) counts too: it is most of a small build.
    // Read before the estimate, which may build the top layer's schedule to measure it.
    let own = setup::resident_bytes().unwrap_or(0);
    let mem = tables::memory_estimate(&ix, k);
    let estimate = mem.total().saturating_add(own);
    eprintln!(
        "building {id}, 0 to {k} seeds on the board, in {}: {} entries (largest layer {}); memory about {} ({} working, up to {} of lower tables, {} the program); {threads} thread{}",
        dir.display(),
        mem.entries,
        mem.largest_layer,
        mib(estimate),
        mib(mem.working),
        mib(mem.tables),
        mib(own),
        if threads == 1 { "" } else { "s" }
    );
    setup::ensure_memory(&format!("building {id} up to {k} seeds"), estimate)?;
    let stop = StopToken::new();
    let opts = BuildOptions {
        threads,
        cyclic_by_graph: false,
        stop: Some(stop.clone()),
    };
    let bars = mancala_cli::layer_bars::LayerBars::new(a.work.progress());
    let started = Instant::now();
    let mut out = std::io::stdout().lock();
    let mut io_result = Ok(());
    let mut layers: Vec<json::BuiltLayer> = Vec::new();
    // A signal raises the build's stop token: the layer being solved is dropped within a few
    // thousand positions, and the layers already written are complete (the next build resumes
    // from them). A second signal ends the process at once.
    let what = format!("building {id}");
    let built = Watcher::new(what.clone(), OnSignal::Stop)
        .stop(stop)
        .run(|| {
            tables::build(&ix, &id, &dir, k, &opts, &bars, |r| {
                if let Some(why) = &r.rebuilt_because {
                    eprintln!("layer {}: rebuilt the existing file: {why}", r.layer);
                }
                if a.json {
                    layers.push(json::BuiltLayer {
                        layer: r.layer,
                        entries: r.entries,
                        encoding: r.encoding.to_string(),
                        exceptions: r.exceptions,
                        bytes: r.bytes,
                        resumed: r.resumed,
                        rebuilt_because: r.rebuilt_because.as_ref().map(|w| w.to_string()),
                        seconds: r.seconds,
                    });
                } else if io_result.is_ok() {
                    io_result = writeln!(out, "{r}");
                }
            })
        });
    let built = match built {
        Err(TableError::Stopped { finished }) => {
            let kept = match finished {
                0 => "no layer was finished".to_string(),
                n => format!(
                    "layers 0 to {} are finished and kept, a new build resumes from layer {n}",
                    n - 1
                ),
            };
            return Err(
                Interrupted(format!("{what} was stopped before it finished; {kept}")).into(),
            );
        }
        r => r.with_context(|| format!("building the tables of {id}"))?,
    };
    io_result?;
    let bytes: u64 = built.iter().map(Table::file_bytes).sum();
    let bits = 8.0 * bytes as f64 / mem.entries.max(1) as f64;
    let seconds = started.elapsed().as_secs_f64();
    if a.json {
        let v = json::TablesBuild {
            head: json::Head::rules("tables build", &rules),
            holes,
            max_seeds: k,
            directory: dir.display().to_string(),
            layers,
            entries: mem.entries,
            bytes,
            bits_per_entry: bits,
            seconds,
            memory_estimate: estimate,
            peak_memory: setup::peak_resident_bytes(),
        };
        json::print(&mut out, &v)?;
        return Ok(ExitCode::SUCCESS);
    }
    writeln!(
        out,
        "built {id}: layers 0 to {k}, {} entries, {bytes} bytes ({bits:.2} bits per entry), in {seconds:.3} s",
        mem.entries,
    )?;
    Ok(ExitCode::SUCCESS)
}
