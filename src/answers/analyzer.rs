//! The [`Analyzer`]: the one object every front end asks for values.
//!
//! An analyzer answers a question about a position from the cheapest source that knows:
//!
//! 1. **the rules**, when the game is over;
//! 2. **the opening book** built into the program ([`super::book`]);
//! 3. **the memory** of what earlier searches proved ([`super::memory`]), in any process (a
//!    record that does not fit its position is deleted, not served);
//! 4. **the endgame tables**, when they hold the position (or, for an analysis, each move's
//!    result);
//! 5. **the search**, with the tables as its oracle when they are open.
//!
//! What a search proves (exact values, or a stopped search's bounds) goes into the memory, so
//! that the same question asked again, in this process or another, is answered at once. The
//! book and the memory are skipped for a position with burnt pits or sons (their keys leave
//! the statuses out). A memory that cannot be opened, or fails, is dropped with a note
//! ([`Analyzer::take_notes`]); the answers do not depend on it.
//!
//! It keeps its transposition table across calls (one [`AnySolver`], rebuilt only for a position
//! that does not fit it: another game, board, burnt pits or sons, or more seeds), so that the positions of one game
//! played move by move share what earlier searches proved. A search stopped by the caller's
//! [`Limits`] answers with what it proved: exact values for the moves it finished, bounds for
//! the rest.
//!
//! ```
//! use mancala::answers::{Analyzer, AnalyzerConfig, Limits, Source, TablesChoice};
//! use mancala::{rules::Kalah, Position};
//! let config = AnalyzerConfig { threads: 1, tables: TablesChoice::Off, ..AnalyzerConfig::default() };
//! let mut analyzer = Analyzer::new(config);
//! let start = Position::start(Kalah::default(), 4, 3).unwrap();
//! let answer = analyzer.solve(&start, &Limits::none()).unwrap();
//! assert_eq!(answer.value.value(), Some(6)); // South wins by 6 (docs/rules.md §3.7)
//! assert_eq!(answer.source, Source::Search);
//! let analysis = analyzer.analyze(&start, &Limits::none()).unwrap();
//! assert_eq!(analysis.moves.len(), 4);
//! assert_eq!(analysis.value.value(), Some(6));
//! ```

use std::fmt;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use solver::search::{Oracle, Progress, Proven, SearchConfig, SearchError};
use solver::{Children, Game};
use tables::{TableError, Tablebase};

use super::answer::{Analysis, Answer, Bounds, MoveAnswer, Source};
use super::any_solver::AnySolver;
use super::book::{self, BookError};
use super::identity::rules_identity;
use super::live::Live;
use super::memory::{self, Memory, MemoryError, Record};
use super::shared_tables;
use super::sizing::TableSize;
use crate::board::{Move, Side};
use crate::endgame::{default_dir, MancalaIndexer};
use crate::rules::Rules;
use crate::stop::{Stop, StopToken};
use crate::Position;

/// Which endgame tables an analyzer searches with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TablesChoice {
    /// None.
    Off,
    /// The default table directory's ([`default_dir`]), for the games it holds tables of; a
    /// game it holds none of is searched without.
    Default,
    /// The tables in this directory, which must hold the game's.
    Dir(PathBuf),
}

/// How an [`Analyzer`] searches.
#[derive(Clone, Debug)]
pub struct AnalyzerConfig {
    /// Search threads (at least 1).
    pub threads: usize,
    /// The transposition table's size.
    pub table_size: TableSize,
    /// The endgame tables to search with.
    pub tables: TablesChoice,
    /// Whether to answer from the opening book built into the program.
    pub book: bool,
    /// The memory of proven positions to answer from and keep what is proven in.
    pub memory: MemoryChoice,
    /// Whether the transposition table uses its wide (16-byte) entries even where the narrow
    /// ones would do: for measuring the wide path (the values are the same).
    pub wide_table: bool,
}

/// Which memory of proven positions an analyzer uses ([`super::memory`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MemoryChoice {
    /// None: nothing is remembered beyond the transposition table.
    Off,
    /// The default file ([`memory::default_path`]; none when `$MANCALA_MEMORY` is `off`).
    Default,
    /// This file.
    File(PathBuf),
}

impl Default for AnalyzerConfig {
    /// All cores, a growing table, the default table directory's tables, the book, no memory
    /// (a front end chooses [`MemoryChoice::Default`]: the library's users and tests do not
    /// write files unasked).
    fn default() -> Self {
        Self {
            threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
            table_size: TableSize::growing(),
            tables: TablesChoice::Default,
            book: true,
            memory: MemoryChoice::Off,
            wide_table: false,
        }
    }
}

impl AnalyzerConfig {
    /// An analyzer that answers by its search alone: neither the book nor the memory, and the
    /// endgame tables in `tables` or none (the default directory is not looked at). For answers
    /// that must not depend on stored data: the engine protocol, the book's own builder,
    /// Python's module-level `analyze`.
    pub fn search_only(threads: usize, table_size: TableSize, tables: Option<PathBuf>) -> Self {
        Self {
            threads,
            table_size,
            tables: tables.map_or(TablesChoice::Off, TablesChoice::Dir),
            book: false,
            memory: MemoryChoice::Off,
            wide_table: false,
        }
    }
}

/// When a question must be answered by: a time limit, a stop token raised from outside, or
/// neither. A search stopped by either answers with what it proved.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// Stop searching after this long.
    pub time: Option<Duration>,
    /// Stop searching once this token is raised.
    pub stop: Option<StopToken>,
}

impl Limits {
    /// No limit: the search runs until it is exact.
    pub fn none() -> Self {
        Self::default()
    }

    /// A time limit.
    pub fn time(limit: Duration) -> Self {
        Self {
            time: Some(limit),
            stop: None,
        }
    }
}

/// Why an analyzer gave no answer at all (a stopped search is not an error: it answers with
/// bounds).
#[derive(Debug)]
pub enum AnalyzerError {
    /// The endgame tables asked for could not be opened (missing, damaged, foreign).
    Tables {
        /// Their directory.
        dir: PathBuf,
        /// What is wrong.
        source: TableError,
    },
    /// The endgame tables asked for by directory cannot value this position: it has burnt pits
    /// or sons (docs/rules.md §13.1), and a table slot is a board whose pits are all open.
    TablesCannotHold {
        /// The position.
        position: String,
    },
    /// The opening book built into the program is damaged (a build fault).
    Book(BookError),
    /// The memory of proven positions cannot be opened or created.
    Memory(MemoryError),
    /// The search could not run: the transposition table could not be built, or the tables
    /// found a fault in their own data.
    Search(SearchError),
}

impl fmt::Display for AnalyzerError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AnalyzerError::Tables { dir, source } => {
                write!(f, "endgame tables in {}: {source}", dir.display())
            }
            AnalyzerError::TablesCannotHold { position } => write!(
                f,
                "endgame tables hold positions whose pits are all open; {position} has burnt \
                 pits or sons, so it is searched without tables"
            ),
            AnalyzerError::Search(SearchError::Table(solver::TtError::KeyTooLarge { .. })) => f
                .write_str(
                    "this position is too large for exact solving: it has more possible \
                     positions than the transposition table can tell apart exactly",
                ),
            AnalyzerError::Book(e) => write!(f, "{e}"),
            AnalyzerError::Memory(e) => write!(f, "{e}"),
            AnalyzerError::Search(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for AnalyzerError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            AnalyzerError::Tables { source, .. } => Some(source),
            AnalyzerError::Book(e) => Some(e),
            AnalyzerError::Memory(e) => Some(e),
            _ => None,
        }
    }
}

/// The search an analyzer keeps between calls, and what it was built for.
struct Slot<R: Rules> {
    rules: R,
    holes: u8,
    /// The key bound and stake of the position it was built for: it serves any position of the
    /// same rules, board and status pattern within both.
    key_bound: u128,
    stake: i32,
    /// The burnt pits and sons of the position it was built for: keys leave them out, so a
    /// table kept for one pattern would answer wrongly for another.
    burnt: u32,
    sons: u32,
    tables: Option<&'static Tablebase<MancalaIndexer<R>>>,
    solver: AnySolver<'static, R>,
}

impl<R: Rules> Slot<R> {
    fn fits(&self, p: &Position<R>) -> bool {
        self.rules == *p.rules()
            && self.holes == p.board().holes
            && self.burnt == p.board().burnt
            && self.sons == p.board().sons
            && p.key_bound() <= self.key_bound
            && p.stake() <= self.stake
            && self.solver.takes(p)
    }
}

/// Asks for values: see the [module documentation](self).
pub struct Analyzer<R: Rules> {
    config: AnalyzerConfig,
    /// The search's stop, raised by [`Limits`] through the watch of each call.
    stop: StopToken,
    /// The search's live counters (nodes, bounds of the job running), for a progress display.
    progress: Arc<Progress>,
    /// The live view of an analysis ([`Analyzer::analyze`]), for a display on another thread.
    live: Arc<Live>,
    slot: Option<Slot<R>>,
    /// The memory once opened (`None` inside: off, or dropped after a fault).
    memory: Option<Option<Memory>>,
    /// What went wrong with the memory on the way (refused, dropped), for the front end to say.
    notes: Vec<String>,
}

impl<R: Rules> Analyzer<R> {
    /// An analyzer that searches as `config` says. Nothing is opened or allocated until the
    /// first question.
    pub fn new(config: AnalyzerConfig) -> Self {
        let progress = Arc::new(Progress::new());
        Self {
            config,
            stop: StopToken::new(),
            live: Arc::new(Live::new(progress.clone())),
            progress,
            slot: None,
            memory: None,
            notes: Vec::new(),
        }
    }

    /// What went wrong with the memory so far (a store refused and rebuilt, one that could not
    /// be opened, a damaged record deleted, a fault that turned it off), each said once: the
    /// front end prints them as warnings. Drains the list.
    pub fn take_notes(&mut self) -> Vec<String> {
        std::mem::take(&mut self.notes)
    }

    /// The memory, opened on first use; `None` when it is off or cannot be opened (then with a
    /// note).
    ///
    /// # Errors
    /// None today: a memory that cannot be opened is a note, not an error.
    fn memory(&mut self) -> Result<Option<&mut Memory>, AnalyzerError> {
        if self.memory.is_none() {
            let path = match &self.config.memory {
                MemoryChoice::Off => None,
                MemoryChoice::Default => memory::default_path(),
                MemoryChoice::File(p) => Some(p.clone()),
            };
            let opened = match path {
                None => None,
                Some(path) => match Memory::open(&path, memory::DEFAULT_CAPACITY) {
                    Ok(o) => {
                        self.notes.extend(o.refused);
                        Some(o.memory)
                    }
                    // Busy, read-only, foreign: left as it is, and this analyzer goes on
                    // without it.
                    Err(e) => {
                        self.notes.push(format!("{e}; going on without the memory"));
                        None
                    }
                },
            };
            self.memory = Some(opened);
        }
        Ok(self.memory.as_mut().and_then(Option::as_mut))
    }

    /// The memory's record of `p`, when it has one (never for a position with burnt pits or
    /// sons: the memory's keys leave them out). A record that does not fit `p` (a best move
    /// that is not legal, bounds beyond its stake) is deleted and absent, with a note, as the
    /// memory does with one whose checksum does not match. A fault of the store (SQLite
    /// failing, or finding the file corrupt) turns the memory off for the rest of this
    /// analyzer's life, with a note.
    fn remembered(&mut self, p: &Position<R>) -> Result<Option<Record>, AnalyzerError> {
        if p.board().has_statuses() {
            return Ok(None);
        }
        let id = rules_identity(p.rules(), p.board().holes);
        let Some(m) = self.memory()? else {
            return Ok(None);
        };
        let got = m.get(&id, p.key()).and_then(|r| match r {
            // A record that does not fit its position is as damaged as one whose checksum
            // does not match.
            Some(r) if !fits_position(p, &r) => m.forget(&id, p.key()).map(|()| None),
            r => Ok(r),
        });
        let notes = m.take_notes();
        self.notes.extend(notes);
        match got {
            Ok(r) => Ok(r),
            Err(e) => {
                self.memory_fault(e);
                Ok(None)
            }
        }
    }

    /// Keeps what was proven of positions (their keys under `p`'s rules and board), unless `p`
    /// has burnt pits or sons.
    fn remember(&mut self, p: &Position<R>, proved: &[(u128, Record)]) {
        // The statuses of a round are fixed for the round, so `p`'s are those of every key
        // proved here; keys leave them out, so such records are not kept at all.
        if p.board().has_statuses() {
            return;
        }
        let id = rules_identity(p.rules(), p.board().holes);
        let Ok(Some(m)) = self.memory() else {
            return;
        };
        if let Err(e) = m.put_all(&id, proved) {
            self.memory_fault(e);
        }
    }

    /// Turns the memory off after `e`, with a note.
    fn memory_fault(&mut self, e: MemoryError) {
        let damaged = matches!(e, MemoryError::Damaged { .. });
        self.notes.push(if damaged {
            format!("{e}; it is not used again in this process, and the next one rebuilds it")
        } else {
            format!("{e}; going on without the memory")
        });
        self.memory = Some(None);
    }

    /// How it searches.
    pub fn config(&self) -> &AnalyzerConfig {
        &self.config
    }

    /// The live counters of the search running now (nodes, and bounds on the value of the
    /// position being searched), for a progress display on another thread.
    pub fn progress(&self) -> Arc<Progress> {
        self.progress.clone()
    }

    /// The live view of the analysis running now ([`Analyzer::analyze`]): the moves valued so
    /// far, the bounds on the one being valued, the best move so far.
    pub fn live(&self) -> Arc<Live> {
        self.live.clone()
    }

    /// The endgame tables for `p` under the configuration, opened once per process.
    ///
    /// # Errors
    /// [`AnalyzerError::Tables`] when the tables asked for cannot be opened;
    /// [`AnalyzerError::TablesCannotHold`] when a directory was named for a position with
    /// burnt pits or sons.
    pub fn tables_for(
        &self,
        p: &Position<R>,
    ) -> Result<Option<&'static Tablebase<MancalaIndexer<R>>>, AnalyzerError> {
        let dir = match &self.config.tables {
            TablesChoice::Off => return Ok(None),
            TablesChoice::Default => {
                let dir = default_dir();
                if p.board().has_statuses() || !shared_tables::holds_tables(&dir, p) {
                    return Ok(None);
                }
                dir
            }
            TablesChoice::Dir(dir) => {
                if p.board().has_statuses() {
                    return Err(AnalyzerError::TablesCannotHold {
                        position: p.to_string(),
                    });
                }
                dir.clone()
            }
        };
        shared_tables::for_search(&dir, p)
            .map(Some)
            .map_err(|source| AnalyzerError::Tables { dir, source })
    }

    /// Opens the tables asked for by directory ([`TablesChoice::Dir`]) before any answer, even
    /// one the rules, the book or the memory give: a damaged, foreign or missing set named by
    /// its user is an error, whatever the position.
    /// They are audited at `p` too, as the search's entry points audit their root: tables that
    /// contradict themselves there are refused, not passed over because the answer needed no
    /// probe.
    fn open_asked_tables(&self, p: &Position<R>) -> Result<(), AnalyzerError> {
        if !matches!(self.config.tables, TablesChoice::Dir(_)) {
            return Ok(());
        }
        if let Some(tb) = self.tables_for(p)? {
            Oracle::<Position<R>>::audit(tb, p, self.stop.as_stop());
            if let Some(fault) = Oracle::<Position<R>>::fault(tb) {
                return Err(AnalyzerError::Search(SearchError::Oracle(fault)));
            }
        }
        Ok(())
    }

    /// Whether a search of `p` probes endgame tables.
    ///
    /// # Errors
    /// As [`Analyzer::tables_for`].
    pub fn uses_tables(&self, p: &Position<R>) -> Result<bool, AnalyzerError> {
        Ok(self.tables_for(p)?.is_some())
    }

    /// The future value of `p` (for its side to move) when a source other than the search
    /// knows it exactly, and which.
    fn known(&mut self, p: &Position<R>) -> Result<Option<(i32, Source)>, AnalyzerError> {
        if p.is_over() {
            return Ok(Some((0, Source::Rules)));
        }
        // The book and the memory file values under the key, which leaves burnt pits and sons
        // out: a round position is never answered from them.
        if self.config.book && !p.board().has_statuses() {
            let values = book::values_for(p).map_err(AnalyzerError::Book)?;
            if let Some(&f) = values.get(&p.key()) {
                return Ok(Some((f, Source::Book)));
            }
        }
        if let Some(r) = self.remembered(p)? {
            if let Some(f) = r.future.value() {
                return Ok(Some((f, Source::Memory)));
            }
        }
        if let Some(tb) = self.tables_for(p)? {
            if let Some(f) = tb.probe(p) {
                return Ok(Some((f, Source::Tables)));
            }
        }
        Ok(None)
    }

    /// The search, fitted to `p`: the one kept from earlier calls when `p` fits it, else a new
    /// one sized to `p`.
    fn solver_for(&mut self, p: &Position<R>) -> Result<&mut AnySolver<'static, R>, AnalyzerError> {
        let tables = self.tables_for(p)?;
        let fits = self.slot.as_ref().is_some_and(|s| {
            s.fits(p) && s.tables.map(|t| t as *const _) == tables.map(|t| t as *const _)
        });
        if !fits {
            // Free the old table before allocating the new one.
            self.slot = None;
            let cfg = SearchConfig {
                threads: self.config.threads.max(1),
                tt_bytes: self.config.table_size.first_bytes(p),
                tt_max_bytes: self.config.table_size.max_bytes(p),
                stop: Some(self.stop.clone()),
                progress: Some(self.progress.clone()),
                wide_table: self.config.wide_table,
                ..SearchConfig::default()
            };
            let solver = AnySolver::new(p, cfg, tables).map_err(AnalyzerError::Search)?;
            self.slot = Some(Slot {
                rules: *p.rules(),
                holes: p.board().holes,
                key_bound: p.key_bound(),
                stake: p.stake(),
                burnt: p.board().burnt,
                sons: p.board().sons,
                tables,
                solver,
            });
        }
        Ok(&mut self.slot.as_mut().expect("the slot was just filled").solver)
    }

    /// Runs `job` with the search's stop lowered, raising it when `limits` say so.
    fn watched<T>(&mut self, limits: &Limits, job: impl FnOnce(&mut Self) -> T) -> T {
        let stop = self.stop.clone();
        super::watch::watched(&stop, limits.time, limits.stop.as_ref(), || job(self))
    }

    /// Runs `job` on the kept search fitted to `p` (the transposition table earlier calls
    /// filled, the tables opened once) under `limits`: for a front end that reports the
    /// search's own result (its node and table counts, what a stopped solve proved) and keeps
    /// in the memory what it proves ([`Analyzer::remember_solved`]). The search's stop is the
    /// analyzer's, raised by `limits`; `job` sees [`SearchError::Interrupted`] then.
    ///
    /// # Errors
    /// [`AnalyzerError`] when the tables cannot be opened or the search cannot be built; the
    /// job's own error comes back inside.
    pub fn search<T>(
        &mut self,
        p: &Position<R>,
        limits: &Limits,
        job: impl FnOnce(&mut AnySolver<'static, R>) -> Result<T, SearchError>,
    ) -> Result<Result<T, SearchError>, AnalyzerError> {
        self.open_asked_tables(p)?;
        self.watched(limits, |me| -> Result<_, AnalyzerError> {
            Ok(job(me.solver_for(p)?))
        })
    }

    /// Solves `p`: its value, its best moves and a principal variation, or, when `limits`
    /// stop the search first, the bounds and the moves it proved.
    ///
    /// # Errors
    /// [`AnalyzerError`] when the tables cannot be opened or the search cannot run.
    pub fn solve(&mut self, p: &Position<R>, limits: &Limits) -> Result<Answer, AnalyzerError> {
        let started = Instant::now();
        self.open_asked_tables(p)?;
        if let Some(a) = self.solve_from_known(p, started)? {
            return Ok(a);
        }
        let nodes_before = self.progress.nodes();
        let mut proven = Proven::default();
        let result = self.watched(limits, |me| -> Result<_, AnalyzerError> {
            let solver = me.solver_for(p)?;
            Ok(solver.solve_tracked(p, &mut proven))
        })?;
        let to_final = |f: Bounds| Bounds::between(p.final_value(f.lower), p.final_value(f.upper));
        match result {
            Ok(r) => {
                self.remember_solved(p, r.value, &r.best);
                Ok(Answer {
                    value: Bounds::exact(p.final_value(r.value)),
                    future: Bounds::exact(r.value),
                    best: r.best,
                    worse: settled_worse(p, &proven),
                    pv: r.pv,
                    complete: true,
                    source: Source::Search,
                    nodes: r.nodes,
                    seconds: started.elapsed().as_secs_f64(),
                })
            }
            Err(SearchError::Interrupted) => {
                let searched = match proven.value {
                    Some(v) => Bounds::exact(v),
                    None => {
                        let (lo, hi) = self.progress.bounds();
                        within_stake(Bounds::between(lo, hi), p.stake())
                    }
                };
                // What earlier searches proved narrows what this one did, and the other way.
                let future = match self.remembered(p)? {
                    Some(r) => searched.narrowed_by(r.future),
                    None => searched,
                };
                let best = proven.best.first().copied();
                self.remember(p, &[(p.key(), Record { future, best })]);
                Ok(Answer {
                    value: to_final(future),
                    future,
                    best: proven.best,
                    worse: proven.worse,
                    pv: Vec::new(),
                    complete: false,
                    source: Source::Search,
                    nodes: self.progress.nodes().saturating_sub(nodes_before),
                    seconds: started.elapsed().as_secs_f64(),
                })
            }
            Err(e) => Err(AnalyzerError::Search(e)),
        }
    }

    /// [`Analyzer::analyze`] when it needs no search: the book, the memory or the tables know
    /// every move's result exactly. `None` when a search is needed.
    ///
    /// # Errors
    /// [`AnalyzerError`] when the tables cannot be opened.
    pub fn analyze_known(&mut self, p: &Position<R>) -> Result<Option<Analysis>, AnalyzerError> {
        let started = Instant::now();
        self.open_asked_tables(p)?;
        let Some(children) = quick_children(p) else {
            return Ok(None);
        };
        let mut moves = Vec::with_capacity(children.len());
        for c in children.as_slice() {
            let Some((f, source)) = self.known(&c.next)? else {
                return Ok(None);
            };
            moves.push(MoveAnswer {
                mv: c.mv,
                value: Bounds::exact(p.final_value(mover_view(c, f))),
                source,
            });
        }
        let value = position_bounds(p, &moves);
        Ok(Some(Analysis {
            moves,
            value,
            nodes: 0,
            seconds: started.elapsed().as_secs_f64(),
        }))
    }

    /// [`Analyzer::solve`] when it needs no search: the game is over, or the book, the memory or
    /// the tables know every move's result exactly. `None` when a search is needed.
    ///
    /// # Errors
    /// [`AnalyzerError`] when the tables cannot be opened.
    pub fn solve_known(&mut self, p: &Position<R>) -> Result<Option<Answer>, AnalyzerError> {
        self.open_asked_tables(p)?;
        self.solve_from_known(p, Instant::now())
    }

    /// Keeps in the memory what a search outside the analyzer proved of `p`: its exact future
    /// value and best moves (each best move's result then has a known value too, and each other
    /// move's result a bound below it). `best` must hold *every* move that reaches `future`, as
    /// a finished solve's does: the others are kept as worse.
    pub fn remember_solved(&mut self, p: &Position<R>, future: i32, best: &[Move]) {
        let Some(children) = quick_children(p) else {
            return;
        };
        let mut proved = vec![(
            p.key(),
            Record {
                future: Bounds::exact(future),
                best: best.first().copied(),
            },
        )];
        for c in children.as_slice().iter().filter(|c| best.contains(&c.mv)) {
            let f = if c.turn_passed {
                c.gain - future
            } else {
                future - c.gain
            };
            proved.push((
                c.next.key(),
                Record {
                    future: Bounds::exact(f),
                    best: None,
                },
            ));
        }
        // Every other move is worse, so its result is bounded: a second solve of `p` then
        // answers from the memory ([`Analyzer::solve_from_known`]) without a search.
        for c in children.as_slice().iter().filter(|c| !best.contains(&c.mv)) {
            let s = c.next.stake();
            proved.push((
                c.next.key(),
                Record {
                    future: within_stake(result_bound_below(c, future), s),
                    best: None,
                },
            ));
        }
        self.remember(p, &proved);
    }

    /// [`Analyzer::solve`] without a search: from the position's moves when another source
    /// knows every one of them exactly.
    fn solve_from_known(
        &mut self,
        p: &Position<R>,
        started: Instant,
    ) -> Result<Option<Answer>, AnalyzerError> {
        let Some((moves, source)) = self.known_moves(p)? else {
            return self.solve_from_bounds(p, started);
        };
        let Some(&future) = moves.iter().map(|(_, v)| v).max() else {
            // The game is over: the stores are the score.
            return Ok(Some(Answer {
                value: Bounds::exact(p.final_value(0)),
                future: Bounds::exact(0),
                best: Vec::new(),
                worse: Vec::new(),
                pv: Vec::new(),
                complete: true,
                source: Source::Rules,
                nodes: 0,
                seconds: started.elapsed().as_secs_f64(),
            }));
        };
        let best = moves.iter().map(|&(m, v)| (m, v == future));
        self.settled(p, future, best, source, started).map(Some)
    }

    /// A solve's answer known without a search: `p`'s future value and its moves, each marked
    /// best or not, with a principal variation as far as the known values reach.
    fn settled(
        &mut self,
        p: &Position<R>,
        future: i32,
        moves: impl Iterator<Item = (Move, bool)>,
        source: Source,
        started: Instant,
    ) -> Result<Answer, AnalyzerError> {
        let (best, worse): (Vec<_>, Vec<_>) = moves.partition(|m| m.1);
        let best: Vec<Move> = best.into_iter().map(|m| m.0).collect();
        let pv = self.known_pv(p, best[0])?;
        Ok(Answer {
            value: Bounds::exact(p.final_value(future)),
            future: Bounds::exact(future),
            best,
            worse: worse.into_iter().map(|m| m.0).collect(),
            pv,
            complete: true,
            source,
            nodes: 0,
            seconds: started.elapsed().as_secs_f64(),
        })
    }

    /// [`Analyzer::solve`] without a search when not every move's value is known but enough
    /// is: some moves' values exactly, the same best value, and every other move's bounded
    /// below it (what [`Analyzer::remember_solved`] keeps of a finished solve). The principal
    /// variation goes as far as the known values reach.
    fn solve_from_bounds(
        &mut self,
        p: &Position<R>,
        started: Instant,
    ) -> Result<Option<Answer>, AnalyzerError> {
        let Some(children) = quick_children(p) else {
            return Ok(None);
        };
        // Each move's value from the mover's view, exact or bounded, and the costliest source.
        let mut moves: Vec<(Move, Bounds)> = Vec::with_capacity(children.len());
        let mut source = Source::Rules;
        for c in children.as_slice() {
            let (f, s) = match self.known(&c.next)? {
                Some((f, s)) => (Bounds::exact(f), s),
                None => match self.remembered(&c.next)? {
                    Some(r) => (r.future, Source::Memory),
                    None => return Ok(None),
                },
            };
            let (a, b) = (mover_view(c, f.lower), mover_view(c, f.upper));
            moves.push((c.mv, Bounds::between(a.min(b), a.max(b))));
            source = source.max(s);
        }
        let Some(future) = moves
            .iter()
            .filter_map(|(_, b)| b.value())
            .max()
            .filter(|&v| moves.iter().all(|(_, b)| b.upper <= v))
        else {
            return Ok(None);
        };
        // A move bounded above by the best value without being exactly it is not settled.
        if moves
            .iter()
            .any(|(_, b)| b.upper == future && b.value() != Some(future))
        {
            return Ok(None);
        }
        let best = moves.iter().map(|&(m, b)| (m, b.value() == Some(future)));
        self.settled(p, future, best, source, started).map(Some)
    }

    /// Every move of `p` with its exact value from the mover's view (`gain ± F(next)`), when
    /// another source than the search knows them all, and the costliest such source.
    #[allow(clippy::type_complexity)]
    fn known_moves(
        &mut self,
        p: &Position<R>,
    ) -> Result<Option<(Vec<(Move, i32)>, Source)>, AnalyzerError> {
        let Some(children) = quick_children(p) else {
            return Ok(None);
        };
        let mut moves = Vec::with_capacity(children.len());
        let mut source = Source::Rules;
        for c in children.as_slice() {
            let Some((f, s)) = self.known(&c.next)? else {
                return Ok(None);
            };
            moves.push((c.mv, mover_view(c, f)));
            source = source.max(s);
        }
        Ok(Some((moves, source)))
    }

    /// A principal variation from `p` starting with `first`, as far as the positions after it
    /// are known without a search.
    fn known_pv(&mut self, p: &Position<R>, first: Move) -> Result<Vec<Move>, AnalyzerError> {
        let mut pv = vec![first];
        let mut seen = vec![p.key()];
        let mut at = p.play_unchecked(first);
        while !at.is_over() && !seen.contains(&at.key()) && pv.len() < 1000 {
            seen.push(at.key());
            let Some((moves, _)) = self.known_moves(&at)? else {
                break;
            };
            let Some(&best) = moves.iter().map(|(_, v)| v).max() else {
                break;
            };
            let mv = moves
                .iter()
                .find(|m| m.1 == best)
                .expect("the best is a move's")
                .0;
            pv.push(mv);
            at = at.play_unchecked(mv);
        }
        Ok(pv)
    }

    /// Every legal move of `p` valued, from the cheapest source that knows each; a search
    /// stopped by `limits` leaves bounds on the moves it did not finish. The time limit is for
    /// the whole call: each move is searched with the time left, and a move reached with none
    /// left gets its stake's bounds.
    ///
    /// # Errors
    /// [`AnalyzerError`] when the tables cannot be opened or the search cannot run.
    pub fn analyze(&mut self, p: &Position<R>, limits: &Limits) -> Result<Analysis, AnalyzerError> {
        let started = Instant::now();
        self.open_asked_tables(p)?;
        let nodes_before = self.progress.nodes();
        let mut children = Children::new();
        let sown = match quick_children(p) {
            Some(c) => {
                children = c;
                true
            }
            // A relay past 2^20 laps: sown again under the limits, which may stop it.
            None => {
                let stop = self.stop.clone();
                self.watched(limits, |_| {
                    p.children_until(&mut children, stop.as_stop()).is_ok()
                })
            }
        };
        if !sown {
            // No move could be listed before the limits stopped a sowing: the whole stake.
            let s = p.stake();
            let (a, b) = (p.final_value(-s), p.final_value(s));
            return Ok(Analysis {
                moves: Vec::new(),
                value: Bounds::between(a, b),
                nodes: 0,
                seconds: started.elapsed().as_secs_f64(),
            });
        }
        // Each move's value from the mover's view, exact or bounded, with its source.
        let mut values: Vec<Option<(Bounds, Source)>> = Vec::with_capacity(children.len());
        for c in children.as_slice() {
            values.push(
                self.known(&c.next)?
                    .map(|(f, s)| (Bounds::exact(mover_view(c, f)), s)),
            );
        }
        let known: Vec<Option<i32>> = values
            .iter()
            .map(|v| v.and_then(|(b, _)| b.value()).map(|f| p.final_value(f)))
            .collect();
        self.live.begin(p, children.as_slice(), &known);
        // One limit for the whole call: each move is searched with the time left.
        let deadline = limits.time.map(|t| started + t);
        let mut stopped = false;
        for (i, c) in children.as_slice().iter().enumerate() {
            if values[i].is_some() {
                continue;
            }
            let left = deadline.map(|d| d.saturating_duration_since(Instant::now()));
            if left == Some(Duration::ZERO) {
                stopped = true;
            }
            let future = if stopped {
                let s = c.next.stake();
                Bounds {
                    lower: -s,
                    upper: s,
                }
            } else {
                let limits = Limits {
                    time: left,
                    stop: limits.stop.clone(),
                };
                self.live.valuing(p, i, c);
                let r = self.watched(&limits, |me| -> Result<_, AnalyzerError> {
                    Ok(me.solver_for(&c.next)?.value(&c.next))
                })?;
                match r {
                    Ok(f) => Bounds::exact(f),
                    Err(SearchError::Interrupted) => {
                        stopped = true;
                        let (lo, hi) = self.progress.bounds();
                        within_stake(Bounds::between(lo, hi), c.next.stake())
                    }
                    Err(e) => return Err(AnalyzerError::Search(e)),
                }
            };
            let future = if future.is_exact() {
                future
            } else {
                match self.remembered(&c.next)? {
                    Some(r) => future.narrowed_by(r.future),
                    None => future,
                }
            };
            if !stopped || !future.is_exact() {
                // Every finished value, and the bounds of the one stopped (the moves never
                // reached prove nothing new).
                let proved = [(c.next.key(), Record { future, best: None })];
                if future.is_exact()
                    || future.lower > -c.next.stake()
                    || future.upper < c.next.stake()
                {
                    self.remember(p, &proved);
                }
            }
            let view = Bounds::between(mover_view(c, future.lower), mover_view(c, future.upper));
            let to_final = Bounds::between(p.final_value(view.lower), p.final_value(view.upper));
            self.live.valued(i, to_final);
            values[i] = Some((view, Source::Search));
        }
        let moves: Vec<MoveAnswer> = children
            .as_slice()
            .iter()
            .zip(&values)
            .map(|(c, v)| {
                let (b, source) = v.expect("every move was valued");
                MoveAnswer {
                    mv: c.mv,
                    value: Bounds::between(p.final_value(b.lower), p.final_value(b.upper)),
                    source,
                }
            })
            .collect();
        let value = position_bounds(p, &moves);
        if let Some(v) = value.value() {
            let best = moves
                .iter()
                .find(|m| m.value.value() == Some(v))
                .map(|m| m.mv);
            let future = v - p.final_value(0);
            let future = future * p.to_move().map_or(1, |s| s.sign());
            self.remember(
                p,
                &[(
                    p.key(),
                    Record {
                        future: Bounds::exact(future),
                        best,
                    },
                )],
            );
        }
        Ok(Analysis {
            moves,
            value,
            nodes: self.progress.nodes().saturating_sub(nodes_before),
            seconds: started.elapsed().as_secs_f64(),
        })
    }

    /// The exact final value of `p` (or bounds, when `limits` stop the search), and where it
    /// came from: the cheapest question.
    ///
    /// # Errors
    /// [`AnalyzerError`] when the tables cannot be opened or the search cannot run.
    pub fn value(
        &mut self,
        p: &Position<R>,
        limits: &Limits,
    ) -> Result<(Bounds, Source), AnalyzerError> {
        self.open_asked_tables(p)?;
        if let Some((f, s)) = self.known(p)? {
            return Ok((Bounds::exact(p.final_value(f)), s));
        }
        if let Some((moves, s)) = self.known_moves(p)? {
            let f = moves.iter().map(|m| m.1).max().unwrap_or(0);
            return Ok((Bounds::exact(p.final_value(f)), s));
        }
        let r = self.watched(limits, |me| -> Result<_, AnalyzerError> {
            Ok(me.solver_for(p)?.value(p))
        })?;
        let future = match r {
            Ok(f) => Bounds::exact(f),
            Err(SearchError::Interrupted) => {
                let (lo, hi) = self.progress.bounds();
                let searched = within_stake(Bounds::between(lo, hi), p.stake());
                match self.remembered(p)? {
                    Some(r) => searched.narrowed_by(r.future),
                    None => searched,
                }
            }
            Err(e) => return Err(AnalyzerError::Search(e)),
        };
        self.remember(p, &[(p.key(), Record { future, best: None })]);
        Ok((
            Bounds::between(p.final_value(future.lower), p.final_value(future.upper)),
            Source::Search,
        ))
    }
}

/// The children of `p` when none of its moves is a relay past 2^20 laps: sown under
/// [`Stop::raised`], so a sowing ends as usual unless it is a relay still going at the sowing's
/// first look at its stop, which gives up at once. The shortcuts that need a position's
/// children (the book, the memory, a known PV) sow under it, so that an endless-looking relay
/// never holds them: the search, which its limits stop, takes over.
fn quick_children<R: Rules>(p: &Position<R>) -> Option<Children<Position<R>>> {
    let mut children = Children::new();
    p.children_until(&mut children, Stop::raised()).ok()?;
    Some(children)
}

/// Whether a record of the memory can be `p`'s: its best move is legal there and its bounds lie
/// within the position's stake.
fn fits_position<R: Rules>(p: &Position<R>, r: &Record) -> bool {
    let s = p.stake();
    // Sown under the pre-raised stop: a position with an endless-looking relay cannot vouch for
    // a record's move, which is then not served.
    let legal = r
        .best
        .is_none_or(|m| quick_children(p).is_some_and(|c| c.as_slice().iter().any(|c| c.mv == m)));
    legal && -s <= r.future.lower && r.future.upper <= s
}

/// `b` within a position's stake `s`: what a stopped search's bounds can say at most.
fn within_stake(b: Bounds, s: i32) -> Bounds {
    Bounds::between(b.lower.clamp(-s, s), b.upper.clamp(-s, s))
}

/// The bound on the future value of `c`'s result that says its move is worse than `best` (a
/// value from the mover's view): `mover_view(c, f) <= best - 1`.
fn result_bound_below<R: Rules>(c: &solver::Child<Position<R>>, best: i32) -> Bounds {
    let below = best - 1 - c.gain;
    if c.turn_passed {
        // gain - f <= best - 1: f >= gain - best + 1.
        Bounds::between(-below, i32::MAX)
    } else {
        // gain + f <= best - 1.
        Bounds::between(i32::MIN, below)
    }
}

/// A move's value from the mover's view given its result's future value `f`.
fn mover_view<R: Rules>(c: &solver::Child<Position<R>>, f: i32) -> i32 {
    c.gain + if c.turn_passed { -f } else { f }
}

/// The moves a finished solve did not find best, in move order.
fn settled_worse<R: Rules>(p: &Position<R>, proven: &Proven<Move>) -> Vec<Move> {
    p.legal_moves()
        .as_slice()
        .iter()
        .copied()
        .filter(|m| !proven.best.contains(m))
        .collect()
}

/// The position's final value bounded by its moves': the best of them for the side to move.
fn position_bounds<R: Rules>(p: &Position<R>, moves: &[MoveAnswer]) -> Bounds {
    let pick = |it: &mut dyn Iterator<Item = i32>| match p.to_move() {
        Some(Side::North) => it.min(),
        _ => it.max(),
    };
    match (
        pick(&mut moves.iter().map(|m| m.value.lower)),
        pick(&mut moves.iter().map(|m| m.value.upper)),
    ) {
        (Some(lower), Some(upper)) => Bounds { lower, upper },
        _ => Bounds::exact(p.final_value(0)),
    }
}
