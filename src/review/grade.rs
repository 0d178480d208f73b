//! Grading losses: the classes by seeds lost ([`Class`], [`Thresholds`]) and each side's
//! summary ([`SideSummary`]).

use super::{Bounds, MoveReview};
use crate::rules::Rules;
use std::fmt;

/// A move's grade by the seeds it lost.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Class {
    /// No seed lost: a best move.
    Best,
    /// Lost some seeds, fewer than [`Thresholds::mistake`].
    Inaccuracy,
    /// Lost at least [`Thresholds::mistake`] seeds, fewer than [`Thresholds::blunder`].
    Mistake,
    /// Lost at least [`Thresholds::blunder`] seeds.
    Blunder,
}

impl Class {
    /// Every class, from the best to the worst.
    pub const ALL: [Class; 4] = [
        Class::Best,
        Class::Inaccuracy,
        Class::Mistake,
        Class::Blunder,
    ];

    /// The class's name: `best`, `inaccuracy`, `mistake`, `blunder`.
    pub fn name(self) -> &'static str {
        match self {
            Class::Best => "best",
            Class::Inaccuracy => "inaccuracy",
            Class::Mistake => "mistake",
            Class::Blunder => "blunder",
        }
    }
}

impl fmt::Display for Class {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Where the classes begin, in seeds lost: a loss of 0 is best, from 1 an inaccuracy, from
/// `mistake` a mistake, from `blunder` a blunder.
///
/// The defaults, 2 and 6, are in seeds whatever the board: on Kalah(6,4) (48 seeds) a loss of
/// 1 seed rarely changes the result, 2 often turns a draw into a loss, and 6 is an eighth of the
/// seeds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Thresholds {
    mistake: i32,
    blunder: i32,
}

impl Default for Thresholds {
    fn default() -> Self {
        Self {
            mistake: 2,
            blunder: 6,
        }
    }
}

/// Thresholds that do not order the classes: `1 <= mistake <= blunder` is required.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ThresholdsError {
    /// The mistake threshold asked for.
    pub mistake: i32,
    /// The blunder threshold asked for.
    pub blunder: i32,
}

impl fmt::Display for ThresholdsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "the loss thresholds must satisfy 1 <= mistake <= blunder (seeds lost), not mistake {} and blunder {}",
            self.mistake, self.blunder
        )
    }
}

impl std::error::Error for ThresholdsError {}

impl Thresholds {
    /// A mistake from `mistake` seeds lost, a blunder from `blunder`.
    ///
    /// # Errors
    /// [`ThresholdsError`] unless `1 <= mistake <= blunder`.
    pub fn new(mistake: i32, blunder: i32) -> Result<Self, ThresholdsError> {
        if mistake < 1 || blunder < mistake {
            return Err(ThresholdsError { mistake, blunder });
        }
        Ok(Self { mistake, blunder })
    }

    /// The fewest seeds lost that make a mistake.
    pub fn mistake(&self) -> i32 {
        self.mistake
    }

    /// The fewest seeds lost that make a blunder.
    pub fn blunder(&self) -> i32 {
        self.blunder
    }

    /// The class of an exact loss of `seeds`.
    pub fn class_of(&self, seeds: i32) -> Class {
        if seeds <= 0 {
            Class::Best
        } else if seeds < self.mistake {
            Class::Inaccuracy
        } else if seeds < self.blunder {
            Class::Mistake
        } else {
            Class::Blunder
        }
    }

    /// The class of a loss known within `loss`, when both ends fall in the same class.
    pub fn class(&self, loss: Bounds) -> Option<Class> {
        let c = self.class_of(loss.lower);
        (c == self.class_of(loss.upper)).then_some(c)
    }
}

/// One side's moves summed up.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SideSummary {
    /// Moves made.
    pub moves: usize,
    /// Moves proven best (loss 0).
    pub best: usize,
    /// Moves of each class, in [`Class::ALL`]'s order (moves whose class the bounds leave open
    /// are in none).
    pub classes: [usize; 4],
    /// The seeds lost over all moves (bounds when a search was stopped).
    pub loss: Bounds,
    /// The first move (its ply) proven to lose at least [`Thresholds::mistake`] seeds.
    pub first_mistake: Option<usize>,
}

impl SideSummary {
    /// The summary of `moves` (one side's).
    pub fn of<'a, R: Rules + 'a>(
        moves: impl IntoIterator<Item = &'a MoveReview<R>>,
        thresholds: &Thresholds,
    ) -> Self {
        let mut s = SideSummary {
            moves: 0,
            best: 0,
            classes: [0; 4],
            loss: Bounds::exact(0),
            first_mistake: None,
        };
        for m in moves {
            s.moves += 1;
            if let Some(c) = m.class {
                s.classes[c as usize] += 1;
            }
            if m.loss.exact_value() == Some(0) {
                s.best += 1;
            }
            s.loss = Bounds::new(s.loss.lower + m.loss.lower, s.loss.upper + m.loss.upper);
            if s.first_mistake.is_none() && m.loss.lower >= thresholds.mistake {
                s.first_mistake = Some(m.ply);
            }
        }
        s
    }

    /// The mean seeds lost per move, when every loss is exact (0 without moves).
    pub fn mean_loss(&self) -> Option<f64> {
        let total = self.loss.exact_value()?;
        Some(if self.moves == 0 {
            0.0
        } else {
            f64::from(total) / self.moves as f64
        })
    }

    /// The share of best moves, from 0 to 1, when every move's class is known (1 without moves).
    pub fn accuracy(&self) -> Option<f64> {
        if self.classes.iter().sum::<usize>() != self.moves {
            return None;
        }
        Some(if self.moves == 0 {
            1.0
        } else {
            self.best as f64 / self.moves as f64
        })
    }
}
