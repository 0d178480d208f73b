//! `verify opening`: the first player's whole first turn, searched exhaustively.

use super::limited::{solve_limited, Engine, EngineArgs};
use crate::PositionArgs;
use anyhow::Result;
use clap::Args;
use mancala::board::Move;
use mancala::opening::{self, Count};
use mancala::rules::Rules;
use mancala::stop::StopToken;
use mancala_cli::args::parse_seconds;
use mancala_cli::exit::Interrupted;
use mancala_cli::json;
use mancala_cli::report::{moves_text, verdict};
use mancala_cli::signal;
use mancala_cli::watch::{OnSignal, Watcher};
use std::io::Write;
use std::process::ExitCode;

#[derive(Args, Debug)]
pub(super) struct OpeningArgs {
    #[command(flatten)]
    pub(super) pos: PositionArgs,
    /// Also solve the full game (value under perfect play), within --time-limit.
    #[arg(long)]
    solve: bool,
    /// Give the first-turn search, and the full-game search of --solve, at most SECS seconds
    /// each (default 60); a stopped search reports what it proved (lower bounds, marked).
    #[arg(long, value_parser = parse_seconds, value_name = "SECS", allow_negative_numbers = true)]
    time_limit: Option<f64>,
    #[command(flatten)]
    engine: EngineArgs,
    /// Print {"winning","count","total","shortest","best","max_store","complete",...}; counts
    /// beyond 2^64 - 1 are decimal strings; count and total are null when the search stopped.
    #[arg(long)]
    json: bool,
}

pub(super) fn run<R: Rules>(a: &OpeningArgs, rules: R) -> Result<ExitCode> {
    let p = a.pos.position(rules)?;
    let limit = a.time_limit.unwrap_or(60.0);
    let engine = Engine::new(&a.engine, Some(limit))?;
    let stop = StopToken::new();
    let limits = opening::Limits {
        cache_entries: 1 << 20,
        stop: Some(stop.clone()),
    };
    let r = Watcher::new("the first-turn search", OnSignal::Stop)
        .stop(stop.clone())
        .deadline(engine.limit)
        .run(|| opening::search(&p, &limits))?;
    if signal::interrupted() {
        return Err(Interrupted("the search was stopped before it finished".into()).into());
    }
    let full = if a.solve {
        Some(solve_limited(&p, &engine, None)?)
    } else {
        None
    };
    let mv = |m: &[Move]| m.iter().map(|m| m.0).collect::<Vec<u8>>();
    let end_store = |moves: &[Move]| -> u32 {
        let mut q = p;
        for &m in moves {
            q = q.play_unchecked(m);
        }
        q.score()[r.mover.index()]
    };
    let mut out = std::io::stdout().lock();
    if a.json {
        let exact = |c: &Count| r.complete.then(|| c.into());
        let bound = |c: &Count| (!r.complete).then(|| c.into());
        let v = json::Opening {
            head: json::PositionHead::of("verify opening", &p),
            total_seeds: r.total_seeds,
            complete: r.complete,
            winning: r.winning,
            count: exact(&r.count),
            total: exact(&r.total),
            count_at_least: bound(&r.count),
            total_at_least: bound(&r.total),
            shortest: r.shortest.as_deref().map(mv),
            best_turn: mv(&r.best),
            max_store: r.max_store,
            nodes: r.nodes,
            edges: r.edges,
            seconds: r.seconds,
            value: full.as_ref().map(|f| f.value),
            winner: full.as_ref().map(|f| json::Winner::of_known(f.value)),
            value_seconds: full.as_ref().map(|f| f.seconds),
        };
        json::print(&mut out, &v)?;
        return Ok(ExitCode::SUCCESS);
    }
    let mut game = R::KIND.name().to_string();
    for o in rules.option_names() {
        game.push_str(" --");
        game.push_str(o);
    }
    let (board, size) = match &a.pos.position {
        _ if !a.pos.moves.is_empty() => (format!("--position {p}"), format!("position {p}")),
        Some(text) => (format!("--position {text}"), format!("position {p}")),
        None => {
            let (h, s) = (p.board().holes, p.board().pit_slice()[0]);
            (format!("--holes {h} --seeds {s}"), format!("{h}x{s} start"))
        }
    };
    let replay = |moves: &[Move]| {
        format!(
            "mancala play {game} {board} --moves {}",
            moves_text(&mv(moves), ",")
        )
    };
    let cut = if r.complete {
        String::new()
    } else {
        format!(" (search stopped after {limit} s: a lower bound)")
    };
    let at_least = if r.complete { "" } else { "at least " };
    writeln!(
        out,
        "First turn of {} in {game}, {size}: {} seeds in all; a win needs {} in {}'s store.",
        r.mover,
        r.total_seeds,
        r.seeds_needed(),
        r.mover
    )?;
    let yes_no = match r.winning {
        Some(true) => "yes",
        Some(false) => "no",
        None => "unknown (search stopped)",
    };
    writeln!(out, "winning first turn exists: {yes_no}")?;
    writeln!(
        out,
        "winning first turns:       {at_least}{} (distinct move sequences){cut}",
        r.count
    )?;
    writeln!(out, "first turns in all:        {at_least}{}", r.total)?;
    match &r.shortest {
        Some(m) => writeln!(
            out,
            "shortest winning:          {} ({} moves, store {})",
            moves_text(&mv(m), ","),
            m.len(),
            end_store(m)
        )?,
        None if r.winning == Some(false) => writeln!(out, "shortest winning:          none")?,
        None => writeln!(out, "shortest winning:          unknown (search stopped)")?,
    }
    writeln!(
        out,
        "best (largest store):      {} ({} moves, store {}){}",
        moves_text(&mv(&r.best), ","),
        r.best.len(),
        r.max_store,
        if r.complete {
            ""
        } else {
            " (best found before the search stopped)"
        }
    )?;
    writeln!(
        out,
        "largest store reachable:   {at_least}{} of {} (start {})",
        r.max_store, r.total_seeds, r.start_store
    )?;
    writeln!(
        out,
        "search:                    {} positions, {} moves, {:.3} s",
        r.nodes, r.edges, r.seconds
    )?;
    if let Some(f) = &full {
        match f.value {
            Some(v) => writeln!(
                out,
                "full game:                 value {v:+} ({} under perfect play), {:.2} s",
                verdict(v),
                f.seconds
            )?,
            None => writeln!(
                out,
                "full game:                 unknown (not solved within {limit} s)"
            )?,
        }
    }
    let first = r.mover;
    let verdict = match r.winning {
        Some(true) => format!(
            "{first} wins outright in the first turn ({at_least}{} distinct winning turns); certificate: {}",
            r.count,
            replay(r.shortest.as_deref().unwrap_or(&r.best))
        ),
        Some(false) => format!(
            "no first turn wins outright: the most {first} can bank is {} of the {} needed",
            r.max_store,
            r.seeds_needed()
        ),
        None => "unknown: the search stopped before finding a winning first turn or ruling one out".to_string(),
    };
    let full_text = match full.as_ref().and_then(|f| f.value) {
        Some(v) if r.winning != Some(true) => {
            let sign = first.sign() * v;
            let how = match sign.cmp(&0) {
                std::cmp::Ordering::Greater => "still wins",
                std::cmp::Ordering::Less => "loses",
                std::cmp::Ordering::Equal => "draws",
            };
            format!("; under perfect play the first player {how} (value {v:+})")
        }
        _ => String::new(),
    };
    writeln!(out, "verdict: {verdict}{full_text}")?;
    if r.winning == Some(true) {
        writeln!(out, "best certificate: {}", replay(&r.best))?;
    }
    Ok(ExitCode::SUCCESS)
}
