//! `mancala.solve` and `mancala.analyze`: the CLI's `solve`/`analyze` set-up (threads, table
//! size, endgame tables, time limit) with the search run off the GIL and stoppable by Ctrl-C.

use crate::any::Wrap;
use crate::errors::{table_error, value_error};
use crate::position::{marked, PyPosition};
use crate::settings;
use crate::tables::PyTables;
use crate::watch::watch;
use crate::with_pos;
use mancala::answers::{
    Analysis, Analyzer, AnalyzerConfig, AnalyzerError, AnySolver, Limits, TableSize,
};
use mancala::endgame::{default_dir, open_for_search, MancalaIndexer};
use mancala::round_perfect::{Reason, RoundPerfect};
use mancala::stop::StopToken;
use mancala::Position;
use pyo3::exceptions::PyTimeoutError;
use pyo3::prelude::*;
use solver::search::{Progress, Proven, SearchConfig, SearchError};
use solver::Game;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tables::Tablebase;

/// The most threads accepted: the CLI's limit.
const MAX_THREADS: usize = 1024;

/// The search settings of one call, checked.
pub(crate) struct SearchOpts {
    threads: usize,
    hash_bytes: u64,
    tables: Option<PathBuf>,
    time_limit: Option<f64>,
}

/// MemAvailable from /proc/meminfo, in bytes, when the system says.
pub(crate) fn available_memory() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

/// `threads` checked (all cores when `None`), with the CLI's messages.
pub(crate) fn threads(asked: Option<usize>) -> Result<usize, String> {
    match asked {
        Some(0) => Err("threads must be at least 1".into()),
        Some(t) if t > MAX_THREADS => Err(format!(
            "threads {t} is more than this program supports ({MAX_THREADS})"
        )),
        Some(t) => Ok(t),
        None => Ok(std::thread::available_parallelism().map_or(1, |n| n.get())),
    }
}

/// The table directory a `tables=` argument names: `True` the default directory, a path, or a
/// [`PyTables`]; `None` and `False` none.
pub(crate) fn tables_dir(arg: Option<&Bound<'_, PyAny>>) -> PyResult<Option<PathBuf>> {
    let Some(a) = arg else { return Ok(None) };
    if a.is_none() {
        return Ok(None);
    }
    if let Ok(b) = a.downcast::<pyo3::types::PyBool>() {
        return Ok(b.is_true().then(default_dir));
    }
    if let Ok(t) = a.downcast::<PyTables>() {
        return Ok(Some(t.get().dir.clone()));
    }
    a.extract::<PathBuf>().map(Some).map_err(|_| {
        pyo3::exceptions::PyTypeError::new_err(
            "tables= takes a directory (str or os.PathLike), a mancala.Tables, True (the default directory) or None",
        )
    })
}

impl SearchOpts {
    pub(crate) fn new(
        threads_asked: Option<usize>,
        hash_mb: Option<u64>,
        tables: Option<&Bound<'_, PyAny>>,
        time_limit: Option<f64>,
    ) -> PyResult<Self> {
        let threads = threads(threads_asked).map_err(value_error)?;
        let hash_bytes = settings::hash_bytes(hash_mb)?;
        let time_limit = settings::time_limit(time_limit)?;
        Ok(SearchOpts {
            threads,
            hash_bytes,
            tables: tables_dir(tables)?,
            time_limit,
        })
    }

    /// The configuration for a search from `root`, its table no larger than the position can
    /// fill (16 bytes a position, at least 1 MiB), as the CLI sizes it.
    fn config<G: Game>(&self, root: &G) -> SearchConfig {
        let useful = root.key_bound().saturating_mul(16).max(1 << 20);
        SearchConfig {
            threads: self.threads,
            tt_bytes: usize::try_from((self.hash_bytes as u128).min(useful)).unwrap_or(usize::MAX),
            ..SearchConfig::default()
        }
    }
}

/// The endgame tables in `dir` for a search from `p`, every layer checked (the CLI's
/// `--tables`), read with the GIL released.
fn open_tables<R: Wrap>(
    py: Python<'_>,
    dir: &std::path::Path,
    p: &Position<R>,
) -> PyResult<Tablebase<MancalaIndexer<R>>> {
    if p.board().has_statuses() {
        return Err(value_error(format!(
            "tables: endgame tables hold positions whose pits are all open; {p} has burnt pits or sons, so solve it without tables"
        )));
    }
    py.allow_threads(|| open_for_search(dir, p))
        .map_err(|e| table_error(&format!("tables {}", dir.display()), e))
}

/// A search error as the user should read it (the CLI's words).
fn search_error(e: SearchError) -> PyErr {
    match e {
        SearchError::Table(solver::TtError::KeyTooLarge { .. }) => value_error(
            "this position is too large for exact solving: it has more possible positions than \
             the transposition table can tell apart exactly",
        ),
        other => value_error(other.to_string()),
    }
}

/// What a search job returned, how it ended, and what it had proven by then.
struct Ran<T, M> {
    result: Result<T, SearchError>,
    timed_out: bool,
    proven: Proven<M>,
    progress: Arc<Progress>,
    seconds: f64,
}

/// Sets up a search for `p` as the CLI does and runs `job` on it, watched (time limit, Ctrl-C).
fn run<R: Wrap, T: Send>(
    py: Python<'_>,
    p: &Position<R>,
    o: &SearchOpts,
    job: impl FnOnce(&mut AnySolver<'_, R>, &mut Proven<mancala::board::Move>) -> Result<T, SearchError>
        + Send,
) -> PyResult<Ran<T, mancala::board::Move>> {
    let mut cfg = o.config(p);
    let progress = Arc::new(Progress::new());
    cfg.progress = Some(progress.clone());
    let stop = StopToken::new();
    cfg.stop = Some(stop.clone());
    let started = Instant::now();
    let tb = o
        .tables
        .as_ref()
        .map(|d| open_tables(py, d, p))
        .transpose()?;
    let mut proven = Proven::default();
    let limit = o.time_limit.map(Duration::from_secs_f64);
    // Over the Kalah node when `p` is one: the tables, opened for this call, are read through
    // a view made for it.
    let w = watch(py, limit, &stop, || {
        AnySolver::scoped(p, cfg, tb.as_ref(), |s| job(s, &mut proven)).and_then(|r| r)
    })?;
    Ok(Ran {
        result: w.value,
        timed_out: w.timed_out,
        proven,
        progress,
        seconds: started.elapsed().as_secs_f64(),
    })
}

/// The result of `mancala.solve`: the exact value (final South minus North under perfect play),
/// the best moves, a principal variation; or, when the time limit stopped it, what was proven.
#[pyclass(frozen, get_all, module = "mancala", name = "SolveResult")]
pub struct SolveResult {
    /// The position solved, in notation.
    position: String,
    /// The final South-minus-North score under perfect play; `None` when stopped before known.
    value: Option<i32>,
    /// The best moves (all of them when complete; those proven best so far when stopped).
    best: Vec<u32>,
    /// A principal variation, each move with its side: `["S3", "S6", "N1"]` (empty when stopped).
    pv: Vec<String>,
    /// Nodes searched.
    nodes: u64,
    /// Whether the search finished (`False`: stopped by the time limit).
    complete: bool,
    /// `(lower, upper)` bounds on `value` when stopped; `None` when complete.
    bounds: Option<(i32, i32)>,
    /// Wall-clock seconds.
    seconds: f64,
    /// Search threads used.
    threads: usize,
    /// Transposition table bytes used.
    tt_bytes: usize,
}

#[pymethods]
impl SolveResult {
    fn __repr__(&self) -> String {
        // Python's spelling of the fields (None, tuples, quoted strings), not Rust's Debug.
        let opt = |v: Option<i32>| v.map_or("None".to_string(), |v| v.to_string());
        let pv: Vec<String> = self.pv.iter().map(|m| format!("'{m}'")).collect();
        match (self.complete, self.value) {
            (true, Some(v)) => format!(
                "SolveResult(value={v}, best={:?}, pv=[{}], nodes={})",
                self.best,
                pv.join(", "),
                self.nodes
            ),
            _ => format!(
                "SolveResult(complete=False, value={}, bounds={}, best={:?}, nodes={})",
                opt(self.value),
                self.bounds
                    .map_or("None".to_string(), |(a, b)| format!("({a}, {b})")),
                self.best,
                self.nodes
            ),
        }
    }
}

fn solve_in<R: Wrap>(py: Python<'_>, p: &Position<R>, o: &SearchOpts) -> PyResult<SolveResult> {
    let ran = run(py, p, o, |s, proven| s.solve_tracked(p, proven))?;
    let head =
        |value, best: Vec<u32>, pv, nodes, complete, bounds, seconds, tt_bytes| SolveResult {
            position: p.to_string(),
            value,
            best,
            pv,
            nodes,
            complete,
            bounds,
            seconds,
            threads: o.threads,
            tt_bytes,
        };
    match ran.result {
        Ok(r) => Ok(head(
            Some(p.final_value(r.value)),
            r.best.iter().map(|m| u32::from(m.0)).collect(),
            marked(p, &r.pv),
            r.nodes,
            true,
            None,
            r.seconds,
            r.tt_bytes,
        )),
        Err(SearchError::Interrupted) if ran.timed_out => {
            let value = ran.proven.value.map(|v| p.final_value(v));
            let (lo, hi) = ran.progress.bounds();
            let (a, b) = (p.final_value(lo), p.final_value(hi));
            let bounds = value.map_or((a.min(b), a.max(b)), |v| (v, v));
            Ok(head(
                value,
                ran.proven.best.iter().map(|m| u32::from(m.0)).collect(),
                Vec::new(),
                ran.progress.nodes(),
                false,
                Some(bounds),
                ran.seconds,
                0,
            ))
        }
        Err(e) => Err(search_error(e)),
    }
}

/// The class of what `mancala.analyze` returns: a `dict` of the moves valued exactly, which
/// says too what a stopped analysis proved of the others. Python code, because only a class
/// written in Python can extend `dict` in a wheel built for every CPython (abi3).
const MOVE_VALUES: &std::ffi::CStr = c"
class MoveValues(dict):
    \"\"\"``{move: value}`` of the moves valued exactly (final South minus North), as
    ``mancala.analyze`` returns it. ``complete``: whether every legal move is valued (``False``:
    the time limit stopped the analysis); ``bounds``: ``{move: (lower, upper)}`` of every legal
    move, equal when exact; ``value_bounds``: ``(lower, upper)`` on the position's value;
    ``best``: the moves proven best.\"\"\"

    __slots__ = ('complete', 'bounds', 'value_bounds', 'best')
    __module__ = 'mancala'
";

/// The `MoveValues` class, made once.
pub(crate) fn move_values_type(py: Python<'_>) -> PyResult<&Bound<'_, pyo3::types::PyType>> {
    static CLASS: pyo3::sync::GILOnceCell<Py<pyo3::types::PyType>> = pyo3::sync::GILOnceCell::new();
    CLASS
        .get_or_try_init(py, || {
            let m =
                PyModule::from_code(py, MOVE_VALUES, c"mancala/_values.py", c"mancala._values")?;
            Ok::<_, PyErr>(
                m.getattr("MoveValues")?
                    .downcast_into::<pyo3::types::PyType>()?
                    .unbind(),
            )
        })
        .map(|c| c.bind(py))
}

/// Every legal move of `p` valued by a library [`Analyzer`] made for this call (the search
/// alone: no book, no memory; the tables asked for), stopped by the time limit or Ctrl-C.
fn analyze_in<R: Wrap>(py: Python<'_>, p: &Position<R>, o: &SearchOpts) -> PyResult<Analysis> {
    let mut analyzer = Analyzer::<R>::new(AnalyzerConfig::search_only(
        o.threads,
        TableSize::fixed(o.hash_bytes),
        o.tables.clone(),
    ));
    let stop = StopToken::new();
    let limits = Limits {
        time: None,
        stop: Some(stop.clone()),
    };
    let limit = o.time_limit.map(Duration::from_secs_f64);
    let w = watch(py, limit, &stop, || analyzer.analyze(p, &limits))?;
    w.value.map_err(|e| match e {
        AnalyzerError::Tables { dir, source } => {
            table_error(&format!("tables {}", dir.display()), source)
        }
        AnalyzerError::TablesCannotHold { position } => value_error(format!(
            "tables: endgame tables hold positions whose pits are all open; {position} has burnt pits or sons, so solve it without tables"
        )),
        AnalyzerError::Search(e) => search_error(e),
        other => value_error(other.to_string()),
    })
}

/// The exact value of `pos` under perfect play (final South minus North), its best moves and a
/// principal variation. `threads`: search threads (all cores); `hash_mb`: transposition table
/// MiB (256, less when the position cannot fill it); `tables`: endgame tables (a directory, a
/// `Tables`, or `True` for the default directory); `time_limit`: seconds, after which the result
/// has `complete=False` and `bounds`. The GIL is released; Ctrl-C raises KeyboardInterrupt.
#[pyfunction]
#[pyo3(signature = (pos, threads=None, hash_mb=None, tables=None, time_limit=None))]
pub fn solve(
    py: Python<'_>,
    pos: &PyPosition,
    threads: Option<usize>,
    hash_mb: Option<u64>,
    tables: Option<&Bound<'_, PyAny>>,
    time_limit: Option<f64>,
) -> PyResult<SolveResult> {
    let o = SearchOpts::new(threads, hash_mb, tables, time_limit)?;
    with_pos!(&pos.inner, p => solve_in(py, p, &o))
}

/// The exact value (final South minus North) of every legal move of `pos`: `{move: value}`, a
/// `MoveValues` (a `dict`). Same settings as `solve`; when the time limit runs out, the moves
/// valued by then, with `complete=False` and the proven `bounds` of every move.
#[pyfunction]
#[pyo3(signature = (pos, threads=None, hash_mb=None, tables=None, time_limit=None))]
pub fn analyze<'py>(
    py: Python<'py>,
    pos: &PyPosition,
    threads: Option<usize>,
    hash_mb: Option<u64>,
    tables: Option<&Bound<'py, PyAny>>,
    time_limit: Option<f64>,
) -> PyResult<Bound<'py, PyAny>> {
    let o = SearchOpts::new(threads, hash_mb, tables, time_limit)?;
    let a = with_pos!(&pos.inner, p => analyze_in(py, p, &o))?;
    let (values, bounds) = crate::analyzer::value_dicts(py, &a)?;
    let r = move_values_type(py)?.call1((values,))?;
    r.setattr("complete", a.complete())?;
    r.setattr("bounds", bounds)?;
    r.setattr("value_bounds", (a.value.lower, a.value.upper))?;
    let best: Vec<u32> = a.best().iter().map(|m| u32::from(m.0)).collect();
    r.setattr("best", best)?;
    Ok(r)
}

fn perfect_in<R: Wrap>(
    py: Python<'_>,
    p: &Position<R>,
    o: &SearchOpts,
) -> PyResult<(u32, i32, &'static str)> {
    if p.is_over() {
        return Err(value_error(format!("the game is over in {p}: no move")));
    }
    let ran = run(py, p, o, |s, _| {
        let mut rp = RoundPerfect::<R>::new();
        rp.choose(p, &mut mancala::round_perfect::by_search(s))
    })?;
    match ran.result {
        Ok(c) => Ok((
            u32::from(c.mv.0),
            c.value,
            match c.reason {
                Reason::FirstBest => "first best",
                Reason::LeavesComponent => "leaves the cycle",
                Reason::Closer => "closer to leaving the cycle",
            },
        )),
        Err(SearchError::Interrupted) if ran.timed_out => Err(PyTimeoutError::new_err(format!(
            "perfect_move was stopped by the time limit of {} s",
            o.time_limit.unwrap_or(0.0)
        ))),
        Err(e) => Err(search_error(e)),
    }
}

/// The move perfect play makes in `pos` (docs/rules.md §13.5): the first best move (lowest pit
/// number among those of the position's value), except that on a cycle of best play (Walak-pussa,
/// San-Yao) the player the value favours takes the first best move towards leaving it, so that
/// play collects the value instead of repeating for ever. Returns `(move, value, reason)`;
/// `value` is the position's final South-minus-North value. Same settings as `solve`.
#[pyfunction]
#[pyo3(signature = (pos, threads=None, hash_mb=None, tables=None, time_limit=None))]
pub fn perfect_move(
    py: Python<'_>,
    pos: &PyPosition,
    threads: Option<usize>,
    hash_mb: Option<u64>,
    tables: Option<&Bound<'_, PyAny>>,
    time_limit: Option<f64>,
) -> PyResult<(u32, i32, &'static str)> {
    let o = SearchOpts::new(threads, hash_mb, tables, time_limit)?;
    with_pos!(&pos.inner, p => perfect_in(py, p, &o))
}
