//! `verify`: claims about the games checked by computation, each as one command whose output can
//! be pasted into a paper.
//!
//! - `verify first-player GAME --holes A..B --seeds C..D`: solves the start of every board size
//!   in the ranges (the first player's advantage), with a per-size time limit; sizes cut off are
//!   reported as unknown, never guessed. Table on stdout; optional CSV, JSON and an SVG heatmap.
//! - `verify published`: the Kalah values of REFERENCE.md (built in: [`crate::reference_values`]),
//!   row by row: agree, disagree or skipped. Exit status 1 on any disagreement.
//! - `verify opening GAME`: the first player's whole first turn, searched exhaustively
//!   ([`crate::opening`]): is there a winning opening (RULES.md §9)? With `--solve`, also the
//!   full game's value.

use super::{parse_game, PositionArgs, RuleArgs};
use crate::board::Move;
use crate::opening::{self, Count};
use crate::reference_values::{self, ReferenceRow};
use crate::rules::{GameKind, Kalah, Rules};
use crate::Position;
use anyhow::{anyhow, bail, Context, Result};
use clap::{Args, Subcommand};
use serde_json::json;
use solver::search::{Oracle, SearchConfig, SearchError, Solver};
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc};
use std::time::{Duration, Instant};

/// `mancala verify ...`
#[derive(Args, Debug)]
pub struct VerifyArgs {
    #[command(subcommand)]
    what: VerifyCommand,
}

#[derive(Subcommand, Debug)]
enum VerifyCommand {
    /// Solve the start of every board size in a range: the first player's advantage.
    FirstPlayer(FirstPlayerArgs),
    /// Check the published Kalah values of REFERENCE.md (built in) that fit the time limit.
    Published(PublishedArgs),
    /// Search the first player's whole first turn for an outright win (the Dakon first-player claim).
    Opening(OpeningArgs),
}

/// Search resources shared by the subcommands that solve games.
#[derive(Args, Debug, Clone)]
struct EngineArgs {
    /// Search threads (default: all cores).
    #[arg(long)]
    threads: Option<usize>,
    /// Transposition table size in MiB per solve (default 512; small boards use only what they can fill).
    #[arg(long, value_name = "MIB")]
    hash_mb: Option<u64>,
}

#[derive(Args, Debug)]
struct FirstPlayerArgs {
    /// The game: kalah, dakon, djenon-aboure, walak-pussa or san-yao.
    #[arg(value_parser = parse_game)]
    game: GameKind,
    /// Holes per row: N or a range A..B (default: the game's standard board).
    #[arg(long, value_parser = parse_range, value_name = "A..B")]
    holes: Option<(u32, u32)>,
    /// Seeds per hole: N or a range C..D (default: the game's standard for each board).
    #[arg(long, value_parser = parse_range, value_name = "C..D")]
    seeds: Option<(u32, u32)>,
    #[command(flatten)]
    rules: RuleArgs,
    #[command(flatten)]
    engine: EngineArgs,
    /// Probe the endgame tables in DIR (built by `mancala tables build`) at every node.
    #[arg(long, value_name = "DIR")]
    tables: Option<PathBuf>,
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

#[derive(Args, Debug)]
struct PublishedArgs {
    /// Give each board at most SECS seconds (default 60); boards cut off are skipped, and so are
    /// larger boards of the same rule and width.
    #[arg(long, value_parser = parse_seconds, value_name = "SECS", allow_negative_numbers = true)]
    time_limit: Option<f64>,
    #[command(flatten)]
    engine: EngineArgs,
}

#[derive(Args, Debug)]
struct OpeningArgs {
    #[command(flatten)]
    pos: PositionArgs,
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

/// `N`, `A..B` or `A..=B` (both ends included).
fn parse_range(s: &str) -> Result<(u32, u32), String> {
    let num = |t: &str| -> Result<u32, String> {
        t.trim()
            .parse::<u32>()
            .map_err(|_| format!("'{s}' is not a number N or a range A..B of whole numbers"))
    };
    let (a, b) = match s.split_once("..") {
        Some((a, b)) => (num(a)?, num(b.strip_prefix('=').unwrap_or(b))?),
        None => {
            let n = num(s)?;
            (n, n)
        }
    };
    if a > b {
        return Err(format!("'{s}' is an empty range: {a} is greater than {b}"));
    }
    Ok((a, b))
}

/// A positive, finite number of seconds.
fn parse_seconds(s: &str) -> Result<f64, String> {
    match s.trim().parse::<f64>() {
        Ok(x) if x.is_finite() && x > 0.0 && x <= 1e9 => Ok(x),
        _ => Err(format!("'{s}' is not a positive number of seconds")),
    }
}

pub(super) fn run(a: VerifyArgs) -> Result<ExitCode> {
    match a.what {
        VerifyCommand::FirstPlayer(a) => first_player(&a),
        VerifyCommand::Published(a) => published(&a),
        VerifyCommand::Opening(a) => {
            let v = a.pos.variant()?;
            crate::with_rules!(v, r => opening_cmd(&a, r))
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Solving one start position with a time limit.

/// Threads, table size, time limit and the Ctrl-C flag: how to run each solve.
struct Engine {
    threads: usize,
    hash_bytes: u64,
    limit: Option<Duration>,
}

impl Engine {
    fn new(e: &EngineArgs, limit: Option<f64>) -> Result<Self> {
        let threads = match e.threads {
            Some(0) => bail!("--threads must be at least 1"),
            Some(t) if t > 1024 => bail!("--threads {t} is more than this program supports (1024)"),
            Some(t) => t,
            None => std::thread::available_parallelism().map_or(1, |n| n.get()),
        };
        let mb = e.hash_mb.unwrap_or(512);
        if mb == 0 {
            bail!("--hash-mb must be at least 1");
        }
        let hash_bytes = mb
            .checked_mul(1 << 20)
            .ok_or_else(|| anyhow!("--hash-mb {mb} is too large"))?;
        Ok(Self {
            threads,
            hash_bytes,
            limit: limit.map(Duration::from_secs_f64),
        })
    }
}

/// A flag raised by Ctrl-C (installed once per process).
fn interrupt_flag() -> Arc<AtomicBool> {
    static FLAG: std::sync::OnceLock<Arc<AtomicBool>> = std::sync::OnceLock::new();
    FLAG.get_or_init(|| {
        let flag = Arc::new(AtomicBool::new(false));
        let f = flag.clone();
        // If a handler cannot be installed, Ctrl-C simply kills the process as usual.
        let _ = ctrlc::set_handler(move || f.store(true, Ordering::Relaxed));
        flag
    })
    .clone()
}

/// The outcome of solving one start position.
#[derive(Clone, Debug)]
struct Solved {
    holes: u8,
    seeds: u8,
    /// Final South minus North; `None` when the time limit cut the search off.
    value: Option<i32>,
    best: Vec<u8>,
    nodes: u64,
    seconds: f64,
}

/// Solves `p` (its final South-minus-North value and best moves) within the engine's time limit.
/// A timer thread raises the search's stop flag at the deadline (or on Ctrl-C).
fn solve_limited<R: Rules>(
    p: &Position<R>,
    engine: &Engine,
    oracle: Option<&dyn Oracle<Position<R>>>,
) -> Result<Solved> {
    use solver::Game;
    let interrupt = interrupt_flag();
    let stop = Arc::new(AtomicBool::new(false));
    let useful = p.key_bound().saturating_mul(16).max(1 << 20);
    let tt_bytes = usize::try_from((engine.hash_bytes as u128).min(useful)).unwrap_or(usize::MAX);
    let cfg = SearchConfig {
        threads: engine.threads,
        tt_bytes,
        stop: Some(stop.clone()),
        ..SearchConfig::default()
    };
    let started = Instant::now();
    let (result, nodes) =
        with_deadline(engine.limit, &stop, || match Solver::new(p, cfg, oracle) {
            Ok(mut solver) => {
                let r = solver.solve(p);
                (r, solver.nodes())
            }
            Err(e) => (Err(e), 0),
        });
    if interrupt.load(Ordering::Relaxed) {
        bail!("interrupted");
    }
    let seconds = started.elapsed().as_secs_f64();
    let (holes, seeds) = (
        p.board().holes,
        p.board().pit_slice().first().copied().unwrap_or(0),
    );
    match result {
        Ok(r) => Ok(Solved {
            holes,
            seeds,
            value: Some(p.final_value(r.value)),
            best: r.best.iter().map(|m| m.0).collect(),
            nodes: r.nodes,
            seconds,
        }),
        Err(SearchError::Interrupted) => Ok(Solved {
            holes,
            seeds,
            value: None,
            best: Vec::new(),
            nodes,
            seconds,
        }),
        // A board too large for the transposition table's exact keys: no value, said why.
        Err(e) => {
            eprintln!(
                "warning: {} {holes}x{seeds}: cannot be solved here ({e}); reported as unknown",
                R::KIND.name()
            );
            Ok(Solved {
                holes,
                seeds,
                value: None,
                best: Vec::new(),
                nodes,
                seconds,
            })
        }
    }
}

/// Runs `work` while a timer thread raises `stop` at the deadline, or when Ctrl-C is pressed.
fn with_deadline<T>(
    limit: Option<Duration>,
    stop: &Arc<AtomicBool>,
    work: impl FnOnce() -> T,
) -> T {
    let interrupt = interrupt_flag();
    let started = Instant::now();
    let (tx, rx) = mpsc::channel::<()>();
    std::thread::scope(|s| {
        let stop = stop.clone();
        s.spawn(move || loop {
            let left = limit.map(|l| l.saturating_sub(started.elapsed()));
            if left == Some(Duration::ZERO) || interrupt.load(Ordering::Relaxed) {
                stop.store(true, Ordering::Relaxed);
                return;
            }
            let wait = left.map_or(Duration::from_millis(50), |l| {
                l.min(Duration::from_millis(50))
            });
            match rx.recv_timeout(wait) {
                Err(mpsc::RecvTimeoutError::Timeout) => continue,
                _ => return,
            }
        });
        let r = work();
        drop(tx);
        r
    })
}

/// "South", "North", "draw" or "unknown".
fn winner(value: Option<i32>) -> &'static str {
    match value.map(|v| v.cmp(&0)) {
        Some(std::cmp::Ordering::Greater) => "South",
        Some(std::cmp::Ordering::Less) => "North",
        Some(std::cmp::Ordering::Equal) => "draw",
        None => "unknown",
    }
}

fn value_text(value: Option<i32>) -> String {
    value.map_or_else(|| "unknown".to_string(), |v| format!("{v:+}"))
}

fn moves_text(moves: &[u8], sep: &str) -> String {
    moves
        .iter()
        .map(u8::to_string)
        .collect::<Vec<_>>()
        .join(sep)
}

/// A progress line on stderr when someone is watching.
fn note(text: &str) {
    if std::io::stderr().is_terminal() {
        eprintln!("{text}");
    }
}

// ---------------------------------------------------------------------------------------------
// Files: written whole to a temporary file next to the target, then renamed over it.

/// A file to be written atomically; created (and removed) once up front, so that an unwritable
/// path is reported before any long computation.
struct OutFile {
    path: PathBuf,
    tmp: PathBuf,
}

impl OutFile {
    fn new(path: &Path, flag: &str) -> Result<Self> {
        let name = path
            .file_name()
            .ok_or_else(|| anyhow!("{flag} {}: not a file name", path.display()))?
            .to_string_lossy()
            .into_owned();
        let tmp = path.with_file_name(format!(".{name}.tmp-{}", std::process::id()));
        std::fs::write(&tmp, b"")
            .with_context(|| format!("{flag} {}: cannot write there", path.display()))?;
        let _ = std::fs::remove_file(&tmp);
        Ok(Self {
            path: path.to_path_buf(),
            tmp,
        })
    }

    fn write(&self, bytes: &[u8], flag: &str) -> Result<()> {
        let ctx = || format!("{flag} {}", self.path.display());
        std::fs::write(&self.tmp, bytes).with_context(ctx)?;
        if let Err(e) = std::fs::rename(&self.tmp, &self.path) {
            let _ = std::fs::remove_file(&self.tmp);
            return Err(e).with_context(ctx);
        }
        Ok(())
    }
}

// ---------------------------------------------------------------------------------------------
// verify first-player

fn first_player(a: &FirstPlayerArgs) -> Result<ExitCode> {
    let pos = PositionArgs {
        game: a.game,
        holes: None,
        seeds: None,
        position: None,
        rules: a.rules,
    };
    let v = pos.variant()?;
    let kind = a.game;
    let (hmin, hmax) = kind.holes_range();
    let (h0, h1) = a
        .holes
        .unwrap_or((kind.default_holes() as u32, kind.default_holes() as u32));
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
        let (s0, s1) = a
            .seeds
            .unwrap_or((kind.default_seeds(h) as u32, kind.default_seeds(h) as u32));
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
    let engine = Engine::new(&a.engine, a.time_limit)?;
    let csv = a
        .csv
        .as_deref()
        .map(|p| OutFile::new(p, "--csv"))
        .transpose()?;
    let plot = a
        .plot
        .as_deref()
        .map(|p| OutFile::new(p, "--plot"))
        .transpose()?;
    let results = crate::with_rules!(v, r => survey(r, &sizes, &engine, a.tables.as_deref()))?;

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
        let rows: Vec<_> = results
            .iter()
            .map(|r| {
                json!({
                    "holes": r.holes, "seeds": r.seeds, "value": r.value, "winner": winner(r.value),
                    "best": r.best, "nodes": r.nodes, "seconds": r.seconds,
                })
            })
            .collect();
        let v = json!({
            "game": kind.name(), "options": v.option_names(), "time_limit": a.time_limit, "results": rows,
        });
        writeln!(out, "{v}")?;
        return Ok(ExitCode::SUCCESS);
    }
    out.write_all(first_player_table(&game, &results, a.time_limit).as_bytes())?;
    Ok(ExitCode::SUCCESS)
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
        Option<::tables::Tablebase<crate::endgame::MancalaIndexer<R>>>,
    )> = None;
    for &(h, s) in sizes {
        let p = Position::start(rules, h, s)?;
        if let Some(dir) = tables {
            if tb.as_ref().map(|t| t.0) != Some(h) {
                let opened = match crate::endgame::open_for_search(dir, &p)
                    .with_context(|| format!("--tables {}", dir.display()))
                {
                    Ok(t) => Some(t),
                    Err(e) => {
                        eprintln!("warning: no usable endgame tables for {h} holes ({e:#}); solving without them");
                        None
                    }
                };
                tb = Some((h, opened));
            }
        }
        let oracle = tb
            .as_ref()
            .and_then(|t| t.1.as_ref())
            .map(|t| t as &dyn Oracle<Position<R>>);
        let mut r = solve_limited(&p, engine, oracle)?;
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
        let _ = writeln!(
            s,
            "| {} | {} | {} | {} | {} | {} | {:.3} |",
            r.holes,
            r.seeds,
            value_text(r.value),
            winner(r.value),
            best,
            r.nodes,
            r.seconds
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
    let mut s = String::from("game,holes,seeds,value,winner,best,nodes,seconds\n");
    for r in results {
        s.push_str(&format!(
            "{game},{},{},{},{},{},{},{:.3}\n",
            r.holes,
            r.seeds,
            r.value.map_or(String::new(), |v| v.to_string()),
            winner(r.value),
            moves_text(&r.best, " "),
            r.nodes,
            r.seconds
        ));
    }
    s
}

/// An SVG heatmap of the first player's margin: seeds per hole across, holes per row down.
fn heatmap_svg(game: &str, results: &[Solved], limit: Option<f64>) -> Result<String> {
    use plotters::prelude::*;
    use plotters::style::text_anchor::{HPos, Pos, VPos};

    let mut holes: Vec<u8> = results.iter().map(|r| r.holes).collect();
    let mut seeds: Vec<u8> = results.iter().map(|r| r.seeds).collect();
    holes.sort_unstable();
    holes.dedup();
    seeds.sort_unstable();
    seeds.dedup();
    let span = results
        .iter()
        .filter_map(|r| r.value)
        .map(i32::abs)
        .max()
        .unwrap_or(1)
        .max(1);

    const CELL: i32 = 52;
    let (left, top, right, bottom) = (90, 70, 190, 70);
    let grid_w = CELL * seeds.len() as i32;
    let grid_h = CELL * holes.len() as i32;
    let (w, h) = (
        (left + grid_w + right).max(420) as u32,
        (top + grid_h + bottom).max(330) as u32,
    );
    let colour = |v: i32| -> RGBColor {
        // White at 0, deeper blue as the first player (South) wins by more, red as North does.
        let t = (v.unsigned_abs() as f64 / span as f64).clamp(0.0, 1.0);
        let mix = |a: u8, b: u8| (a as f64 + (b as f64 - a as f64) * t).round() as u8;
        if v >= 0 {
            RGBColor(mix(255, 33), mix(255, 102), mix(255, 172))
        } else {
            RGBColor(mix(255, 178), mix(255, 24), mix(255, 43))
        }
    };
    let unknown = RGBColor(200, 200, 200);
    let mut svg = String::new();
    {
        let area = SVGBackend::with_string(&mut svg, (w, h)).into_drawing_area();
        let err = |e: DrawingAreaErrorKind<_>| anyhow!("cannot draw the plot: {e:?}");
        area.fill(&WHITE).map_err(err)?;
        let centre = Pos::new(HPos::Center, VPos::Center);
        let font = |size: f64| ("sans-serif", size).into_font().color(&BLACK);
        area.draw(&Text::new(
            format!("{game}: first player's margin (South minus North)"),
            (w as i32 / 2, 22),
            font(17.0).pos(centre),
        ))
        .map_err(err)?;
        let sub = match limit {
            Some(l) => {
                format!("start positions, perfect play; grey = unknown (not solved within {l} s)")
            }
            None => "start positions, perfect play".to_string(),
        };
        area.draw(&Text::new(sub, (w as i32 / 2, 44), font(12.0).pos(centre)))
            .map_err(err)?;
        for (j, h_) in holes.iter().enumerate() {
            // Fewest holes at the top.
            let y = top + CELL * j as i32;
            area.draw(&Text::new(
                h_.to_string(),
                (left - 12, y + CELL / 2),
                font(14.0).pos(Pos::new(HPos::Right, VPos::Center)),
            ))
            .map_err(err)?;
            for (i, s_) in seeds.iter().enumerate() {
                let x = left + CELL * i as i32;
                let Some(r) = results.iter().find(|r| r.holes == *h_ && r.seeds == *s_) else {
                    continue;
                };
                let fill = r.value.map_or(unknown, colour);
                area.draw(&Rectangle::new(
                    [(x, y), (x + CELL, y + CELL)],
                    fill.filled(),
                ))
                .map_err(err)?;
                area.draw(&Rectangle::new(
                    [(x, y), (x + CELL, y + CELL)],
                    WHITE.stroke_width(1),
                ))
                .map_err(err)?;
                let label = r.value.map_or("?".to_string(), |v| format!("{v:+}"));
                let dark = r
                    .value
                    .is_some_and(|v| v.unsigned_abs() as f64 > 0.55 * span as f64);
                let style = font(14.0)
                    .pos(centre)
                    .color(if dark { &WHITE } else { &BLACK });
                area.draw(&Text::new(label, (x + CELL / 2, y + CELL / 2), style))
                    .map_err(err)?;
            }
        }
        for (i, s_) in seeds.iter().enumerate() {
            let x = left + CELL * i as i32 + CELL / 2;
            area.draw(&Text::new(
                s_.to_string(),
                (x, top + grid_h + 14),
                font(14.0).pos(centre),
            ))
            .map_err(err)?;
        }
        area.draw(&Text::new(
            "seeds per hole",
            (left + grid_w / 2, top + grid_h + 40),
            font(14.0).pos(centre),
        ))
        .map_err(err)?;
        area.draw(&Text::new(
            "holes per row",
            (22, top + grid_h / 2),
            font(14.0).pos(centre).transform(FontTransform::Rotate270),
        ))
        .map_err(err)?;
        // Legend: a colour bar from North's best margin to South's, and the unknown swatch.
        let lx = left + grid_w + 40;
        let bar_h = grid_h.clamp(160, 260);
        let steps = 40;
        area.draw(&Text::new(
            "margin",
            (lx, top - 14),
            font(13.0).pos(Pos::new(HPos::Left, VPos::Center)),
        ))
        .map_err(err)?;
        for k in 0..steps {
            let v = span - (2 * span * k) / (steps - 1);
            let y0 = top + bar_h * k / steps;
            let y1 = top + bar_h * (k + 1) / steps;
            area.draw(&Rectangle::new(
                [(lx, y0), (lx + 22, y1)],
                colour(v).filled(),
            ))
            .map_err(err)?;
        }
        area.draw(&Rectangle::new(
            [(lx, top), (lx + 22, top + bar_h)],
            BLACK.stroke_width(1),
        ))
        .map_err(err)?;
        let lab = Pos::new(HPos::Left, VPos::Center);
        for (v, y, text) in [
            (span, top, format!("{span:+} South (first) wins")),
            (0, top + bar_h / 2, "0 draw".to_string()),
            (-span, top + bar_h, format!("{:+} North wins", -span)),
        ] {
            let _ = v;
            area.draw(&PathElement::new(vec![(lx + 22, y), (lx + 28, y)], BLACK))
                .map_err(err)?;
            area.draw(&Text::new(text, (lx + 32, y), font(12.0).pos(lab)))
                .map_err(err)?;
        }
        let uy = top + bar_h + 20;
        area.draw(&Rectangle::new(
            [(lx, uy), (lx + 22, uy + 16)],
            unknown.filled(),
        ))
        .map_err(err)?;
        area.draw(&Text::new(
            "? unknown",
            (lx + 32, uy + 8),
            font(12.0).pos(lab),
        ))
        .map_err(err)?;
        area.present().map_err(err)?;
    }
    Ok(svg)
}

// ---------------------------------------------------------------------------------------------
// verify published

/// The outcome of one distinct board of the reference table.
enum Attempt {
    Solved(Solved),
    /// Cut off by the time limit after this many seconds.
    TimedOut(f64),
    /// Not tried: a smaller board of the same rule and width was cut off.
    NotTried(u8),
}

fn published(a: &PublishedArgs) -> Result<ExitCode> {
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
                let p = Position::start(
                    Kalah {
                        empty_capture: ec,
                        end_when_mover_empty: false,
                    },
                    h,
                    s,
                )?;
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

fn rule_name(empty_capture: bool) -> &'static str {
    if empty_capture {
        "empty-capture"
    } else {
        "standard"
    }
}

/// Whether a computed value (and best moves, when the row lists them) agrees with a row.
fn row_agrees(row: &ReferenceRow, value: i32, best: &[u8]) -> bool {
    row.value.agrees(value) && (row.best.is_empty() || row.best == best)
}

// ---------------------------------------------------------------------------------------------
// verify opening

/// A count as JSON: a number when it fits in a u64, else its exact decimal string.
fn count_json(c: &Count) -> serde_json::Value {
    match c.to_u64() {
        Some(v) => json!(v),
        None => json!(c.to_string()),
    }
}

fn opening_cmd<R: Rules>(a: &OpeningArgs, rules: R) -> Result<ExitCode> {
    let p = a.pos.position(rules)?;
    let limit = a.time_limit.unwrap_or(60.0);
    let engine = Engine::new(&a.engine, Some(limit))?;
    let stop = Arc::new(AtomicBool::new(false));
    let limits = opening::Limits {
        cache_entries: 1 << 20,
        stop: Some(stop.clone()),
    };
    let r = with_deadline(engine.limit, &stop, || opening::search(&p, &limits))?;
    if interrupt_flag().load(Ordering::Relaxed) {
        bail!("interrupted");
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
        let exact = |c: &Count| {
            if r.complete {
                count_json(c)
            } else {
                serde_json::Value::Null
            }
        };
        let mut v = json!({
            "game": R::KIND.name(),
            "options": rules.option_names(),
            "position": p.to_string(),
            "holes": p.board().holes,
            "mover": r.mover.letter().to_string(),
            "total_seeds": r.total_seeds,
            "complete": r.complete,
            "winning": r.winning,
            "count": exact(&r.count),
            "total": exact(&r.total),
            "shortest": r.shortest.as_deref().map(mv),
            "best": mv(&r.best),
            "max_store": r.max_store,
            "nodes": r.nodes,
            "edges": r.edges,
            "seconds": r.seconds,
        });
        if !r.complete {
            v["count_at_least"] = count_json(&r.count);
            v["total_at_least"] = count_json(&r.total);
        }
        if let Some(f) = &full {
            v["value"] = json!(f.value);
            v["value_seconds"] = json!(f.seconds);
        }
        writeln!(out, "{v}")?;
        return Ok(ExitCode::SUCCESS);
    }
    let mut game = R::KIND.name().to_string();
    for o in rules.option_names() {
        game.push_str(" --");
        game.push_str(o);
    }
    let (board, size) = match &a.pos.position {
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
                outcome(v),
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

/// "South wins by 8", "North wins by 2", "a draw".
fn outcome(v: i32) -> String {
    match v.cmp(&0) {
        std::cmp::Ordering::Greater => format!("South wins by {v}"),
        std::cmp::Ordering::Less => format!("North wins by {}", -v),
        std::cmp::Ordering::Equal => "a draw".to_string(),
    }
}
