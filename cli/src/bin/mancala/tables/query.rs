//! `tables query`: a position's value and best moves from the tables.

use super::DirArgs;
use crate::PositionArgs;
use anyhow::Result;
use clap::Args;
use mancala::endgame::{open, Hold};
use mancala::rules::Rules;
use mancala_cli::{json, report};
use std::io::Write;
use std::process::ExitCode;

#[derive(Args, Debug)]
pub(super) struct QueryArgs {
    #[command(flatten)]
    pos: PositionArgs,
    #[command(flatten)]
    dir: DirArgs,
    /// Print one JSON object: {"position","to_move","value","future","best","moves"}.
    #[arg(long)]
    json: bool,
}

/// Runs `tables query`.
pub(super) fn run(a: &QueryArgs) -> Result<ExitCode> {
    let v = a.pos.variant()?;
    mancala::with_rules!(v, r => query(a, r))
}

fn query<R: Rules>(a: &QueryArgs, rules: R) -> Result<ExitCode> {
    let p = a.pos.position(rules)?;
    let layer = solver::Game::layer(&p);
    let tb = open(&a.dir.dir(), rules, p.board().holes, layer, Hold::Mapped)?;
    let (future, best) = tb.best_moves(&p)?;
    let moves = tb.move_values(&p)?;
    let value = p.final_value(future);
    let best: Vec<u8> = best.iter().map(|m| m.0).collect();
    // A move's value for its mover, as the final South-minus-North score.
    let finals: Vec<(u8, i32)> = moves
        .iter()
        .map(|&(m, v)| (m.0, p.final_value(v)))
        .collect();
    let mut out = std::io::stdout().lock();
    if a.json {
        let v = json::TablesQuery {
            head: json::PositionHead::of("tables query", &p),
            value,
            winner: json::Winner::of(value),
            future,
            best,
            moves: json::MoveValue::list(&finals),
        };
        json::print(&mut out, &v)?;
        return Ok(ExitCode::SUCCESS);
    }
    writeln!(out, "position: {p}")?;
    writeln!(
        out,
        "value:    {value:+} (final South minus North under perfect play)"
    )?;
    if let Some(side) = p.to_move() {
        writeln!(out, "{}", report::best_line(&best, side))?;
        for (m, v) in finals {
            writeln!(out, "  move {m:>2}: {v:+}")?;
        }
    } else {
        writeln!(out, "the game is over")?;
    }
    Ok(ExitCode::SUCCESS)
}
