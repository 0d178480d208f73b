//! `mancala.Tables` (probing endgame tables, in the manner of python-chess's `chess.syzygy`) and
//! `mancala.build_tables` (the CLI's `tables build`, with a Python progress callback).

use crate::any::{self, Wrap};
use crate::errors::{table_error, value_error};
use crate::position::PyPosition;
use crate::search::available_memory;
use crate::watch::SLICE;
use crate::with_pos;
use mancala::board::MAX_BOARD_SEEDS;
use mancala::endgame::{default_dir, open, table_id, Hold, MancalaIndexer};
use mancala::stop::StopToken;
use mancala::variant::Variant;
use mancala::Position;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use std::any::Any;
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{mpsc, Arc, Mutex};
use tables::{BuildOptions, LayerReport, TableError, Tablebase};

/// The tables of one game on one board, as opened: a `Tablebase<MancalaIndexer<R>>` for the
/// game's `R` (type-erased so that one map holds all five games).
type Opened = Arc<dyn Any + Send + Sync>;

/// A directory of endgame tables (built by `mancala tables build` or `build_tables`). Each
/// game's tables are opened (memory-mapped, every layer's checksum checked) the first time a
/// position of that game is probed.
#[pyclass(frozen, module = "mancala", name = "Tables")]
pub struct PyTables {
    pub(crate) dir: PathBuf,
    opened: Mutex<HashMap<(Variant, u8), Opened>>,
}

impl PyTables {
    pub(crate) fn at(dir: PathBuf) -> Self {
        PyTables {
            dir,
            opened: Mutex::new(HashMap::new()),
        }
    }

    /// The opened tables of `p`'s game and board; `None` when the directory has none for them.
    fn tables_for<R: Wrap>(
        &self,
        py: Python<'_>,
        p: &Position<R>,
    ) -> PyResult<Option<Arc<Tablebase<MancalaIndexer<R>>>>> {
        let key = (p.rules().to_variant(), p.board().holes);
        let cached = self.opened.lock().expect("tables cache").get(&key).cloned();
        let any = match cached {
            Some(a) => a,
            None => {
                let (rules, holes, dir) = (*p.rules(), p.board().holes, &self.dir);
                let opened =
                    py.allow_threads(|| open(dir, rules, holes, MAX_BOARD_SEEDS, Hold::Mapped));
                let tb = match opened {
                    Ok(tb) => tb,
                    Err(TableError::NoTables { .. } | TableError::MissingLayer { .. }) => {
                        return Ok(None)
                    }
                    Err(e) => {
                        return Err(table_error(&format!("tables {}", self.dir.display()), e))
                    }
                };
                let a: Opened = Arc::new(tb);
                self.opened
                    .lock()
                    .expect("tables cache")
                    .insert(key, a.clone());
                a
            }
        };
        Ok(any.downcast::<Tablebase<MancalaIndexer<R>>>().ok())
    }

    fn probe_in<R: Wrap>(&self, py: Python<'_>, p: &Position<R>) -> PyResult<Option<i32>> {
        // A slot holds a board whose pits are all open: a round with burnt pits or sons is not
        // in any table (docs/rules.md §13.1).
        if p.board().has_statuses() {
            return Ok(None);
        }
        if p.is_over() {
            return Ok(Some(p.final_value(0)));
        }
        let Some(tb) = self.tables_for(py, p)? else {
            return Ok(None);
        };
        Ok(tb.probe_value(p).map(|f| p.final_value(f)))
    }
}

#[pymethods]
impl PyTables {
    /// The tables in `dir` (default: `$MANCALA_TABLES`, else `~/.cache/mancala/tables`, the
    /// CLI's default directory).
    /// A `dir` given that is not a directory raises `OSError` at once (a typo would otherwise
    /// make every probe answer `None`); the default directory may not exist yet (a fresh
    /// machine), and then holds no tables.
    #[new]
    #[pyo3(signature = (dir=None))]
    fn new(dir: Option<PathBuf>) -> PyResult<Self> {
        match dir {
            None => Ok(PyTables::at(default_dir())),
            Some(d) if d.is_dir() => Ok(PyTables::at(d)),
            Some(d) => Err(pyo3::exceptions::PyOSError::new_err(format!(
                "Tables(dir): {}: {}",
                d.display(),
                if d.exists() {
                    "not a directory"
                } else {
                    "no such directory"
                }
            ))),
        }
    }

    /// The directory.
    #[getter]
    fn dir(&self) -> PathBuf {
        self.dir.clone()
    }

    /// The exact value of `pos` (final South minus North under perfect play) from the tables, or
    /// `None` when they do not hold it (no tables for its game and board, its seed count above
    /// the largest layer built, or burnt pits or sons). A damaged table raises `OSError`.
    fn probe(&self, py: Python<'_>, pos: &PyPosition) -> PyResult<Option<i32>> {
        with_pos!(&pos.inner, p => self.probe_in(py, p))
    }

    fn __repr__(&self) -> String {
        format!("Tables({:?})", self.dir.display().to_string())
    }
}

fn layer_dict<'py>(py: Python<'py>, r: &LayerReport) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("layer", r.layer)?;
    d.set_item("entries", r.entries)?;
    d.set_item("bytes", r.bytes)?;
    d.set_item("encoding", r.encoding.to_string())?;
    d.set_item("exceptions", r.exceptions)?;
    d.set_item("seconds", r.seconds)?;
    d.set_item("resumed", r.resumed)?;
    Ok(d)
}

fn build_in<R: Wrap>(
    py: Python<'_>,
    rules: R,
    holes: u8,
    max_seeds: u32,
    dir: PathBuf,
    threads: usize,
    progress: Option<&Bound<'_, PyAny>>,
) -> PyResult<()> {
    let ix = MancalaIndexer::new(rules, holes);
    let id = table_id(&rules, holes);
    solver::return_freed_blocks();
    let estimate = tables::memory_estimate(&ix, max_seeds).total();
    if let Some(avail) = available_memory() {
        if estimate > avail {
            let mib = |b: u64| format!("{:.1} MiB", b as f64 / (1u64 << 20) as f64);
            return Err(value_error(format!(
                "building {id} up to {max_seeds} seeds needs about {} of memory, but only {} is available",
                mib(estimate),
                mib(avail)
            )));
        }
    }
    // Ctrl-C or an exception in the progress callback raises the build's stop token: the layer
    // being solved is dropped within a few thousand positions, the finished layers stay.
    let cancel = StopToken::new();
    let opts = BuildOptions {
        threads,
        cyclic_by_graph: false,
        stop: Some(cancel.clone()),
    };
    let (tx, rx) = mpsc::channel::<LayerReport>();
    let rx = Mutex::new(rx);
    let mut stopped_by: Option<PyErr> = None;
    let joined = std::thread::scope(|s| {
        let (ix, id, dir) = (&ix, &id, &dir);
        let builder = s.spawn(move || {
            tables::build(ix, id, dir, max_seeds, &opts, &tables::Silent, |r| {
                let _ = tx.send(r.clone());
            })
        });
        // This thread forwards each finished layer to `progress` (with the GIL) and looks at
        // Python's signals between waits (without it).
        loop {
            match py.allow_threads(|| rx.lock().expect("channel").recv_timeout(SLICE)) {
                Ok(r) => {
                    if let (Some(cb), None) = (progress, &stopped_by) {
                        if let Err(e) = layer_dict(py, &r).and_then(|d| cb.call1((d,))) {
                            cancel.stop();
                            stopped_by = Some(e);
                        }
                    }
                }
                Err(mpsc::RecvTimeoutError::Timeout) => {}
                Err(mpsc::RecvTimeoutError::Disconnected) => break,
            }
            if stopped_by.is_none() {
                if let Err(e) = py.check_signals() {
                    cancel.stop();
                    stopped_by = Some(e);
                }
            }
        }
        py.allow_threads(|| builder.join())
    });
    if let Some(e) = stopped_by {
        return Err(e);
    }
    match joined {
        Ok(Ok(_)) => Ok(()),
        Ok(Err(e)) => Err(table_error(&format!("building the tables of {id}"), e)),
        // A bug, not a cancellation: Python's PanicException rather than a crash.
        Err(panic) => Err(pyo3::panic::PanicException::new_err(
            panic
                .downcast_ref::<String>()
                .cloned()
                .unwrap_or_else(|| "the table builder panicked".to_string()),
        )),
    }
}

/// Builds the endgame tables of `game` on `holes` holes, every layer from 0 to `max_seeds`
/// seeds on the board, into `dir` (default: the CLI's default directory), resuming from the
/// layers already there, and returns them as `Tables`. `progress(layer)` is called with a dict
/// per finished layer (`layer`, `entries`, `bytes`, `encoding`, `exceptions`, `seconds`,
/// `resumed`). The GIL is released; Ctrl-C (or an exception in `progress`) stops the build after
/// the layer in progress, whose file is then complete or absent.
#[pyfunction]
#[pyo3(signature = (game, holes, max_seeds, dir=None, options=Vec::new(), progress=None, threads=None))]
#[allow(clippy::too_many_arguments)]
pub fn build_tables(
    py: Python<'_>,
    game: &str,
    holes: i64,
    max_seeds: i64,
    dir: Option<PathBuf>,
    options: Vec<String>,
    progress: Option<Bound<'_, PyAny>>,
    threads: Option<i64>,
) -> PyResult<PyTables> {
    let holes = crate::errors::count("holes", holes)?;
    let max_seeds = crate::errors::count("max_seeds", max_seeds)?;
    let threads = crate::errors::count_opt("threads", threads)?.map(|t| t as usize);
    let v = any::variant(game, &options).map_err(value_error)?;
    let holes = crate::position::check_holes(v.kind(), holes).map_err(value_error)?;
    if max_seeds > MAX_BOARD_SEEDS {
        return Err(value_error(format!(
            "max_seeds {max_seeds} is more than the board can hold ({MAX_BOARD_SEEDS} seeds)"
        )));
    }
    let threads = crate::search::threads(threads).map_err(value_error)?;
    let dir = dir.unwrap_or_else(default_dir);
    let progress = progress.as_ref().filter(|p| !p.is_none());
    mancala::with_rules!(v, r => build_in(py, r, holes, max_seeds, dir.clone(), threads, progress))?;
    Ok(PyTables::at(dir))
}
