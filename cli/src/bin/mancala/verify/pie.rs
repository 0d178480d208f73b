//! `verify pie`: the pie rule (docs/rules.md §3.9) on each board: every first turn of the first
//! player with its exact value, the pie value `P = −min |v(t)|`, the fairest openings and what the
//! second player does after each turn.

use super::heatmap::{heatmap, subtitle, Cell};
use super::limited::{note, value_text, Engine};
use super::out_file::SurveyFiles;
use super::survey_args::{exit_status, SurveyArgs};
use crate::setup;
use anyhow::{bail, Result};
use clap::Args;
use mancala::answers::AnySolver;
use mancala::endgame::MancalaIndexer;
use mancala::notation::Setup;
use mancala::pie::{self, Choice, Pie, Turn, TurnsError};
use mancala::rules::{GameKind, Rules};
use mancala::stop::StopToken;
use mancala::Position;
use mancala_cli::args::parse_seconds;
use mancala_cli::json::{self, SizeStatus, SwapChoice};
use mancala_cli::report::moves_text;
use mancala_cli::signal;
use mancala_cli::watch::{OnSignal, Watcher};
use solver::search::{SearchConfig, SearchError};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;
use tables::Tablebase;

#[derive(Args, Debug)]
pub(super) struct PieArgs {
    #[command(flatten)]
    survey: SurveyArgs,
    /// A standard start in docs/rules.md notation (s seeds in every pit, empty stores, South to
    /// move); the pie rule is about the start, so any other position is an error.
    #[arg(long, allow_hyphen_values = true, conflicts_with_all = ["holes", "seeds", "boards"])]
    position: Option<String>,
    /// The boards as a list `HxS,HxS,...` (e.g. `6x4,5x4`) instead of the ranges: the boards of a
    /// survey that are not a rectangle.
    #[arg(long, value_name = "HxS,...", conflicts_with_all = ["holes", "seeds"])]
    boards: Option<String>,
    /// Give each board at most SECS seconds for all its first turns; boards cut off are reported
    /// as unknown.
    #[arg(long, value_parser = parse_seconds, value_name = "SECS", allow_negative_numbers = true)]
    time_limit: Option<f64>,
    /// List at most N first turns per board; a board with more is reported as unknown.
    #[arg(long, value_name = "N", default_value_t = 100_000)]
    max_turns: usize,
    /// Also write every first turn as CSV to FILE (a row per turn; a board without turns has
    /// one row with an empty turn).
    #[arg(long, value_name = "FILE")]
    csv: Option<PathBuf>,
    /// Print one JSON object instead of the text: {"boards":[{"pie_value","fairest","turns",...}]}.
    #[arg(long)]
    json: bool,
    /// Also draw an SVG heatmap of the pie values to FILE.svg.
    #[arg(long, value_name = "FILE.svg")]
    plot: Option<PathBuf>,
}

/// One board's outcome.
struct Board {
    holes: u8,
    seeds: u8,
    start: String,
    status: SizeStatus,
    note: Option<String>,
    /// Each turn's moves and end position, and, when solved, the values.
    turns: Vec<(Vec<u8>, String)>,
    pie: Option<Pie>,
    nodes: u64,
    seconds: f64,
}

pub(super) fn run(a: &PieArgs) -> Result<ExitCode> {
    let v = a.survey.rules.variant(a.survey.game)?;
    let sizes = match (&a.position, &a.boards) {
        (Some(text), _) => vec![start_size(a.survey.game, text)?],
        (None, Some(list)) => board_list(a.survey.game, list)?,
        (None, None) => super::first_player::sizes(a.survey.game, a.survey.holes, a.survey.seeds)?,
    };
    if a.max_turns == 0 {
        bail!("--max-turns must be at least 1");
    }
    let (engine, SurveyFiles { csv, plot, tables }) =
        a.survey
            .start(a.time_limit, a.csv.as_deref(), a.plot.as_deref())?;
    let boards =
        mancala::with_rules!(v, r => survey(r, &sizes, &engine, tables.as_deref(), a.max_turns))?;
    let interrupted = boards.iter().any(|b| b.status == SizeStatus::Interrupted);
    if interrupted {
        eprintln!("interrupted: the boards not finished are marked so");
    }
    let code = exit_status(interrupted);
    let game = v.describe();
    if let Some(f) = &csv {
        f.write(csv_text(&game, &boards).as_bytes(), "--csv")?;
    }
    if let Some(f) = &plot {
        let cells: Vec<Cell> = boards
            .iter()
            .map(|b| Cell {
                holes: b.holes,
                seeds: b.seeds,
                value: b.pie.as_ref().map(|p| p.pie_value),
            })
            .collect();
        let sub = subtitle(
            "the first player's result when the second may swap after the first turn",
            a.time_limit,
            interrupted,
        );
        let svg = heatmap(&format!("{game}: pie value −min |v(t)|"), &sub, &cells)?;
        f.write(svg.as_bytes(), "--plot")?;
    }
    let mut out = std::io::stdout().lock();
    if a.json {
        let j = json::VerifyPie {
            head: json::Head::game("verify pie", a.survey.game.name(), v.option_names()),
            time_limit: a.time_limit,
            max_turns: a.max_turns,
            complete: !interrupted,
            boards: boards.iter().map(board_json).collect(),
        };
        json::print(&mut out, &j)?;
        return Ok(code);
    }
    out.write_all(text(&game, &boards, a.time_limit).as_bytes())?;
    Ok(code)
}

/// The boards of `--boards H1xS1,H2xS2,...`, each checked against the game's ranges.
fn board_list(game: GameKind, list: &str) -> Result<Vec<(u8, u8)>> {
    let mut out = Vec::new();
    for item in list.split(',') {
        let parsed = item.split_once('x').and_then(|(h, s)| {
            Some((h.trim().parse::<u32>().ok()?, s.trim().parse::<u32>().ok()?))
        });
        let Some((h, s)) = parsed else {
            bail!(
                "--boards takes boards as HOLESxSEEDS separated by commas (6x4,5x4), not '{item}'"
            );
        };
        out.extend(super::first_player::sizes(
            game,
            Some((h, h)),
            Some((s, s)),
        )?);
    }
    Ok(out)
}

/// The board of `--position`, which must be a standard start of `game`.
fn start_size(game: GameKind, text: &str) -> Result<(u8, u8)> {
    let setup: Setup = text
        .parse()
        .map_err(|e| anyhow::anyhow!("invalid position '{text}': {e}"))?;
    let seeds = setup.south.first().copied().unwrap_or(0);
    let is_start = setup.to_move == Some(mancala::board::Side::South)
        && setup.stores == [0, 0]
        && seeds > 0
        && setup.south.len() == setup.north.len()
        && setup.south.iter().chain(&setup.north).all(|&s| s == seeds);
    if !is_start {
        bail!(
            "verify pie needs a standard start (the same seeds in every pit, empty stores, South to move); {text} is not one"
        );
    }
    let holes = setup.south.len() as u32;
    let sizes = super::first_player::sizes(game, Some((holes, holes)), Some((seeds, seeds)))?;
    Ok(sizes[0])
}

/// Every board: its first turns listed, then valued with one solver (one transposition table).
fn survey<R: Rules>(
    rules: R,
    sizes: &[(u8, u8)],
    engine: &Engine,
    tables: Option<&Path>,
    max_turns: usize,
) -> Result<Vec<Board>> {
    let mut out: Vec<Board> = Vec::new();
    let mut tb: Option<(
        u8,
        Option<::tables::Tablebase<mancala::endgame::MancalaIndexer<R>>>,
    )> = None;
    for &(h, s) in sizes {
        let start = Position::start(rules, h, s)?;
        let mut b = Board {
            holes: h,
            seeds: s,
            start: start.to_string(),
            status: SizeStatus::Unsolvable,
            note: None,
            turns: Vec::new(),
            pie: None,
            nodes: 0,
            seconds: 0.0,
        };
        if signal::interrupted() {
            b.status = SizeStatus::NotRun;
            out.push(b);
            continue;
        }
        let turns = match pie::first_turns(&start, max_turns) {
            Ok(t) => t,
            Err(e) => {
                let more = if matches!(e, TurnsError::TooMany(_)) {
                    " (raise --max-turns)"
                } else {
                    ""
                };
                // One board asked for: no answer is an error; in a range, an unknown cell.
                if sizes.len() == 1 {
                    bail!("{} {h}x{s}: {e}{more}", R::KIND.name());
                }
                eprintln!(
                    "warning: {} {h}x{s}: {e}{more}; reported as unknown",
                    R::KIND.name()
                );
                b.note = Some(e.to_string());
                out.push(b);
                continue;
            }
        };
        b.turns = turns
            .iter()
            .map(|t| (t.moves.iter().map(|m| m.0).collect(), t.end.to_string()))
            .collect();
        if let Some(dir) = tables {
            if tb.as_ref().map(|t| t.0) != Some(h) {
                let opened = setup::tables_for_search(dir, &start)
                    .map_err(|e| eprintln!("warning: no usable endgame tables for {h} holes ({e:#}); solving without them"))
                    .ok();
                tb = Some((h, opened));
            }
        }
        let tables = tb.as_ref().and_then(|t| t.1.as_ref());
        let started = Instant::now();
        let (result, nodes) = value_turns(&start, &turns, engine, tables);
        if signal::interrupted() {
            b.status = SizeStatus::Interrupted;
            out.push(b);
            continue;
        }
        b.seconds = started.elapsed().as_secs_f64();
        b.nodes = nodes;
        match result {
            Ok(p) => {
                b.status = SizeStatus::Solved;
                b.pie = Some(p);
            }
            Err(SearchError::Interrupted) => {
                b.status = SizeStatus::TimeLimit;
                b.note = Some("not solved within the time limit".into());
            }
            Err(e) => {
                eprintln!(
                    "warning: {} {h}x{s}: cannot be solved here ({e}); reported as unknown",
                    R::KIND.name()
                );
                b.note = Some(e.to_string());
            }
        }
        note(&format!(
            "{} {h}x{s}: pie value {} ({:.1} s)",
            R::KIND.name(),
            value_text(b.pie.as_ref().map(|p| p.pie_value)),
            b.seconds
        ));
        out.push(b);
    }
    Ok(out)
}

/// The values of `turns` within the engine's time limit, by one solver made for `start` (over
/// the Kalah node when `start` is one, `tables` read through a view made for it).
fn value_turns<R: Rules>(
    start: &Position<R>,
    turns: &[Turn<R>],
    engine: &Engine,
    tables: Option<&Tablebase<MancalaIndexer<R>>>,
) -> (Result<Pie, SearchError>, u64) {
    let stop = StopToken::new();
    let cfg = SearchConfig {
        threads: engine.threads,
        tt_bytes: setup::tt_bytes(start, engine.hash_bytes),
        tt_max_bytes: setup::tt_max_bytes(start, engine.hash_bytes),
        stop: Some(stop.clone()),
        ..SearchConfig::default()
    };
    Watcher::new("the search", OnSignal::Stop)
        .stop(stop.clone())
        .deadline(engine.limit)
        .run(|| {
            AnySolver::scoped(start, cfg, tables, |solver| {
                let r = pie::pie(start, turns, solver);
                (r, solver.nodes())
            })
            .unwrap_or_else(|e| (Err(e), 0))
        })
}

fn choice(c: Choice) -> SwapChoice {
    match c {
        Choice::Swap => SwapChoice::Swap,
        Choice::Keep => SwapChoice::Keep,
        Choice::Either => SwapChoice::Either,
    }
}

/// South moves first at every standard start.
const FIRST: mancala::board::Side = mancala::board::Side::South;

fn board_json(b: &Board) -> json::PieBoard {
    let solved = b.pie.as_ref();
    json::PieBoard {
        holes: b.holes,
        seeds: b.seeds,
        position: b.start.clone(),
        status: b.status,
        note: b.note.clone(),
        pie_value: solved.map(|p| p.pie_value),
        fairest: solved.map_or(Vec::new(), |p| {
            p.fairest.iter().map(|&i| b.turns[i].0.clone()).collect()
        }),
        value: solved.and_then(|p| p.values.iter().copied().max()),
        turns: solved.map_or(Vec::new(), |p| {
            b.turns
                .iter()
                .zip(&p.values)
                .enumerate()
                .map(|(i, ((moves, end), &v))| json::PieTurn {
                    moves: moves.clone(),
                    position: end.clone(),
                    value: v,
                    winner: json::Winner::of(v),
                    second_player: choice(Choice::after(v, FIRST)),
                    fairest: p.fairest.contains(&i),
                })
                .collect()
        }),
        nodes: b.nodes,
        seconds: b.seconds,
    }
}

/// The fairest turns of a solved board as text: `3 6; 1` (moves space-separated, turns by `;`).
fn fairest_text(b: &Board, p: &Pie) -> String {
    p.fairest
        .iter()
        .map(|&i| moves_text(&b.turns[i].0, " "))
        .collect::<Vec<_>>()
        .join("; ")
}

fn csv_text(game: &str, boards: &[Board]) -> String {
    let mut s = String::from(
        "game,holes,seeds,status,pie_value,turn,position,value,second_player,fairest\n",
    );
    for b in boards {
        let status = super::first_player::status_word(b.status);
        match &b.pie {
            Some(p) => {
                for (i, ((moves, end), v)) in b.turns.iter().zip(&p.values).enumerate() {
                    s.push_str(&format!(
                        // A position holds commas: quoted.
                        "{game},{},{},{status},{},{},\"{end}\",{v},{},{}\n",
                        b.holes,
                        b.seeds,
                        p.pie_value,
                        moves_text(moves, " "),
                        Choice::after(*v, FIRST).word(),
                        p.fairest.contains(&i)
                    ));
                }
            }
            None => s.push_str(&format!("{game},{},{},{status},,,,,,\n", b.holes, b.seeds)),
        }
    }
    s
}

fn text(game: &str, boards: &[Board], limit: Option<f64>) -> String {
    use std::fmt::Write as _;
    let mut s = String::new();
    let _ = writeln!(
        s,
        "Pie rule: {game}; after South's whole first turn North may swap sides."
    );
    let _ = writeln!(
        s,
        "v(t) = final South minus North under perfect play after turn t (exact); pie value = -min |v(t)|."
    );
    if let Some(l) = limit {
        let _ = writeln!(
            s,
            "unknown = not solved within {l} s per board (never guessed)."
        );
    }
    // One board: every turn.
    if let [b] = boards {
        let _ = writeln!(s);
        let _ = writeln!(s, "board {}x{} ({}):", b.holes, b.seeds, b.start);
        if let Some(p) = &b.pie {
            let width = b
                .turns
                .iter()
                .map(|t| moves_text(&t.0, " ").len())
                .max()
                .unwrap_or(0)
                .max(4);
            let _ = writeln!(s, "  {:<width$}  {:>5}  after it North", "turn", "v(t)");
            for (i, ((moves, _), v)) in b.turns.iter().zip(&p.values).enumerate() {
                let mark = if p.fairest.contains(&i) {
                    "  fairest"
                } else {
                    ""
                };
                let _ = writeln!(
                    s,
                    "  {:<width$}  {:>+5}  {}{mark}",
                    moves_text(moves, " "),
                    v,
                    Choice::after(*v, FIRST).word()
                );
            }
            let _ = writeln!(s, "first turns: {}", b.turns.len());
            let _ = writeln!(s, "pie value:   {:+}", p.pie_value);
            let _ = writeln!(s, "fairest:     {}", fairest_text(b, p));
        } else {
            let _ = writeln!(s, "unknown: {}", b.note.as_deref().unwrap_or("not solved"));
        }
        return s;
    }
    let _ = writeln!(s);
    let _ = writeln!(
        s,
        "| holes | seeds | pie value | fairest first turns | first turns | value without swap | seconds |"
    );
    let _ = writeln!(
        s,
        "|------:|------:|----------:|:--|------:|------:|------:|"
    );
    for b in boards {
        match &b.pie {
            Some(p) => {
                let _ = writeln!(
                    s,
                    "| {} | {} | {:+} | {} | {} | {:+} | {:.3} |",
                    b.holes,
                    b.seeds,
                    p.pie_value,
                    fairest_text(b, p),
                    b.turns.len(),
                    p.values.iter().copied().max().unwrap_or(0),
                    b.seconds
                );
            }
            None => {
                let why = match b.status {
                    SizeStatus::TimeLimit => "time limit",
                    SizeStatus::Interrupted => "interrupted",
                    SizeStatus::NotRun => "not run",
                    _ => b.note.as_deref().unwrap_or("unsolvable"),
                };
                let _ = writeln!(
                    s,
                    "| {} | {} | ? | ({why}) | {} | ? | {:.3} |",
                    b.holes,
                    b.seeds,
                    if b.turns.is_empty() {
                        "?".to_string()
                    } else {
                        b.turns.len().to_string()
                    },
                    b.seconds
                );
            }
        }
    }
    s
}
