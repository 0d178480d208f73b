//! The one setup layer of every subcommand that computes: threads, the transposition table's
//! size, memory checks, endgame tables for a search, the Ctrl-C flag and deadlines. Each rule is
//! written here once, so `solve`, `analyze`, `verify` and `tables` validate alike.

use anyhow::{anyhow, bail, Context, Result};
use mancala::endgame::{open_for_search, MancalaIndexer};
use mancala::rules::Rules;
use mancala::Position;
use solver::search::SearchError;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc, OnceLock};
use std::time::{Duration, Instant};
use tables::Tablebase;

/// The most threads any subcommand accepts.
const MAX_THREADS: usize = 1024;

/// `--threads`: at least 1, at most [`MAX_THREADS`]; all cores when not given.
pub fn threads(asked: Option<usize>) -> Result<usize> {
    match asked {
        Some(0) => bail!("--threads must be at least 1"),
        Some(t) if t > MAX_THREADS => {
            bail!("--threads {t} is more than this program supports ({MAX_THREADS})")
        }
        Some(t) => Ok(t),
        None => Ok(std::thread::available_parallelism().map_or(1, |n| n.get())),
    }
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

/// The transposition table's size when `--hash-mb` is not given, the same for every command, in
/// MiB; a position that cannot fill it takes less ([`tt_bytes`]). 256 rather than a larger table:
/// faulting in 1 GiB costs up to 1.6 s of system time, more than a mid-sized solve gains from
/// the room (Kalah(5,4) and (6,3), and (6,4) with tables: `docs/performance.md`).
pub const DEFAULT_HASH_MB: u64 = 256;

/// `--hash-mb` in bytes ([`DEFAULT_HASH_MB`] when not given): at least 1 MiB, and an explicit
/// request no larger than the machine's available memory.
pub fn hash_bytes(asked_mb: Option<u64>) -> Result<u64> {
    let mb = asked_mb.unwrap_or(DEFAULT_HASH_MB);
    if mb == 0 {
        bail!("--hash-mb must be at least 1");
    }
    let bytes = mb
        .checked_mul(1 << 20)
        .ok_or_else(|| anyhow!("--hash-mb {mb} is too large"))?;
    if let Some(avail) = available_memory() {
        if asked_mb.is_some() && bytes > avail {
            bail!(
                "--hash-mb {mb} asks for more memory than this machine has available ({} MiB)",
                avail >> 20
            );
        }
    }
    Ok(bytes)
}

/// The transposition table for a search from `root`: `bytes`, or less when the position cannot
/// fill it. A table with more slots than there are positions is wasted: 16 bytes a position, at
/// least 1 MiB.
pub fn tt_bytes<G: solver::Game>(root: &G, bytes: u64) -> usize {
    let useful = root.key_bound().saturating_mul(16).max(1 << 20);
    usize::try_from((bytes as u128).min(useful)).unwrap_or(usize::MAX)
}

/// The exit status of a command stopped by SIGINT, SIGTERM or SIGHUP: 130, the shell's 128 + 2
/// for SIGINT, whichever of them it was (README "Exit status").
pub const INTERRUPTED_EXIT: u8 = 130;

/// The error of a command stopped by a signal; `main` exits with [`INTERRUPTED_EXIT`] for it.
#[derive(Debug)]
pub struct Interrupted(pub String);

impl std::fmt::Display for Interrupted {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "interrupted: {}", self.0)
    }
}

impl std::error::Error for Interrupted {}

/// A flag raised by Ctrl-C, SIGTERM or SIGHUP (the handler is installed once per process), so a
/// long job ends with a message instead of a kill. A second signal ends the process at once (with
/// a message, [`INTERRUPTED_EXIT`], and no table file half-written) when the job does not stop.
pub fn interrupt_flag() -> Arc<AtomicBool> {
    static FLAG: OnceLock<Arc<AtomicBool>> = OnceLock::new();
    FLAG.get_or_init(|| {
        let flag = Arc::new(AtomicBool::new(false));
        let f = flag.clone();
        // If a handler cannot be installed, a signal simply kills the process as usual.
        let _ = ctrlc::set_handler(move || {
            if f.swap(true, Ordering::Relaxed) {
                exit_interrupted("stopped by a second signal");
            }
        });
        flag
    })
    .clone()
}

/// Removes the temporary files of table writes in progress, says why on stderr, and exits with
/// [`INTERRUPTED_EXIT`].
fn exit_interrupted(what: &str) -> ! {
    tables::atomic::abandon_writes();
    eprintln!("error: {}", Interrupted(what.to_string()));
    std::process::exit(INTERRUPTED_EXIT.into())
}

/// Whether Ctrl-C has been pressed.
pub fn interrupted() -> bool {
    interrupt_flag().load(Ordering::Relaxed)
}

/// Runs `work`, which does not look at the interrupt flag (a table build's layer, a sowing of
/// billions of laps), so that a signal still stops it: a watcher thread exits the process with a
/// message saying `what` was stopped (after removing any half-written table file). With
/// `progress`, the watcher also shows on stderr, after a second, that the work is still going.
pub fn interruptible<T>(what: &str, progress: bool, work: impl FnOnce() -> T) -> T {
    let interrupt = interrupt_flag();
    let started = Instant::now();
    let (tx, rx) = mpsc::channel::<()>();
    std::thread::scope(|s| {
        s.spawn(move || {
            let mut bar: Option<indicatif::ProgressBar> = None;
            loop {
                if interrupt.load(Ordering::Relaxed) {
                    if let Some(b) = &bar {
                        b.finish_and_clear();
                    }
                    exit_interrupted(&format!("{what} was stopped before it finished"));
                }
                if progress && bar.is_none() && started.elapsed() > Duration::from_secs(1) {
                    let b = indicatif::ProgressBar::new_spinner();
                    b.set_message(format!("{what}… (Ctrl-C stops it)"));
                    b.enable_steady_tick(Duration::from_millis(200));
                    bar = Some(b);
                }
                match rx.recv_timeout(Duration::from_millis(50)) {
                    Err(mpsc::RecvTimeoutError::Timeout) => continue,
                    _ => {
                        if let Some(b) = &bar {
                            b.finish_and_clear();
                        }
                        return;
                    }
                }
            }
        });
        let r = work();
        drop(tx);
        r
    })
}

/// Runs `work` while a timer thread raises `stop` at the deadline, or when Ctrl-C is pressed.
/// `work` must look at `stop` (a search's stop flag; it reaches the sowings inside the search
/// too, [`mancala::stop`]), so it returns soon after, with what it had finished.
pub fn with_deadline<T>(
    limit: Option<Duration>,
    stop: &Arc<AtomicBool>,
    work: impl FnOnce() -> T,
) -> T {
    let interrupt = interrupt_flag();
    let started = Instant::now();
    let (tx, rx) = mpsc::channel::<()>();
    std::thread::scope(|s| {
        let stop = stop.clone();
        s.spawn(move || loop {
            let left = limit.map(|l| l.saturating_sub(started.elapsed()));
            if left == Some(Duration::ZERO) || interrupt.load(Ordering::Relaxed) {
                stop.store(true, Ordering::Relaxed);
                return;
            }
            let wait = left.map_or(Duration::from_millis(50), |l| {
                l.min(Duration::from_millis(50))
            });
            match rx.recv_timeout(wait) {
                Err(mpsc::RecvTimeoutError::Timeout) => continue,
                _ => return,
            }
        });
        let r = work();
        drop(tx);
        r
    })
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
        SearchError::Interrupted => anyhow::Error::new(Interrupted(
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
