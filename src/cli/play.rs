//! `show`, `play` and `moves`.

use super::{draw, json, PositionArgs};
use anyhow::Result;
use mancala::rules::Rules;
use serde_json::json;
use std::io::Write;
use std::process::ExitCode;

pub(super) fn show<R: Rules>(args: &PositionArgs, rules: R) -> Result<ExitCode> {
    let p = args.position(rules)?;
    let mut out = std::io::stdout().lock();
    out.write_all(draw(&p).as_bytes())?;
    Ok(ExitCode::SUCCESS)
}

pub(super) fn play<R: Rules>(args: &PositionArgs, rules: R, json: bool) -> Result<ExitCode> {
    let p = args.position(rules)?;
    let mut out = std::io::stdout().lock();
    if json {
        let v = json::about_position(
            "play",
            &p,
            json!({
                "score": p.score(),
                "over": p.is_over(),
                "winner": if p.is_over() { json::winner(Some(p.final_value(0))) } else { serde_json::Value::Null },
            }),
        );
        writeln!(out, "{v}")?;
    } else {
        out.write_all(draw(&p).as_bytes())?;
    }
    Ok(ExitCode::SUCCESS)
}

pub(super) fn moves<R: Rules>(args: &PositionArgs, rules: R, json: bool) -> Result<ExitCode> {
    let p = args.position(rules)?;
    let mut list = Vec::new();
    p.for_each_child(|m, q| list.push((m, q)));
    let mut out = std::io::stdout().lock();
    if json {
        let moves: Vec<_> = list
            .iter()
            .map(|(m, q)| json!({"move": m.0, "position": q.to_string()}))
            .collect();
        writeln!(
            out,
            "{}",
            json::about_position("moves", &p, json!({ "moves": moves }))
        )?;
        return Ok(ExitCode::SUCCESS);
    }
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
