//! What a stopped search proved, and how `solve` and `analyze` report it: bounds on the value,
//! the moves proven best or worse, each move's bounds (exit status 124 or 130).

use anyhow::Result;
use mancala::rules::Rules;
use mancala::Position;
use mancala_cli::{exit, json, report};
use solver::search::Proven;
use solver::{Children, Game};
use std::io::Write;
use std::process::ExitCode;

/// A search stopped before it finished, and what it had proven by then.
pub(super) struct Stopped {
    /// Bounds on the final South-minus-North value.
    pub(super) lower: i32,
    pub(super) upper: i32,
    /// The same bounds as the search has them: on the future value of the position it was
    /// solving (for `analyze`, the child being valued).
    pub(super) future: (i32, i32),
    /// Ctrl-C rather than the time limit.
    pub(super) by_user: bool,
    pub(super) nodes: u64,
    pub(super) seconds: f64,
}

impl Stopped {
    fn exit_code(&self) -> ExitCode {
        ExitCode::from(if self.by_user {
            exit::INTERRUPTED
        } else {
            exit::TIME_OUT
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

/// What a stopped `solve` proved: the bounds on the value (exact once the value phase ended),
/// the moves proven best or worse by then, in words or as JSON.
pub(super) fn report_stopped<R: Rules>(
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
pub(super) fn report_stopped_analysis<R: Rules>(
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
