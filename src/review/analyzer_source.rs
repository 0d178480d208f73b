//! [`AnalyzerSource`]: the review's values from an [`Analyzer`], so that a game is graded from
//! the same sources, in the same order, as `analyze` answers: the rules, the opening book, the
//! memory of proven positions, the endgame tables, then its one kept search.

use super::{Best, Bounds, Evaluate, Limit, ReviewError};
use crate::answers::{self, Analyzer, AnalyzerError, Limits, Source};
use crate::rules::Rules;
use crate::stop::StopToken;
use crate::Position;
use solver::SearchError;
use std::sync::Arc;

/// Values from an [`Analyzer`] borrowed for the review: its one transposition table serves every
/// position of the game (or of a batch of games), and what it proves goes into its memory.
///
/// Each question may be limited ([`Limit`]): the analyzer then answers the bounds its search
/// proved. Raising `abort` (a Ctrl-C flag, a closed connection) stops the review
/// ([`ReviewError::Interrupted`]): the analyzer's search stops at once, and its bounds are not
/// reported.
pub struct AnalyzerSource<'a, R: Rules> {
    analyzer: &'a mut Analyzer<R>,
    abort: Option<StopToken>,
}

impl<'a, R: Rules> AnalyzerSource<'a, R> {
    /// A source asking `analyzer`; raising `abort` stops the review.
    pub fn new(analyzer: &'a mut Analyzer<R>, abort: Option<StopToken>) -> Self {
        Self { analyzer, abort }
    }

    /// The analyzer, for its notes and its progress counters between questions.
    pub fn analyzer(&mut self) -> &mut Analyzer<R> {
        self.analyzer
    }

    fn limits(&self, limit: Limit) -> Limits {
        Limits {
            time: limit.duration(),
            stop: self.abort.clone(),
        }
    }

    /// [`ReviewError::Interrupted`] once `abort` is raised: an answer given after it may be a
    /// stopped search's bounds, which the caller did not ask for.
    fn check_abort(&self) -> Result<(), ReviewError> {
        if self.abort.as_ref().is_some_and(StopToken::is_stopped) {
            return Err(ReviewError::Interrupted);
        }
        Ok(())
    }
}

/// The review's bounds of the analyzer's.
fn bounds(b: answers::Bounds) -> Bounds {
    Bounds::new(b.lower, b.upper)
}

impl From<AnalyzerError> for ReviewError {
    fn from(e: AnalyzerError) -> Self {
        match e {
            AnalyzerError::Search(SearchError::Interrupted) => ReviewError::Interrupted,
            AnalyzerError::Search(e) => ReviewError::Search(e),
            other => ReviewError::Answers(Arc::new(other)),
        }
    }
}

impl<R: Rules> Evaluate<R> for AnalyzerSource<'_, R> {
    fn value(&mut self, p: &Position<R>, limit: Limit) -> Result<(Bounds, Source), ReviewError> {
        self.check_abort()?;
        let limits = self.limits(limit);
        let (value, source) = self.analyzer.value(p, &limits)?;
        self.check_abort()?;
        Ok((bounds(value), source))
    }

    fn best_moves(&mut self, p: &Position<R>, limit: Limit) -> Result<Option<Best>, ReviewError> {
        self.check_abort()?;
        let limits = self.limits(limit);
        // A solve lists every move that reaches the value (`solver::SearchResult::best`), or,
        // from the book, the memory or the tables, every move whose known value is the best.
        let answer = self.analyzer.solve(p, &limits)?;
        self.check_abort()?;
        Ok(match answer.value.value() {
            Some(value) if answer.complete => Some(Best {
                value,
                moves: answer.best,
                source: answer.source,
            }),
            _ => None,
        })
    }
}
