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
    Info(InfoArgs),
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
struct InfoArgs {
    #[command(flatten)]
    dir: DirArgs,
    /// Print one JSON object (docs/json.md): {"directory","files","sets",...}.
    #[arg(long)]
    json: bool,
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
    /// Print one JSON object (docs/json.md) at the end instead of a line per layer.
    #[arg(long)]
    json: bool,
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
    /// Print one JSON object (docs/json.md) instead of the report.
    #[arg(long)]
    json: bool,
    /// Check the files (checksums, names) and compare them with their sets' manifests (size
    /// and SHA-256), in seconds, without re-deriving the entries.
    #[arg(long)]
    quick: bool,
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
        TablesCommand::Info(i) => info(&i.dir.dir(), i.json),
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
    // Layers' arrays are freed and allocated in turn: without this the peak depends on what the
    // allocator kept of the freed ones, and the estimate below could not hold.
    solver::return_freed_blocks();
    // The process itself (code, allocator, threads) counts too: it is most of a small build.
    // Read before the estimate, which may build the top layer's schedule to measure it.
    let own = engine::resident_bytes().unwrap_or(0);
    let mem = tables::memory_estimate(&ix, k);
    let estimate = mem.total().saturating_add(own);
    eprintln!(
        "building {id}, 0 to {k} seeds on the board, in {}: {} entries (largest layer {}); memory about {} ({} working, up to {} of lower tables, {} the program); {threads} thread{}",
        dir.display(),
        mem.entries,
        mem.largest_layer,
        mib(estimate),
        mib(mem.working),
        mib(mem.tables),
        mib(own),
        if threads == 1 { "" } else { "s" }
    );
    engine::ensure_memory(&format!("building {id} up to {k} seeds"), estimate)?;
    let opts = BuildOptions {
        threads,
        cyclic_by_graph: false,
    };
    let bars = super::layer_bars::LayerBars::new(a.progress || std::io::stderr().is_terminal());
    let started = Instant::now();
    let mut out = std::io::stdout().lock();
    let mut io_result = Ok(());
    let mut layers: Vec<super::json::BuiltLayer> = Vec::new();
    // A layer's retrograde analysis does not look at the interrupt flag: a signal ends the
    // process from the watcher, after removing the temporary file of a write in progress (the
    // layers already renamed are complete, and the next build resumes from them).
    let what = format!("building {id}");
    let built = engine::interruptible(&what, false, || {
        tables::build(&ix, &id, &dir, k, &opts, &bars, |r| {
            if let Some(why) = &r.rebuilt_because {
                eprintln!("layer {}: rebuilt the existing file: {why}", r.layer);
            }
            if a.json {
                layers.push(super::json::BuiltLayer {
                    layer: r.layer,
                    entries: r.entries,
                    encoding: r.encoding.to_string(),
                    exceptions: r.exceptions,
                    bytes: r.bytes,
                    resumed: r.resumed,
                    rebuilt_because: r.rebuilt_because.as_ref().map(|w| w.to_string()),
                    seconds: r.seconds,
                });
            } else if io_result.is_ok() {
                io_result = writeln!(out, "{r}");
            }
        })
    })
    .with_context(|| format!("building the tables of {id}"))?;
    io_result?;
    let bytes: u64 = built.iter().map(Table::file_bytes).sum();
    let bits = 8.0 * bytes as f64 / mem.entries.max(1) as f64;
    let seconds = started.elapsed().as_secs_f64();
    if a.json {
        let v = super::json::TablesBuild {
            head: super::json::Head::rules("tables build", &rules),
            holes,
            max_seeds: k,
            directory: dir.display().to_string(),
            layers,
            entries: mem.entries,
            bytes,
            bits_per_entry: bits,
            seconds,
            memory_estimate: estimate,
            peak_memory: engine::peak_resident_bytes(),
        };
        super::json::print(&mut out, &v)?;
        return Ok(ExitCode::SUCCESS);
    }
    writeln!(
        out,
        "built {id}: layers 0 to {k}, {} entries, {bytes} bytes ({bits:.2} bits per entry), in {seconds:.3} s",
        mem.entries,
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

/// The name of a table file, for listings.
fn file_name(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// `tables info`: every file of the directory, then each set; the JSON and the text come from
/// the same records.
fn info(dir: &Path, as_json: bool) -> Result<ExitCode> {
    use super::json::{InfoFile, InfoSet, InfoTable, TablesInfo, ToolHead};
    let mut out = std::io::stdout().lock();
    // A fresh machine has no table directory yet: that is the normal start, not an error.
    let scanned = if dir.exists() { scan(dir)? } else { Vec::new() };
    let mut files = Vec::new();
    let mut groups: BTreeMap<TableId, (Vec<u32>, u64, u64)> = BTreeMap::new();
    // What the sets' manifests say of their files (none in a directory of older builds).
    let manifest: BTreeMap<String, tables::manifest::Finding> = if dir.exists() {
        tables::manifest::check_dir(dir)?.into_iter().collect()
    } else {
        BTreeMap::new()
    };
    for f in &scanned {
        let name = file_name(&f.path);
        match &f.table {
            Err(e) => files.push(InfoFile {
                file: name,
                error: Some(e.to_string()),
                table: None,
            }),
            Ok(t) => {
                let h = t.header();
                let mut problems = Vec::new();
                let checksum = t.check_payload();
                if let Err(e) = &checksum {
                    problems.push(format!("BAD: {e}"));
                }
                if let Some(why) = name_disagrees(&name, h) {
                    problems.push(format!("NAME MISMATCH: {why}"));
                }
                match manifest.get(&name) {
                    Some(tables::manifest::Finding::Matches) | None => {}
                    Some(finding) => problems.push(format!("MANIFEST: {finding}")),
                }
                let g = groups.entry(h.id.clone()).or_default();
                g.0.push(h.layer);
                g.1 += h.entries;
                g.2 += t.file_bytes();
                files.push(InfoFile {
                    file: name,
                    error: None,
                    table: Some(InfoTable {
                        game: h.id.game.clone(),
                        options: h.id.options.clone(),
                        holes: h.id.holes,
                        layer: h.layer,
                        entries: h.entries,
                        encoding: h.encoding.to_string(),
                        bytes: t.file_bytes(),
                        checksum_ok: checksum.is_ok(),
                        problems,
                    }),
                });
            }
        }
    }
    let sets: Vec<InfoSet> = groups
        .into_iter()
        .map(|(id, (mut layers, entries, bytes))| {
            layers.sort_unstable();
            let run = layers
                .iter()
                .enumerate()
                .take_while(|&(i, &l)| i as u32 == l)
                .count();
            InfoSet {
                game: id.game,
                options: id.options,
                holes: id.holes,
                complete_to: (run > 0).then(|| run as u32 - 1),
                layers,
                entries,
                bytes,
            }
        })
        .collect();
    if as_json {
        let v = TablesInfo {
            head: ToolHead::new("tables info"),
            directory: dir.display().to_string(),
            message: files.is_empty().then(|| NO_TABLES_YET.to_string()),
            files,
            sets,
        };
        super::json::print(&mut out, &v)?;
        return Ok(ExitCode::SUCCESS);
    }
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
    for f in &files {
        let name = &f.file;
        match (&f.table, &f.error) {
            (Some(t), _) => {
                let mut status = if t.checksum_ok { "ok" } else { "" }.to_string();
                for p in &t.problems {
                    if !status.is_empty() {
                        status.push_str("; ");
                    }
                    status.push_str(p);
                }
                let opts = if t.options.is_empty() {
                    "-".to_string()
                } else {
                    t.options.join(",")
                };
                writeln!(
                    out,
                    "{name:<36} {:<14} {opts:<22} {:>5} {:>5} {:>12} {:<15} {:>12}  {status}",
                    t.game, t.holes, t.layer, t.entries, t.encoding, t.bytes
                )?;
            }
            (None, e) => writeln!(out, "{name:<36} ERROR: {}", e.as_deref().unwrap_or("?"))?,
        }
    }
    writeln!(out)?;
    for set in &sets {
        let id = TableId {
            game: set.game.clone(),
            options: set.options.clone(),
            holes: set.holes,
        };
        let cover = match set.complete_to {
            None => "no layer 0".to_string(),
            Some(top) => format!("layers 0 to {top}"),
        };
        let run = set.complete_to.map_or(0, |t| t as usize + 1);
        let extra = if run < set.layers.len() {
            format!(" (+{} beyond a gap)", set.layers.len() - run)
        } else {
            String::new()
        };
        writeln!(
            out,
            "{id}: {cover}{extra}, {} entries, {} bytes",
            set.entries, set.bytes
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

/// `tables verify`: checksums of every file, then every entry of every set re-derived from its
/// children. The text report is written as the work goes (a long verify shows where it is); the
/// JSON is one object at the end, from the same records.
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
    let mut stdout = std::io::stdout().lock();
    let mut sink = std::io::sink();
    let out: &mut dyn Write = if a.json { &mut sink } else { &mut stdout };
    let mut problems = 0u64;
    // Step 1. Every file: framing, structure, name and checksum. A bad file is reported and the
    // others are still checked; the layers each set has on disk are noted for step 2.
    let mut sets: BTreeMap<TableId, Vec<u32>> = BTreeMap::new();
    let mut ok = 0;
    let mut bad_files = Vec::new();
    let count = files.len();
    for f in &files {
        let name = file_name(&f.path);
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
                bad_files.push(e);
            }
        }
    }
    writeln!(out, "checksums: {ok} of {count} files ok")?;
    drop(files);
    // Step 1b. The files against their sets' manifests (size and SHA-256); a file found bad
    // above is not reported twice.
    for (file, finding) in tables::manifest::check_dir(&dir)? {
        let already = bad_files.iter().any(|e: &String| e.contains(&file));
        if finding != tables::manifest::Finding::Matches && !already {
            let e = format!("{}: {finding}", dir.join(&file).display());
            problems += 1;
            writeln!(out, "BAD {e}")?;
            bad_files.push(e);
        }
    }
    if a.quick {
        sets.clear();
    }
    // Step 2. Every entry of every set, re-derived from its children, layer by layer from 0
    // while the layers are there and sound.
    let progress = a.progress || std::io::stderr().is_terminal();
    let mut checked_sets = Vec::new();
    for (id, mut layers) in sets {
        layers.sort_unstable();
        let set = match variant_of(&id) {
            Ok((v, holes)) => {
                mancala::with_rules!(v, r => verify_set(&mut *out, &pool, &dir, r, holes, &layers, progress))?
            }
            Err(e) => {
                writeln!(out, "{id}: cannot check: {e}")?;
                super::json::VerifiedSet {
                    game: id.game.clone(),
                    options: id.options.clone(),
                    holes: id.holes,
                    layers_verified: 0,
                    entries: 0,
                    seconds: 0.0,
                    problems: vec![format!("cannot check: {e}")],
                    wrong: Vec::new(),
                    wrong_count: 0,
                    ok: false,
                }
            }
        };
        problems += set.problems.len() as u64 + set.wrong_count;
        checked_sets.push(set);
    }
    let code = if problems > 0 {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    };
    if a.json {
        let v = super::json::TablesVerify {
            head: super::json::ToolHead::new("tables verify"),
            directory: dir.display().to_string(),
            files: count,
            checksums_ok: ok,
            bad_files,
            sets: checked_sets,
            problems,
            ok: problems == 0,
        };
        super::json::print(&mut stdout, &v)?;
        return Ok(code);
    }
    if problems > 0 {
        writeln!(
            out,
            "FAILED: {problems} problem{}",
            if problems == 1 { "" } else { "s" }
        )?;
        return Ok(code);
    }
    if a.quick {
        writeln!(
            out,
            "all files match their checksums and manifests (run without --quick to re-derive every entry)"
        )?;
    } else {
        writeln!(out, "all tables verified")?;
    }
    Ok(code)
}

/// Verifies the layers `0, 1, …` of one game (`present`: the layers whose files passed step 1,
/// sorted), writing the text report to `out` as it goes; returns the set's record: its wrong
/// entries, and a missing or bad layer below others, which leaves those unverified.
fn verify_set<R: Rules>(
    out: &mut dyn Write,
    pool: &rayon::ThreadPool,
    dir: &Path,
    rules: R,
    holes: u8,
    present: &[u32],
    progress: bool,
) -> Result<super::json::VerifiedSet> {
    let ix = MancalaIndexer::new(rules, holes);
    let id = table_id(&rules, holes);
    let top = present.last().copied().unwrap_or(0);
    let started = Instant::now();
    let mut problems = Vec::new();
    let mut wrong = Vec::new();
    let mut wrong_count = 0;
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
            let p = format!("layer {k} is missing or bad, so layers {k} to {top} are not verified");
            writeln!(out, "{id}: {p}")?;
            problems.push(p);
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
                let p = format!("{e}; layers {k} to {top} are not verified");
                writeln!(out, "{id}: {p}")?;
                problems.push(p);
                break;
            }
        }
        let bars = super::layer_bars::LayerBars::new(progress);
        let v = pool.install(|| tables::verify_layer(&ix, &tables, k, &bars));
        entries += v.entries;
        if v.wrong > 0 {
            wrong_count += v.wrong;
            writeln!(
                out,
                "{id}: layer {k}: {} wrong entr{}",
                v.wrong,
                if v.wrong == 1 { "y" } else { "ies" }
            )?;
            for w in &v.examples {
                let p = ix.position(k, w.index).map(|p| p.to_string());
                writeln!(
                    out,
                    "  slot {} ({}): stored {}, its children give {}",
                    w.index,
                    p.as_deref().unwrap_or("(no position)"),
                    w.stored,
                    w.derived
                )?;
                wrong.push(super::json::WrongEntry {
                    layer: k,
                    slot: w.index,
                    position: p,
                    stored: w.stored,
                    derived: w.derived,
                });
            }
        }
    }
    let cyclic = if R::CAN_CYCLE {
        " (a cyclic game: one-ply consistency)"
    } else {
        ""
    };
    let verified = tables.len();
    let ok = problems.is_empty() && wrong_count == 0;
    let seconds = started.elapsed().as_secs_f64();
    // The verdict on the layers verified alone: a gap or a bad file above them is its own
    // problem line, and leaves these layers correct (as the JSON's `wrong_count` says).
    if verified > 0 {
        let verdict = match wrong_count {
            0 => "ok".to_string(),
            1 => "WRONG (1 entry)".to_string(),
            n => format!("WRONG ({n} entries)"),
        };
        writeln!(
            out,
            "{id}: layers 0 to {}, {entries} entries re-derived from their children in {seconds:.3} s: {verdict}{cyclic}",
            verified - 1,
        )?;
    }
    Ok(super::json::VerifiedSet {
        game: id.game.clone(),
        options: id.options.clone(),
        holes: id.holes,
        layers_verified: verified as u32,
        entries,
        seconds,
        problems,
        wrong,
        wrong_count,
        ok,
    })
}
