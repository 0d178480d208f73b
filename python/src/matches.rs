//! `mancala.Match`: a multi-round match of Dakon, Walak-pussa or San-Yao (docs/rules.md §13),
//! as the CLI's `match` plays it: burnt pits, sons, lending and who starts each round.

use crate::any::{self, Wrap};
use crate::errors::value_error;
use crate::position::{
    check_seeds, parse, play_typed_until, side_letter, start, typed_move, PyPosition,
};
use mancala::board::{Move, Side};
use mancala::matches::{Match, MatchError, MatchOptions};
use mancala::stop::StopToken;
use mancala::{Abandoned, Position};
use pyo3::prelude::*;
use pyo3::types::PyDict;

/// One round as Python sees it.
struct RoundView {
    starter: Side,
    start: String,
    moves: Vec<u32>,
    end: Option<String>,
    score: [u32; 2],
}

/// A match of one game, its rules erased (the library's `Match<R>` is generic).
trait AnyMatch: Send + Sync {
    fn play(&mut self, py: Python<'_>, mv: &Bound<'_, PyAny>) -> PyResult<()>;
    fn position(&self) -> PyPosition;
    fn rounds(&self) -> Vec<RoundView>;
    fn result(&self) -> Option<Option<Side>>;
}

impl<R: Wrap> AnyMatch for Match<R> {
    fn play(&mut self, py: Python<'_>, mv: &Bound<'_, PyAny>) -> PyResult<()> {
        let typed = typed_move(mv)?;
        let round = self.rounds().len();
        if let Some(over) = self.result() {
            return Err(value_error(format!(
                "move {}: the match is over after round {round} ({})",
                typed.text,
                verdict(over)
            )));
        }
        // The shared checks and messages (marks, range, why illegal), then the match's own move;
        // both sow, on a thread of their own under a stop that Ctrl-C raises: a move of a relay
        // game can relay for billions of laps (docs/rules.md §2.9).
        let now: Position<R> = *Match::position(self);
        let stop = StopToken::new();
        let looked_at = stop.clone();
        let done = crate::watch::watch(py, None, &stop, move || {
            let stop = looked_at.as_stop();
            if let Err(e) = play_typed_until(&now, &typed, stop)? {
                return Ok(Err(format!("{e} (round {round})")));
            }
            Ok(match self.play_until(Move(typed.pit as u8), stop) {
                Ok(()) => Ok(()),
                Err(MatchError::Abandoned { .. }) => return Err(Abandoned),
                Err(e) => Err(format!("move {} in round {round}: {e}", typed.text)),
            })
        })?;
        match done.value {
            Ok(played) => played.map_err(value_error),
            Err(Abandoned) => Err(pyo3::exceptions::PyKeyboardInterrupt::new_err(
                "stopped in the middle of a long sowing",
            )),
        }
    }

    fn position(&self) -> PyPosition {
        PyPosition {
            inner: R::wrap(*Match::position(self)),
        }
    }

    fn rounds(&self) -> Vec<RoundView> {
        Match::rounds(self)
            .iter()
            .map(|r| RoundView {
                starter: r.starter,
                start: r.start.to_string(),
                moves: r.moves.iter().map(|m| u32::from(m.0)).collect(),
                end: r.now.is_over().then(|| r.now.to_string()),
                score: r.now.score(),
            })
            .collect()
    }

    fn result(&self) -> Option<Option<Side>> {
        Match::result(self)
    }
}

/// "South wins the match", "North wins the match", "a drawn match".
fn verdict(w: Option<Side>) -> String {
    match w {
        Some(side) => format!("{side} wins the match"),
        None => "a drawn match".to_string(),
    }
}

/// A multi-round match (docs/rules.md §13) of Dakon, Walak-pussa or San-Yao: `Match(game,
/// holes, seeds)` starts from the standard board (`seeds` is also every round's refill), or
/// from `position` (a round position in the notation, whose side to move starts). `play` runs
/// on across rounds: a finished round sets up the next by itself.
#[pyclass(module = "mancala", name = "Match")]
pub struct PyMatch {
    inner: Box<dyn AnyMatch>,
}

fn new_match<R: Wrap>(
    rules: R,
    start: Position<R>,
    starter: Side,
    seeds: u8,
    options: MatchOptions,
) -> Result<Box<dyn AnyMatch>, String> {
    Match::new(rules, seeds, options, start, starter)
        .map(|m| Box::new(m) as Box<dyn AnyMatch>)
        .map_err(|e| e.to_string())
}

#[pymethods]
impl PyMatch {
    #[new]
    #[pyo3(signature = (game, holes=None, seeds=None, options=Vec::new(), position=None, fill_from_move_1=false))]
    fn new(
        game: &str,
        holes: Option<i64>,
        seeds: Option<i64>,
        options: Vec<String>,
        position: Option<&str>,
        fill_from_move_1: bool,
    ) -> PyResult<Self> {
        let holes = crate::errors::count_opt("holes", holes)?;
        let seeds = crate::errors::count_opt("seeds", seeds)?;
        let v = any::variant(game, &options).map_err(value_error)?;
        let match_options = MatchOptions { fill_from_move_1 };
        mancala::matches::check_game(v.kind(), match_options)
            .map_err(|e| value_error(e.to_string()))?;
        let (first, starter) = match position {
            Some(text) => {
                if seeds.is_some() && holes.is_some() {
                    // Both describe a start; with a position, only the refill is taken from seeds.
                }
                let p = parse(v, text.trim()).map_err(value_error)?;
                let round: mancala::notation::RoundSetup = text
                    .trim()
                    .parse()
                    .map_err(|e| value_error(format!("invalid position '{text}': {e}")))?;
                (p, round.setup.to_move.unwrap_or(Side::South))
            }
            None => (start(v, holes, None).map_err(value_error)?, Side::South),
        };
        let holes_now = crate::with_pos!(&first, p => p.board().holes);
        if let Some(h) = holes {
            if h != holes_now as u32 {
                return Err(value_error(format!(
                    "the position has {holes_now} pits per row but holes is {h}"
                )));
            }
        }
        let refill = check_seeds(v.kind(), holes_now, seeds).map_err(value_error)?;
        // The start of the board (no position) has the refill in every pit.
        let first = match position {
            Some(_) => first,
            None => start(v, Some(holes_now as u32), Some(refill as u32)).map_err(value_error)?,
        };
        let inner =
            crate::with_pos!(first, p => new_match(*p.rules(), p, starter, refill, match_options))
                .map_err(value_error)?;
        Ok(PyMatch { inner })
    }

    /// Plays `move` (a pit number or `"S3"`) in the current round; a finished round sets up the
    /// next one (or ends the match). Raises `ValueError` for an illegal move.
    fn play(&mut self, py: Python<'_>, r#move: &Bound<'_, PyAny>) -> PyResult<()> {
        self.inner.play(py, r#move)
    }

    /// The current position: the current round's, or the last round's end once the match is over.
    #[getter]
    fn position(&self) -> PyPosition {
        self.inner.position()
    }

    /// The current round's start, in the notation with its pit marks (`x` burnt, `5s` a son).
    #[getter]
    fn round_setup(&self) -> String {
        self.inner
            .rounds()
            .last()
            .map(|r| r.start.clone())
            .unwrap_or_default()
    }

    /// The number of the current round (1 for the first).
    #[getter]
    fn round(&self) -> usize {
        self.inner.rounds().len()
    }

    /// Every round so far: dicts with `starter` (`"S"`/`"N"`), `start`, `moves`, `end` (the
    /// final position, `None` while in play) and `score` (`(south, north)` now).
    #[getter]
    fn rounds<'py>(&self, py: Python<'py>) -> PyResult<Vec<Bound<'py, PyDict>>> {
        self.inner
            .rounds()
            .into_iter()
            .map(|r| {
                let d = PyDict::new(py);
                d.set_item("starter", side_letter(r.starter))?;
                d.set_item("start", r.start)?;
                d.set_item("moves", r.moves)?;
                d.set_item("end", r.end)?;
                d.set_item("score", (r.score[0], r.score[1]))?;
                Ok(d)
            })
            .collect()
    }

    /// Whether the match is over.
    #[getter]
    fn is_over(&self) -> bool {
        self.inner.result().is_some()
    }

    /// The winner once the match is over: `"S"`, `"N"`, or `None` (drawn, or still going on;
    /// see `is_over`).
    #[getter]
    fn winner(&self) -> Option<&'static str> {
        self.inner.result().flatten().map(side_letter)
    }

    fn __repr__(&self) -> String {
        format!(
            "<Match round {}, position {}{}>",
            self.round(),
            crate::with_pos!(&self.inner.position().inner, p => p.to_string()),
            match self.inner.result() {
                Some(w) => format!(", over: {}", verdict(w)),
                None => String::new(),
            }
        )
    }
}
