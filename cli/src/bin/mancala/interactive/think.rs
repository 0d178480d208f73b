//! The engine of interactive play: exact searches that Ctrl-C abandons without ending the game.
//!
//! The Ctrl-C handler is process-wide ([`mancala_cli::signal::token`]), and its second signal
//! ends the process. So each search gets a stop token of its own, and the watcher
//! ([`OnSignal::Consume`]) turns a raised process token into a raised stop token *and lowers the
//! process token again*: the signal is consumed, the search ends with
//! [`SearchError::Interrupted`], and the player is back at the prompt with the game as it was.
//! The watcher also draws a spinner on a terminal.
//!
//! One solver per round ([`AnySolver`]: over the Kalah node when the round's start is one): a
//! round's pit statuses are fixed (docs/rules.md §13.1) and the table's key leaves them out, so
//! a table serves one round's positions and no other; within a round every search reuses what
//! the earlier ones stored.

use super::status;
use crate::{fallback, setup};
use anyhow::Result;
use mancala::answers::live::{self, Live};
use mancala::answers::{Analyzer, AnalyzerConfig, AnySolver, Bounds, MemoryChoice, TablesChoice};
use mancala::board::Move;
use mancala::endgame::MancalaIndexer;
use mancala::rules::Rules;
use mancala::stop::StopToken;
use mancala::Position;
use mancala_cli::watch::{OnSignal, Spinner, Watcher};
use solver::search::{Progress, SearchConfig, SearchError};
use solver::{Children, Game};
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};
use tables::Tablebase;

/// How long a search runs before the spinner shows: quick replies should not flicker.
const SPINNER_AFTER: Duration = Duration::from_millis(500);

/// How long the look-ahead that names a move before anything is proven may take (once per
/// search, on the spinner's thread).
const LOOK_AHEAD: Duration = Duration::from_millis(150);

/// A look-ahead's pick for `p`, computed once into `pick` when first asked for.
fn look_ahead<R: Rules>(p: &Position<R>, pick: &OnceLock<Option<Move>>) -> Option<Move> {
    *pick.get_or_init(|| fallback::deepen(p, &[], Instant::now() + LOOK_AHEAD).map(|g| g.mv))
}

/// Exact searches for interactive play.
pub(super) struct Engine<R: Rules> {
    threads: usize,
    hash_bytes: setup::HashSize,
    /// The endgame tables, for rounds whose pits are all open.
    tables: Option<&'static Tablebase<MancalaIndexer<R>>>,
    /// Raised to abandon the search in progress; lowered before each search.
    stop: StopToken,
    progress: Arc<Progress>,
    /// The solver of the current round and the round's start.
    solver: Option<(Position<R>, AnySolver<'static, R>)>,
    /// The calibrated player that picks the engine's moves, when it is not perfect.
    pub(super) calibrated: Option<mancala::calibrated::Calibrated>,
    /// The book and the memory of proven positions, asked before any search: the opening of a
    /// standard board, or a position proven before, is answered at once.
    known: Analyzer<R>,
}

impl<R: Rules> Engine<R> {
    pub(super) fn new(
        threads: usize,
        hash_bytes: setup::HashSize,
        tables: Option<&'static Tablebase<MancalaIndexer<R>>>,
    ) -> Self {
        // Installs the handler now: from here on a first Ctrl-C raises the token instead of
        // killing the process, at the prompt too (where `repl` looks at it after each read).
        let _ = mancala_cli::signal::token();
        Self {
            threads,
            hash_bytes,
            tables,
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
    fn solver(&mut self, root: &Position<R>) -> Result<&mut AnySolver<'static, R>> {
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
            let tables = self.tables.filter(|_| !root.board().has_statuses());
            let s = AnySolver::new(root, cfg, tables).map_err(setup::search_error)?;
            self.solver = Some((*root, s));
        }
        Ok(&mut self.solver.as_mut().expect("just made").1)
    }

    /// Runs `job` on the round's solver with the watcher; `None` when Ctrl-C abandoned it.
    /// `what` names the work on the status line (a spinner on a terminal, nothing elsewhere);
    /// `proven` says what the search has proven so far ([`status::words`]).
    fn run<T>(
        &mut self,
        root: &Position<R>,
        what: &str,
        proven: impl Fn() -> String + Send + Sync,
        job: impl FnOnce(&mut AnySolver<'static, R>) -> Result<T, SearchError>,
    ) -> Result<Option<T>> {
        let stop = self.stop.clone();
        stop.reset();
        let progress = self.progress.clone();
        let nodes_before = progress.nodes();
        let solver = self.solver(root)?;
        let line = |t: f64| {
            let nodes = progress.nodes().saturating_sub(nodes_before);
            format!(
                "{what}: {t:.0} s, {:.1} M nodes, {}  (Ctrl-C: back to the prompt)",
                nodes as f64 / 1e6,
                proven()
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
        // The counters start at `p`'s stake (the search restarts them too, when it starts).
        let progress = self.progress.clone();
        let s = p.stake();
        progress.restart(-s, s);
        let from = progress.nodes();
        let pick = OnceLock::new();
        let proven = || {
            let v = live::solve_view(p, &progress, from);
            let pick = v.best.is_none().then(|| look_ahead(p, &pick)).flatten();
            status::words(v.best, pick, v.value)
        };
        let r = self.run(root, &what, proven, |s| s.solve(p))?;
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
        // The moves valued one by one, as `Solver::analyze` does, with a live view of them
        // for the status line: the moves valued so far, the bounds on the one being valued.
        let live = Live::new(self.progress.clone());
        let pick = OnceLock::new();
        let proven = || match live.analysis() {
            Some(a) => {
                let pick = a.best.is_none().then(|| look_ahead(p, &pick)).flatten();
                status::words(a.best, pick, a.value)
            }
            None => "nothing proven yet".to_string(),
        };
        let stop = self.stop.clone();
        let r = self.run(root, "valuing every move", proven, |s| {
            let mut children = Children::new();
            p.children_until(&mut children, stop.as_stop())
                .map_err(|_| SearchError::Interrupted)?;
            let kids = children.as_slice();
            live.begin(p, kids, &vec![None; kids.len()]);
            let mut values = Vec::with_capacity(kids.len());
            for (i, c) in kids.iter().enumerate() {
                live.valuing(p, i, c);
                let f = s.value(&c.next)?;
                let v = p.final_value(c.gain + if c.turn_passed { -f } else { f });
                live.valued(i, Bounds::exact(v));
                values.push((c.mv, v));
            }
            Ok(values)
        })?;
        Ok(r)
    }

    /// The value of `p` (final South minus North).
    pub(super) fn value(&mut self, root: &Position<R>, p: &Position<R>) -> Result<Option<i32>> {
        let progress = self.progress.clone();
        let s = p.stake();
        progress.restart(-s, s);
        let from = progress.nodes();
        let proven = || status::value_line(live::solve_view(p, &progress, from).value);
        let r = self.run(root, "solving", proven, |s| s.value(p))?;
        Ok(r.map(|f| p.final_value(f)))
    }
}
