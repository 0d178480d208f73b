//! `mancala.Position`: an immutable, hashable, picklable position of any of the five games.

use crate::any::{self, AnyPos, Wrap};
use crate::errors::{count_opt, value_error};
use crate::with_pos;
use mancala::board::{Move, Side};
use mancala::notation::{PitStatus, RoundSetup, Setup};
use mancala::rules::GameKind;
use mancala::stop::{Stop, StopToken};
use mancala::variant::Variant;
use mancala::{Abandoned, IllegalMove, PlayError, Position};
use pyo3::prelude::*;
use pyo3::types::PyType;

/// A position of one of the five games, in docs/rules.md notation
/// (`4,4,4,4,4,4/4,4,4,4,4,4/0,0/S`: South's pits in move order, North's, the stores, the side
/// to move or `-`). Immutable; equal positions compare and hash equal.
#[pyclass(frozen, eq, hash, module = "mancala", name = "Position")]
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct PyPosition {
    pub(crate) inner: AnyPos,
}

/// `holes` checked against the game's range: the library's check, whose message the CLI prints.
pub(crate) fn check_holes(kind: GameKind, holes: u32) -> Result<u8, String> {
    kind.check_holes(holes).map_err(|e| e.to_string())
}

/// `seeds` per hole checked against the game's range on `holes` holes (the game's default when
/// `None`), by the library's check as the CLI does.
pub(crate) fn check_seeds(kind: GameKind, holes: u8, seeds: Option<u32>) -> Result<u8, String> {
    match seeds {
        None => Ok(kind.default_seeds(holes)),
        Some(s) => kind.check_seeds(holes, s).map_err(|e| e.to_string()),
    }
}

/// The start of `variant` on `holes` × `seeds` (the game's standard board when not given).
pub(crate) fn start(
    variant: Variant,
    holes: Option<u32>,
    seeds: Option<u32>,
) -> Result<AnyPos, String> {
    fn go<R: Wrap>(r: R, holes: u8, seeds: u8) -> Result<AnyPos, String> {
        Position::start(r, holes, seeds)
            .map(R::wrap)
            .map_err(|e| e.to_string())
    }
    let kind = variant.kind();
    let holes = match holes {
        Some(h) => check_holes(kind, h)?,
        None => kind.default_holes(),
    };
    let seeds = check_seeds(kind, holes, seeds)?;
    mancala::with_rules!(variant, r => go(r, holes, seeds))
}

/// A position of `variant` in the notation, with pit marks (`x`, `5s`) in the match games.
pub(crate) fn parse(variant: Variant, text: &str) -> Result<AnyPos, String> {
    fn go<R: Wrap>(r: R, round: &RoundSetup) -> Result<AnyPos, mancala::PositionError> {
        Position::from_round_setup(r, round).map(R::wrap)
    }
    let kind = variant.kind();
    let round: RoundSetup = if matches!(kind, GameKind::Kalah | GameKind::DjenonAboure) {
        // As the CLI: the plain notation, whose message names the entry, and why a mark is not one.
        let plain = text.parse::<Setup>().map_err(|e| {
            let hint = if text.parse::<RoundSetup>().is_ok() {
                format!(
                    "; {} has no burnt pits or sons ('x' and 's' marks belong to the rounds of Dakon, Walak-pussa and San-Yao matches)",
                    kind.title()
                )
            } else {
                String::new()
            };
            format!("invalid position '{text}': {e}{hint}")
        })?;
        RoundSetup::open(plain)
    } else {
        text.parse()
            .map_err(|e| format!("invalid position '{text}': {e}"))?
    };
    mancala::with_rules!(variant, r => go(r, &round))
        .map_err(|e| format!("invalid position '{text}': {e}"))
}

/// `work(p, stop)`, a computation that sows: at once for the games whose sowings are one lap;
/// for the relay games on a thread of its own, with a stop that Ctrl-C raises
/// ([`crate::watch::watch`]), since one relay can run billions of laps.
fn stoppable<R: Wrap, T: Send>(
    py: Python<'_>,
    p: &Position<R>,
    work: impl FnOnce(Position<R>, Stop<'_>) -> Result<T, Abandoned> + Send,
) -> PyResult<T> {
    let q = *p;
    if !R::CAN_CYCLE {
        return work(q, Stop::never()).map_err(|_| unreachable!("a sowing nobody stops"));
    }
    let stop = StopToken::new();
    let looked_at = stop.clone();
    let done = crate::watch::watch(py, None, &stop, move || work(q, looked_at.as_stop()))?;
    done.value.map_err(|_| {
        pyo3::exceptions::PyKeyboardInterrupt::new_err("stopped in the middle of a long sowing")
    })
}

/// A move as Python gives it: a pit number (`3`), or the number marked with the side that
/// makes it (`"S3"`, `"n3"`), as `solve` prints principal variations.
pub(crate) struct Typed {
    pub side: Option<Side>,
    pub pit: u32,
    pub text: String,
}

/// Reads a move from a Python `int` or `str`.
pub(crate) fn typed_move(mv: &Bound<'_, PyAny>) -> PyResult<Typed> {
    // `True` is an int to Python, but never a pit number anyone meant.
    if !mv.is_instance_of::<pyo3::types::PyBool>() {
        if let Ok(n) = mv.extract::<i64>() {
            return Ok(Typed {
                side: None,
                pit: u32::try_from(n).unwrap_or(u32::MAX),
                text: n.to_string(),
            });
        }
    }
    let Ok(text) = mv.extract::<String>() else {
        return Err(pyo3::exceptions::PyTypeError::new_err(format!(
            "a move is a pit number such as 3, or a string such as 'S3', not {}",
            mv.get_type().name()?
        )));
    };
    let t = text.trim();
    let (side, digits) = match t.as_bytes().first() {
        Some(b'S' | b's') => (Some(Side::South), &t[1..]),
        Some(b'N' | b'n') => (Some(Side::North), &t[1..]),
        _ => (None, t),
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(value_error(format!(
            "'{text}' is not a move: write a pit number such as 3, or S3 / N3 with the side"
        )));
    }
    Ok(Typed {
        side,
        pit: digits.parse().unwrap_or(u32::MAX),
        text,
    })
}

/// Plays a typed move, with the CLI's messages for a move it refuses.
pub(crate) fn play_typed<R: Wrap>(p: &Position<R>, m: &Typed) -> Result<Position<R>, String> {
    play_typed_until(p, m, Stop::never()).unwrap_or_else(|_| unreachable!("a sowing nobody stops"))
}

/// [`play_typed`] that gives up once `stop` is raised inside a long sowing (`Err(Abandoned)`).
pub(crate) fn play_typed_until<R: Wrap>(
    p: &Position<R>,
    m: &Typed,
    stop: Stop<'_>,
) -> Result<Result<Position<R>, String>, Abandoned> {
    let label = format!("move {}", m.text);
    let Some(mover) = p.to_move() else {
        return Ok(Err(format!(
            "{label} is illegal: the game is already over in {p}"
        )));
    };
    if let Some(side) = m.side {
        if side != mover {
            return Ok(Err(format!(
                "{label} is marked for {side}, but {mover} is to move in {p}"
            )));
        }
    }
    Ok(
        match p.try_play_until(Move(u8::try_from(m.pit).unwrap_or(u8::MAX)), stop) {
            Ok(q) => Ok(q),
            Err(PlayError::Abandoned { .. }) => return Err(Abandoned),
            Err(PlayError::Illegal(IllegalMove::OutOfRange { holes, .. })) => Err(format!(
                "{label} is illegal: out of range (moves are 1..={holes})"
            )),
            Err(PlayError::Illegal(e)) => {
                Err(format!("{label} is illegal for {mover} in {p}: {e}"))
            }
        },
    )
}

/// `"S"`, `"N"`.
pub(crate) fn side_letter(side: Side) -> &'static str {
    match side {
        Side::South => "S",
        Side::North => "N",
    }
}

/// Moves from `p` with the side making each, `["S3", "S6", "N1"]`: the form `play` reads back.
pub(crate) fn marked<R: Wrap>(p: &Position<R>, moves: &[Move]) -> Vec<String> {
    let mut at = *p;
    let mut out = Vec::with_capacity(moves.len());
    for &m in moves {
        let Some(side) = at.to_move() else { break };
        out.push(format!("{}{}", side_letter(side), m.0));
        at = at.play_unchecked(m);
    }
    out
}

#[pymethods]
impl PyPosition {
    /// The start of `game` with `seeds` in each of `holes` pits a row (the game's standard board
    /// when not given); `options` are rule option names (`"empty-capture"`).
    #[new]
    #[pyo3(signature = (game, holes=None, seeds=None, options=Vec::new()))]
    fn new(
        game: &str,
        holes: Option<i64>,
        seeds: Option<i64>,
        options: Vec<String>,
    ) -> PyResult<Self> {
        let (holes, seeds) = (count_opt("holes", holes)?, count_opt("seeds", seeds)?);
        let v = any::variant(game, &options).map_err(value_error)?;
        let inner = start(v, holes, seeds).map_err(value_error)?;
        Ok(PyPosition { inner })
    }

    /// Any position of `game` in the notation (`"4,4,0,5,5,5/4,4,4,4,4,4/1,0/S"`); burnt pits
    /// (`x`) and sons (`5s`) in the rounds of Dakon, Walak-pussa and San-Yao matches.
    #[classmethod]
    #[pyo3(signature = (game, text, options=Vec::new()))]
    fn parse(
        _cls: &Bound<'_, PyType>,
        game: &str,
        text: &str,
        options: Vec<String>,
    ) -> PyResult<Self> {
        let v = any::variant(game, &options).map_err(value_error)?;
        let inner = parse(v, text.trim()).map_err(value_error)?;
        Ok(PyPosition { inner })
    }

    /// The legal moves of the side to move, pit numbers in increasing order (empty when over).
    /// A sowing of a relay game can run billions of laps (docs/rules.md §2.9): Ctrl-C stops it
    /// (`KeyboardInterrupt`).
    fn legal_moves(&self, py: Python<'_>) -> PyResult<Vec<u32>> {
        with_pos!(&self.inner, p => stoppable(py, p, |q, stop| {
            q.legal_moves_until(stop).map(|l| l.as_slice().iter().map(|m| u32::from(m.0)).collect())
        }))
    }

    /// The position after `move` (a pit number, or `"S3"` with the side), forced passes and the
    /// end of the game applied. Raises `ValueError` for an illegal move. Ctrl-C stops a long
    /// relay (`KeyboardInterrupt`), as in `legal_moves`.
    fn play(&self, py: Python<'_>, r#move: &Bound<'_, PyAny>) -> PyResult<Self> {
        let m = typed_move(r#move)?;
        let inner = with_pos!(&self.inner, p => stoppable(py, p, |q, stop| {
            play_typed_until(&q, &m, stop)
        })?
        .map(Wrap::wrap))
        .map_err(value_error)?;
        Ok(PyPosition { inner })
    }

    /// Each legal move with the position after it: `[(3, Position), ...]`.
    /// Ctrl-C stops a long relay (`KeyboardInterrupt`), as in `legal_moves`.
    fn children(&self, py: Python<'_>) -> PyResult<Vec<(u8, PyPosition)>> {
        with_pos!(&self.inner, p => stoppable(py, p, |q, stop| {
            let mut out = Vec::new();
            q.for_each_child_until(stop, |m, c| out.push((m.0, PyPosition { inner: Wrap::wrap(c) })))
                .map(|()| out)
        }))
    }

    /// `"S"` or `"N"`, or `None` when the game is over.
    #[getter]
    fn to_move(&self) -> Option<&'static str> {
        with_pos!(&self.inner, p => p.to_move()).map(side_letter)
    }

    /// Whether the game is over.
    #[getter]
    fn is_over(&self) -> bool {
        with_pos!(&self.inner, p => p.is_over())
    }

    /// The stores (tallies): `(south, north)`.
    #[getter]
    fn score(&self) -> (u32, u32) {
        let [s, n] = with_pos!(&self.inner, p => p.score());
        (s, n)
    }

    /// The pit counts: `(south_row, north_row)`, each in move order (pit 1 first).
    #[getter]
    fn pits(&self) -> (Vec<u32>, Vec<u32>) {
        let s = with_pos!(&self.inner, p => p.setup());
        (s.south, s.north)
    }

    /// Each pit's status in a match round, South's row then North's, in move order: `"open"`,
    /// `"burnt"` (out of play) or `"son"` (owned by the player opposite its row).
    #[getter]
    fn statuses(&self) -> Vec<&'static str> {
        let r = with_pos!(&self.inner, p => p.round_setup());
        r.status
            .iter()
            .map(|s| match s {
                PitStatus::Open => "open",
                PitStatus::Burnt => "burnt",
                PitStatus::Son => "son",
            })
            .collect()
    }

    /// Holes per row.
    #[getter]
    fn holes(&self) -> u8 {
        with_pos!(&self.inner, p => p.board().holes)
    }

    /// Seeds still on the board.
    #[getter]
    fn seeds_on_board(&self) -> u32 {
        with_pos!(&self.inner, p => p.board().seeds_on_board())
    }

    /// The game's name (`"kalah"`).
    #[getter]
    fn game(&self) -> &'static str {
        self.inner.variant().kind().name()
    }

    /// The rule options switched on, by name.
    #[getter]
    fn options(&self) -> Vec<&'static str> {
        self.inner.variant().option_names()
    }

    /// The game with its options as one string, `"kalah+empty-capture"` (what `game=` accepts).
    #[getter]
    fn variant(&self) -> String {
        self.inner.variant().to_string()
    }

    /// The position drawn as a player sees it (several lines).
    fn diagram(&self) -> String {
        with_pos!(&self.inner, p => p.diagram().to_string())
    }

    /// Positions are immutable: a copy is the same object (OpenSpiel clones states by deepcopy).
    fn __copy__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __deepcopy__<'py>(slf: PyRef<'py, Self>, _memo: &Bound<'py, PyAny>) -> PyRef<'py, Self> {
        slf
    }

    fn __str__(&self) -> String {
        with_pos!(&self.inner, p => p.to_string())
    }

    fn __repr__(&self) -> String {
        format!("Position.parse('{}', '{}')", self.variant(), self.__str__())
    }

    /// Pickling: the class's `parse` with the variant and the notation, which round-trip.
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<(Bound<'py, PyAny>, (String, String))> {
        let parse = py.get_type::<PyPosition>().getattr("parse")?;
        Ok((parse, (self.variant(), self.__str__())))
    }
}
