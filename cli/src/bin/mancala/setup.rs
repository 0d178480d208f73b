//! The one setup layer of every subcommand that computes: threads, the transposition table's
//! size, memory checks, endgame tables for a search. Each rule is written here once, so `solve`,
//! `analyze`, `verify` and `tables` validate alike. (Ctrl-C and deadlines: the watcher,
//! [`mancala_cli::watch`].)

use anyhow::{anyhow, bail, Context, Result};
use mancala::answers::TableSize;
use mancala::endgame::{open_for_search, MancalaIndexer};
use mancala::rules::Rules;
use mancala::Position;
use solver::search::SearchError;
use std::path::Path;
use tables::Tablebase;

/// `--threads`: at least 1, at most [`mancala_cli::args::MAX_THREADS`]; all cores when not given.
pub fn threads(asked: Option<usize>) -> Result<usize> {
    mancala_cli::args::threads(asked)
}

/// MemAvailable from /proc/meminfo, in bytes, when the system says.
pub fn available_memory() -> Option<u64> {
    mancala::answers::sizing::available_memory()
}

/// A `kB` field of /proc/self/status (`VmRSS`, `VmHWM`), in bytes, when the system says.
fn own_status_bytes(field: &str) -> Option<u64> {
    let text = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = text.lines().find(|l| l.starts_with(field))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

/// This process's resident memory now (`VmRSS`).
pub fn resident_bytes() -> Option<u64> {
    own_status_bytes("VmRSS:")
}

/// This process's peak resident memory so far (`VmHWM`).
pub fn peak_resident_bytes() -> Option<u64> {
    own_status_bytes("VmHWM:")
}

/// `bytes` as MiB with one decimal.
pub fn mib(bytes: u64) -> String {
    format!("{:.1} MiB", bytes as f64 / (1u64 << 20) as f64)
}

/// Refuses a job that needs more memory than the machine has available; `what` names the job.
pub fn ensure_memory(what: &str, bytes: u64) -> Result<()> {
    if let Some(avail) = available_memory() {
        if bytes > avail {
            bail!(
                "{what} needs about {} of memory, but only {} is available",
                mib(bytes),
                mib(avail)
            );
        }
    }
    Ok(())
}

/// The transposition table's size: fixed by `--hash-mb`, or growing up to a cap (the rule
/// every front end shares, [`mancala::answers::sizing`]).
pub type HashSize = TableSize;

/// `--hash-mb` (at least 1 MiB, and no more than the machine's available memory), or the
/// growing default when not given.
pub fn hash_bytes(asked_mb: Option<u64>) -> Result<HashSize> {
    let Some(mb) = asked_mb else {
        return Ok(TableSize::growing());
    };
    if mb == 0 {
        bail!("--hash-mb must be at least 1");
    }
    let bytes = mb
        .checked_mul(1 << 20)
        .ok_or_else(|| anyhow!("--hash-mb {mb} is too large"))?;
    if let Some(avail) = available_memory() {
        if bytes > avail {
            bail!(
                "--hash-mb {mb} asks for more memory than this machine has available ({} MiB)",
                avail >> 20
            );
        }
    }
    Ok(TableSize::fixed(bytes))
}

/// The transposition table's first size for a search from `root`.
pub fn tt_bytes<G: solver::Game>(root: &G, size: HashSize) -> usize {
    size.first_bytes(root)
}

/// The largest the table may grow to for a search from `root` (no more than
/// [`tt_bytes`] when `--hash-mb` fixed it).
pub fn tt_max_bytes<G: solver::Game>(root: &G, size: HashSize) -> usize {
    size.max_bytes(root)
}

/// The endgame tables in `dir` (`--tables DIR`) for a search from `p`, every layer checked.
pub fn tables_for_search<R: Rules>(
    dir: &Path,
    p: &Position<R>,
) -> Result<Tablebase<MancalaIndexer<R>>> {
    if p.board().has_statuses() {
        // A table slot is a board with every pit open and owned by its row: a round with burnt
        // pits or sons has other values for the same counts (docs/rules.md §13.1).
        bail!(
            "--tables: endgame tables hold positions whose pits are all open; {p} has burnt pits or sons, so solve it without --tables"
        );
    }
    open_for_search(dir, p).with_context(|| format!("--tables {}", dir.display()))
}

/// `--tables DIR` of a command that solves many boards (and goes on without tables for a board
/// they do not cover): DIR itself must be a directory, or the flag is a mistake.
pub fn tables_dir_exists(dir: &Path) -> Result<()> {
    if dir.is_dir() {
        return Ok(());
    }
    bail!(
        "--tables {}: {}; build tables with `mancala tables build GAME --max-seeds K --dir DIR`",
        dir.display(),
        if dir.exists() {
            "not a directory"
        } else {
            "no such directory"
        }
    )
}

/// A search error as the user should read it: what happened and what to do.
pub fn search_error(e: SearchError) -> anyhow::Error {
    match e {
        SearchError::Interrupted => anyhow::Error::new(mancala_cli::exit::Interrupted(
            "the search was stopped before it finished (no value)".into(),
        )),
        // Beyond the wide entry's reach (keys of 2^100 per table bucket): the table size only
        // trades memory for speed, so there is nothing to advise.
        SearchError::Table(solver::TtError::KeyTooLarge { .. }) => anyhow!(
            "this position is too large for exact solving: it has more possible positions than \
             the transposition table can tell apart exactly"
        ),
        other => anyhow!("{other}"),
    }
}
