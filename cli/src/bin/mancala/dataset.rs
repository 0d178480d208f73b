//! `dataset`: solved positions for training value and policy networks (docs/cli.md, "Solved
//! positions for training"). Games are sampled from the position of the flags, by uniformly
//! random moves (`--from random`) or by perfect play with ties broken at random (`--from
//! perfect`); each position met along them that is not over and not yet in the file becomes a
//! JSON line with its exact value and every legal move's value. One solver (one transposition
//! table) values them all. The same `--seed` gives the same file for any thread count: the
//! values are exact and the choices depend only on the seed and the exact values.
//!
//! `--from book` samples nothing: it writes the positions of the opening book built into the
//! program ([`mancala::answers::book`]), shallowest first, each valued by the analyzer as
//! `analyze` values it (the book, the memory, the tables, then a search).

use super::solve::{analyzer_error, warn_notes};
use super::{json, setup, PositionArgs};
use anyhow::{anyhow, bail, Context, Result};
use clap::{Args, ValueEnum};
use mancala::answers::{book, AnySolver, Limits};
use mancala::board::{Move, Side};
use mancala::rules::Rules;
use mancala::Position;
use mancala_cli::{exit, signal};
use solver::search::SearchError;
use solver::Game;
use std::collections::hash_map::Entry;
use std::collections::{HashMap, HashSet, VecDeque};
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;

/// How the sampled games are played.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum From {
    /// Every move uniformly at random among the legal ones.
    Random,
    /// Every move uniformly at random among the best ones (perfect play).
    Perfect,
    /// The positions of the opening book built into the program, shallowest first: the start,
    /// then every position reached through moves whose results the book holds.
    Book,
}

/// `mancala dataset`'s flags.
#[derive(Args, Debug)]
pub struct DatasetArgs {
    /// The game and where the sampled games start (`--position`, `--moves`, `--load`; default
    /// the start of the board).
    #[command(flatten)]
    pos: PositionArgs,
    #[command(flatten)]
    search: super::solve::SearchArgs,
    /// How many distinct positions to write.
    #[arg(long, value_name = "N")]
    positions: usize,
    /// How the games are played: `random` (uniformly random legal moves) or `perfect`
    /// (uniformly random best moves); or `book`: the opening book's positions, no sampling.
    #[arg(long, value_enum, value_name = "HOW")]
    from: From,
    /// The seed of the random choices: the same seed, the same file.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Where to write the JSON Lines (`-`: stdout). Written whole or not at all.
    #[arg(long, value_name = "FILE", allow_hyphen_values = true)]
    out: PathBuf,
}

impl DatasetArgs {
    /// The game's variant, for the dispatch on rules.
    pub fn variant(&self) -> Result<mancala::variant::Variant> {
        self.pos.variant()
    }
}

/// The most games in a row that may add no new position before the sampling gives up: the
/// games from this start are then (nearly) all met, as perfect play soon finds.
const FRUITLESS_GAMES: usize = 1000;

/// SplitMix64: a tiny, well-mixed generator whose whole state is the seed (so a seed names a
/// file). Not for cryptography.
struct SplitMix(u64);

impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number below `n` (> 0), by the high half of a 128-bit product: no modulo bias to speak of.
    fn below(&mut self, n: usize) -> usize {
        ((u128::from(self.next()) * n as u128) >> 64) as usize
    }
}

/// Runs `dataset`.
pub(super) fn run<R: Rules>(a: &DatasetArgs, rules: R) -> Result<ExitCode> {
    if a.positions == 0 {
        bail!("--positions must be at least 1");
    }
    if a.search.time_limit().is_some() {
        bail!("--time-limit does not apply to dataset: every value it writes is exact");
    }
    let start = a.pos.position(rules)?;
    // The file is opened before the work, so that a bad --out fails now, not after it.
    let mut out = Output::create(&a.out)?;
    if start.is_over() {
        bail!("the game is already over in {start}: no positions to sample");
    }
    if a.from == From::Book {
        let lines = from_book(a, &start)?;
        out.finish(&lines)?;
        return Ok(ExitCode::SUCCESS);
    }
    // Kept for the rest of the process (the command's), so that the search over the Kalah node
    // reads them through the view kept beside them.
    let tb = a
        .search
        .tables_dir()
        .map(|d| setup::tables_for_search(&d, &start))
        .transpose()?
        .map(|t| &*Box::leak(Box::new(t)));
    let mut cfg = a.search.config(&start)?;
    cfg.stop = Some(signal::token());
    // Over the Kalah node when `start` is one.
    let mut solver = AnySolver::new(&start, cfg, tb).map_err(setup::search_error)?;
    let mut rng = SplitMix(a.seed);
    let mut seen: HashSet<Position<R>> = HashSet::new();
    // Perfect play meets the same positions game after game: each is valued once.
    let mut valued: HashMap<Position<R>, Vec<(Move, i32, i32)>> = HashMap::new();
    let mut lines = Vec::with_capacity(a.positions);
    let terminal = std::io::stderr().is_terminal();
    let mut fruitless = 0;
    while lines.len() < a.positions && fruitless < FRUITLESS_GAMES {
        let before = lines.len();
        let mut p = start;
        let mut ply = 0;
        while !p.is_over() && lines.len() < a.positions {
            let fresh = seen.insert(p);
            // Perfect play needs every position's values to choose; random play only the new.
            let values = if fresh || a.from == From::Perfect {
                let v = match valued.entry(p) {
                    Entry::Occupied(e) => e.into_mut(),
                    Entry::Vacant(e) => e.insert(analysis(&mut solver, &p)?),
                };
                Some(&*v)
            } else {
                None
            };
            if let (true, Some(v)) = (fresh, values) {
                lines.push(line(&p, ply, v));
                if terminal {
                    eprint!("\r{}/{} positions", lines.len(), a.positions);
                }
            }
            let mv = match (a.from, values) {
                (From::Perfect, Some(v)) => {
                    let best: Vec<Move> = v.iter().filter(|m| m.1 == v[0].2).map(|m| m.0).collect();
                    best[rng.below(best.len())]
                }
                _ => {
                    let legal = p.legal_moves();
                    legal.as_slice()[rng.below(legal.len())]
                }
            };
            p = p.play_unchecked(mv);
            ply += 1;
        }
        fruitless = if lines.len() == before {
            fruitless + 1
        } else {
            0
        };
    }
    if terminal {
        eprintln!();
    }
    if lines.len() < a.positions {
        eprintln!(
            "warning: only {} distinct positions found ({FRUITLESS_GAMES} games in a row added none): the games from this start are nearly all met",
            lines.len()
        );
    }
    out.finish(&lines)?;
    Ok(ExitCode::SUCCESS)
}

/// Every legal move of `p` with the final value it reaches, each with the best final value for
/// the side to move (the same in every entry: the position's value).
fn analysis<R: Rules>(
    solver: &mut AnySolver<'_, R>,
    p: &Position<R>,
) -> Result<Vec<(Move, i32, i32)>> {
    let moves = match solver.analyze(p) {
        Ok(m) => m,
        Err(SearchError::Interrupted) => {
            return Err(anyhow::Error::new(exit::Interrupted(
                "the dataset was stopped before it was complete (nothing written)".into(),
            )))
        }
        Err(e) => return Err(setup::search_error(e)),
    };
    let finals: Vec<(Move, i32)> = moves.iter().map(|&(m, v)| (m, p.final_value(v))).collect();
    let sign = p.to_move().map_or(1, Side::sign);
    let best = finals.iter().map(|f| sign * f.1).max().unwrap_or(0) * sign;
    Ok(finals.into_iter().map(|(m, v)| (m, v, best)).collect())
}

/// The lines of `--from book`: the positions of the book from `start` on, shallowest first (the
/// start, then each position whose key the book holds and that a move of a listed one reaches),
/// at most `--positions`, each valued by one analyzer for them all.
fn from_book<R: Rules>(a: &DatasetArgs, start: &Position<R>) -> Result<Vec<String>> {
    let book = book::embedded().map_err(|e| anyhow!("{e}"))?;
    let entries = book
        .positions(*start.rules(), start.board().holes)
        .map_err(|e| anyhow!("{e}"))?;
    let held: HashSet<u128> = entries.iter().map(|(p, _)| p.key()).collect();
    let mut queue = VecDeque::from([(*start, 0)]);
    let mut seen = HashSet::from([*start]);
    let mut order = Vec::new();
    while let Some((p, ply)) = queue.pop_front() {
        order.push((p, ply));
        for mv in p.legal_moves().as_slice() {
            let next = p.play_unchecked(*mv);
            if !next.is_over() && held.contains(&next.key()) && seen.insert(next) {
                queue.push_back((next, ply + 1));
            }
        }
    }
    if order.len() == 1 {
        // Each game once, in the book's order.
        let mut games: Vec<&str> = Vec::new();
        for e in &book.entries {
            if !games.contains(&e.identity.as_str()) {
                games.push(&e.identity);
            }
        }
        bail!(
            "the opening book holds no position that follows {start} under these rules: it holds \
             positions of {}",
            games.join(", ")
        );
    }
    let mut analyzer = a.search.analyzer::<R>()?;
    let limits = Limits {
        time: None,
        stop: Some(signal::token()),
    };
    let terminal = std::io::stderr().is_terminal();
    let mut lines = Vec::new();
    for (p, ply) in order.into_iter().take(a.positions) {
        let analysis = analyzer.analyze(&p, &limits);
        warn_notes(&mut analyzer);
        let analysis = analysis.map_err(analyzer_error)?;
        let (Some(value), true) = (
            analysis.value.value(),
            analysis.moves.iter().all(|m| m.value.is_exact()),
        ) else {
            // No time limit: only the stop flag (Ctrl-C) leaves a value unfinished.
            return Err(anyhow::Error::new(exit::Interrupted(
                "the dataset was stopped before it was complete (nothing written)".into(),
            )));
        };
        let values: Vec<(Move, i32, i32)> = analysis
            .moves
            .iter()
            .map(|m| (m.mv, m.value.lower, value))
            .collect();
        lines.push(line(&p, ply, &values));
        if terminal {
            eprint!("\r{}/{} positions", lines.len(), a.positions);
        }
    }
    if terminal {
        eprintln!();
    }
    if lines.len() < a.positions {
        eprintln!(
            "warning: the book holds {} positions from {start}: all are written",
            lines.len()
        );
    }
    Ok(lines)
}

/// The JSON line of `p`, met at `ply`, valued by `values`.
fn line<R: Rules>(p: &Position<R>, ply: usize, values: &[(Move, i32, i32)]) -> String {
    let value = values[0].2;
    let sign = p.to_move().map_or(1, Side::sign);
    let [s, n] = p.score();
    let v = json::DatasetPosition {
        head: json::PositionHead::of("dataset", p),
        ply,
        value,
        // The final value less the stores' difference, from the mover's side.
        future: sign * (value - (s as i32 - n as i32)),
        best: values
            .iter()
            .filter(|m| m.1 == value)
            .map(|m| m.0 .0)
            .collect(),
        moves: json::MoveValue::list(&values.iter().map(|m| (m.0 .0, m.1)).collect::<Vec<_>>()),
    };
    serde_json::to_string(&v).expect("a dataset line serializes")
}

/// Where the lines go: stdout, or a temporary file beside `--out`, renamed over it once whole,
/// or straight into `--out` when it is no regular file (`/dev/null`, a pipe): renaming over a
/// device would replace it with a file.
enum Output {
    Stdout,
    Direct(std::fs::File),
    File {
        path: PathBuf,
        tmp: PathBuf,
        file: std::fs::File,
    },
}

impl Output {
    /// Opens `path`'s temporary file (`-`: stdout).
    fn create(path: &std::path::Path) -> Result<Self> {
        if path.as_os_str() == "-" {
            return Ok(Output::Stdout);
        }
        let name = path.display();
        if std::fs::metadata(path).is_ok_and(|m| !m.is_file()) {
            if path.is_dir() {
                bail!("--out {name}: a directory, not a file");
            }
            let file = std::fs::OpenOptions::new()
                .write(true)
                .open(path)
                .with_context(|| format!("--out {name}"))?;
            return Ok(Output::Direct(file));
        }
        let mut tmp = path.as_os_str().to_owned();
        tmp.push(".tmp");
        let tmp = PathBuf::from(tmp);
        let file =
            std::fs::File::create(&tmp).with_context(|| format!("--out {}", path.display()))?;
        Ok(Output::File {
            path: path.to_path_buf(),
            tmp,
            file,
        })
    }

    /// Writes `lines` and, for a file, renames it into place.
    fn finish(&mut self, lines: &[String]) -> Result<()> {
        let mut text = lines.join("\n");
        text.push('\n');
        match self {
            Output::Stdout => {
                let mut o = std::io::stdout().lock();
                o.write_all(text.as_bytes())?;
                Ok(o.flush()?)
            }
            Output::Direct(file) => Ok(file.write_all(text.as_bytes())?),
            Output::File { path, tmp, file } => {
                let name = path.display().to_string();
                file.write_all(text.as_bytes())
                    .and_then(|()| file.sync_all())
                    .with_context(|| format!("--out {name}"))?;
                std::fs::rename(&*tmp, &*path).with_context(|| format!("--out {name}"))
            }
        }
    }
}

impl Drop for Output {
    /// A file not renamed into place (an error, Ctrl-C) leaves no temporary behind.
    fn drop(&mut self) {
        if let Output::File { tmp, .. } = self {
            let _ = std::fs::remove_file(tmp);
        }
    }
}
