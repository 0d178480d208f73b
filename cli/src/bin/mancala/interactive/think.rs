//! The engine of interactive play: exact searches that Ctrl-C abandons without ending the game.
//!
//! The Ctrl-C handler is process-wide ([`mancala_cli::signal::token`]), and its second signal
//! ends the process. So each search gets a stop token of its own, and the watcher
//! ([`OnSignal::Consume`]) turns a raised process token into a raised stop token *and lowers the
//! process token again*: the signal is consumed, the search ends with
//! [`SearchError::Interrupted`], and the player is back at the prompt with the game as it was.
//! The watcher also draws a spinner on a terminal.
//!
//! One [`Solver`] per round: a round's pit statuses are fixed (docs/rules.md §13.1) and the
//! table's key leaves them out, so a table serves one round's positions and no other; within a
//! round every search reuses what the earlier ones stored.

use crate::setup;
use anyhow::Result;
use mancala::answers::{Analyzer, AnalyzerConfig, MemoryChoice, TablesChoice};
use mancala::board::Move;
use mancala::rules::Rules;
use mancala::stop::StopToken;
use mancala::Position;
use mancala_cli::watch::{OnSignal, Spinner, Watcher};
use solver::search::{Oracle, Progress, SearchConfig, SearchError, Solver};
use std::sync::Arc;
use std::time::Duration;

/// How long a search runs before the spinner shows: quick replies should not flicker.
const SPINNER_AFTER: Duration = Duration::from_millis(500);

/// Exact searches for interactive play.
pub(super) struct Engine<'o, R: Rules> {
    threads: usize,
    hash_bytes: setup::HashSize,
    /// The endgame tables, for rounds whose pits are all open.
    oracle: Option<&'o dyn Oracle<Position<R>>>,
    /// Raised to abandon the search in progress; lowered before each search.
    stop: StopToken,
    progress: Arc<Progress>,
    /// The solver of the current round and the round's start.
    solver: Option<(Position<R>, Solver<'o, Position<R>>)>,
    /// The calibrated player that picks the engine's moves, when it is not perfect.
    pub(super) calibrated: Option<mancala::calibrated::Calibrated>,
    /// The book and the memory of proven positions, asked before any search: the opening of a
    /// standard board, or a position proven before, is answered at once.
    known: Analyzer<R>,
}

impl<'o, R: Rules> Engine<'o, R> {
    pub(super) fn new(
        threads: usize,
        hash_bytes: setup::HashSize,
        oracle: Option<&'o dyn Oracle<Position<R>>>,
    ) -> Self {
        // Installs the handler now: from here on a first Ctrl-C raises the token instead of
        // killing the process, at the prompt too (where `repl` looks at it after each read).
        let _ = mancala_cli::signal::token();
        Self {
            threads,
            hash_bytes,
            oracle,
            stop: StopToken::new(),
            progress: Arc::new(Progress::new()),
            solver: None,
            calibrated: None,
            known: Analyzer::new(AnalyzerConfig {
                threads: 1,
                tables: TablesChoice::Off,
                memory: MemoryChoice::Default,
                ..AnalyzerConfig::default()
            }),
        }
    }

    /// The solver for the round that started at `root`, made anew when the round changed.
    fn solver(&mut self, root: &Position<R>) -> Result<&mut Solver<'o, Position<R>>> {
        if self.solver.as_ref().is_none_or(|(r, _)| r != root) {
            self.solver = None;
            let cfg = SearchConfig {
                threads: self.threads,
                tt_bytes: setup::tt_bytes(root, self.hash_bytes),
                tt_max_bytes: setup::tt_max_bytes(root, self.hash_bytes),
                stop: Some(self.stop.clone()),
                progress: Some(self.progress.clone()),
                ..SearchConfig::default()
            };
            // A table slot is an all-open board: rounds with burnt pits or sons go without.
            let oracle = self.oracle.filter(|_| !root.board().has_statuses());
            let s = Solver::new(root, cfg, oracle).map_err(setup::search_error)?;
            self.solver = Some((*root, s));
        }
        Ok(&mut self.solver.as_mut().expect("just made").1)
    }

    /// Runs `job` on the round's solver with the watcher; `None` when Ctrl-C abandoned it.
    /// `what` names the work on the spinner; `to_final` turns the proven bounds (future values
    /// of the position searched) into final scores for it.
    fn run<T>(
        &mut self,
        root: &Position<R>,
        what: &str,
        to_final: impl Fn(i32) -> i32 + Send + Sync,
        job: impl FnOnce(&mut Solver<'o, Position<R>>) -> Result<T, SearchError>,
    ) -> Result<Option<T>> {
        let stop = self.stop.clone();
        stop.reset();
        let progress = self.progress.clone();
        let nodes_before = progress.nodes();
        let solver = self.solver(root)?;
        let line = |t: f64| {
            let (lo, hi) = progress.bounds();
            let (a, b) = (to_final(lo), to_final(hi));
            let nodes = progress.nodes().saturating_sub(nodes_before);
            format!(
                "{what}: {t:.0} s, {:.1} M nodes, value in [{:+}, {:+}]  (Ctrl-C: back to the prompt)",
                nodes as f64 / 1e6,
                a.min(b),
                a.max(b)
            )
        };
        let result = Watcher::new(what, OnSignal::Consume)
            .stop(stop)
            .spinner(true, Spinner::new(SPINNER_AFTER, line))
            .run(|| job(solver));
        match result {
            Ok(v) => Ok(Some(v)),
            Err(SearchError::Interrupted) => Ok(None),
            Err(e) => Err(setup::search_error(e)),
        }
    }

    /// The engine's move in `p` (of the round that started at `root`): the first best move
    /// (lowest-numbered of those that attain the value), and the value (final South minus
    /// North). `None` when abandoned.
    pub(super) fn best_move(
        &mut self,
        root: &Position<R>,
        p: &Position<R>,
        who: &str,
    ) -> Result<Option<(Move, i32)>> {
        if self.calibrated.is_some() {
            return self.calibrated_move(root, p);
        }
        if let Ok(Some(a)) = self.known.solve_known(p) {
            if let (Some(&mv), Some(v)) = (a.best.iter().min_by_key(|m| m.0), a.value.value()) {
                return Ok(Some((mv, v)));
            }
        }
        let what = format!("{who} is thinking");
        let r = self.run(root, &what, |f| p.final_value(f), |s| s.solve(p))?;
        Ok(r.and_then(|r| {
            let mv = r.best.iter().copied().min_by_key(|m| m.0)?;
            Some((mv, p.final_value(r.value)))
        }))
    }

    /// The value of every legal move of `p` (final South minus North), in move order.
    pub(super) fn analyze(
        &mut self,
        root: &Position<R>,
        p: &Position<R>,
    ) -> Result<Option<Vec<(Move, i32)>>> {
        if let Ok(Some(a)) = self.known.analyze_known(p) {
            return Ok(Some(
                a.moves.iter().map(|m| (m.mv, m.value.lower)).collect(),
            ));
        }
        // The bounds shown are those of the move being valued: from the mover's view, as
        // `analyze` reports them.
        let r = self.run(root, "valuing every move", |f| f, |s| s.analyze(p))?;
        Ok(r.map(|v| v.into_iter().map(|(m, f)| (m, p.final_value(f))).collect()))
    }

    /// The value of `p` (final South minus North).
    pub(super) fn value(&mut self, root: &Position<R>, p: &Position<R>) -> Result<Option<i32>> {
        let r = self.run(root, "solving", |f| p.final_value(f), |s| s.value(p))?;
        Ok(r.map(|f| p.final_value(f)))
    }
}
