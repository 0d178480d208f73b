//! `solve` and `analyze`: exact values from the game-agnostic search.

mod args;
mod stopped;

pub use args::SearchArgs;
pub(crate) use stopped::winner_within;

use super::{move_list, setup, PositionArgs};
use anyhow::Result;
use mancala::answers::{Analyzer, AnalyzerError, AnySolver, Limits, Source};
use mancala::board::Move;
use mancala::rules::Rules;
use mancala::stop::StopToken;
use mancala::Position;
use mancala_cli::watch::{OnSignal, Spinner, Watcher};
use mancala_cli::{json, report, signal};
use serde::Serialize;
use solver::search::{Proven, SearchError};
use std::io::StdoutLock;
use std::io::Write;
use std::process::ExitCode;
use std::time::{Duration, Instant};
use stopped::{
    print_stopped_analysis, print_stopped_solve, stopped_exit_code, stopped_solve, StopCaused,
    Stopped,
};

/// Who else may stop a search besides its time limit and Ctrl-C, and whether it shows progress.
/// The command line raises `stop` only through the watcher; `mancala serve` also raises it when
/// a page presses Stop or its connection closes (docs/web.md).
pub(crate) struct Control {
    /// The search's stop token: raising it ends the search with what it proved.
    pub(crate) stop: StopToken,
    /// A progress line on stderr (the command line on a terminal; never the server).
    pub(crate) progress: bool,
}

impl Control {
    /// The command line's: a fresh flag, progress when `search` wants it.
    fn command_line(search: &SearchArgs) -> Self {
        Self {
            stop: StopToken::new(),
            progress: search.wants_progress(),
        }
    }
}

/// Runs `job` on the analyzer's kept search for `p` (its transposition table from earlier
/// questions, its tables opened once) with a progress display until it ends, the time limit
/// passes, Ctrl-C is pressed or `control.stop` is raised, and returns its result (or what was
/// proven when stopped). `to_final` turns the future value being searched into the number
/// shown in progress lines, which `bounds` names (the root's final value for `solve`).
fn run_search<R: Rules, T>(
    analyzer: &mut Analyzer<R>,
    p: &Position<R>,
    search: &SearchArgs,
    control: &Control,
    bounds: &'static str,
    to_final: impl Fn(i32) -> i32 + Send + Sync,
    job: impl FnOnce(&mut AnySolver<'static, R>) -> Result<T, SearchError>,
) -> Result<Result<T, Stopped>> {
    let progress = analyzer.progress();
    let nodes_before = progress.nodes();
    let limit = search.time_limit.map(Duration::from_secs_f64);
    let started = Instant::now();
    // After a second, a spinner line redrawn in place on a terminal; elsewhere (a log file, CI)
    // a plain line every ten seconds.
    let line = |t: f64| {
        let (lo, hi) = progress.bounds();
        let (a, b) = (to_final(lo), to_final(hi));
        let nodes = progress.nodes().saturating_sub(nodes_before);
        format!(
            "{t:.0} s, {nodes} nodes ({:.2} M/s), {bounds} [{:+}, {:+}]",
            nodes as f64 / t / 1e6,
            a.min(b),
            a.max(b)
        )
    };
    let spinner = Spinner::new(Duration::from_secs(1), line).log_every(Duration::from_secs(10));
    // The watcher raises `control.stop` (the deadline, a signal); the analyzer's watch passes
    // it on to its search.
    let limits = Limits {
        time: None,
        stop: Some(control.stop.clone()),
    };
    let result = Watcher::new("the search", OnSignal::Stop)
        .stop(control.stop.clone())
        .deadline(limit)
        .spinner(control.progress, spinner)
        .run(|| analyzer.search(p, &limits, |s| job(s)));
    let result = match result.map_err(analyzer_error)? {
        Ok(r) => Ok(r),
        Err(SearchError::Interrupted) => {
            let (lo, hi) = progress.bounds();
            let (a, b) = (to_final(lo), to_final(hi));
            let seconds = started.elapsed().as_secs_f64();
            // Stopped before the deadline: by a signal or by whoever holds `control.stop`.
            let early = limit.is_none_or(|l| started.elapsed() < l);
            Err(Stopped {
                lower: a.min(b),
                upper: a.max(b),
                by_user: signal::interrupted() || early,
                nodes: progress.nodes().saturating_sub(nodes_before),
                seconds,
            })
        }
        Err(e) => return Err(setup::search_error(e)),
    };
    Ok(result)
}

/// What `solve` or `analyze` found: the finished report `D`, or what a stopped search proved.
#[derive(Serialize)]
#[serde(untagged)]
pub(crate) enum Report<D, S> {
    Done(D),
    Stopped(S),
}

/// What `solve` found: the exact result, or what a stopped search proved.
pub(crate) type SolveReport = Report<json::Solve, json::SolveStopped>;

/// What `analyze` found: every move's exact value, or what a stopped analysis proved.
pub(crate) type AnalyzeReport = Report<json::Analyze, json::AnalyzeStopped>;

/// Solves `p`: the one computation behind `solve` and the server's `/api/solve`.
pub(crate) fn solve_report<R: Rules>(
    p: &Position<R>,
    search: &SearchArgs,
    control: &Control,
) -> Result<SolveReport> {
    let mut analyzer = search.analyzer::<R>()?;
    solve_with(&mut analyzer, p, search, control)
}

/// [`solve_report`] with an analyzer kept by the caller (the server's): the book, the memory
/// and the tables first, then its kept search.
pub(crate) fn solve_with<R: Rules>(
    analyzer: &mut Analyzer<R>,
    p: &Position<R>,
    search: &SearchArgs,
    control: &Control,
) -> Result<SolveReport> {
    let known = analyzer.solve_known(p).map_err(analyzer_error);
    warn_notes(analyzer);
    if let Some(a) = known? {
        return Ok(SolveReport::Done(json::Solve {
            head: json::PositionHead::of("solve", p),
            complete: true,
            value: a.value.lower,
            winner: json::Winner::of(a.value.lower),
            future: a.future.lower,
            best: a.best.iter().map(|m| m.0).collect(),
            pv: move_list::marked_json(p, &a.pv),
            nodes: 0,
            seconds: a.seconds,
            tt_hit_rate: 0.0,
            tt_bytes: 0,
            threads: analyzer.config().threads,
            table_probes: None,
            table_hits: None,
            source: a.source.name().to_string(),
        }));
    }
    let mut proven = Proven::default();
    let result = run_search(
        analyzer,
        p,
        search,
        control,
        "value in",
        |f| p.final_value(f),
        |s| s.solve_tracked(p, &mut proven),
    )?;
    let result = match result {
        Ok(r) => r,
        Err(stopped) => return Ok(SolveReport::Stopped(stopped_solve(p, &stopped, &proven))),
    };
    analyzer.remember_solved(p, result.value, &result.best);
    warn_notes(analyzer);
    let tables = analyzer.uses_tables(p).map_err(analyzer_error)?;
    let value = p.final_value(result.value);
    let hit_rate = if result.tt_probes == 0 {
        0.0
    } else {
        result.tt_hits as f64 / result.tt_probes as f64
    };
    Ok(SolveReport::Done(json::Solve {
        head: json::PositionHead::of("solve", p),
        complete: true,
        value,
        winner: json::Winner::of(value),
        future: result.value,
        best: result.best.iter().map(|m| m.0).collect(),
        pv: move_list::marked_json(p, &result.pv),
        nodes: result.nodes,
        seconds: result.seconds,
        tt_hit_rate: hit_rate,
        tt_bytes: result.tt_bytes,
        threads: analyzer.config().threads,
        table_probes: tables.then_some(result.oracle_probes),
        table_hits: tables.then_some(result.oracle_hits),
        source: Source::Search.name().to_string(),
    }))
}

pub(super) fn solve<R: Rules>(
    pos: &PositionArgs,
    search: &SearchArgs,
    rules: R,
    json: bool,
) -> Result<ExitCode> {
    let words: Words<R, _, _> = (print_solved, print_stopped_solve);
    command(pos, search, rules, json, solve_report, words)
}

/// How a command computes its report.
type Compute<R, D, S> = fn(&Position<R>, &SearchArgs, &Control) -> Result<Report<D, S>>;

/// How a command prints its report in words: finished, and stopped (with the time limit).
type Words<R, D, S> = (
    fn(&mut StdoutLock<'static>, &Position<R>, &D) -> Result<()>,
    fn(&mut StdoutLock<'static>, &Position<R>, &S, Option<f64>) -> Result<()>,
);

/// `solve` or `analyze` of the flags' position: `report` computes, and its result is printed
/// as `--json` asks: its JSON object, or its `words`. The exit status says whether the search
/// finished or why it stopped.
fn command<R: Rules, D: json::Output, S: json::Output + StopCaused>(
    pos: &PositionArgs,
    search: &SearchArgs,
    rules: R,
    json: bool,
    report: Compute<R, D, S>,
    (done, stopped): Words<R, D, S>,
) -> Result<ExitCode> {
    let p = match stopped::position_within(pos, search, rules)? {
        Ok(p) => p,
        Err(status) => return Ok(status),
    };
    let report = report(&p, search, &Control::command_line(search))?;
    let mut out = std::io::stdout().lock();
    match (&report, json) {
        (Report::Done(v), true) => json::print(&mut out, v)?,
        (Report::Stopped(v), true) => json::print(&mut out, v)?,
        (Report::Done(v), false) => done(&mut out, &p, v)?,
        (Report::Stopped(v), false) => stopped(&mut out, &p, v, search.time_limit)?,
    }
    Ok(match &report {
        Report::Done(_) => ExitCode::SUCCESS,
        Report::Stopped(v) => stopped_exit_code(v.cause()),
    })
}

/// `solve`'s words for a finished search.
fn print_solved<R: Rules>(out: &mut impl Write, p: &Position<R>, v: &json::Solve) -> Result<()> {
    writeln!(out, "position: {p}")?;
    writeln!(
        out,
        "value:    {:+} ({} under perfect play; final South minus North)",
        v.value,
        report::verdict(v.value)
    )?;
    match p.to_move() {
        None => writeln!(out, "the game is over")?,
        Some(side) => {
            let pv: Vec<Move> = v.pv.iter().map(|m| Move(m.pit)).collect();
            writeln!(out, "{}", report::best_line(&v.best, side))?;
            writeln!(out, "pv:       {}", move_list::marked(p, &pv).join(" "))?;
        }
    }
    writeln!(
        out,
        "search:   {} nodes in {:.3} s ({:.2} M nodes/s), TT hit rate {:.1}%, TT {} MiB, {} thread{}",
        v.nodes,
        v.seconds,
        v.nodes as f64 / v.seconds.max(1e-9) / 1e6,
        100.0 * v.tt_hit_rate,
        v.tt_bytes >> 20,
        v.threads,
        if v.threads == 1 { "" } else { "s" }
    )?;
    if v.source != Source::Search.name() {
        writeln!(out, "source:   {} (no search)", v.source)?;
    }
    if let (Some(probes), Some(hits)) = (v.table_probes, v.table_hits) {
        writeln!(
            out,
            "tables:   {probes} positions looked up, {hits} answered by the endgame tables"
        )?;
    }
    Ok(())
}

/// Values every move of `p`: the one computation behind `analyze` and the server's
/// `/api/analyze`. The analyzer answers from the book, the memory and the tables when they know
/// every move, and searches the rest with a progress display until it ends, the time limit
/// passes, Ctrl-C is pressed or `control.stop` is raised.
pub(crate) fn analyze_report<R: Rules>(
    p: &Position<R>,
    search: &SearchArgs,
    control: &Control,
) -> Result<AnalyzeReport> {
    let mut analyzer = search.analyzer::<R>()?;
    analyze_with(&mut analyzer, p, search, control)
}

/// [`analyze_report`] with an analyzer kept by the caller (the server's, a batch's).
pub(crate) fn analyze_with<R: Rules>(
    analyzer: &mut Analyzer<R>,
    p: &Position<R>,
    search: &SearchArgs,
    control: &Control,
) -> Result<AnalyzeReport> {
    let started = Instant::now();
    let progress = analyzer.progress();
    let limit = search.time_limit.map(Duration::from_secs_f64);
    let line = |t: f64| {
        let (lo, hi) = progress.bounds();
        let nodes = progress.nodes();
        format!(
            "{t:.0} s, {nodes} nodes ({:.2} M/s), the move being valued: the future value of its next mover in [{lo:+}, {hi:+}]",
            nodes as f64 / t / 1e6,
        )
    };
    let spinner = Spinner::new(Duration::from_secs(1), line).log_every(Duration::from_secs(10));
    let limits = Limits {
        time: None,
        stop: Some(control.stop.clone()),
    };
    let result = Watcher::new("the search", OnSignal::Stop)
        .stop(control.stop.clone())
        .deadline(limit)
        .spinner(control.progress, spinner)
        .run(|| analyzer.analyze(p, &limits));
    warn_notes(analyzer);
    let a = result.map_err(analyzer_error)?;
    if a.complete() {
        let finals: Vec<(u8, i32)> = a.moves.iter().map(|m| (m.mv.0, m.value.lower)).collect();
        let value = a.value.value().unwrap_or_else(|| p.final_value(0));
        return Ok(AnalyzeReport::Done(json::Analyze {
            head: json::PositionHead::of("analyze", p),
            complete: true,
            verdict: json::Verdict::new(value, a.best().iter().map(|m| m.0).collect()),
            moves: json::MoveValue::list(&finals),
            seconds: started.elapsed().as_secs_f64(),
            source: a.source().name().to_string(),
        }));
    }
    // Stopped before the deadline: by a signal or by whoever holds `control.stop`.
    let early = limit.is_none_or(|l| started.elapsed() < l);
    Ok(AnalyzeReport::Stopped(stopped::stopped_analysis_of(
        p,
        &a,
        signal::interrupted() || early,
        started.elapsed().as_secs_f64(),
    )))
}

/// An analyzer's error in the command line's words: the tables named by their flag.
pub(crate) fn analyzer_error(e: AnalyzerError) -> anyhow::Error {
    match e {
        AnalyzerError::Tables { dir, source } => {
            anyhow::Error::new(source).context(format!("--tables {}", dir.display()))
        }
        AnalyzerError::Search(e) => setup::search_error(e),
        other => anyhow::Error::new(other),
    }
}

/// Prints the analyzer's notes (a memory refused or turned off) as warnings on stderr.
pub(crate) fn warn_notes<R: Rules>(analyzer: &mut Analyzer<R>) {
    for n in analyzer.take_notes() {
        eprintln!("warning: {n}");
    }
}

pub(super) fn analyze<R: Rules>(
    pos: &PositionArgs,
    search: &SearchArgs,
    rules: R,
    json: bool,
) -> Result<ExitCode> {
    let words: Words<R, _, _> = (print_analysis, print_stopped_analysis);
    command(pos, search, rules, json, analyze_report, words)
}

/// `analyze`'s words for a finished analysis.
fn print_analysis<R: Rules>(
    out: &mut impl Write,
    p: &Position<R>,
    v: &json::Analyze,
) -> Result<()> {
    writeln!(out, "position: {p}")?;
    match p.to_move() {
        None => writeln!(
            out,
            "the game is over: no moves (value {:+})",
            p.final_value(0)
        )?,
        Some(side) => {
            writeln!(
                out,
                "{side} to move; value of each move (final South minus North):"
            )?;
            for m in &v.moves {
                let mark = if m.value == v.verdict.value {
                    "  best"
                } else {
                    ""
                };
                writeln!(
                    out,
                    "  {:>2}  {:+4}  {}{mark}",
                    m.pit,
                    m.value,
                    report::verdict(m.value)
                )?;
            }
        }
    }
    writeln!(out, "time: {:.3} s (from the {})", v.seconds, v.source)?;
    Ok(())
}
