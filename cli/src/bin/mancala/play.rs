//! `show`, `play` and `moves`.

use super::{draw, json, PositionArgs};
use crate::move_list::StillRelaying;
use anyhow::Result;
use mancala::rules::Rules;
use mancala::stop::Stop;
use mancala::Position;
use std::io::Write;
use std::process::ExitCode;

pub(super) fn show<R: Rules>(args: &PositionArgs, rules: R) -> Result<ExitCode> {
    let p = args.position(rules)?;
    let mut out = std::io::stdout().lock();
    out.write_all(draw(&p).as_bytes())?;
    Ok(ExitCode::SUCCESS)
}

pub(super) fn play<R: Rules>(
    args: &PositionArgs,
    rules: R,
    json: bool,
    record: Option<&std::path::Path>,
) -> Result<ExitCode> {
    let line = args.game_line(rules)?;
    if let Some(file) = record {
        super::record::Record::of(&line.start, &line.moves).write(file)?;
    }
    let p = line.end;
    let mut out = std::io::stdout().lock();
    if json {
        json::print(&mut out, &play_json(&p))?;
    } else {
        out.write_all(draw(&p).as_bytes())?;
    }
    Ok(ExitCode::SUCCESS)
}

/// `p` as `play --json` prints it (and the server's `/api/play` answers).
pub(crate) fn play_json<R: Rules>(p: &Position<R>) -> json::Play {
    json::Play {
        head: json::PositionHead::of("play", p),
        score: p.score(),
        over: p.is_over(),
        winner: p.is_over().then(|| json::Winner::of(p.final_value(0))),
    }
}

/// The legal moves of `p` as `moves --json` prints them (and `/api/moves` answers).
pub(crate) fn moves_json<R: Rules>(p: &Position<R>) -> json::Moves {
    match moves_json_until(p, Stop::never()) {
        Ok(m) => m,
        Err(_) => unreachable!("a sowing nobody can stop was abandoned"),
    }
}

/// [`moves_json`] that gives up once `stop` is raised inside a long sowing (the server's time
/// limit or a closed connection), naming the move whose sowing was still relaying.
pub(crate) fn moves_json_until<R: Rules>(
    p: &Position<R>,
    stop: Stop<'_>,
) -> Result<json::Moves, StillRelaying> {
    let mut moves = Vec::new();
    p.for_each_child_until(stop, |m, q| {
        moves.push(json::Child {
            pit: m.0,
            position: q.to_string(),
        })
    })
    .map_err(|_| {
        StillRelaying::new(&format!(
            "listing the moves of {p} (those after {})",
            moves
                .last()
                .map_or("none".to_string(), |m| m.pit.to_string())
        ))
    })?;
    Ok(json::Moves {
        head: json::PositionHead::of("moves", p),
        moves,
    })
}

pub(super) fn moves<R: Rules>(args: &PositionArgs, rules: R, json: bool) -> Result<ExitCode> {
    let p = args.position(rules)?;
    let mut out = std::io::stdout().lock();
    if json {
        json::print(&mut out, &moves_json(&p))?;
        return Ok(ExitCode::SUCCESS);
    }
    let mut list = Vec::new();
    p.for_each_child(|m, q| list.push((m, q)));
    writeln!(out, "position: {p}")?;
    match p.to_move() {
        None => writeln!(out, "the game is over: no moves")?,
        Some(side) => {
            writeln!(
                out,
                "{side} to move, {} legal move{}:",
                list.len(),
                if list.len() == 1 { "" } else { "s" }
            )?;
            for (m, q) in &list {
                let note = match q.to_move() {
                    None => "  (game over)",
                    Some(s) if s == side => "  (moves again)",
                    Some(_) => "",
                };
                writeln!(out, "  {m:>2}  {q}{note}")?;
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}
