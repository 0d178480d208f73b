//! The one setup layer of every subcommand that computes: threads, the transposition table's
//! size, memory checks, endgame tables for a search. Each rule is written here once, so `solve`,
//! `analyze`, `verify` and `tables` validate alike. (Ctrl-C and deadlines: the watcher,
//! [`mancala_cli::watch`].)

use anyhow::{anyhow, bail, Context, Result};
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
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
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

/// Where a transposition table starts when `--hash-mb` is not given, in MiB: small boards never
/// need more (Kalah(4,3) searches 51 k nodes), and a table is faulted in as it is touched.
pub const START_HASH_MB: u64 = 8;

/// The most a table grows to when `--hash-mb` is not given, in MiB (and at most half the
/// memory available): the search grows it fourfold whenever a job outgrows it
/// ([`solver::search::GROW_AFTER`], later past the processor's cache:
/// [`solver::search::GROW_AFTER_PAST_CACHE`]), so a solve takes what its tree can use.
pub const MAX_HASH_MB: u64 = 4096;

/// The transposition table's size: fixed by `--hash-mb`, or growing from [`START_HASH_MB`] up
/// to a cap.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HashSize {
    /// `--hash-mb` in bytes, when given.
    fixed: Option<u64>,
    /// The growing table's largest size in bytes.
    cap: u64,
}

/// `--hash-mb` (at least 1 MiB, and no more than the machine's available memory), or the
/// growing default when not given.
pub fn hash_bytes(asked_mb: Option<u64>) -> Result<HashSize> {
    let avail = available_memory();
    let Some(mb) = asked_mb else {
        let cap = avail.map_or(MAX_HASH_MB << 20, |a| (a / 2).min(MAX_HASH_MB << 20));
        return Ok(HashSize {
            fixed: None,
            cap: cap.max(START_HASH_MB << 20),
        });
    };
    if mb == 0 {
        bail!("--hash-mb must be at least 1");
    }
    let bytes = mb
        .checked_mul(1 << 20)
        .ok_or_else(|| anyhow!("--hash-mb {mb} is too large"))?;
    if let Some(avail) = avail {
        if bytes > avail {
            bail!(
                "--hash-mb {mb} asks for more memory than this machine has available ({} MiB)",
                avail >> 20
            );
        }
    }
    Ok(HashSize {
        fixed: Some(bytes),
        cap: bytes,
    })
}

/// The most entries a search from `root` could use, in bytes: 16 bytes a position below its
/// key bound, at least 1 MiB. A table with more slots than there are positions is wasted.
fn useful_bytes<G: solver::Game>(root: &G) -> u128 {
    root.key_bound().saturating_mul(16).max(1 << 20)
}

/// The transposition table's first size for a search from `root`.
pub fn tt_bytes<G: solver::Game>(root: &G, size: HashSize) -> usize {
    let start = size.fixed.unwrap_or(START_HASH_MB << 20);
    usize::try_from(u128::from(start).min(useful_bytes(root))).unwrap_or(usize::MAX)
}

/// The largest the table may grow to for a search from `root` (no more than
/// [`tt_bytes`] when `--hash-mb` fixed it).
pub fn tt_max_bytes<G: solver::Game>(root: &G, size: HashSize) -> usize {
    usize::try_from(u128::from(size.cap).min(useful_bytes(root))).unwrap_or(usize::MAX)
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
