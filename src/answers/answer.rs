//! What an [`Analyzer`](super::Analyzer) answers: exact values or proven bounds, the best moves,
//! and where each answer came from.
//!
//! Every value here is a **final score**, South's seeds minus North's at the end of perfect
//! play, as docs/rules.md defines it; the search's own *future* value (what the side to move
//! will still win) is kept under that name where a caller needs it.

use std::fmt;

use crate::board::Move;

/// Where an answer came from, cheapest first: an analysis answered by several sources names the
/// costliest (`Ord`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Source {
    /// The rules alone: the game is over, and the stores are the score.
    Rules,
    /// The opening book built into the program.
    Book,
    /// The memory of positions proven by earlier searches.
    Memory,
    /// The endgame tables, which hold the position itself.
    Tables,
    /// A search (with the endgame tables when they were open).
    Search,
}

impl Source {
    /// The source's name as the outputs print it: `rules`, `book`, `memory`, `tables`, `search`.
    pub const fn name(self) -> &'static str {
        match self {
            Source::Rules => "rules",
            Source::Book => "book",
            Source::Memory => "memory",
            Source::Tables => "tables",
            Source::Search => "search",
        }
    }
}

impl fmt::Display for Source {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Proven bounds on a value, `lower <= upper`; exact when they meet.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Bounds {
    /// The value is at least this.
    pub lower: i32,
    /// The value is at most this.
    pub upper: i32,
}

impl Bounds {
    /// An exact value.
    pub const fn exact(v: i32) -> Self {
        Self { lower: v, upper: v }
    }

    /// Bounds from two ends in either order.
    pub fn between(a: i32, b: i32) -> Self {
        Self {
            lower: a.min(b),
            upper: a.max(b),
        }
    }

    /// The value, when the bounds meet.
    pub fn value(self) -> Option<i32> {
        (self.lower == self.upper).then_some(self.lower)
    }

    /// Whether the bounds meet.
    pub fn is_exact(self) -> bool {
        self.lower == self.upper
    }

    /// What both bounds prove: the tighter end of each. Bounds that cannot both hold (a fault)
    /// keep `self`.
    pub fn narrowed_by(self, other: Bounds) -> Bounds {
        let b = Bounds {
            lower: self.lower.max(other.lower),
            upper: self.upper.min(other.upper),
        };
        if b.lower <= b.upper {
            b
        } else {
            self
        }
    }
}

impl fmt::Display for Bounds {
    /// `+4` when exact, else `[-6, +44]`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.value() {
            Some(v) => write!(f, "{v:+}"),
            None => write!(f, "[{:+}, {:+}]", self.lower, self.upper),
        }
    }
}

/// A position solved, or what a stopped search proved about it.
#[derive(Clone, Debug, PartialEq)]
pub struct Answer {
    /// The final South-minus-North score under perfect play, or bounds on it.
    pub value: Bounds,
    /// The same as the search has it: the future value of the side to move.
    pub future: Bounds,
    /// Moves proven to achieve the value, in move order: all of them when [`Answer::complete`].
    pub best: Vec<Move>,
    /// Moves proven not to achieve it, in move order.
    pub worse: Vec<Move>,
    /// A principal variation, as far as it is known: from each position the first best move,
    /// until the game ends, a position repeats, or (answers from the book or the memory) the
    /// next position is not known. Empty when the answer is not complete.
    pub pv: Vec<Move>,
    /// Whether the value is exact and every move is settled (best or worse).
    pub complete: bool,
    /// Where the answer came from.
    pub source: Source,
    /// Nodes searched for it (0 when the book, the memory or the tables answered).
    pub nodes: u64,
    /// Wall-clock time in seconds.
    pub seconds: f64,
}

/// One move's value after an analysis.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveAnswer {
    /// The move.
    pub mv: Move,
    /// The final South-minus-North score perfect play reaches after it, or bounds on it.
    pub value: Bounds,
    /// Where the value came from.
    pub source: Source,
}

/// Every legal move of a position valued: exactly, or within proven bounds when the analysis
/// was stopped.
#[derive(Clone, Debug, PartialEq)]
pub struct Analysis {
    /// Every legal move, in move order. Empty when the game is over.
    pub moves: Vec<MoveAnswer>,
    /// The position's own final value, or bounds on it (the best of the moves' for the side to
    /// move).
    pub value: Bounds,
    /// Nodes searched for it.
    pub nodes: u64,
    /// Wall-clock time in seconds.
    pub seconds: f64,
}

impl Analysis {
    /// Whether every move's value is exact.
    pub fn complete(&self) -> bool {
        // The value too: a sowing stopped before the moves were listed leaves none, and bounds.
        self.value.is_exact() && self.moves.iter().all(|m| m.value.is_exact())
    }

    /// The costliest source any move was answered from ([`Source::Rules`] for a game over).
    pub fn source(&self) -> Source {
        self.moves
            .iter()
            .map(|m| m.source)
            .max()
            .unwrap_or(Source::Rules)
    }

    /// The moves proven best: exact and equal to the position's exact value.
    pub fn best(&self) -> Vec<Move> {
        let Some(v) = self.value.value() else {
            return Vec::new();
        };
        self.moves
            .iter()
            .filter(|m| m.value.value() == Some(v))
            .map(|m| m.mv)
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounds_narrow_and_print() {
        let wide = Bounds::between(44, -6);
        assert_eq!(wide.to_string(), "[-6, +44]");
        assert_eq!(wide.value(), None);
        let tight = wide.narrowed_by(Bounds::between(-10, 2));
        assert_eq!(
            tight,
            Bounds {
                lower: -6,
                upper: 2
            }
        );
        assert_eq!(tight.narrowed_by(Bounds::exact(2)).to_string(), "+2");
        // Contradictory bounds prove nothing new.
        assert_eq!(tight.narrowed_by(Bounds::exact(9)), tight);
    }

    #[test]
    fn an_analysis_names_its_costliest_source() {
        let a = Analysis {
            moves: vec![
                MoveAnswer {
                    mv: Move(1),
                    value: Bounds::exact(3),
                    source: Source::Book,
                },
                MoveAnswer {
                    mv: Move(2),
                    value: Bounds::exact(5),
                    source: Source::Memory,
                },
            ],
            value: Bounds::exact(5),
            nodes: 0,
            seconds: 0.0,
        };
        assert_eq!(a.source(), Source::Memory);
        assert_eq!(a.best(), vec![Move(2)]);
        assert!(a.complete());
    }
}
