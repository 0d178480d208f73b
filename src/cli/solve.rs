//! `solve` and `analyze`: exact values from the game-agnostic search.

use super::{engine, json, move_list, report, PositionArgs};
use anyhow::Result;
use clap::Args;
use mancala::board::Side;
use mancala::rules::Rules;
use mancala::Position;
use solver::search::{Progress, Proven, SearchConfig, SearchError, Solver};
use solver::{Children, Game};
use std::io::{IsTerminal, Write};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Search settings shared by `solve` and `analyze`.
#[derive(Args, Debug, Clone)]
pub struct SearchArgs {
    /// Search threads (default: all cores).
    #[arg(long)]
    threads: Option<usize>,
    /// Transposition table size in MiB (default 256; smaller boards use only what they can fill).
    #[arg(long)]
    hash_mb: Option<u64>,
    /// Show a progress line on stderr even when it is not a terminal.
    #[arg(long)]
    progress: bool,
    /// Probe the endgame tables in DIR (built by `mancala tables build`) at every node; without
    /// DIR, the default table directory (write `--tables=DIR` before the game's name).
    #[arg(long, value_name = "DIR", num_args = 0..=1, require_equals = false)]
    tables: Option<Option<std::path::PathBuf>>,
    /// Use the wide (16-byte) table entries even where the narrow ones would do (for measuring
    /// the wide path; values are the same).
    #[arg(long, hide = true)]
    wide_table: bool,
    /// Stop after SECS seconds and print what is proven: bounds on the value (exit status 124).
    #[arg(long, value_parser = super::verify::parse_seconds, value_name = "SECS", allow_negative_numbers = true)]
    time_limit: Option<f64>,
}

/// The exit status of a search stopped by `--time-limit` (as `timeout(1)` exits).
pub const EXIT_TIME_OUT: u8 = 124;

/// The exit status of a search stopped by Ctrl-C (128 + SIGINT, as a shell reports it).
pub const EXIT_INTERRUPTED: u8 = 130;

/// A search stopped before it finished, and what it had proven by then.
struct Stopped {
    /// Bounds on the final South-minus-North value.
    lower: i32,
    upper: i32,
    /// The same bounds as the search has them: on the future value of the position it was
    /// solving (for `analyze`, the child being valued).
    future: (i32, i32),
    /// Ctrl-C rather than the time limit.
    by_user: bool,
    nodes: u64,
    seconds: f64,
}

impl Stopped {
    fn exit_code(&self) -> ExitCode {
        ExitCode::from(if self.by_user {
            EXIT_INTERRUPTED
        } else {
            EXIT_TIME_OUT
        })
    }

    fn cause(&self, limit: Option<f64>) -> String {
        match (self.by_user, limit) {
            (true, _) | (false, None) => "interrupted (Ctrl-C or a termination signal)".to_string(),
            (false, Some(l)) => format!("stopped by the time limit of {l} s"),
        }
    }

    /// The winner (+1 South, -1 North) when the bounds `[lower, upper]` alone decide it.
    fn winner_of(lower: i32, upper: i32) -> Option<i32> {
        if lower > 0 {
            Some(1)
        } else if upper < 0 {
            Some(-1)
        } else {
            None
        }
    }

    fn stop_cause(&self) -> json::StopCause {
        if self.by_user {
            json::StopCause::Interrupt
        } else {
            json::StopCause::TimeLimit
        }
    }
}

impl SearchArgs {
    /// The search configuration for `root`, with the table sized to what the position can use
    /// and what the machine can give.
    pub(super) fn config<G: solver::Game>(&self, root: &G) -> Result<SearchConfig> {
        let threads = engine::threads(self.threads)?;
        let asked = engine::hash_bytes(self.hash_mb)?;
        Ok(SearchConfig {
            threads,
            tt_bytes: engine::tt_bytes(root, asked),
            wide_table: self.wide_table,
            ..SearchConfig::default()
        })
    }

    /// The table directory of `--tables`, the default one when no DIR is given.
    pub(super) fn tables_dir(&self) -> Option<std::path::PathBuf> {
        self.tables
            .as_ref()
            .map(|d| d.clone().unwrap_or_else(mancala::endgame::default_dir))
    }

    fn wants_progress(&self) -> bool {
        self.progress || std::io::stderr().is_terminal()
    }
}

/// Runs `work` with a progress line on stderr (after the first second) when asked.
fn with_progress<T>(
    show: bool,
    cfg: &SearchConfig,
    progress: &Progress,
    to_final: impl Fn(i32) -> i32 + Send + Sync,
    work: impl FnOnce(&SearchConfig) -> T,
) -> T {
    if !show {
        return work(cfg);
    }
    let done = Arc::new(AtomicBool::new(false));
    let started = Instant::now();
    std::thread::scope(|s| {
        let d = done.clone();
        let to_final = &to_final;
        s.spawn(move || {
            // On a terminal, a spinner line redrawn in place; elsewhere (a log file, CI) indicatif
            // draws nothing, so write a plain line every ten seconds instead.
            let terminal = std::io::stderr().is_terminal();
            let bar = indicatif::ProgressBar::new_spinner();
            bar.set_draw_target(indicatif::ProgressDrawTarget::stderr());
            let mut shown = false;
            let mut next_line = 10.0;
            while !d.load(Ordering::Relaxed) {
                std::thread::sleep(Duration::from_millis(100));
                let t = started.elapsed().as_secs_f64();
                if t < 1.0 {
                    continue;
                }
                let (lo, hi) = progress.bounds();
                let (a, b) = (
                    to_final(lo).min(to_final(hi)),
                    to_final(lo).max(to_final(hi)),
                );
                let nodes = progress.nodes();
                let line = format!(
                    "{t:.0} s, {nodes} nodes ({:.2} M/s), value in [{a:+}, {b:+}]",
                    nodes as f64 / t / 1e6
                );
                if terminal {
                    shown = true;
                    bar.set_message(line);
                    bar.tick();
                } else if t >= next_line {
                    next_line += 10.0;
                    eprintln!("progress: {line}");
                }
            }
            if shown {
                bar.finish_and_clear();
            }
        });
        // Set even when `work` panics, or the scope would wait for the display thread forever.
        let _done = SetOnDrop(&done);
        work(cfg)
    })
}

/// Raises its flag when dropped.
struct SetOnDrop<'a>(&'a AtomicBool);

impl Drop for SetOnDrop<'_> {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

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
    let result = engine::with_deadline(limit, &stop, || {
        with_progress(search.wants_progress(), &cfg, &progress, &to_final, |cfg| {
            Solver::new(p, cfg.clone(), oracle).and_then(|mut s| job(&mut s))
        })
    });
    let result = match result {
        Ok(r) => Ok(r),
        Err(SearchError::Interrupted) => {
            let (lo, hi) = progress.bounds();
            let (a, b) = (to_final(lo), to_final(hi));
            Err(Stopped {
                lower: a.min(b),
                upper: a.max(b),
                future: (lo, hi),
                by_user: engine::interrupted(),
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
            value,
            winner: json::Winner::of(value),
            best,
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

/// What a stopped `solve` proved: the bounds on the value (exact once the value phase ended),
/// the moves proven best or worse by then, in words or as JSON.
fn report_stopped<R: Rules>(
    p: &Position<R>,
    stopped: &Stopped,
    proven: &Proven<<Position<R> as Game>::Move>,
    limit: Option<f64>,
    json: bool,
) -> Result<ExitCode> {
    let mut out = std::io::stdout().lock();
    let cause = stopped.cause(limit);
    let value = proven.value.map(|v| p.final_value(v));
    let (lower, upper) = value.map_or((stopped.lower, stopped.upper), |v| (v, v));
    let best: Vec<u8> = proven.best.iter().map(|m| m.0).collect();
    let worse: Vec<u8> = proven.worse.iter().map(|m| m.0).collect();
    let winner = Stopped::winner_of(lower, upper);
    if json {
        let v = json::SolveStopped {
            head: json::PositionHead::of("solve", p),
            complete: false,
            stopped: stopped.stop_cause(),
            value,
            lower,
            upper,
            winner: json::Winner::of_known(winner),
            best,
            worse,
            nodes: stopped.nodes,
            seconds: stopped.seconds,
        };
        json::print(&mut out, &v)?;
        return Ok(stopped.exit_code());
    }
    writeln!(out, "position: {p}")?;
    match value {
        Some(v) => writeln!(
            out,
            "value:    {v:+} ({} under perfect play; final South minus North)",
            report::verdict(v)
        )?,
        None => writeln!(
            out,
            "value:    in [{lower:+}, {upper:+}] (final South minus North; proven so far{})",
            decided(winner)
        )?,
    }
    if value.is_some() {
        let mut children = Children::new();
        p.children(&mut children);
        let untested: Vec<u8> = children
            .as_slice()
            .iter()
            .map(|c| c.mv.0)
            .filter(|m| !best.contains(m) && !worse.contains(m))
            .collect();
        writeln!(out, "best:     {} (proven so far)", list_or_none(&best))?;
        writeln!(out, "worse:    {}", list_or_none(&worse))?;
        if !untested.is_empty() {
            writeln!(out, "untested: {}", list_or_none(&untested))?;
        }
    }
    writeln!(
        out,
        "search:   {cause} after {:.1} s, {} nodes: {}",
        stopped.seconds,
        stopped.nodes,
        if value.is_some() {
            "value solved, best moves or principal variation not finished"
        } else {
            "not solved"
        }
    )?;
    Ok(stopped.exit_code())
}

/// What a stopped `analyze` proved: the exact value of each move it finished, bounds on the
/// move it was valuing and on the position, in words or as JSON.
fn report_stopped_analysis<R: Rules>(
    p: &Position<R>,
    stopped: &Stopped,
    proven: &Proven<<Position<R> as Game>::Move>,
    limit: Option<f64>,
    json: bool,
) -> Result<ExitCode> {
    let mut children = Children::new();
    p.children(&mut children);
    // Each move's bounds from the mover's view: exact when valued; the search's bounds for the
    // one being valued; the child's whole range for the rest.
    let bounds: Vec<(u8, i32, i32, bool)> = children
        .as_slice()
        .iter()
        .enumerate()
        .map(|(i, c)| {
            if let Some(&(_, v)) = proven.valued.get(i) {
                return (c.mv.0, v, v, true);
            }
            let (lo, hi) = if i == proven.valued.len() {
                stopped.future
            } else {
                let s = c.next.stake();
                (-s, s)
            };
            let (a, b) = if c.turn_passed {
                (c.gain - hi, c.gain - lo)
            } else {
                (c.gain + lo, c.gain + hi)
            };
            (c.mv.0, a, b, false)
        })
        .collect();
    // To final South-minus-North values (North's view flips the order).
    let finals: Vec<(u8, i32, i32, bool)> = bounds
        .iter()
        .map(|&(m, a, b, exact)| {
            let (x, y) = (p.final_value(a), p.final_value(b));
            (m, x.min(y), x.max(y), exact)
        })
        .collect();
    let lower_mover = bounds.iter().map(|b| b.1).max();
    let upper_mover = bounds.iter().map(|b| b.2).max();
    let (lower, upper) = match (lower_mover, upper_mover) {
        (Some(a), Some(b)) => {
            let (x, y) = (p.final_value(a), p.final_value(b));
            (x.min(y), x.max(y))
        }
        _ => (p.final_value(0), p.final_value(0)),
    };
    let winner = Stopped::winner_of(lower, upper);
    let mut out = std::io::stdout().lock();
    if json {
        let v = json::AnalyzeStopped {
            head: json::PositionHead::of("analyze", p),
            complete: false,
            stopped: stopped.stop_cause(),
            lower,
            upper,
            winner: json::Winner::of_known(winner),
            moves: finals
                .iter()
                .map(|&(pit, lower, upper, exact)| json::MoveBounds {
                    pit,
                    value: exact.then_some(lower),
                    lower,
                    upper,
                })
                .collect(),
            nodes: stopped.nodes,
            seconds: stopped.seconds,
        };
        json::print(&mut out, &v)?;
        return Ok(stopped.exit_code());
    }
    writeln!(out, "position: {p}")?;
    if let Some(side) = p.to_move() {
        writeln!(
            out,
            "{side} to move; value of each move (final South minus North), proven so far:"
        )?;
        for (i, &(m, a, b, exact)) in finals.iter().enumerate() {
            if exact {
                writeln!(out, "  {m:>2}  {a:+4}  {}", report::verdict(a))?;
            } else if i == proven.valued.len() {
                writeln!(out, "  {m:>2}  in [{a:+}, {b:+}] (being valued)")?;
            } else {
                writeln!(out, "  {m:>2}  not valued")?;
            }
        }
    }
    writeln!(
        out,
        "value:    in [{lower:+}, {upper:+}] (proven so far{})",
        decided(winner)
    )?;
    writeln!(
        out,
        "search:   {} after {:.1} s, {} nodes: {} of {} moves valued",
        stopped.cause(limit),
        stopped.seconds,
        stopped.nodes,
        proven.valued.len(),
        finals.len()
    )?;
    Ok(stopped.exit_code())
}

/// "; South wins" or "; North wins" when bounds decide the winner (+1 or -1), else nothing.
fn decided(winner: Option<i32>) -> &'static str {
    match winner {
        Some(1) => "; South wins",
        Some(_) => "; North wins",
        None => "",
    }
}

/// Moves separated by spaces, or "none".
fn list_or_none(moves: &[u8]) -> String {
    if moves.is_empty() {
        "none".to_string()
    } else {
        moves
            .iter()
            .map(u8::to_string)
            .collect::<Vec<_>>()
            .join(" ")
    }
}
