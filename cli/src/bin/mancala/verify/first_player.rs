//! `verify first-player`: the start of every board size in the ranges, solved.

use super::heatmap::heatmap_svg;
use super::limited::{note, solve_limited, value_text, winner, Engine, Solved};
use super::out_file::SurveyFiles;
use super::survey_args::{exit_status, SurveyArgs};
use crate::{setup, PositionArgs};
use anyhow::{bail, Result};
use clap::Args;
use mancala::rules::{GameKind, Rules};
use mancala::Position;
use mancala_cli::args::parse_seconds;
use mancala_cli::json::{self, SizeStatus};
use mancala_cli::report::moves_text;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(Args, Debug)]
pub(super) struct FirstPlayerArgs {
    #[command(flatten)]
    survey: SurveyArgs,
    /// Give each board size at most SECS seconds; sizes cut off are reported as unknown.
    #[arg(long, value_parser = parse_seconds, value_name = "SECS", allow_negative_numbers = true)]
    time_limit: Option<f64>,
    /// Also write the table as CSV to FILE.
    #[arg(long, value_name = "FILE")]
    csv: Option<PathBuf>,
    /// Print one JSON object instead of the table: {"results":[{"holes","seeds","value","best","seconds",...}]}.
    #[arg(long)]
    json: bool,
    /// Also draw an SVG heatmap of the first player's margin to FILE.svg.
    #[arg(long, value_name = "FILE.svg")]
    plot: Option<PathBuf>,
}

pub(super) fn run(a: &FirstPlayerArgs) -> Result<ExitCode> {
    let pos = PositionArgs {
        game: a.survey.game,
        holes: None,
        seeds: None,
        position: None,
        moves: Vec::new(),
        load: None,
        rules: a.survey.rules.clone(),
        wording: crate::wording::Wording::Flags,
    };
    let v = pos.variant()?;
    let kind = a.survey.game;
    let sizes = sizes(kind, a.survey.holes, a.survey.seeds)?;
    let (engine, SurveyFiles { csv, plot, tables }) =
        a.survey
            .start(a.time_limit, a.csv.as_deref(), a.plot.as_deref())?;
    let results = mancala::with_rules!(v, r => survey(r, &sizes, &engine, tables.as_deref()))?;
    // After Ctrl-C the finished sizes are still written, the others marked; the exit status
    // says the run was interrupted (as `solve`'s does).
    let interrupted = results.iter().any(|r| r.status == SizeStatus::Interrupted);
    if interrupted {
        let done = results
            .iter()
            .filter(|r| r.status != SizeStatus::Interrupted && r.status != SizeStatus::NotRun)
            .count();
        eprintln!(
            "interrupted: {done} of {} sizes finished; the others are marked unfinished",
            results.len()
        );
    }
    let code = exit_status(interrupted);

    let game = v.describe();
    if let Some(f) = &csv {
        f.write(csv_text(&game, &results).as_bytes(), "--csv")?;
    }
    if let Some(f) = &plot {
        f.write(
            heatmap_svg(&game, &results, a.time_limit)?.as_bytes(),
            "--plot",
        )?;
    }
    let mut out = std::io::stdout().lock();
    if a.json {
        let results = results
            .iter()
            .map(|r| json::FirstPlayerSize {
                holes: r.holes,
                seeds: r.seeds,
                status: r.status,
                value: r.value,
                winner: json::Winner::of_known(r.value),
                best: r.best.clone(),
                nodes: r.nodes,
                seconds: r.seconds,
            })
            .collect();
        let v = json::FirstPlayer {
            head: json::Head::game("verify first-player", kind.name(), v.option_names()),
            time_limit: a.time_limit,
            complete: !interrupted,
            results,
        };
        json::print(&mut out, &v)?;
        return Ok(code);
    }
    out.write_all(first_player_table(&game, &results, a.time_limit).as_bytes())?;
    Ok(code)
}

/// The board sizes of `--holes A..B --seeds C..D` (each defaulting to the game's standard),
/// checked against the game's ranges.
pub(super) fn sizes(
    kind: GameKind,
    holes: Option<(u32, u32)>,
    seeds: Option<(u32, u32)>,
) -> Result<Vec<(u8, u8)>> {
    let (hmin, hmax) = kind.holes_range();
    let (h0, h1) = holes.unwrap_or((kind.default_holes() as u32, kind.default_holes() as u32));
    if h0 < hmin as u32 || h1 > hmax as u32 {
        bail!(
            "{} is played with {hmin} to {hmax} holes per row; --holes {h0}..{h1} is outside that",
            kind.name()
        );
    }
    let mut sizes = Vec::new();
    for h in h0..=h1 {
        let h = h as u8;
        let (smin, smax) = kind.seeds_range(h);
        let (s0, s1) =
            seeds.unwrap_or((kind.default_seeds(h) as u32, kind.default_seeds(h) as u32));
        if s0 < smin as u32 || s1 > smax as u32 {
            bail!(
                "{} on {h} holes is played with {smin} to {smax} seeds per hole; --seeds {s0}..{s1} is outside that",
                kind.name()
            );
        }
        for s in s0..=s1 {
            sizes.push((h, s as u8));
        }
    }
    Ok(sizes)
}

/// Solves the start of every size, opening the endgame tables once per board width.
fn survey<R: Rules>(
    rules: R,
    sizes: &[(u8, u8)],
    engine: &Engine,
    tables: Option<&Path>,
) -> Result<Vec<Solved>> {
    let mut out = Vec::new();
    let mut tb: Option<(
        u8,
        Option<::tables::Tablebase<mancala::endgame::MancalaIndexer<R>>>,
    )> = None;
    for &(h, s) in sizes {
        let p = Position::start(rules, h, s)?;
        if let Some(dir) = tables {
            if tb.as_ref().map(|t| t.0) != Some(h) {
                let opened = match setup::tables_for_search(dir, &p) {
                    Ok(t) => Some(t),
                    Err(e) => {
                        eprintln!("warning: no usable endgame tables for {h} holes ({e:#}); solving without them");
                        None
                    }
                };
                tb = Some((h, opened));
            }
        }
        let tables = tb.as_ref().and_then(|t| t.1.as_ref());
        let mut r = match solve_limited(&p, engine, tables) {
            Ok(r) => r,
            // Ctrl-C: this size and the ones after it are unfinished; the finished ones stay.
            Err(e) if e.downcast_ref::<mancala_cli::exit::Interrupted>().is_some() => {
                let first = out.len();
                for (i, &(h2, s2)) in sizes.iter().enumerate().skip(first) {
                    out.push(Solved {
                        holes: h2,
                        seeds: s2,
                        value: None,
                        status: if i == first {
                            SizeStatus::Interrupted
                        } else {
                            SizeStatus::NotRun
                        },
                        best: Vec::new(),
                        nodes: 0,
                        seconds: 0.0,
                    });
                }
                return Ok(out);
            }
            Err(e) => return Err(e),
        };
        r.seeds = s;
        note(&format!(
            "{} {h}x{s}: {} ({:.1} s)",
            R::KIND.name(),
            value_text(r.value),
            r.seconds
        ));
        out.push(r);
    }
    Ok(out)
}

fn first_player_table(game: &str, results: &[Solved], limit: Option<f64>) -> String {
    use std::fmt::Write as _;
    let mut s = String::new();
    let _ = writeln!(
        s,
        "First-player advantage: {game}, standard start, South moves first."
    );
    let _ = writeln!(
        s,
        "value = final South minus North under perfect play (exact);"
    );
    match limit {
        Some(l) => {
            let _ = writeln!(
                s,
                "unknown = not solved within the time limit of {l} s per size (never guessed)."
            );
        }
        None => {
            let _ = writeln!(s, "no time limit.");
        }
    }
    if results
        .iter()
        .any(|r| matches!(r.status, SizeStatus::Interrupted | SizeStatus::NotRun))
    {
        let _ = writeln!(
            s,
            "? = unfinished: the run was interrupted (interrupted: during this size; not run: before it)."
        );
    }
    let _ = writeln!(s);
    let _ = writeln!(
        s,
        "| holes | seeds | value | winner | best first moves | nodes | seconds |"
    );
    let _ = writeln!(
        s,
        "|------:|------:|------:|:-------|:-----------------|------:|--------:|"
    );
    for r in results {
        let best = if r.value.is_some() {
            moves_text(&r.best, ", ")
        } else {
            "-".into()
        };
        let (value, who) = match r.status {
            SizeStatus::Interrupted => ("?".to_string(), "interrupted"),
            SizeStatus::NotRun => ("?".to_string(), "not run"),
            _ => (value_text(r.value), winner(r.value)),
        };
        let _ = writeln!(
            s,
            "| {} | {} | {value} | {who} | {} | {} | {:.3} |",
            r.holes, r.seeds, best, r.nodes, r.seconds
        );
    }
    // A holes × seeds grid of values when the survey spans more than one of each.
    let mut holes: Vec<u8> = results.iter().map(|r| r.holes).collect();
    let mut seeds: Vec<u8> = results.iter().map(|r| r.seeds).collect();
    holes.dedup();
    seeds.sort_unstable();
    seeds.dedup();
    if holes.len() > 1 && seeds.len() > 1 {
        let _ = writeln!(s);
        let _ = writeln!(
            s,
            "Values (rows: holes per row; columns: seeds per hole; ? = unknown):"
        );
        let _ = write!(s, "{:>6}", "h\\s");
        for sd in &seeds {
            let _ = write!(s, "{sd:>6}");
        }
        let _ = writeln!(s);
        for h in &holes {
            let _ = write!(s, "{h:>6}");
            for sd in &seeds {
                let cell = match results.iter().find(|r| r.holes == *h && r.seeds == *sd) {
                    Some(r) => r.value.map_or("?".to_string(), |v| format!("{v:+}")),
                    None => String::new(),
                };
                let _ = write!(s, "{cell:>6}");
            }
            let _ = writeln!(s);
        }
    }
    s
}

fn csv_text(game: &str, results: &[Solved]) -> String {
    let mut s = String::from("game,holes,seeds,value,winner,best,nodes,seconds,status\n");
    for r in results {
        s.push_str(&format!(
            "{game},{},{},{},{},{},{},{:.3},{}\n",
            r.holes,
            r.seeds,
            r.value.map_or(String::new(), |v| v.to_string()),
            winner(r.value),
            moves_text(&r.best, " "),
            r.nodes,
            r.seconds,
            status_word(r.status)
        ));
    }
    s
}

/// A size's status in the CSV: the JSON's word for it.
pub(super) fn status_word(s: SizeStatus) -> &'static str {
    match s {
        SizeStatus::Solved => "solved",
        SizeStatus::TimeLimit => "time-limit",
        SizeStatus::Interrupted => "interrupted",
        SizeStatus::NotRun => "not-run",
        SizeStatus::Unsolvable => "unsolvable",
    }
}
