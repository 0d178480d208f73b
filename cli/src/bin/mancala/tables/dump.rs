//! `tables dump`: every position of one layer with its value and best moves.

use super::DirArgs;
use anyhow::{bail, Result};
use clap::{Args, ValueEnum};
use mancala::board::Move;
use mancala::endgame::{open, Hold};
use mancala::rules::Rules;
use mancala_cli::args::GameArgs;
use mancala_cli::json;
use solver::Indexer;
use std::io::{BufWriter, Write};
use std::process::ExitCode;

#[derive(Clone, Copy, Debug, ValueEnum)]
enum DumpFormat {
    /// `position,value,best` with a header line; best moves space-separated.
    Csv,
    /// One JSON object per line: {"position","value","best"}.
    Jsonl,
}

#[derive(Args, Debug)]
pub(super) struct DumpArgs {
    #[command(flatten)]
    game: GameArgs,
    /// The layer to dump: seeds on the board.
    #[arg(long, value_name = "K")]
    seeds_on_board: u32,
    #[command(flatten)]
    dir: DirArgs,
    /// Output format.
    #[arg(long, value_enum, default_value_t = DumpFormat::Csv)]
    format: DumpFormat,
}

/// Runs `tables dump`.
pub(super) fn run(a: &DumpArgs) -> Result<ExitCode> {
    let v = a.game.variant()?;
    let holes = a.game.holes()?;
    mancala::with_rules!(v, r => dump(a, r, holes))
}

fn dump<R: Rules>(a: &DumpArgs, rules: R, holes: u8) -> Result<ExitCode> {
    let k = a.seeds_on_board;
    let tb = open(&a.dir.dir(), rules, holes, k, Hold::Mapped)?;
    if k > tb.max_layer() {
        bail!(
            "the tables of {} cover 0 to {} seeds on the board, not {k}",
            tb.id(),
            tb.max_layer()
        );
    }
    let ix = *tb.indexer();
    // Every answer is checked before the first is printed, so that tables that contradict
    // themselves print nothing (the checks are remembered: the rows below do not repeat them).
    for i in 0..ix.layer_len(k) {
        if let Some(p) = ix.position(k, i) {
            tb.move_values(&p)?;
        }
    }
    let mut out = BufWriter::with_capacity(1 << 16, std::io::stdout().lock());
    if let DumpFormat::Csv = a.format {
        writeln!(out, "position,value,best")?;
    }
    for i in 0..ix.layer_len(k) {
        let Some(p) = ix.position(k, i) else { continue };
        let (v, best) = tb.best_moves(&p)?;
        let best: Vec<u8> = best.iter().map(|m: &Move| m.0).collect();
        match a.format {
            DumpFormat::Csv => {
                let list = best.iter().map(u8::to_string).collect::<Vec<_>>().join(" ");
                writeln!(out, "\"{p}\",{},{list}", p.final_value(v))?;
            }
            DumpFormat::Jsonl => {
                let line = json::DumpLine {
                    position: p.to_string(),
                    value: p.final_value(v),
                    best,
                };
                json::print(&mut out, &line)?;
            }
        }
    }
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}
