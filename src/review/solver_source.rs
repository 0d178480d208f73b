//! [`SolverSource`]: the review's values from one exact search ([`AnySolver`]: over the Kalah
//! node when the root is one), with endgame tables when given, and a time limit per search.

use super::{Best, Bounds, Evaluate, Limit, ReviewError, Source};
use crate::answers::AnySolver;
use crate::endgame::MancalaIndexer;
use crate::rules::Rules;
use crate::stop::StopToken;
use crate::Position;
use solver::search::Progress;
use solver::{SearchConfig, SearchError};
use std::sync::Arc;
use tables::Tablebase;

/// Values from one solver: one transposition table for every position asked about (the
/// positions of a game, or of a batch of games, share what earlier ones proved), endgame tables
/// when given.
///
/// Each search may be limited ([`Limit`]): a timer beside it raises the solver's own stop token,
/// the search answers the bounds it proved ([`Progress::bounds`]), and the flag is lowered for
/// the next one. What the search stored in the table stays valid: a stopped search stores only
/// what it proved. A second token, `abort`, stops the whole review ([`ReviewError::Interrupted`]).
pub struct SolverSource<R: Rules> {
    solver: AnySolver<'static, R>,
    stop: StopToken,
    progress: Arc<Progress>,
    abort: Option<StopToken>,
}

impl<R: Rules> SolverSource<R> {
    /// A source for `root` and every position with no more seeds on its board of the same
    /// width (the table's keys are sized by `root`): the start of the game, or the largest
    /// start of a batch. `cfg`'s stop token and progress counters are replaced by the source's
    /// own; raising `abort` (a Ctrl-C token) stops the review. `tables` are kept for the
    /// process (as [`crate::answers::shared_tables::for_search`] keeps them): the search over
    /// the Kalah node reads them through a view kept beside them.
    ///
    /// # Errors
    /// [`ReviewError::Search`] when the transposition table cannot be built.
    pub fn new(
        root: &Position<R>,
        cfg: SearchConfig,
        tables: Option<&'static Tablebase<MancalaIndexer<R>>>,
        abort: Option<StopToken>,
    ) -> Result<Self, ReviewError> {
        Self::with(root, cfg, tables, abort, AnySolver::new)
    }

    /// [`SolverSource::new`] over [`Position`] whatever `root` is: the reference the node's
    /// review must agree with.
    #[cfg(test)]
    pub(crate) fn over_position(
        root: &Position<R>,
        cfg: SearchConfig,
        tables: Option<&'static Tablebase<MancalaIndexer<R>>>,
        abort: Option<StopToken>,
    ) -> Result<Self, ReviewError> {
        Self::with(root, cfg, tables, abort, AnySolver::over_position)
    }

    /// [`SolverSource::new`] with the solver `build` makes.
    fn with(
        root: &Position<R>,
        mut cfg: SearchConfig,
        tables: Option<&'static Tablebase<MancalaIndexer<R>>>,
        abort: Option<StopToken>,
        build: impl FnOnce(
            &Position<R>,
            SearchConfig,
            Option<&'static Tablebase<MancalaIndexer<R>>>,
        ) -> Result<AnySolver<'static, R>, SearchError>,
    ) -> Result<Self, ReviewError> {
        let stop = StopToken::new();
        let progress = Arc::new(Progress::new());
        cfg.stop = Some(stop.clone());
        cfg.progress = Some(progress.clone());
        let solver = build(root, cfg, tables).map_err(ReviewError::Search)?;
        Ok(Self {
            solver,
            stop,
            progress,
            abort,
        })
    }

    /// Whether the search runs over the Kalah node ([`AnySolver::is_node`]).
    pub fn is_node(&self) -> bool {
        self.solver.is_node()
    }

    /// Nodes searched so far, over every call.
    pub fn nodes(&self) -> u64 {
        self.solver.nodes()
    }

    /// Runs `job` on the solver until it ends or `limit` passes; `None` when the limit stopped
    /// it.
    fn run<T>(
        &mut self,
        limit: Limit,
        job: impl FnOnce(&mut AnySolver<'static, R>) -> Result<T, SearchError>,
    ) -> Result<Option<T>, ReviewError> {
        if self.aborted() {
            return Err(ReviewError::Interrupted);
        }
        let (stop, abort) = (self.stop.clone(), self.abort.clone());
        let solver = &mut self.solver;
        let result =
            crate::answers::watch::watched(&stop, limit.duration(), abort.as_ref(), || job(solver));
        self.stop.reset();
        match result {
            Ok(v) => Ok(Some(v)),
            Err(SearchError::Interrupted) if self.aborted() => Err(ReviewError::Interrupted),
            Err(SearchError::Interrupted) => Ok(None),
            Err(e) => Err(ReviewError::Search(e)),
        }
    }

    fn aborted(&self) -> bool {
        self.abort.as_ref().is_some_and(StopToken::is_stopped)
    }
}

impl<R: Rules> Evaluate<R> for SolverSource<R> {
    fn value(&mut self, p: &Position<R>, limit: Limit) -> Result<(Bounds, Source), ReviewError> {
        let value = match self.run(limit, |s| s.value(p))? {
            Some(f) => Bounds::exact(p.final_value(f)),
            None => {
                // The bounds proved on the future value of `p`, the job just stopped.
                let (lo, hi) = self.progress.bounds();
                Bounds::new(p.final_value(lo), p.final_value(hi))
            }
        };
        Ok((value, Source::Search))
    }

    fn best_moves(&mut self, p: &Position<R>, limit: Limit) -> Result<Option<Best>, ReviewError> {
        Ok(self
            .run(limit, |s| s.best_moves(p, false))?
            .map(|(f, moves)| Best {
                value: p.final_value(f),
                moves,
                source: Source::Search,
            }))
    }
}
