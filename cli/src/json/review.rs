//! The objects of `review`: one graded game (its moves, each side's summary), and a batch
//! line that could not be reviewed. `dataset` lines are described here too: positions with
//! every move's value.

use super::base::*;
use mancala::review::{Class, GameReview, MoveReview, SideSummary, Thresholds};
use mancala::rules::Rules;
use schemars::JsonSchema;
use serde::Serialize;

/// `review`: a game graded against perfect play. Every value is a final South-minus-North
/// score; a loss is in seeds from the mover's side. Where a search was stopped by the time
/// limit, the exact field is null and `*_lower`/`*_upper` bound it.
#[derive(Serialize, JsonSchema)]
#[schemars(rename = "review")]
pub struct Review {
    /// `position` is where the game started.
    #[serde(flatten)]
    pub head: PositionHead,
    /// The batch line of this game (null outside `--batch`).
    pub line: Option<usize>,
    /// True when every number is exact (no search was stopped).
    pub complete: bool,
    /// The loss classes' thresholds, in seeds lost.
    pub thresholds: ReviewThresholds,
    /// Every move, in order.
    pub moves: Vec<ReviewedMove>,
    /// The position after the last move.
    pub end: String,
    /// The final value of `end` (null when not exact).
    pub end_value: Option<i32>,
    pub south: ReviewSide,
    pub north: ReviewSide,
    pub seconds: f64,
}

impl Output for Review {
    const COMMANDS: &'static [&'static str] = &["review"];
}

/// The seeds lost from which a move is a mistake, and a blunder (any loss is an inaccuracy).
#[derive(Serialize, JsonSchema)]
pub struct ReviewThresholds {
    pub mistake: i32,
    pub blunder: i32,
}

/// A move's grade: "best", "inaccuracy", "mistake" or "blunder".
#[derive(Serialize, JsonSchema, Clone, Copy)]
#[serde(rename_all = "lowercase")]
pub enum MoveClass {
    Best,
    Inaccuracy,
    Mistake,
    Blunder,
}

impl From<Class> for MoveClass {
    fn from(c: Class) -> Self {
        match c {
            Class::Best => MoveClass::Best,
            Class::Inaccuracy => MoveClass::Inaccuracy,
            Class::Mistake => MoveClass::Mistake,
            Class::Blunder => MoveClass::Blunder,
        }
    }
}

/// One move, graded.
#[derive(Serialize, JsonSchema)]
pub struct ReviewedMove {
    /// The move's number in the game, from 1.
    pub ply: usize,
    pub side: Letter,
    /// The position the move was played in.
    pub position: String,
    /// The pit number, 1..=holes.
    #[serde(rename = "move")]
    pub pit: u8,
    /// The move's value: the final value after it (null when not exact).
    pub value: Option<i32>,
    pub value_lower: i32,
    pub value_upper: i32,
    /// The best value: the final value of `position` (null when not exact).
    pub best_value: Option<i32>,
    pub best_lower: i32,
    pub best_upper: i32,
    /// Best moves of `position`: every one when `best_complete`, else only the move played
    /// (known best, no search made) or none (the search was stopped).
    pub best: Vec<u8>,
    pub best_complete: bool,
    /// Seeds lost by the mover (null when not exact).
    pub loss: Option<i32>,
    pub loss_lower: i32,
    pub loss_upper: i32,
    /// Null when the loss's bounds span two classes.
    pub class: Option<MoveClass>,
    /// What answered the move's numbers (the costliest source of its values and best moves):
    /// `rules`, `book`, `memory`, `tables` or `search`, as `analyze` says.
    pub source: String,
}

impl ReviewedMove {
    /// The object of move `m`.
    pub fn of<R: Rules>(m: &MoveReview<R>) -> Self {
        let (best, best_complete) = match &m.best_moves {
            Some(b) => (b.iter().map(|x| x.0).collect(), true),
            None if m.loss.exact_value() == Some(0) => (vec![m.mv.0], false),
            None => (Vec::new(), false),
        };
        Self {
            ply: m.ply,
            side: m.side.into(),
            position: m.before.to_string(),
            pit: m.mv.0,
            value: m.played.exact_value(),
            value_lower: m.played.lower,
            value_upper: m.played.upper,
            best_value: m.best.exact_value(),
            best_lower: m.best.lower,
            best_upper: m.best.upper,
            best,
            best_complete,
            loss: m.loss.exact_value(),
            loss_lower: m.loss.lower,
            loss_upper: m.loss.upper,
            class: m.class.map(MoveClass::from),
            source: m.source.name().to_string(),
        }
    }
}

/// One side's moves summed up.
#[derive(Serialize, JsonSchema)]
pub struct ReviewSide {
    pub moves: usize,
    /// Moves proven best (loss 0).
    pub best_moves: usize,
    pub inaccuracies: usize,
    pub mistakes: usize,
    pub blunders: usize,
    /// Seeds lost over all moves (null when not exact).
    pub total_loss: Option<i32>,
    pub loss_lower: i32,
    pub loss_upper: i32,
    /// Seeds lost per move (null when not exact).
    pub mean_loss: Option<f64>,
    /// The share of best moves, 0 to 1 (null when some move's class is open).
    pub accuracy: Option<f64>,
    /// The ply of the first move proven to lose at least the mistake threshold.
    pub first_mistake: Option<usize>,
}

impl ReviewSide {
    /// The object of summary `s`.
    pub fn of(s: &SideSummary) -> Self {
        Self {
            moves: s.moves,
            best_moves: s.best,
            inaccuracies: s.classes[Class::Inaccuracy as usize],
            mistakes: s.classes[Class::Mistake as usize],
            blunders: s.classes[Class::Blunder as usize],
            total_loss: s.loss.exact_value(),
            loss_lower: s.loss.lower,
            loss_upper: s.loss.upper,
            mean_loss: s.mean_loss(),
            accuracy: s.accuracy(),
            first_mistake: s.first_mistake,
        }
    }
}

impl Review {
    /// The object of review `g` (batch line `line`), graded by `thresholds`, in `seconds`.
    pub fn of<R: Rules>(
        g: &GameReview<R>,
        line: Option<usize>,
        thresholds: &Thresholds,
        seconds: f64,
    ) -> Self {
        Self {
            head: PositionHead::of("review", &g.start),
            line,
            complete: g.is_exact(),
            thresholds: ReviewThresholds {
                mistake: thresholds.mistake(),
                blunder: thresholds.blunder(),
            },
            moves: g.moves.iter().map(ReviewedMove::of).collect(),
            end: g.end.to_string(),
            end_value: g.end_value.exact_value(),
            south: ReviewSide::of(&g.south),
            north: ReviewSide::of(&g.north),
            seconds,
        }
    }
}

/// A `review --batch` line that could not be reviewed: its number and why.
#[derive(Serialize, JsonSchema)]
#[schemars(rename = "review_error")]
pub struct ReviewLineError {
    #[serde(flatten)]
    pub head: Head,
    pub line: usize,
    pub error: String,
}

impl Output for ReviewLineError {
    const COMMANDS: &'static [&'static str] = &["review"];
}

/// One `dataset` line: a position, its exact value and every legal move's.
#[derive(Serialize, JsonSchema)]
#[schemars(rename = "dataset_position")]
pub struct DatasetPosition {
    #[serde(flatten)]
    pub head: PositionHead,
    /// The ply at which the sampled game reached the position (0: the start).
    pub ply: usize,
    /// The final South-minus-North value under perfect play.
    pub value: i32,
    /// The value for the side to move: seeds it will still win minus the opponent's, stores
    /// left out (the search's own number; the target a value network learns).
    pub future: i32,
    /// Every move that reaches `value`.
    pub best: Vec<u8>,
    /// Every legal move with the final value it reaches.
    pub moves: Vec<MoveValue>,
}

impl Output for DatasetPosition {
    const COMMANDS: &'static [&'static str] = &["dataset"];
}
