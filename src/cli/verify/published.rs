//! `verify published`: REFERENCE.md's Kalah values, row by row.

use super::{note, parse_seconds, solve_limited, value_text, Engine, EngineArgs, Solved};
use crate::cli::report::moves_text;
use anyhow::Result;
use clap::Args;
use mancala::reference_values::{self, ReferenceRow};
use mancala::rules::Kalah;
use mancala::variant::Variant;
use mancala::Position;
use std::io::Write;
use std::process::ExitCode;

#[derive(Args, Debug)]
pub(super) struct PublishedArgs {
    /// Give each board at most SECS seconds (default 60); boards cut off are skipped, and so are
    /// larger boards of the same rule and width.
    #[arg(long, value_parser = parse_seconds, value_name = "SECS", allow_negative_numbers = true)]
    time_limit: Option<f64>,
    #[command(flatten)]
    engine: EngineArgs,
}

/// The outcome of one distinct board of the reference table.
enum Attempt {
    Solved(Solved),
    /// Cut off by the time limit after this many seconds.
    TimedOut(f64),
    /// Not tried: a smaller board of the same rule and width was cut off.
    NotTried(u8),
}

pub(super) fn run(a: &PublishedArgs) -> Result<ExitCode> {
    let limit = a.time_limit.unwrap_or(60.0);
    let engine = Engine::new(&a.engine, Some(limit))?;
    let rows = reference_values::KALAH;
    // Distinct boards, cheapest first.
    let mut boards: Vec<(u8, u8, bool)> = rows
        .iter()
        .map(|r| (r.holes, r.seeds, r.empty_capture))
        .collect();
    boards.sort_by_key(|&(h, s, ec)| (h as u32 * s as u32, h, s, ec));
    boards.dedup();
    let mut attempts: Vec<((u8, u8, bool), Attempt)> = Vec::new();
    for &(h, s, ec) in &boards {
        let cut = attempts.iter().find_map(|((h2, s2, ec2), at)| match at {
            Attempt::TimedOut(_) if *h2 == h && *ec2 == ec && *s2 < s => Some(*s2),
            _ => None,
        });
        let at = match cut {
            Some(s2) => Attempt::NotTried(s2),
            None => {
                let p = Position::start(kalah(ec), h, s)?;
                let r = solve_limited(&p, &engine, None)?;
                note(&format!(
                    "Kalah({h},{s}) {}: {} ({:.1} s)",
                    rule_name(ec),
                    value_text(r.value),
                    r.seconds
                ));
                match r.value {
                    Some(_) => Attempt::Solved(r),
                    None => Attempt::TimedOut(r.seconds),
                }
            }
        };
        attempts.push(((h, s, ec), at));
    }
    let mut out = std::io::stdout().lock();
    writeln!(out, "Published Kalah values (REFERENCE.md) against this solver; default end rule; time limit {limit} s per board.")?;
    writeln!(out)?;
    writeln!(out, "| board | rule | published | best (published) | computed | best (computed) | seconds | result | source |")?;
    writeln!(out, "|:------|:-----|----------:|:-----------------|---------:|:----------------|--------:|:-------|:-------|")?;
    let (mut agree, mut disagree, mut skipped) = (0, 0, 0);
    for row in rows {
        let at = &attempts
            .iter()
            .find(|(k, _)| *k == (row.holes, row.seeds, row.empty_capture))
            .expect("every board attempted")
            .1;
        let (computed, best, secs, verdict) = match at {
            Attempt::Solved(r) => {
                let v = r.value.expect("solved");
                let ok = row_agrees(row, v, &r.best);
                if ok {
                    agree += 1;
                } else {
                    disagree += 1;
                }
                (
                    format!("{v:+}"),
                    moves_text(&r.best, ", "),
                    format!("{:.2}", r.seconds),
                    if ok { "agree" } else { "DISAGREE" }.to_string(),
                )
            }
            Attempt::TimedOut(t) => {
                skipped += 1;
                (
                    "-".into(),
                    "-".into(),
                    format!("{t:.0}"),
                    format!("skipped (not solved within {limit} s)"),
                )
            }
            Attempt::NotTried(s2) => {
                skipped += 1;
                (
                    "-".into(),
                    "-".into(),
                    "-".into(),
                    format!(
                        "skipped (Kalah({},{s2}) already exceeded {limit} s)",
                        row.holes
                    ),
                )
            }
        };
        let pub_best = if row.best.is_empty() {
            "-".to_string()
        } else {
            moves_text(row.best, ", ")
        };
        writeln!(
            out,
            "| Kalah({},{}) | {} | {} | {} | {} | {} | {} | {} | {} |",
            row.holes,
            row.seeds,
            rule_name(row.empty_capture),
            row.value,
            pub_best,
            computed,
            best,
            secs,
            verdict,
            row.source
        )?;
    }
    writeln!(out)?;
    writeln!(
        out,
        "{agree} agree, {disagree} disagree, {skipped} skipped (of {} rows).",
        rows.len()
    )?;
    Ok(if disagree > 0 {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}

/// `standard` or `empty-capture`: the label of a Kalah capture rule.
fn rule_name(empty_capture: bool) -> String {
    Variant::Kalah(kalah(empty_capture)).rule_label()
}

/// Kalah with the default end rule and the given capture rule.
fn kalah(empty_capture: bool) -> Kalah {
    Kalah {
        empty_capture,
        end_when_mover_empty: false,
    }
}

/// Whether a computed value (and best moves, when the row lists them) agrees with a row.
fn row_agrees(row: &ReferenceRow, value: i32, best: &[u8]) -> bool {
    row.value.agrees(value) && (row.best.is_empty() || row.best == best)
}
