//! `mancala.review`: a game graded against perfect play, one `MoveReview` per move, by the
//! library's review ([`mancala::review`]) with the CLI's `review` set-up: one analyzer for the
//! game (the opening book, the memory of proven positions, the endgame tables, then one search
//! with one transposition table), a time limit per search, the GIL released and Ctrl-C raising
//! KeyboardInterrupt.

use crate::any::Wrap;
use crate::errors::value_error;
use crate::position::{play_typed, side_letter, typed_move, PyPosition};
use crate::search::threads as check_threads;
use crate::settings;
use crate::watch::watch;
use crate::with_pos;
use mancala::answers::{Analyzer, AnalyzerConfig, AnalyzerError};
use mancala::board::Move;
use mancala::review::{
    review as grade, AnalyzerSource, Limit, MoveReview, ReviewError, ReviewOptions, Thresholds,
};
use mancala::stop::StopToken;
use mancala::Position;
use pyo3::prelude::*;
use solver::SearchError;

/// One move of a game, graded against perfect play. Values are final South-minus-North
/// scores; `loss` is in seeds from the mover's side. Where the time limit stopped a search, the
/// exact field is `None` and the `*_bounds` pair `(lower, upper)` bounds it.
#[pyclass(frozen, get_all, module = "mancala", name = "MoveReview")]
pub struct PyMoveReview {
    /// The move's number in the game, from 1.
    ply: usize,
    /// `"S"` or `"N"`: the side that moved.
    side: &'static str,
    /// The position the move was played in.
    position: PyPosition,
    /// The pit number played.
    r#move: u8,
    /// The move's value: the final value of the position after it.
    value: Option<i32>,
    value_bounds: (i32, i32),
    /// The best value: the final value of `position`.
    best_value: Option<i32>,
    best_bounds: (i32, i32),
    /// Best moves of `position`: all of them when `best_complete`; else the move played (known
    /// best, not searched further) or none (stopped).
    best: Vec<u32>,
    best_complete: bool,
    /// Seeds lost by the mover: best minus played from the mover's side.
    loss: Option<i32>,
    loss_bounds: (i32, i32),
    /// `"best"`, `"inaccuracy"`, `"mistake"` or `"blunder"` by the seeds lost; `None` when the
    /// loss's bounds span two.
    grade: Option<&'static str>,
    /// What answered the move's numbers: `"rules"`, `"book"`, `"memory"`, `"tables"` or
    /// `"search"` (the costliest of them), as `Analysis.source`.
    source: &'static str,
}

#[pymethods]
impl PyMoveReview {
    fn __repr__(&self) -> String {
        let opt = |v: Option<i32>| v.map_or("None".to_string(), |v| v.to_string());
        format!(
            "MoveReview(ply={}, side='{}', move={}, value={}, best_value={}, best={:?}, loss={}, grade={})",
            self.ply,
            self.side,
            self.r#move,
            opt(self.value),
            opt(self.best_value),
            self.best,
            opt(self.loss),
            self.grade.map_or("None".to_string(), |g| format!("'{g}'")),
        )
    }
}

impl PyMoveReview {
    fn of<R: Wrap>(m: &MoveReview<R>) -> Self {
        let (best, best_complete) = match &m.best_moves {
            Some(b) => (b.iter().map(|x| u32::from(x.0)).collect(), true),
            None if m.loss.exact_value() == Some(0) => (vec![u32::from(m.mv.0)], false),
            None => (Vec::new(), false),
        };
        Self {
            ply: m.ply,
            side: side_letter(m.side),
            position: PyPosition {
                inner: R::wrap(m.before),
            },
            r#move: m.mv.0,
            value: m.played.exact_value(),
            value_bounds: (m.played.lower, m.played.upper),
            best_value: m.best.exact_value(),
            best_bounds: (m.best.lower, m.best.upper),
            best,
            best_complete,
            loss: m.loss.exact_value(),
            loss_bounds: (m.loss.lower, m.loss.upper),
            grade: m.class.map(|c| c.name()),
            source: m.source.name(),
        }
    }
}

/// The moves of `moves`: a list of pit numbers or marked moves (`3`, `"S3"`), or one string
/// of them (`"3 1 S4 N2"`), each checked legal from `start` in turn.
fn moves_of<R: Wrap>(start: &Position<R>, moves: &Bound<'_, PyAny>) -> PyResult<Vec<Move>> {
    let items: Vec<Bound<'_, PyAny>> = if let Ok(text) = moves.extract::<String>() {
        let py = moves.py();
        text.split(|c: char| c == ',' || c.is_whitespace())
            .filter(|w| !w.is_empty())
            .map(|w| pyo3::types::PyString::new(py, w).into_any())
            .collect()
    } else {
        moves.try_iter()?.collect::<PyResult<_>>()?
    };
    let mut p = *start;
    let mut out = Vec::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        let m = typed_move(item)?;
        p = play_typed(&p, &m).map_err(|e| value_error(format!("move #{}: {e}", i + 1)))?;
        out.push(Move(u8::try_from(m.pit).unwrap_or(u8::MAX)));
    }
    Ok(out)
}

fn review_in<R: Wrap>(
    py: Python<'_>,
    start: &Position<R>,
    moves: &Bound<'_, PyAny>,
    config: AnalyzerConfig,
    options: &ReviewOptions,
) -> PyResult<Vec<PyMoveReview>> {
    let moves = moves_of(start, moves)?;
    let abort = StopToken::new();
    let w = watch(py, None, &abort, || {
        let mut analyzer = Analyzer::new(config);
        let graded = grade(
            &mut AnalyzerSource::new(&mut analyzer, Some(abort.clone())),
            start,
            &moves,
            options,
        );
        for n in analyzer.take_notes() {
            eprintln!("warning: {n}");
        }
        graded
    })?;
    match w.value {
        Ok(g) => Ok(g.moves.iter().map(PyMoveReview::of).collect()),
        Err(ReviewError::Search(SearchError::Table(solver::TtError::KeyTooLarge { .. }))) => {
            Err(value_error(
                "this position is too large for exact solving: it has more possible positions than \
                 the transposition table can tell apart exactly",
            ))
        }
        Err(ReviewError::Answers(e)) => match &*e {
            AnalyzerError::Tables { dir, source } => Err(pyo3::exceptions::PyOSError::new_err(
                format!("tables {}: {source}", dir.display()),
            )),
            other => Err(value_error(format!("tables: {other}"))),
        },
        Err(e) => Err(value_error(e.to_string())),
    }
}

/// Grades the game played from `pos` through `moves` against perfect play: one `MoveReview`
/// per move (its value, the best value and best moves, the seeds lost and a grade). `moves`
/// is a list of pit numbers or marked moves (`[3, 1, "S4"]`) or one string (`"3 1 S4 N2"`).
/// `mistake` and `blunder`: the fewest seeds lost that make a mistake or a blunder (any loss
/// is at least an inaccuracy). `all_best`: search every position's best moves, not only where
/// seeds were lost. `time_limit`: seconds per search; a stopped search leaves bounds
/// (`value_bounds`, `best_bounds`, `loss_bounds`), never a guess. `threads`, `hash_mb` and
/// `tables`, `memory` and `book` are `mancala.Analyzer`'s (the default table directory's
/// tables when it holds the game's, the default memory file, the opening book): one analyzer,
/// with one transposition table, serves the whole game, and each move's `source` says what
/// answered. The GIL is released; Ctrl-C raises KeyboardInterrupt.
#[pyfunction]
#[pyo3(signature = (pos, moves, threads=None, hash_mb=None, tables=None, time_limit=None, mistake=2, blunder=6, all_best=false, memory=None, book=true))]
#[allow(clippy::too_many_arguments)]
pub fn review(
    py: Python<'_>,
    pos: &PyPosition,
    moves: &Bound<'_, PyAny>,
    threads: Option<usize>,
    hash_mb: Option<u64>,
    tables: Option<&Bound<'_, PyAny>>,
    time_limit: Option<f64>,
    mistake: i32,
    blunder: i32,
    all_best: bool,
    memory: Option<&Bound<'_, PyAny>>,
    book: bool,
) -> PyResult<Vec<PyMoveReview>> {
    let config = AnalyzerConfig {
        threads: check_threads(threads).map_err(value_error)?,
        table_size: settings::table_size(hash_mb)?,
        tables: settings::tables_choice(tables)?,
        book,
        memory: settings::memory_choice(memory)?,
        ..AnalyzerConfig::default()
    };
    let time_limit = settings::time_limit(time_limit)?;
    let options = ReviewOptions {
        limit: Limit::seconds(time_limit),
        thresholds: Thresholds::new(mistake, blunder).map_err(|e| value_error(e.to_string()))?,
        all_best,
    };
    with_pos!(&pos.inner, p => review_in(py, p, moves, config.clone(), &options))
}
