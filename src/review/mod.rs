//! Grading a game against perfect play, move by move: what each move cost its mover in seeds.
//!
//! A game is a start position and the moves played. Let `P0, P1, …, Pn` be the positions along
//! it and `V(Pi)` the exact final score (South minus North, stores included) that perfect play
//! reaches from `Pi`. The move played at `Pi` leads to `Pi+1`, so **its value is `V(Pi+1)`**,
//! and the best value at `Pi` is `V(Pi)` itself. The mover's **loss** is the difference seen
//! from the mover's side: `V(Pi) - V(Pi+1)` when South moved, `V(Pi+1) - V(Pi)` when North
//! did; always at least 0, and 0 exactly when the move was best.
//!
//! Final scores make extra turns (Kalah's last seed in the own store, where the same side moves
//! again) need no special case: `V` is South minus North whoever is to move, so the side that
//! moves next plays no part in the subtraction. (The search's own number, the mover's future
//! winnings, flips sign only when the turn passes; turning every value into a final score first
//! keeps that rule in one place, [`Position::final_value`].)
//!
//! So a game of `n` moves costs `n + 1` values, one per position ([`Evaluate::value`]), and a
//! best-move search ([`Evaluate::best_moves`]) only where the loss is not 0: one null-window test
//! per legal move, far cheaper than valuing every move of every position as `analyze` would.
//!
//! A value source may be stopped by a time limit ([`Limit`]); it then answers **bounds** proven
//! so far ([`Bounds`]), and the losses computed from them are bounds too, never a guess. Two
//! facts tighten bounds for free: a move is never better than the best (`V(Pi)` is at least
//! `V(Pi+1)` from the mover's side), and a best-move list says whether the played move is in it.
//!
//! ```
//! use mancala::review::{review, Limit, ReviewOptions, SolverSource};
//! use mancala::{board::Move, rules::Kalah, Position, SearchConfig};
//! let start = Position::start(Kalah::default(), 3, 3).unwrap();
//! let cfg = SearchConfig { threads: 1, tt_bytes: 1 << 20, ..SearchConfig::default() };
//! let mut source = SolverSource::new(&start, cfg, None, None).unwrap();
//! let game = review(&mut source, &start, &[Move(1), Move(3)], &ReviewOptions::default()).unwrap();
//! assert_eq!(game.moves.len(), 2);
//! for m in &game.moves {
//!     // Without a time limit every value is exact, and a loss is never negative.
//!     assert!(m.loss.exact_value().is_some_and(|l| l >= 0));
//! }
//! ```

mod analyzer_source;
mod bounds;
mod grade;
mod solver_source;

pub use analyzer_source::AnalyzerSource;
pub use bounds::{Bounds, Limit};
pub use grade::{Class, SideSummary, Thresholds, ThresholdsError};
pub use solver_source::SolverSource;

use crate::answers::AnalyzerError;
pub use crate::answers::Source;
use crate::board::{Move, Side};
use crate::rules::Rules;
use crate::{IllegalMove, Position};
use solver::SearchError;
use std::fmt;
use std::sync::Arc;

/// What the review needs of a value source: exact values, or proven bounds when stopped, and
/// which source answered.
///
/// [`AnalyzerSource`] implements it with an [`Analyzer`](crate::answers::Analyzer), as
/// `analyze` answers: the opening book, the memory of proven positions, the endgame tables,
/// then one kept search. [`SolverSource`] implements it with a bare search. Either keeps one
/// transposition table for every position it is asked about, so the positions of one game (or
/// of a batch of games) share what earlier ones proved.
pub trait Evaluate<R: Rules> {
    /// The final value of `p` (South minus North, stores included) under perfect play: exact,
    /// or the bounds proven when `limit` stopped the search first; and which source answered.
    /// `p` is not over (the review values finished games itself).
    ///
    /// # Errors
    /// [`ReviewError::Interrupted`] when the whole review was asked to stop;
    /// [`ReviewError::Search`] when the search failed (its table, or a fault in endgame tables);
    /// [`ReviewError::Answers`] when another source failed.
    fn value(&mut self, p: &Position<R>, limit: Limit) -> Result<(Bounds, Source), ReviewError>;

    /// The exact final value of `p` and every move that reaches it, in move order; `None` when
    /// `limit` stopped the search first. `p` is not over.
    ///
    /// # Errors
    /// As [`Evaluate::value`].
    fn best_moves(&mut self, p: &Position<R>, limit: Limit) -> Result<Option<Best>, ReviewError>;
}

/// A position's exact final value and every move that reaches it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Best {
    /// The final South-minus-North value under perfect play.
    pub value: i32,
    /// Every move that reaches it, in move order.
    pub moves: Vec<Move>,
    /// Which source answered.
    pub source: Source,
}

/// How to review: the time limit per search, the loss classes, and whether to list every best
/// move even where the move played was one.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ReviewOptions {
    /// How long each search may run: one position's value, one position's best moves.
    pub limit: Limit,
    /// Where inaccuracies end and mistakes and blunders begin.
    pub thresholds: Thresholds,
    /// Search the best moves of every position, not only where the move played lost seeds
    /// (one null-window test per legal move more, per position).
    pub all_best: bool,
}

/// One move of the game, graded.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveReview<R: Rules> {
    /// The move's number in the game, from 1.
    pub ply: usize,
    /// The side that made it.
    pub side: Side,
    /// The position it was played in.
    pub before: Position<R>,
    /// The move.
    pub mv: Move,
    /// Its value: the final value of the position after it.
    pub played: Bounds,
    /// The best value: the final value of the position before it.
    pub best: Bounds,
    /// Every best move of `before`, when searched: where the move played lost seeds (or might
    /// have), or every position with [`ReviewOptions::all_best`]. `None` otherwise (then the
    /// move played is known best, or the search was stopped).
    pub best_moves: Option<Vec<Move>>,
    /// Seeds lost by the mover: best minus played from the mover's side, at least 0.
    pub loss: Bounds,
    /// The loss's class, when its bounds decide it.
    pub class: Option<Class>,
    /// What answered this move's numbers: the costliest of the sources of the value before it,
    /// the value after it and the best moves (the rules, the book, the memory, the endgame
    /// tables, a search).
    pub source: Source,
}

impl<R: Rules> MoveReview<R> {
    /// Whether every number of this move is exact (no search behind it was stopped).
    pub fn is_exact(&self) -> bool {
        self.played.exact_value().is_some() && self.best.exact_value().is_some()
    }
}

/// A whole game, graded: each move, then each side's summary.
#[derive(Clone, Debug, PartialEq)]
pub struct GameReview<R: Rules> {
    /// The position the game started from.
    pub start: Position<R>,
    /// Every move, in order.
    pub moves: Vec<MoveReview<R>>,
    /// The position after the last move.
    pub end: Position<R>,
    /// The final value of `end`.
    pub end_value: Bounds,
    /// South's moves summed up.
    pub south: SideSummary,
    /// North's moves summed up.
    pub north: SideSummary,
}

impl<R: Rules> GameReview<R> {
    /// The summary of `side`'s moves.
    pub fn side(&self, side: Side) -> &SideSummary {
        match side {
            Side::South => &self.south,
            Side::North => &self.north,
        }
    }

    /// Whether every number of the review is exact.
    pub fn is_exact(&self) -> bool {
        self.moves.iter().all(MoveReview::is_exact)
    }
}

/// Why a game could not be reviewed.
#[derive(Clone, Debug)]
pub enum ReviewError {
    /// A move of the game is not legal where it was played.
    Illegal {
        /// The move's number, from 1.
        ply: usize,
        /// The move.
        mv: Move,
        /// Why it is not legal.
        why: IllegalMove,
    },
    /// The review was asked to stop (Ctrl-C, a closed connection): nothing is reported.
    Interrupted,
    /// The search failed: its transposition table, or a fault found in the endgame tables.
    Search(SearchError),
    /// A source of the [`Analyzer`](crate::answers::Analyzer) failed: endgame tables that
    /// cannot be opened or cannot hold the position, a damaged opening book.
    Answers(Arc<AnalyzerError>),
}

impl fmt::Display for ReviewError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReviewError::Illegal { ply, mv, why } => {
                write!(f, "move #{ply} ({}) is illegal: {why}", mv.0)
            }
            ReviewError::Interrupted => f.write_str("the review was stopped before it finished"),
            ReviewError::Search(e) => write!(f, "{e}"),
            ReviewError::Answers(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for ReviewError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ReviewError::Illegal { why, .. } => Some(why),
            ReviewError::Search(e) => Some(e),
            ReviewError::Answers(e) => Some(&**e),
            ReviewError::Interrupted => None,
        }
    }
}

/// The positions along a game: `start`, then the position after each move.
///
/// # Errors
/// [`ReviewError::Illegal`] for the first move that is not legal where it is played (a move
/// after the end of the game included).
pub fn line<R: Rules>(
    start: &Position<R>,
    moves: &[Move],
) -> Result<Vec<Position<R>>, ReviewError> {
    let mut line = Vec::with_capacity(moves.len() + 1);
    line.push(*start);
    for (i, &mv) in moves.iter().enumerate() {
        let p = line[i];
        let next = p.try_play(mv).map_err(|why| ReviewError::Illegal {
            ply: i + 1,
            mv,
            why,
        })?;
        line.push(next);
    }
    Ok(line)
}

/// Reviews the game from `start` through `moves` with `source`: one value per position, best
/// moves where the move played lost seeds (or all of them, [`ReviewOptions::all_best`]).
///
/// # Errors
/// [`ReviewError::Illegal`] before any search when a move is not legal; otherwise what
/// `source` fails with.
pub fn review<R: Rules, E: Evaluate<R> + ?Sized>(
    source: &mut E,
    start: &Position<R>,
    moves: &[Move],
    options: &ReviewOptions,
) -> Result<GameReview<R>, ReviewError> {
    let line = line(start, moves)?;
    let mut values = Vec::with_capacity(line.len());
    let mut sources = Vec::with_capacity(line.len());
    for p in &line {
        let (v, s) = if p.is_over() {
            (Bounds::exact(p.final_value(0)), Source::Rules)
        } else {
            source.value(p, options.limit)?
        };
        values.push(v);
        sources.push(s);
    }
    let mut graded = Vec::with_capacity(moves.len());
    for (i, &mv) in moves.iter().enumerate() {
        let before = line[i];
        let side = before
            .to_move()
            .expect("a legal move was played, so the game was on");
        let (mut best, mut played) = tighten(side, values[i], values[i + 1]);
        let mut best_moves = None;
        let mut answered = sources[i].max(sources[i + 1]);
        // The best moves are searched where the move may have lost seeds and the best value is
        // known (a search stopped on the value would only be stopped again on the moves).
        let maybe_lost = loss(side, best, played).upper > 0;
        if (maybe_lost || options.all_best) && best.exact_value().is_some() {
            if let Some(b) = source.best_moves(&before, options.limit)? {
                if b.moves.contains(&mv) {
                    played = Bounds::exact(b.value);
                }
                best = Bounds::exact(b.value);
                best_moves = Some(b.moves);
                answered = answered.max(b.source);
            }
        }
        let mut loss = loss(side, best, played);
        // Not among the best moves: at least one seed lost.
        if best_moves.as_ref().is_some_and(|b| !b.contains(&mv)) {
            loss = Bounds::new(loss.lower.max(1), loss.upper);
        }
        // The values are shared with the neighbours' moves: keep what this move proved.
        values[i] = best;
        values[i + 1] = played;
        graded.push(MoveReview {
            ply: i + 1,
            side,
            before,
            mv,
            played,
            best,
            best_moves,
            loss,
            class: options.thresholds.class(loss),
            source: answered,
        });
    }
    let summary =
        |s: Side| SideSummary::of(graded.iter().filter(|m| m.side == s), &options.thresholds);
    Ok(GameReview {
        start: *start,
        end: line[moves.len()],
        end_value: values[moves.len()],
        south: summary(Side::South),
        north: summary(Side::North),
        moves: graded,
    })
}

/// `(best, played)` tightened by the one fact that relates them: no move is better than the
/// best, so from the mover's side `best >= played`.
fn tighten(side: Side, best: Bounds, played: Bounds) -> (Bounds, Bounds) {
    match side {
        // South wants more: best >= played.
        Side::South => (
            Bounds::new(best.lower.max(played.lower), best.upper),
            Bounds::new(played.lower, played.upper.min(best.upper)),
        ),
        // North wants less: best <= played.
        Side::North => (
            Bounds::new(best.lower, best.upper.min(played.upper)),
            Bounds::new(played.lower.max(best.lower), played.upper),
        ),
    }
}

/// The mover's loss, best minus played from the mover's side, as bounds (never below 0).
fn loss(side: Side, best: Bounds, played: Bounds) -> Bounds {
    let (lower, upper) = match side {
        Side::South => (best.lower - played.upper, best.upper - played.lower),
        Side::North => (played.lower - best.upper, played.upper - best.lower),
    };
    Bounds::new(lower.max(0), upper.max(0))
}

#[cfg(test)]
mod tests;
