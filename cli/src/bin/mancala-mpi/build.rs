//! `mancala-mpi tables build`: the tables of `mancala tables build`, each layer split over the
//! ranks ([`tables::build_split()`]); rank 0 writes the files and prints what `mancala` prints.

use crate::args::BuildArgs;
use crate::comm::World;
use anyhow::{bail, Context, Result};
use mancala::board::MAX_BOARD_SEEDS;
use mancala::endgame::{default_dir, table_id, MancalaIndexer};
use mancala::rules::Rules;
use solver::Collective;
use std::io::Write;
use std::time::Instant;
use tables::Table;

/// Runs the build on every rank.
pub fn run(a: &BuildArgs, world: &World) -> Result<()> {
    let v = a.game.variant()?;
    let holes = a.game.holes()?;
    mancala::with_rules!(v, r => build(a, r, holes, world))
}

fn mib(bytes: u64) -> String {
    format!("{:.1} MiB", bytes as f64 / (1u64 << 20) as f64)
}

fn build<R: Rules>(a: &BuildArgs, rules: R, holes: u8, world: &World) -> Result<()> {
    let k = a.max_seeds;
    if k > MAX_BOARD_SEEDS {
        bail!("--max-seeds {k} is more than the board can hold ({MAX_BOARD_SEEDS} seeds)");
    }
    let root = world.rank() == 0;
    let dir = a.dir.clone().unwrap_or_else(default_dir);
    let ix = MancalaIndexer::new(rules, holes);
    let id = table_id(&rules, holes);
    let threads = mancala_cli::args::threads(a.threads)?;
    // The split solve runs on the global pool (its collectives are called from the thread that
    // calls it, which MPI's serialised threading allows).
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .thread_name(|i| format!("tables-{i}"))
        .build_global()
        .context("cannot start the worker threads")?;
    let mem = tables::memory_estimate(&ix, k);
    let exchange = exchange_bytes(&ix, k, holes, world.ranks());
    if root {
        eprintln!(
            "building {id}, 0 to {k} seeds on the board, in {}: {} entries (largest layer {}); memory per rank about {} ({} working, up to {} of lower tables, up to {} of exchange buffers); {} rank{} x {threads} thread{}",
            dir.display(),
            mem.entries,
            mem.largest_layer,
            mib(mem.total() + exchange),
            mib(mem.working),
            mib(mem.tables),
            mib(exchange),
            world.ranks(),
            if world.ranks() == 1 { "" } else { "s" },
            if threads == 1 { "" } else { "s" }
        );
    }
    if a.dry_run {
        return Ok(());
    }
    if root {
        std::fs::create_dir_all(&dir)
            .with_context(|| format!("cannot create the table directory {}", dir.display()))?;
    }
    // Rank 0 draws its share's progress; the others stay silent.
    let bars = mancala_cli::layer_bars::LayerBars::new(a.progress && root);
    let started = Instant::now();
    let mut out = std::io::stdout().lock();
    let mut io_result = Ok(());
    let built = tables::build_split(&ix, &id, &dir, k, world, &bars, |r| {
        if !root {
            return;
        }
        if let Some(why) = &r.rebuilt_because {
            eprintln!("layer {}: rebuilt the existing file: {why}", r.layer);
        }
        if io_result.is_ok() {
            io_result = writeln!(out, "{r}");
        }
    })
    .with_context(|| format!("building the tables of {id}"))?;
    io_result?;
    if root {
        let bytes: u64 = built.iter().map(Table::file_bytes).sum();
        writeln!(
            out,
            "built {id}: layers 0 to {k}, {} entries, {bytes} bytes ({:.2} bits per entry), in {:.3} s on {} rank{}",
            mem.entries,
            8.0 * bytes as f64 / mem.entries.max(1) as f64,
            started.elapsed().as_secs_f64(),
            world.ranks(),
            if world.ranks() == 1 { "" } else { "s" },
        )?;
    }
    Ok(())
}

/// The most memory the exchanges of the top layer take on one rank, beyond the single-process
/// estimate: a cyclic layer's passes gather the whole layer's values and live bits (2 bytes and
/// a bit per slot) besides this rank's share of them; an acyclic layer without a schedule gathers
/// its values once, after its memo is freed (as much again as the memo: none beyond the
/// estimate's); a scheduled (Kalah) layer exchanges a stage at a time, 8 bytes per slot of the
/// largest stage received and of this rank's share of it sent.
fn exchange_bytes<R: Rules>(ix: &MancalaIndexer<R>, k: u32, holes: u8, ranks: usize) -> u64 {
    use solver::{Game, Indexer};
    let top = ix.layer_len(k);
    let share = top.div_ceil(ranks as u64);
    if <mancala::Position<R> as Game>::CAN_CYCLE {
        2 * top + top.div_ceil(8) + 2 * share + share.div_ceil(8)
    } else if ix.schedule_bytes(k) > 0 {
        let stage = largest_stage(holes as usize, k as usize);
        8 * stage + 8 * stage.div_ceil(ranks as u64)
    } else {
        0
    }
}

/// The slots of the largest stage of Kalah's layer `k` on `n` holes: a stage holds the boards of
/// one potential `Σ i·pit[i]` over both rows, pit `i` of a row counted from its first
/// (src/endgame/kalah_stages.rs), so this counts the boards of `k` seeds by potential, pit by pit.
pub fn largest_stage(n: usize, k: usize) -> u64 {
    let top = (n - 1) * k;
    // ways[s][p]: fillings of the pits so far with s seeds and potential p.
    let mut ways = vec![vec![0u64; top + 1]; k + 1];
    ways[0][0] = 1;
    for pit in 0..2 * n {
        let w = pit % n;
        let mut next = vec![vec![0u64; top + 1]; k + 1];
        for s in 0..=k {
            for p in 0..=top {
                if ways[s][p] == 0 {
                    continue;
                }
                for c in 0..=k - s {
                    if p + w * c > top {
                        break;
                    }
                    next[s + c][p + w * c] += ways[s][p];
                }
            }
        }
        ways = next;
    }
    ways[k].iter().copied().max().unwrap_or(0)
}
