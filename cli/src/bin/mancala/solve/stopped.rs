//! What a stopped search proved, and how `solve` and `analyze` report it: bounds on the value,
//! the moves proven best or worse, each move's bounds (exit status 124 or 130).

use crate::fallback;
use crate::move_list::StillRelaying;
use anyhow::Result;
use mancala::board::Move;
use mancala::rules::Rules;
use mancala::stop::StopToken;
use mancala::Position;
use mancala_cli::watch::{OnSignal, Watcher};
use mancala_cli::{exit, json, report, signal};
use solver::search::Proven;
use solver::Game;
use std::io::Write;
use std::process::ExitCode;
use std::time::Duration;

/// The position of `pos` for `solve`/`analyze`, set up (its `--moves`, its `--load`ed record,
/// its normalising) under the time limit and the first Ctrl-C, as the search is: a sowing still
/// relaying then is reported and the command ends, 124 for the limit (`Err(status)`, the
/// message on stderr), 130 for a signal (an [`exit::Interrupted`] error).
pub(super) fn position_within<R: Rules>(
    pos: &crate::PositionArgs,
    search: &super::SearchArgs,
    rules: R,
) -> Result<Result<Position<R>, ExitCode>> {
    let stop = StopToken::new();
    let set_up = Watcher::new("sowing", OnSignal::Stop)
        .stop(stop.clone())
        .deadline(search.time_limit.map(Duration::from_secs_f64))
        .run(|| pos.position_until(rules, stop.as_stop()));
    match set_up {
        Ok(p) => Ok(Ok(p)),
        Err(e) => match e.downcast_ref::<StillRelaying>() {
            Some(r) if signal::interrupted() => {
                Err(anyhow::Error::new(exit::Interrupted(r.to_string())))
            }
            Some(r) => {
                eprintln!(
                    "error: {r} (the time limit of {} s)",
                    search.time_limit.unwrap_or(0.0)
                );
                Ok(Err(ExitCode::from(exit::TIME_OUT)))
            }
            None => Err(e),
        },
    }
}

/// A search stopped before it finished, and what it had proven by then.
pub(super) struct Stopped {
    /// Bounds on the final South-minus-North value.
    pub(super) lower: i32,
    pub(super) upper: i32,
    /// Ctrl-C rather than the time limit.
    pub(super) by_user: bool,
    pub(super) nodes: u64,
    pub(super) seconds: f64,
}

impl Stopped {
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

/// The winner when the bounds `[lower, upper]` on a final value alone decide it.
pub(crate) fn winner_within(lower: i32, upper: i32) -> Option<json::Winner> {
    json::Winner::of_known(Stopped::winner_of(lower, upper))
}

/// A stopped search's report, which says why it stopped.
pub(super) trait StopCaused {
    /// Why the search stopped.
    fn cause(&self) -> json::StopCause;
}

impl StopCaused for json::SolveStopped {
    fn cause(&self) -> json::StopCause {
        self.stopped
    }
}

impl StopCaused for json::AnalyzeStopped {
    fn cause(&self) -> json::StopCause {
        self.stopped
    }
}

/// The exit status of a stopped search: 130 for a signal, 124 for the time limit.
pub(super) fn stopped_exit_code(cause: json::StopCause) -> ExitCode {
    ExitCode::from(match cause {
        json::StopCause::Interrupt => exit::INTERRUPTED,
        json::StopCause::TimeLimit => exit::TIME_OUT,
    })
}

/// Why the search stopped, in words.
fn cause_words(cause: json::StopCause, limit: Option<f64>) -> String {
    match (cause, limit) {
        (json::StopCause::Interrupt, _) | (json::StopCause::TimeLimit, None) => {
            "interrupted (Ctrl-C or a termination signal)".to_string()
        }
        (json::StopCause::TimeLimit, Some(l)) => format!("stopped by the time limit of {l} s"),
    }
}

/// What a stopped `solve` proved: the bounds on the value (exact once the value phase ended),
/// the moves proven best or worse by then, and a move to play now when none is proven best.
pub(super) fn stopped_solve<R: Rules>(
    p: &Position<R>,
    stopped: &Stopped,
    proven: &Proven<<Position<R> as Game>::Move>,
) -> json::SolveStopped {
    let value = proven.value.map(|v| p.final_value(v));
    let (lower, upper) = value.map_or((stopped.lower, stopped.upper), |v| (v, v));
    let mut best: Vec<u8> = proven.best.iter().map(|m| m.0).collect();
    let best_proven = !best.is_empty();
    // A stopped solve still says what to play: a proven best move, or else the look-ahead's
    // (or, when that runs out of time, the first move whose sowing ends soon).
    let mut unfinished = Vec::new();
    if !best_proven {
        let pick = crate::fallback::pick(p, &proven.worse);
        best.extend(pick.mv().map(|m| m.0));
        unfinished = pick.unfinished().iter().map(|m| m.0).collect();
    }
    json::SolveStopped {
        head: json::PositionHead::of("solve", p),
        complete: false,
        stopped: stopped.stop_cause(),
        value,
        lower,
        upper,
        winner: winner_within(lower, upper),
        best,
        best_proven,
        worse: proven.worse.iter().map(|m| m.0).collect(),
        unfinished,
        nodes: stopped.nodes,
        seconds: stopped.seconds,
    }
}

/// A stopped `solve` in words.
pub(super) fn print_stopped_solve<R: Rules>(
    out: &mut impl Write,
    p: &Position<R>,
    v: &json::SolveStopped,
    limit: Option<f64>,
) -> Result<()> {
    let (proven_best, pick): (&[u8], Option<u8>) = if v.best_proven {
        (&v.best, None)
    } else {
        (&[], v.best.first().copied())
    };
    writeln!(out, "position: {p}")?;
    match v.value {
        Some(value) => writeln!(
            out,
            "value:    {value:+} ({} under perfect play; final South minus North)",
            report::verdict(value)
        )?,
        None => writeln!(
            out,
            "value:    in [{:+}, {:+}] (final South minus North; proven so far{})",
            v.lower,
            v.upper,
            decided(v.winner)
        )?,
    }
    if v.value.is_some() {
        // The moves were all sown once by the search that proved the value, but their
        // sowings are sown again here: under the pick's budget, like every sowing after a stop.
        let moves = legal_moves_within(p).unwrap_or_default();
        let untested: Vec<u8> = moves
            .into_iter()
            .filter(|m| !proven_best.contains(m) && !v.worse.contains(m))
            .collect();
        if v.best_proven {
            writeln!(
                out,
                "best:     {} (proven so far)",
                list_or_none(proven_best)
            )?;
        }
        writeln!(out, "worse:    {}", list_or_none(&v.worse))?;
        if !untested.is_empty() {
            writeln!(out, "untested: {}", list_or_none(&untested))?;
        }
    }
    let among = if v.worse.is_empty() {
        ""
    } else {
        " among the moves not proven worse"
    };
    let unfinished: Vec<Move> = v.unfinished.iter().map(|&m| Move(m)).collect();
    match pick {
        Some(m) if unfinished.is_empty() => writeln!(
            out,
            "move:     {m} (to play now, not proven best: the pick of the deepest look-ahead finished in {} s{among})",
            (fallback::BUDGET / 2).as_secs_f64(),
        )?,
        Some(m) => writeln!(
            out,
            "move:     {m} (to play now, not proven best: the first move whose sowing ended{among}; {})",
            fallback::unfinished_words(&unfinished)
        )?,
        None if !v.best_proven && !p.is_over() => writeln!(
            out,
            "move:     cannot play now: {}",
            fallback::unfinished_words(&unfinished)
        )?,
        None => {}
    }
    writeln!(
        out,
        "search:   {} after {:.1} s, {} nodes: {}",
        cause_words(v.stopped, limit),
        v.seconds,
        v.nodes,
        if v.value.is_some() {
            "value solved, best moves or principal variation not finished"
        } else {
            "not solved"
        }
    )?;
    Ok(())
}

/// A stopped `analyze` in words: the moves are valued in order, so the first one without a
/// value is the one the search was valuing.
pub(super) fn print_stopped_analysis<R: Rules>(
    out: &mut impl Write,
    p: &Position<R>,
    v: &json::AnalyzeStopped,
    limit: Option<f64>,
) -> Result<()> {
    writeln!(out, "position: {p}")?;
    let valued = v.moves.iter().filter(|m| m.value.is_some()).count();
    if let Some(side) = p.to_move() {
        writeln!(
            out,
            "{side} to move; value of each move (final South minus North), proven so far:"
        )?;
        for (i, m) in v.moves.iter().enumerate() {
            match m.value {
                Some(a) => writeln!(out, "  {:>2}  {a:+4}  {}", m.pit, report::verdict(a))?,
                None if i == valued => writeln!(
                    out,
                    "  {:>2}  in [{:+}, {:+}] (being valued)",
                    m.pit, m.lower, m.upper
                )?,
                None => writeln!(out, "  {:>2}  not valued", m.pit)?,
            }
        }
    }
    writeln!(
        out,
        "value:    in [{:+}, {:+}] (proven so far{})",
        v.lower,
        v.upper,
        decided(v.winner)
    )?;
    let unfinished: Vec<Move> = v.unfinished.iter().map(|&m| Move(m)).collect();
    match v.best.first() {
        Some(_) if v.best_proven => writeln!(out, "best:     {}", list_or_none(&v.best))?,
        Some(m) => writeln!(
            out,
            "move:     {m} (to play now, not proven best: the pick of the deepest look-ahead finished in {} s among the moves not proven worse)",
            (fallback::BUDGET / 2).as_secs_f64(),
        )?,
        None if !unfinished.is_empty() => writeln!(
            out,
            "move:     cannot play now: {}",
            fallback::unfinished_words(&unfinished)
        )?,
        None => {}
    }
    writeln!(
        out,
        "search:   {} after {:.1} s, {} nodes: {} of {} moves valued",
        cause_words(v.stopped, limit),
        v.seconds,
        v.nodes,
        valued,
        v.moves.len()
    )?;
    Ok(())
}

/// "; South wins" or "; North wins" when bounds decide the winner, else nothing.
fn decided(winner: Option<json::Winner>) -> &'static str {
    match winner {
        Some(json::Winner::South) => "; South wins",
        Some(json::Winner::North) => "; North wins",
        _ => "",
    }
}

/// The legal moves of `p`, or `None` when a sowing did not end within [`fallback::BUDGET`].
fn legal_moves_within<R: Rules>(p: &Position<R>) -> Option<Vec<u8>> {
    fallback::within(fallback::BUDGET, |stop| p.legal_moves_until(stop).ok())
        .map(|l| l.as_slice().iter().map(|m| m.0).collect())
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

/// What a stopped analysis by the [`Analyzer`](mancala::answers::Analyzer) proved: each move's
/// exact value or bounds, and bounds on the position.
pub(super) fn stopped_analysis_of<R: Rules>(
    p: &Position<R>,
    a: &mancala::answers::Analysis,
    by_user: bool,
    seconds: f64,
) -> json::AnalyzeStopped {
    let moves = a
        .moves
        .iter()
        .map(|m| json::MoveBounds {
            pit: m.mv.0,
            value: m.value.value(),
            lower: m.value.lower,
            upper: m.value.upper,
        })
        .collect();
    let (lower, upper) = (a.value.lower, a.value.upper);
    let (best, best_proven, unfinished) = to_play(p, a);
    json::AnalyzeStopped {
        head: json::PositionHead::of("analyze", p),
        complete: false,
        stopped: if by_user {
            json::StopCause::Interrupt
        } else {
            json::StopCause::TimeLimit
        },
        lower,
        upper,
        winner: winner_within(lower, upper),
        moves,
        best,
        best_proven,
        unfinished,
        nodes: a.nodes,
        seconds,
    }
}

/// What a stopped analysis says to play: the moves proven best (valued exactly, and no other
/// move's upper bound above), else the look-ahead's pick among the moves not proven worse
/// ([`fallback::pick`]), with the moves whose sowing did not end in time.
fn to_play<R: Rules>(p: &Position<R>, a: &mancala::answers::Analysis) -> (Vec<u8>, bool, Vec<u8>) {
    let Some(side) = p.to_move() else {
        return (Vec::new(), false, Vec::new());
    };
    // Larger is better for the mover.
    let own = |v: i32| side.sign() * v;
    // A move's bounds from the mover's view: (lower, upper).
    let view = |m: &mancala::answers::MoveAnswer| {
        let (a, b) = (own(m.value.lower), own(m.value.upper));
        (a.min(b), a.max(b))
    };
    let floor = a.moves.iter().map(|m| view(m).0).max();
    let Some(floor) = floor else {
        return (Vec::new(), false, Vec::new());
    };
    let proven: Vec<u8> = a
        .moves
        .iter()
        .filter(|m| {
            m.value.is_exact() && view(m).0 == floor && a.moves.iter().all(|o| view(o).1 <= floor)
        })
        .map(|m| m.mv.0)
        .collect();
    if !proven.is_empty() {
        return (proven, true, Vec::new());
    }
    let worse: Vec<Move> = a
        .moves
        .iter()
        .filter(|m| view(m).1 < floor)
        .map(|m| m.mv)
        .collect();
    let pick = fallback::pick(p, &worse);
    (
        pick.mv().map(|m| m.0).into_iter().collect(),
        false,
        pick.unfinished().iter().map(|m| m.0).collect(),
    )
}
