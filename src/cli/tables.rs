//! `tables build | info | query | dump | verify`: endgame tables from the command line, and the
//! `--tables DIR` option of `solve` and `analyze`.
//!
//! Tables live in one directory, one file per game, options, board size and layer (see the
//! `tables` crate's `format` module); the default directory is [`mancala::endgame::default_dir`].
//! Files are memory-mapped for reading: they are written once, atomically, and never modified in
//! place, so a mapping stays valid as long as nobody else rewrites the directory's files.

use super::engine::{self, mib};
use super::{parse_game, report, PositionArgs, RuleArgs};
use anyhow::{bail, Context, Result};
use clap::{Args, Subcommand, ValueEnum};
use mancala::board::{Move, MAX_BOARD_SEEDS};
use mancala::endgame::{default_dir, open, table_id, Hold, MancalaIndexer};
use mancala::rules::{GameKind, Rules};
use mancala::variant::Variant;
use solver::Indexer;
use std::collections::BTreeMap;
use std::io::{BufWriter, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;
use tables::{BuildOptions, Table, TableId};

/// Endgame tables: build, inspect, query, dump and verify them.
#[derive(Args, Debug)]
pub(super) struct TablesArgs {
    #[command(subcommand)]
    command: TablesCommand,
}

#[derive(Subcommand, Debug)]
enum TablesCommand {
    /// Build the tables of every position with 0..=K seeds on the board (resumes a killed build).
    Build(BuildArgs),
    /// List every table file in the directory: game, options, holes, layer, entries, bytes,
    /// checksum status.
    Info(DirArgs),
    /// The exact value of a position and its best moves, from the tables.
    Query(QueryArgs),
    /// Every position of one layer with its value and best moves.
    Dump(DumpArgs),
    /// Check every table: checksums, then every entry re-derived from its children.
    Verify(VerifyArgs),
}

/// Which game, which options, which board (no position).
#[derive(Args, Debug)]
struct GameArgs {
    /// The game: kalah, dakon, djenon-aboure, walak-pussa or san-yao.
    #[arg(value_parser = parse_game)]
    game: GameKind,
    /// Holes per row (default: the game's standard board).
    #[arg(long)]
    holes: Option<u32>,
    #[command(flatten)]
    rules: RuleArgs,
}

#[derive(Args, Debug)]
struct DirArgs {
    /// The table directory (default: $MANCALA_TABLES, else $XDG_CACHE_HOME/mancala/tables, else
    /// ~/.cache/mancala/tables).
    #[arg(long, value_name = "DIR")]
    dir: Option<PathBuf>,
}

#[derive(Args, Debug)]
struct BuildArgs {
    #[command(flatten)]
    game: GameArgs,
    /// The largest number of seeds on the board to cover.
    #[arg(long, value_name = "K")]
    max_seeds: u32,
    #[command(flatten)]
    dir: DirArgs,
    /// Worker threads (default: all cores).
    #[arg(long)]
    threads: Option<usize>,
    /// Show progress bars on stderr even when it is not a terminal.
    #[arg(long)]
    progress: bool,
}

#[derive(Args, Debug)]
struct QueryArgs {
    #[command(flatten)]
    pos: PositionArgs,
    #[command(flatten)]
    dir: DirArgs,
    /// Print one JSON object: {"position","to_move","value","future","best","moves"}.
    #[arg(long)]
    json: bool,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum DumpFormat {
    /// `position,value,best` with a header line; best moves space-separated.
    Csv,
    /// One JSON object per line: {"position","value","best"}.
    Jsonl,
}

#[derive(Args, Debug)]
struct DumpArgs {
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

#[derive(Args, Debug)]
struct VerifyArgs {
    #[command(flatten)]
    dir: DirArgs,
    /// Worker threads (default: all cores).
    #[arg(long)]
    threads: Option<usize>,
    /// Show progress bars on stderr even when it is not a terminal.
    #[arg(long)]
    progress: bool,
}

impl DirArgs {
    fn dir(&self) -> PathBuf {
        self.dir.clone().unwrap_or_else(default_dir)
    }
}

impl GameArgs {
    fn variant(&self) -> Result<Variant> {
        self.rules.variant(self.game)
    }

    fn holes(&self) -> Result<u8> {
        let (min, max) = self.game.holes_range();
        match self.holes {
            None => Ok(self.game.default_holes()),
            Some(h) if h >= min as u32 && h <= max as u32 => Ok(h as u8),
            Some(h) => bail!(
                "{} is played with {min} to {max} holes per row, not {h}",
                self.game.name()
            ),
        }
    }
}

/// Runs a `tables` subcommand.
pub(super) fn run(a: TablesArgs) -> Result<ExitCode> {
    match a.command {
        TablesCommand::Build(b) => {
            let v = b.game.variant()?;
            let holes = b.game.holes()?;
            mancala::with_rules!(v, r => build(&b, r, holes))
        }
        TablesCommand::Info(d) => info(&d.dir()),
        TablesCommand::Query(q) => {
            let v = q.pos.variant()?;
            mancala::with_rules!(v, r => query(&q, r))
        }
        TablesCommand::Dump(d) => {
            let v = d.game.variant()?;
            let holes = d.game.holes()?;
            mancala::with_rules!(v, r => dump(&d, r, holes))
        }
        TablesCommand::Verify(v) => {
            engine::interruptible("verifying the tables", false, || verify(&v))
        }
    }
}

fn build<R: Rules>(a: &BuildArgs, rules: R, holes: u8) -> Result<ExitCode> {
    let k = a.max_seeds;
    if k > MAX_BOARD_SEEDS {
        bail!("--max-seeds {k} is more than the board can hold ({MAX_BOARD_SEEDS} seeds)");
    }
    let dir = a.dir.dir();
    let ix = MancalaIndexer::new(rules, holes);
    let id = table_id(&rules, holes);
    let threads = engine::threads(a.threads)?;
    let mem = tables::memory_estimate(&ix, k);
    eprintln!(
        "building {id}, 0 to {k} seeds on the board, in {}: {} entries (largest layer {}); memory about {} ({} working, up to {} of lower tables); {threads} thread{}",
        dir.display(),
        mem.entries,
        mem.largest_layer,
        mib(mem.total()),
        mib(mem.working),
        mib(mem.tables),
        if threads == 1 { "" } else { "s" }
    );
    engine::ensure_memory(&format!("building {id} up to {k} seeds"), mem.total())?;
    let opts = BuildOptions {
        threads,
        progress: a.progress || std::io::stderr().is_terminal(),
        cyclic_by_graph: false,
    };
    let started = Instant::now();
    let mut out = std::io::stdout().lock();
    let mut io_result = Ok(());
    // A layer's retrograde analysis does not look at the interrupt flag: a signal ends the
    // process from the watcher, after removing the temporary file of a write in progress (the
    // layers already renamed are complete, and the next build resumes from them).
    let what = format!("building {id}");
    let built = engine::interruptible(&what, false, || {
        tables::build(&ix, &id, &dir, k, &opts, |r| {
            let what = if r.resumed {
                "kept (already built)".to_string()
            } else {
                format!(
                    "{:.3} s, {:.1} M positions/s",
                    r.seconds,
                    r.entries as f64 / r.seconds.max(1e-9) / 1e6
                )
            };
            let exc = if r.exceptions > 0 {
                format!(" + {} exceptions", r.exceptions)
            } else {
                String::new()
            };
            if let Some(why) = &r.rebuilt_because {
                eprintln!("layer {}: rebuilt the existing file: {why}", r.layer);
            }
            if io_result.is_ok() {
                io_result = writeln!(
                    out,
                    "layer {:>3}: {:>12} entries, {}{exc}, {:>12} bytes, {what}",
                    r.layer, r.entries, r.encoding, r.bytes
                );
            }
        })
    })
    .with_context(|| format!("building the tables of {id}"))?;
    io_result?;
    let bytes: u64 = built.iter().map(Table::file_bytes).sum();
    writeln!(
        out,
        "built {id}: layers 0 to {k}, {} entries, {bytes} bytes ({:.2} bits per entry), in {:.3} s",
        mem.entries,
        8.0 * bytes as f64 / mem.entries.max(1) as f64,
        started.elapsed().as_secs_f64()
    )?;
    Ok(ExitCode::SUCCESS)
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
        let v = super::json::TablesQuery {
            head: super::json::PositionHead::of("tables query", &p),
            value,
            winner: super::json::Winner::of(value),
            future,
            best,
            moves: super::json::MoveValue::list(&finals),
        };
        super::json::print(&mut out, &v)?;
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
                let line = super::json::DumpLine {
                    position: p.to_string(),
                    value: p.final_value(v),
                    best,
                };
                super::json::print(&mut out, &line)?;
            }
        }
    }
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}

/// What `tables info` says about a directory without tables.
const NO_TABLES_YET: &str =
    "no tables yet: build them with `mancala tables build GAME --max-seeds K` \
(for example `mancala tables build kalah --max-seeds 16`; add --dir DIR for another directory than \
the default)";

/// One table file as `info` and `verify` see it.
struct FileInfo {
    path: PathBuf,
    table: Result<Table, tables::TableError>,
}

fn scan(dir: &Path) -> Result<Vec<FileInfo>> {
    let files = tables::table_files(dir).context("cannot list the table directory")?;
    Ok(files
        .into_iter()
        .map(|path| {
            // SAFETY: as in `open`.
            let table = unsafe { Table::map(&path) };
            FileInfo { path, table }
        })
        .collect())
}

fn info(dir: &Path) -> Result<ExitCode> {
    let mut out = std::io::stdout().lock();
    // A fresh machine has no table directory yet: that is the normal start, not an error.
    let files = if dir.exists() { scan(dir)? } else { Vec::new() };
    writeln!(out, "directory: {}", dir.display())?;
    if files.is_empty() {
        writeln!(out, "{}", NO_TABLES_YET)?;
        return Ok(ExitCode::SUCCESS);
    }
    writeln!(
        out,
        "{:<36} {:<14} {:<22} {:>5} {:>5} {:>12} {:<15} {:>12}  checksum",
        "file", "game", "options", "holes", "layer", "entries", "encoding", "bytes"
    )?;
    let mut groups: BTreeMap<TableId, (Vec<u32>, u64, u64)> = BTreeMap::new();
    for f in &files {
        let name = f
            .path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        match &f.table {
            Err(e) => writeln!(out, "{name:<36} ERROR: {e}")?,
            Ok(t) => {
                let h = t.header();
                let mut status = match t.check_payload() {
                    Ok(()) => "ok".to_string(),
                    Err(e) => format!("BAD: {e}"),
                };
                if let Some(why) = name_disagrees(&name, h) {
                    status.push_str(&format!("; NAME MISMATCH: {why}"));
                }
                let opts = if h.id.options.is_empty() {
                    "-".to_string()
                } else {
                    h.id.options.join(",")
                };
                writeln!(
                    out,
                    "{name:<36} {:<14} {opts:<22} {:>5} {:>5} {:>12} {:<15} {:>12}  {status}",
                    h.id.game,
                    h.id.holes,
                    h.layer,
                    h.entries,
                    h.encoding.to_string(),
                    t.file_bytes()
                )?;
                let g = groups.entry(h.id.clone()).or_default();
                g.0.push(h.layer);
                g.1 += h.entries;
                g.2 += t.file_bytes();
            }
        }
    }
    writeln!(out)?;
    for (id, (mut layers, entries, bytes)) in groups {
        layers.sort_unstable();
        let complete = layers
            .iter()
            .enumerate()
            .take_while(|&(i, &l)| i as u32 == l)
            .count();
        let cover = if complete == 0 {
            "no layer 0".to_string()
        } else {
            format!("layers 0 to {}", complete - 1)
        };
        let extra = if complete < layers.len() {
            format!(" (+{} beyond a gap)", layers.len() - complete)
        } else {
            String::new()
        };
        writeln!(
            out,
            "{id}: {cover}{extra}, {entries} entries, {bytes} bytes"
        )?;
    }
    Ok(ExitCode::SUCCESS)
}

/// Why the file name `name` disagrees with its header, when it does: the name is how readers find
/// a layer, so a file under another layer's name would be skipped or refused where it is looked
/// for.
fn name_disagrees(name: &str, h: &tables::Header) -> Option<String> {
    let expected = h.id.file_name(h.layer);
    (name != expected).then(|| {
        format!(
            "the header is layer {} of {}, whose file is named {expected}",
            h.layer, h.id
        )
    })
}

/// The game, options and holes a table identity names.
fn variant_of(id: &TableId) -> Result<(Variant, u8)> {
    let kind: GameKind = id.game.parse().map_err(anyhow::Error::msg)?;
    let v = Variant::new(kind, &id.options).map_err(anyhow::Error::msg)?;
    let (min, max) = kind.holes_range();
    if id.holes < min as u32 || id.holes > max as u32 {
        bail!(
            "{} is played with {min} to {max} holes per row, not {}",
            kind.name(),
            id.holes
        );
    }
    Ok((v, id.holes as u8))
}

fn verify(a: &VerifyArgs) -> Result<ExitCode> {
    let threads = engine::threads(a.threads)?;
    let dir = a.dir.dir();
    let files = scan(&dir)?;
    if files.is_empty() {
        bail!("no table files in {}", dir.display());
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()?;
    let mut out = std::io::stdout().lock();
    let mut problems = 0u64;
    // Step 1. Every file: framing, structure, name and checksum. A bad file is reported and the
    // others are still checked; the layers each set has on disk are noted for step 2.
    let mut sets: BTreeMap<TableId, Vec<u32>> = BTreeMap::new();
    let mut ok = 0;
    for f in &files {
        let name = f
            .path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let checked = f.table.as_ref().map_err(|e| e.to_string()).and_then(|t| {
            let h = t.header();
            if let Some(why) = name_disagrees(&name, h) {
                return Err(format!("{}: {why}", f.path.display()));
            }
            pool.install(|| t.check_payload())
                .map_err(|e| e.to_string())?;
            Ok(h)
        });
        match checked {
            Ok(h) => {
                ok += 1;
                sets.entry(h.id.clone()).or_default().push(h.layer);
            }
            Err(e) => {
                problems += 1;
                writeln!(out, "BAD {e}")?;
            }
        }
    }
    writeln!(out, "checksums: {ok} of {} files ok", files.len())?;
    drop(files);
    // Step 2. Every entry of every set, re-derived from its children, layer by layer from 0
    // while the layers are there and sound.
    let progress = a.progress || std::io::stderr().is_terminal();
    for (id, mut layers) in sets {
        layers.sort_unstable();
        let (v, holes) = match variant_of(&id) {
            Ok(x) => x,
            Err(e) => {
                problems += 1;
                writeln!(out, "{id}: cannot check: {e}")?;
                continue;
            }
        };
        let n = mancala::with_rules!(v, r => verify_set(&mut out, &pool, &dir, r, holes, &layers, progress))?;
        problems += n;
    }
    if problems > 0 {
        writeln!(
            out,
            "FAILED: {problems} problem{}",
            if problems == 1 { "" } else { "s" }
        )?;
        return Ok(ExitCode::FAILURE);
    }
    writeln!(out, "all tables verified")?;
    Ok(ExitCode::SUCCESS)
}

/// Verifies the layers `0, 1, …` of one game (`present`: the layers whose files passed step 1,
/// sorted); returns the number of problems: wrong entries, and a missing or bad layer below
/// others, which leaves those unverified.
fn verify_set<R: Rules>(
    out: &mut impl Write,
    pool: &rayon::ThreadPool,
    dir: &Path,
    rules: R,
    holes: u8,
    present: &[u32],
    progress: bool,
) -> Result<u64> {
    let ix = MancalaIndexer::new(rules, holes);
    let id = table_id(&rules, holes);
    let top = present.last().copied().unwrap_or(0);
    let started = Instant::now();
    let mut problems = 0;
    let mut entries = 0;
    let mut tables: Vec<Table> = Vec::new();
    for k in 0..=top {
        if engine::interrupted() {
            return Err(engine::Interrupted(format!(
                "verifying the tables was stopped at layer {k} of {id}"
            ))
            .into());
        }
        if present.binary_search(&k).is_err() {
            problems += 1;
            writeln!(
                out,
                "{id}: layer {k} is missing or bad, so layers {k} to {top} are not verified"
            )?;
            break;
        }
        let path = dir.join(id.file_name(k));
        let expected = tables::Expected {
            id: &id,
            layer: k,
            entries: ix.layer_len(k),
        };
        // SAFETY: as in `open`.
        match unsafe { Table::map_expecting(&path, expected) } {
            Ok(t) => tables.push(t),
            Err(e) => {
                problems += 1;
                writeln!(out, "{id}: {e}; layers {k} to {top} are not verified")?;
                break;
            }
        }
        let v = pool.install(|| tables::verify_layer(&ix, &tables, k, progress));
        entries += v.entries;
        if v.wrong > 0 {
            problems += v.wrong;
            writeln!(
                out,
                "{id}: layer {k}: {} wrong entr{}",
                v.wrong,
                if v.wrong == 1 { "y" } else { "ies" }
            )?;
            for w in &v.examples {
                let p = ix
                    .position(k, w.index)
                    .map_or("(no position)".to_string(), |p| p.to_string());
                writeln!(
                    out,
                    "  slot {} ({p}): stored {}, its children give {}",
                    w.index, w.stored, w.derived
                )?;
            }
        }
    }
    let cyclic = if R::CAN_CYCLE {
        " (a cyclic game: one-ply consistency)"
    } else {
        ""
    };
    let verified = tables.len();
    if verified > 0 {
        writeln!(
            out,
            "{id}: layers 0 to {}, {entries} entries re-derived from their children in {:.3} s: {}{cyclic}",
            verified - 1,
            started.elapsed().as_secs_f64(),
            if problems == 0 { "ok" } else { "WRONG" }
        )?;
    }
    Ok(problems)
}
