//! `solve` and `analyze`: exact values from the game-agnostic search.

mod args;
mod stopped;

pub use args::SearchArgs;

use super::{engine, move_list, PositionArgs};
use anyhow::Result;
use mancala::board::Side;
use mancala::rules::Rules;
use mancala::Position;
use mancala_cli::watch::{OnSignal, Spinner, Watcher};
use mancala_cli::{json, report, signal};
use solver::search::{Progress, Proven, SearchConfig, SearchError, Solver};
use std::io::Write;
use std::process::ExitCode;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};
use stopped::{report_stopped, report_stopped_analysis, Stopped};

/// Sets up the search for `p` (table size, threads, endgame tables if asked for), runs `job` on
/// a solver with a progress display until it ends, the time limit passes or Ctrl-C is pressed,
/// and returns its result (or what was proven when stopped) with the configuration used.
/// `to_final` turns the root's future value into the number shown in progress lines.
fn run_search<R: Rules, T>(
    p: &Position<R>,
    search: &SearchArgs,
    to_final: impl Fn(i32) -> i32 + Send + Sync,
    job: impl FnOnce(&mut Solver<'_, Position<R>>) -> Result<T, SearchError>,
) -> Result<(Result<T, Stopped>, SearchConfig)> {
    let mut cfg = search.config(p)?;
    let progress = Arc::new(Progress::new());
    cfg.progress = Some(progress.clone());
    let stop = Arc::new(AtomicBool::new(false));
    cfg.stop = Some(stop.clone());
    let limit = search.time_limit.map(Duration::from_secs_f64);
    let started = Instant::now();
    let tb = search
        .tables_dir()
        .map(|d| engine::tables_for_search(&d, p))
        .transpose()?;
    let oracle = tb
        .as_ref()
        .map(|t| t as &dyn solver::search::Oracle<Position<R>>);
    // After a second, a spinner line redrawn in place on a terminal; elsewhere (a log file, CI)
    // a plain line every ten seconds.
    let line = |t: f64| {
        let (lo, hi) = progress.bounds();
        let (a, b) = (to_final(lo), to_final(hi));
        let nodes = progress.nodes();
        format!(
            "{t:.0} s, {nodes} nodes ({:.2} M/s), value in [{:+}, {:+}]",
            nodes as f64 / t / 1e6,
            a.min(b),
            a.max(b)
        )
    };
    let spinner = Spinner::new(Duration::from_secs(1), line).log_every(Duration::from_secs(10));
    let result = Watcher::new("the search", OnSignal::Stop)
        .stop(stop)
        .deadline(limit)
        .spinner(search.wants_progress(), spinner)
        .run(|| Solver::new(p, cfg.clone(), oracle).and_then(|mut s| job(&mut s)));
    let result = match result {
        Ok(r) => Ok(r),
        Err(SearchError::Interrupted) => {
            let (lo, hi) = progress.bounds();
            let (a, b) = (to_final(lo), to_final(hi));
            Err(Stopped {
                lower: a.min(b),
                upper: a.max(b),
                future: (lo, hi),
                by_user: signal::interrupted(),
                nodes: progress.nodes(),
                seconds: started.elapsed().as_secs_f64(),
            })
        }
        Err(e) => return Err(engine::search_error(e)),
    };
    Ok((result, cfg))
}

pub(super) fn solve<R: Rules>(
    pos: &PositionArgs,
    search: &SearchArgs,
    rules: R,
    json: bool,
) -> Result<ExitCode> {
    let p = pos.position(rules)?;
    let mut proven = Proven::default();
    let (result, cfg) = run_search(
        &p,
        search,
        |f| p.final_value(f),
        |s| s.solve_tracked(&p, &mut proven),
    )?;
    let result = match result {
        Ok(r) => r,
        Err(stopped) => return report_stopped(&p, &stopped, &proven, search.time_limit, json),
    };
    let value = p.final_value(result.value);
    let pv = move_list::marked(&p, &result.pv).join(" ");
    let pv_json = move_list::marked_json(&p, &result.pv);
    let hit_rate = if result.tt_probes == 0 {
        0.0
    } else {
        result.tt_hits as f64 / result.tt_probes as f64
    };
    let best: Vec<u8> = result.best.iter().map(|m| m.0).collect();
    let mut out = std::io::stdout().lock();
    if json {
        let v = json::Solve {
            head: json::PositionHead::of("solve", &p),
            complete: true,
            value,
            winner: json::Winner::of(value),
            future: result.value,
            best,
            pv: pv_json,
            nodes: result.nodes,
            seconds: result.seconds,
            tt_hit_rate: hit_rate,
            tt_bytes: result.tt_bytes,
            threads: cfg.threads,
        };
        json::print(&mut out, &v)?;
        return Ok(ExitCode::SUCCESS);
    }
    writeln!(out, "position: {p}")?;
    writeln!(
        out,
        "value:    {value:+} ({} under perfect play; final South minus North)",
        report::verdict(value)
    )?;
    match p.to_move() {
        None => writeln!(out, "the game is over")?,
        Some(side) => {
            writeln!(out, "{}", report::best_line(&best, side))?;
            writeln!(out, "pv:       {pv}")?;
        }
    }
    writeln!(
        out,
        "search:   {} nodes in {:.3} s ({:.2} M nodes/s), TT hit rate {:.1}%, TT {} MiB, {} thread{}",
        result.nodes,
        result.seconds,
        result.nodes as f64 / result.seconds.max(1e-9) / 1e6,
        100.0 * hit_rate,
        result.tt_bytes >> 20,
        cfg.threads,
        if cfg.threads == 1 { "" } else { "s" }
    )?;
    Ok(ExitCode::SUCCESS)
}

pub(super) fn analyze<R: Rules>(
    pos: &PositionArgs,
    search: &SearchArgs,
    rules: R,
    json: bool,
) -> Result<ExitCode> {
    let p = pos.position(rules)?;
    let started = Instant::now();
    let mut proven = Proven::default();
    let (moves, _) = run_search(&p, search, |f| f, |s| s.analyze_tracked(&p, &mut proven))?;
    let moves = match moves {
        Ok(()) => proven.valued,
        Err(stopped) => {
            return report_stopped_analysis(&p, &stopped, &proven, search.time_limit, json)
        }
    };
    // A move's value from the mover's view, turned into the final South-minus-North score.
    let finals: Vec<(u8, i32)> = moves
        .iter()
        .map(|&(m, v)| (m.0, p.final_value(v)))
        .collect();
    let mut out = std::io::stdout().lock();
    if json {
        let value = best_of(&p, &finals).unwrap_or_else(|| p.final_value(0));
        let best: Vec<u8> = finals
            .iter()
            .filter(|f| f.1 == value)
            .map(|f| f.0)
            .collect();
        let v = json::Analyze {
            head: json::PositionHead::of("analyze", &p),
            complete: true,
            verdict: json::Verdict::new(value, best),
            moves: json::MoveValue::list(&finals),
            seconds: started.elapsed().as_secs_f64(),
        };
        json::print(&mut out, &v)?;
        return Ok(ExitCode::SUCCESS);
    }
    writeln!(out, "position: {p}")?;
    match p.to_move() {
        None => writeln!(
            out,
            "the game is over: no moves (value {:+})",
            p.final_value(0)
        )?,
        Some(side) => {
            let best = best_of(&p, &finals);
            writeln!(
                out,
                "{side} to move; value of each move (final South minus North):"
            )?;
            for &(m, v) in &finals {
                let mark = if Some(v) == best { "  best" } else { "" };
                writeln!(out, "  {m:>2}  {v:+4}  {}{mark}", report::verdict(v))?;
            }
        }
    }
    writeln!(out, "time: {:.3} s", started.elapsed().as_secs_f64())?;
    Ok(ExitCode::SUCCESS)
}

/// The best of the moves' final values for the side to move; `None` when the game is over.
pub(super) fn best_of<R: Rules>(p: &Position<R>, finals: &[(u8, i32)]) -> Option<i32> {
    match p.to_move()? {
        Side::South => finals.iter().map(|f| f.1).max(),
        Side::North => finals.iter().map(|f| f.1).min(),
    }
}
