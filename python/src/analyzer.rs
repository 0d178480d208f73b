//! `mancala.Analyzer`: the library's [`Analyzer`] for Python, holding the endgame tables, the
//! transposition table and the memory of proven positions across calls, so that a loop over
//! positions pays for them once (the module-level `solve`/`analyze` set everything up per call).
//!
//! One Python object serves every game: it keeps one library analyzer per game type, made on
//! the first question about that game. Each call runs off the GIL, watched for its time limit
//! and Ctrl-C ([`watch`]); a stopped search answers with what it proved (`complete=False`,
//! bounds), never with an exception.

use crate::any::Wrap;
use crate::errors::value_error;
use crate::position::{marked, PyPosition};
use crate::search::threads as check_threads;
use crate::settings;
use crate::watch::watch;
use crate::with_pos;
use mancala::answers::{Analyzer, AnalyzerConfig, Limits};
use mancala::rules::{Dakon, DjenonAboure, Kalah, SanYao, WalakPussa};
use mancala::stop::StopToken;
use mancala::Position;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use std::sync::Mutex;
use std::time::Duration;

/// One library analyzer per game, made on first use.
#[derive(Default)]
struct PerGame {
    kalah: Option<Analyzer<Kalah>>,
    dakon: Option<Analyzer<Dakon>>,
    djenon_aboure: Option<Analyzer<DjenonAboure>>,
    walak_pussa: Option<Analyzer<WalakPussa>>,
    san_yao: Option<Analyzer<SanYao>>,
}

/// The games' place in [`PerGame`].
trait Kept: Wrap {
    fn slot(set: &mut PerGame) -> &mut Option<Analyzer<Self>>;
}

macro_rules! kept {
    ($($r:ident => $f:ident),*) => {$(
        impl Kept for $r {
            fn slot(set: &mut PerGame) -> &mut Option<Analyzer<Self>> {
                &mut set.$f
            }
        }
    )*};
}
kept!(Kalah => kalah, Dakon => dakon, DjenonAboure => djenon_aboure, WalakPussa => walak_pussa, SanYao => san_yao);

/// Holds the endgame tables, a transposition table and the memory of proven positions across
/// calls. `threads`: search threads (all cores); `hash_mb`: a fixed transposition table in MiB
/// (default: one that grows from 8 MiB with the search, as the CLI's); `tables`: `True` the
/// default directory's tables when it holds the game's (the default), a directory or a `Tables`,
/// `False`/`None` none; `memory`: `True` the default memory file (`$MANCALA_MEMORY`, else beside
/// the default table directory), a file, or `False` none; `book`: answer from the opening book.
#[pyclass(module = "mancala", name = "Analyzer", frozen)]
pub struct PyAnalyzer {
    config: AnalyzerConfig,
    games: Mutex<PerGame>,
}

/// Every move of a position valued: exactly, or within proven bounds when stopped.
#[pyclass(frozen, get_all, module = "mancala", name = "Analysis")]
pub struct PyAnalysis {
    /// The position, in notation.
    position: String,
    /// `{move: value}` for every move valued exactly (final South minus North).
    values: Py<PyDict>,
    /// `{move: (lower, upper)}` for every move (equal bounds when exact).
    bounds: Py<PyDict>,
    /// The position's value, when exact; else `None`.
    value: Option<i32>,
    /// `(lower, upper)` bounds on the position's value.
    value_bounds: (i32, i32),
    /// The moves proven best.
    best: Vec<u32>,
    /// Whether every move is valued exactly.
    complete: bool,
    /// Where the values came from: `rules`, `book`, `memory`, `tables` or `search`.
    source: &'static str,
    /// Nodes searched.
    nodes: u64,
    /// Wall-clock seconds.
    seconds: f64,
}

#[pymethods]
impl PyAnalysis {
    fn __repr__(&self, py: Python<'_>) -> String {
        format!(
            "Analysis(values={}, complete={}, source='{}')",
            self.values.bind(py),
            if self.complete { "True" } else { "False" },
            self.source
        )
    }
}

/// The answer of `Analyzer.solve`.
#[pyclass(frozen, get_all, module = "mancala", name = "Answer")]
pub struct PyAnswer {
    /// The position, in notation.
    position: String,
    /// The final South-minus-North value, when exact; else `None`.
    value: Option<i32>,
    /// `(lower, upper)` bounds on it.
    bounds: (i32, i32),
    /// The moves proven best (all of them when complete).
    best: Vec<u32>,
    /// A principal variation as far as it is known, each move with its side (`["S3", "N1"]`).
    pv: Vec<String>,
    /// Whether the value is exact and every move settled.
    complete: bool,
    /// Where the answer came from.
    source: &'static str,
    /// Nodes searched.
    nodes: u64,
    /// Wall-clock seconds.
    seconds: f64,
}

#[pymethods]
impl PyAnswer {
    fn __repr__(&self) -> String {
        let v = self.value.map_or("None".to_string(), |v| v.to_string());
        format!(
            "Answer(value={v}, bounds=({}, {}), best={:?}, complete={}, source='{}')",
            self.bounds.0,
            self.bounds.1,
            self.best,
            if self.complete { "True" } else { "False" },
            self.source
        )
    }
}

/// `time_limit` checked, as the module's functions check it.
fn limit(time_limit: Option<f64>) -> PyResult<Option<Duration>> {
    match time_limit {
        None => Ok(None),
        Some(t) if t.is_finite() && t > 0.0 && t <= 1e9 => Ok(Some(Duration::from_secs_f64(t))),
        Some(t) => Err(value_error(format!(
            "time_limit '{t}' is not a positive number of seconds"
        ))),
    }
}

impl PyAnalyzer {
    /// Runs `job` on the analyzer of `R`'s game off the GIL, stopped by `time_limit` or Ctrl-C.
    fn with<R: Kept, T: Send>(
        &self,
        py: Python<'_>,
        time_limit: Option<f64>,
        job: impl FnOnce(&mut Analyzer<R>, &Limits) -> T + Send,
    ) -> PyResult<T> {
        let limit = limit(time_limit)?;
        let stop = StopToken::new();
        let limits = Limits {
            time: None,
            stop: Some(stop.clone()),
        };
        let config = self.config.clone();
        let w = watch(py, limit, &stop, || {
            let mut games = self.games.lock().unwrap_or_else(|e| e.into_inner());
            let a = R::slot(&mut games).get_or_insert_with(|| Analyzer::new(config));
            let r = job(a, &limits);
            for n in a.take_notes() {
                eprintln!("warning: {n}");
            }
            r
        })?;
        Ok(w.value)
    }
}

/// The two dictionaries of an analysis, as `Analyzer.analyze` and `mancala.analyze` return them:
/// `{move: value}` of the moves valued exactly and `{move: (lower, upper)}` of every move.
pub(crate) fn value_dicts<'py>(
    py: Python<'py>,
    a: &mancala::answers::Analysis,
) -> PyResult<(Bound<'py, PyDict>, Bound<'py, PyDict>)> {
    let values = PyDict::new(py);
    let bounds = PyDict::new(py);
    for m in &a.moves {
        if let Some(v) = m.value.value() {
            values.set_item(m.mv.0, v)?;
        }
        bounds.set_item(m.mv.0, (m.value.lower, m.value.upper))?;
    }
    Ok((values, bounds))
}

fn analysis_of<R: Wrap>(
    py: Python<'_>,
    p: &Position<R>,
    a: &mancala::answers::Analysis,
) -> PyResult<PyAnalysis> {
    let (values, bounds) = value_dicts(py, a)?;
    Ok(PyAnalysis {
        position: p.to_string(),
        values: values.unbind(),
        bounds: bounds.unbind(),
        value: a.value.value(),
        value_bounds: (a.value.lower, a.value.upper),
        best: a.best().iter().map(|m| u32::from(m.0)).collect(),
        complete: a.complete(),
        source: a.source().name(),
        nodes: a.nodes,
        seconds: a.seconds,
    })
}

fn analyze_in<R: Kept>(
    me: &PyAnalyzer,
    py: Python<'_>,
    p: &Position<R>,
    time_limit: Option<f64>,
) -> PyResult<PyAnalysis> {
    let a = me
        .with::<R, _>(py, time_limit, |an, l| an.analyze(p, l))?
        .map_err(|e| value_error(e.to_string()))?;
    analysis_of(py, p, &a)
}

fn solve_in<R: Kept>(
    me: &PyAnalyzer,
    py: Python<'_>,
    p: &Position<R>,
    time_limit: Option<f64>,
) -> PyResult<PyAnswer> {
    let a = me
        .with::<R, _>(py, time_limit, |an, l| an.solve(p, l))?
        .map_err(|e| value_error(e.to_string()))?;
    Ok(PyAnswer {
        position: p.to_string(),
        value: a.value.value(),
        bounds: (a.value.lower, a.value.upper),
        best: a.best.iter().map(|m| u32::from(m.0)).collect(),
        pv: marked(p, &a.pv),
        complete: a.complete,
        source: a.source.name(),
        nodes: a.nodes,
        seconds: a.seconds,
    })
}

#[pymethods]
impl PyAnalyzer {
    #[new]
    #[pyo3(signature = (threads=None, hash_mb=None, tables=None, memory=None, book=true))]
    fn new(
        threads: Option<usize>,
        hash_mb: Option<u64>,
        tables: Option<Bound<'_, PyAny>>,
        memory: Option<Bound<'_, PyAny>>,
        book: bool,
    ) -> PyResult<Self> {
        let threads = check_threads(threads).map_err(value_error)?;
        let table_size = settings::table_size(hash_mb)?;
        let tables = settings::tables_choice(tables.as_ref())?;
        let memory = settings::memory_choice(memory.as_ref())?;
        Ok(Self {
            config: AnalyzerConfig {
                threads,
                table_size,
                tables,
                book,
                memory,
                wide_table: false,
            },
            games: Mutex::new(PerGame::default()),
        })
    }

    /// Every legal move of `pos` valued (final South minus North): an `Analysis`, with bounds
    /// for the moves a time limit left unfinished.
    #[pyo3(signature = (pos, time_limit=None))]
    fn analyze(
        &self,
        py: Python<'_>,
        pos: &PyPosition,
        time_limit: Option<f64>,
    ) -> PyResult<PyAnalysis> {
        with_pos!(&pos.inner, p => analyze_in(self, py, p, time_limit))
    }

    /// `analyze` for each position in turn (one table, tables and memory for all).
    #[pyo3(signature = (positions, time_limit=None))]
    fn analyze_many(
        &self,
        py: Python<'_>,
        positions: Vec<PyRef<'_, PyPosition>>,
        time_limit: Option<f64>,
    ) -> PyResult<Vec<PyAnalysis>> {
        positions
            .iter()
            .map(|pos| with_pos!(&pos.inner, p => analyze_in(self, py, p, time_limit)))
            .collect()
    }

    /// The value of `pos`, its best moves and a principal variation: an `Answer`, with bounds
    /// when a time limit stopped it.
    #[pyo3(signature = (pos, time_limit=None))]
    fn solve(
        &self,
        py: Python<'_>,
        pos: &PyPosition,
        time_limit: Option<f64>,
    ) -> PyResult<PyAnswer> {
        with_pos!(&pos.inner, p => solve_in(self, py, p, time_limit))
    }

    fn __repr__(&self) -> String {
        format!(
            "Analyzer(threads={}, tables={:?}, memory={:?}, book={})",
            self.config.threads, self.config.tables, self.config.memory, self.config.book
        )
    }
}
