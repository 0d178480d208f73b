//! `verify published`: the published Kalah values (docs/reference-values.md §2), row by row.
//!
//! Several rows cite the same board (Kalah(6,4) with each capture rule is in both of
//! REFERENCE.md's tables, once per source), so the rows are first reduced to their distinct
//! boards, keyed by game, options, holes and seeds ([`Board`]); each board is solved once and
//! every row citing it is checked against that one result.

use super::limited::{note, solve_limited, value_text, Engine, EngineArgs, Solved};
use crate::setup;
use anyhow::Result;
use clap::Args;
use mancala::endgame::MancalaIndexer;
use mancala::reference_values::{self, Expected, ReferenceRow};
use mancala::rules::{Kalah, Rules};
use mancala::variant::Variant;
use mancala::Position;
use mancala_cli::args::parse_seconds;
use mancala_cli::json;
use mancala_cli::report::moves_text;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Args, Debug)]
pub(super) struct PublishedArgs {
    /// Give each board at most SECS seconds (default 60); boards cut off are skipped, and so are
    /// larger boards of the same rule and width.
    #[arg(long, value_parser = parse_seconds, value_name = "SECS", allow_negative_numbers = true)]
    time_limit: Option<f64>,
    #[command(flatten)]
    engine: EngineArgs,
    /// Probe the endgame tables in DIR (built by `mancala tables build kalah ...`) at every
    /// node; without DIR, the default table directory (write `--tables=DIR` then). Boards
    /// without tables are solved without them.
    #[arg(long, value_name = "DIR", num_args = 0..=1)]
    tables: Option<Option<PathBuf>>,
    /// Print one JSON object (docs/json.md) instead of the table.
    #[arg(long)]
    json: bool,
}

/// A distinct board of the reference table: what a solve depends on. The game is Kalah with
/// the default end rule throughout, so the capture rule is its only option.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Board {
    holes: u8,
    seeds: u8,
    empty_capture: bool,
}

impl Board {
    fn of(row: &ReferenceRow) -> Self {
        Self {
            holes: row.holes,
            seeds: row.seeds,
            empty_capture: row.empty_capture,
        }
    }
}

/// The outcome of one distinct board of the reference table.
enum Attempt {
    Solved(Solved),
    /// Cut off by the time limit after this many seconds.
    TimedOut(f64),
    /// Not tried: a smaller board of the same rule and width was cut off.
    NotTried(u8),
}

/// The distinct boards of `rows`, cheapest first (so a time-out can skip the larger boards of
/// its rule and width).
fn distinct_boards(rows: &[ReferenceRow]) -> Vec<Board> {
    let mut boards: Vec<Board> = rows.iter().map(Board::of).collect();
    boards.sort_by_key(|b| (b.holes as u32 * b.seeds as u32, *b));
    boards.dedup();
    boards
}

pub(super) fn run(a: &PublishedArgs) -> Result<ExitCode> {
    let limit = a.time_limit.unwrap_or(60.0);
    let engine = Engine::new(&a.engine, Some(limit))?;
    let rows = reference_values::KALAH;
    let dir = a
        .tables
        .as_ref()
        .map(|d| d.clone().unwrap_or_else(mancala::endgame::default_dir));
    if let Some(d) = &dir {
        setup::tables_dir_exists(d)?;
    }
    // The tables of each (capture rule, holes), opened once; `None`: none usable there.
    type Tb = ::tables::Tablebase<MancalaIndexer<Kalah>>;
    let mut opened: Vec<((bool, u8), Option<Tb>)> = Vec::new();
    let mut attempts: Vec<(Board, Attempt)> = Vec::new();
    for b in distinct_boards(rows) {
        let cut = attempts.iter().find_map(|(b2, at)| match at {
            Attempt::TimedOut(_)
                if b2.holes == b.holes
                    && b2.empty_capture == b.empty_capture
                    && b2.seeds < b.seeds =>
            {
                Some(b2.seeds)
            }
            _ => None,
        });
        let at = match cut {
            Some(s2) => Attempt::NotTried(s2),
            None => {
                let p = Position::start(kalah(b.empty_capture), b.holes, b.seeds)?;
                let key = (b.empty_capture, b.holes);
                if let Some(d) = &dir {
                    if !opened.iter().any(|(k, _)| *k == key) {
                        let t = match setup::tables_for_search(d, &p) {
                            Ok(t) => Some(t),
                            Err(e) => {
                                eprintln!(
                                    "warning: no usable endgame tables for Kalah {} on {} holes ({e:#}); solving without them",
                                    rule_name(b.empty_capture),
                                    b.holes
                                );
                                None
                            }
                        };
                        opened.push((key, t));
                    }
                }
                let tables = opened
                    .iter()
                    .find(|(k, _)| *k == key)
                    .and_then(|(_, t)| t.as_ref());
                let r = solve_limited(&p, &engine, tables)?;
                note(&format!(
                    "Kalah({},{}) {}: {} ({:.1} s)",
                    b.holes,
                    b.seeds,
                    rule_name(b.empty_capture),
                    value_text(r.value),
                    r.seconds
                ));
                match r.value {
                    Some(_) => Attempt::Solved(r),
                    None => Attempt::TimedOut(r.seconds),
                }
            }
        };
        attempts.push((b, at));
    }
    let solved = attempts
        .iter()
        .filter(|(_, at)| !matches!(at, Attempt::NotTried(_)))
        .count();
    let checked: Vec<json::PublishedRow> = rows
        .iter()
        .map(|row| {
            let at = attempts
                .iter()
                .find(|(b, _)| *b == Board::of(row))
                .map(|(_, at)| at);
            check_row(row, at, limit)
        })
        .collect();
    let count = |r: json::RowResult| checked.iter().filter(|c| c.result == r).count();
    let (agree, disagree, skipped) = (
        count(json::RowResult::Agree),
        count(json::RowResult::Disagree),
        count(json::RowResult::Skipped),
    );
    let code = if disagree > 0 {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    };
    let mut out = std::io::stdout().lock();
    if a.json {
        let v = json::Published {
            head: json::Head::game("verify published", "kalah", Vec::new()),
            time_limit: limit,
            tables: dir.is_some(),
            boards_solved: solved,
            rows: checked,
            agree,
            disagree,
            skipped,
        };
        json::print(&mut out, &v)?;
        return Ok(code);
    }
    writeln!(out, "Published Kalah values (docs/reference-values.md §2) against this solver; default end rule; time limit {limit} s per board; {solved} distinct boards tried.")?;
    writeln!(out)?;
    writeln!(out, "| board | rule | published | best (published) | computed | best (computed) | seconds | result | source |")?;
    writeln!(out, "|:------|:-----|----------:|:-----------------|---------:|:----------------|--------:|:-------|:-------|")?;
    for (row, c) in rows.iter().zip(&checked) {
        let dash = |t: String| if t.is_empty() { "-".to_string() } else { t };
        let verdict = match (c.result, &c.skipped_because) {
            (json::RowResult::Agree, _) => "agree".to_string(),
            (json::RowResult::Disagree, _) => "DISAGREE".to_string(),
            (json::RowResult::Skipped, why) => {
                format!("skipped ({})", why.as_deref().unwrap_or("not solved"))
            }
        };
        let secs = match (c.result, c.seconds) {
            (json::RowResult::Skipped, Some(t)) => format!("{t:.0}"),
            (_, Some(t)) => format!("{t:.2}"),
            (_, None) => "-".to_string(),
        };
        writeln!(
            out,
            "| Kalah({},{}) | {} | {} | {} | {} | {} | {secs} | {verdict} | {} |",
            row.holes,
            row.seeds,
            rule_name(row.empty_capture),
            row.value,
            dash(moves_text(row.best, ", ")),
            c.value.map_or("-".to_string(), |v| format!("{v:+}")),
            if c.value.is_some() {
                moves_text(&c.best, ", ")
            } else {
                "-".to_string()
            },
            row.source
        )?;
    }
    writeln!(out)?;
    writeln!(
        out,
        "{agree} agree, {disagree} disagree, {skipped} skipped (of {} rows).",
        rows.len()
    )?;
    Ok(code)
}

/// One row against its board's attempt (`None` cannot happen: every board is attempted).
fn check_row(row: &ReferenceRow, at: Option<&Attempt>, limit: f64) -> json::PublishedRow {
    let (published, published_exact) = match row.value {
        Expected::Exact(v) => (v, true),
        Expected::AtLeast(v) => (v, false),
    };
    let mut c = json::PublishedRow {
        holes: row.holes,
        seeds: row.seeds,
        options: kalah(row.empty_capture).option_names(),
        published,
        published_exact,
        published_best: row.best.to_vec(),
        source: row.source,
        result: json::RowResult::Skipped,
        value: None,
        winner: None,
        best: Vec::new(),
        nodes: None,
        seconds: None,
        skipped_because: None,
    };
    match at {
        Some(Attempt::Solved(r)) => {
            let v = r.value.unwrap_or_default();
            c.result = if row_agrees(row, v, &r.best) {
                json::RowResult::Agree
            } else {
                json::RowResult::Disagree
            };
            c.value = Some(v);
            c.winner = Some(json::Winner::of(v));
            c.best = r.best.clone();
            c.nodes = Some(r.nodes);
            c.seconds = Some(r.seconds);
        }
        Some(Attempt::TimedOut(t)) => {
            c.seconds = Some(*t);
            c.skipped_because = Some(format!("not solved within {limit} s"));
        }
        Some(Attempt::NotTried(s2)) => {
            c.skipped_because = Some(format!(
                "Kalah({},{s2}) already exceeded {limit} s",
                row.holes
            ));
        }
        None => c.skipped_because = Some("not tried".to_string()),
    }
    c
}

/// `standard` or `empty-capture`: the label of a Kalah capture rule.
fn rule_name(empty_capture: bool) -> String {
    Variant::Kalah(kalah(empty_capture)).rule_label()
}

/// Kalah with the default end rule and the given capture rule.
fn kalah(empty_capture: bool) -> Kalah {
    Kalah {
        empty_capture,
        ..Kalah::default()
    }
}

/// Whether a computed value (and best moves, when the row lists them) agrees with a row.
fn row_agrees(row: &ReferenceRow, value: i32, best: &[u8]) -> bool {
    row.value.agrees(value) && (row.best.is_empty() || row.best == best)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The reference table cites Kalah(6,4) twice per capture rule (once per source); it is
    /// one board each, solved once.
    #[test]
    fn each_board_once() {
        let rows = reference_values::KALAH;
        let boards = distinct_boards(rows);
        let k64 = |ec| {
            let b = Board {
                holes: 6,
                seeds: 4,
                empty_capture: ec,
            };
            (
                rows.iter().filter(|r| Board::of(r) == b).count(),
                boards.iter().filter(|&&x| x == b).count(),
            )
        };
        assert_eq!(k64(true), (2, 1));
        assert_eq!(k64(false), (2, 1));
        assert!(boards.len() < rows.len());
        for r in rows {
            assert_eq!(boards.iter().filter(|&&b| b == Board::of(r)).count(), 1);
        }
    }
}
