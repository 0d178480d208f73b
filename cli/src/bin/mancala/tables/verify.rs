//! `tables verify`: checksums of every file, then every entry re-derived from its children.

use super::scan::{file_name, name_disagrees, scan};
use super::WorkArgs;
use anyhow::{bail, Result};
use clap::Args;
use mancala::endgame::{table_id, MancalaIndexer};
use mancala::rules::{GameKind, Rules};
use mancala::variant::Variant;
use mancala_cli::exit::Interrupted;
use mancala_cli::json;
use mancala_cli::watch::{OnSignal, Watcher};
use solver::Indexer;
use std::collections::BTreeMap;
use std::io::Write;
use std::path::Path;
use std::process::ExitCode;
use std::time::Instant;
use tables::{Table, TableId};

#[derive(Args, Debug)]
pub(super) struct VerifyArgs {
    #[command(flatten)]
    work: WorkArgs,
    /// Print one JSON object (docs/json.md) instead of the report.
    #[arg(long)]
    json: bool,
    /// Check the files (checksums, names) and compare them with their sets' manifests (size
    /// and SHA-256), in seconds, without re-deriving the entries.
    #[arg(long)]
    quick: bool,
}

/// Runs `tables verify`: a signal ends the process (the checks do not look at a stop flag).
pub(super) fn run(a: &VerifyArgs) -> Result<ExitCode> {
    Watcher::new("verifying the tables", OnSignal::Exit).run(|| verify(a))
}

fn variant_of(id: &TableId) -> Result<(Variant, u8)> {
    let kind: GameKind = id.game.parse().map_err(anyhow::Error::msg)?;
    let v = Variant::new(kind, &id.options).map_err(anyhow::Error::msg)?;
    let holes = mancala_cli::args::holes(kind, Some(id.holes))?;
    Ok((v, holes))
}
/// children. The text report is written as the work goes (a long verify shows where it is); the
/// JSON is one object at the end, from the same records.
fn verify(a: &VerifyArgs) -> Result<ExitCode> {
    let threads = a.work.threads()?;
    let dir = a.work.dir();
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
    // The sound files by set, for step 1c.
    let mut on_disk: Vec<(TableId, String)> = Vec::new();
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
                on_disk.push((h.id.clone(), name));
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
    // Step 1c. A file of a set with a manifest must be one the manifest lists: a layer added
    // or replaced after the build (its manifest line deleted) is otherwise vouched for by
    // nothing but its own CRCs, which anyone can recompute.
    let mut listed: BTreeMap<TableId, Option<Vec<String>>> = BTreeMap::new();
    for (id, name) in &on_disk {
        let names = listed.entry(id.clone()).or_insert_with(|| {
            let m = dir.join(tables::manifest::file_name(id));
            // A missing manifest (a set of an older build) lists nothing to hold files to; a
            // manifest that cannot be read was reported by step 1b's error already.
            m.exists()
                .then(|| tables::manifest::read(&m).ok())
                .flatten()
                .map(|lines| lines.into_iter().map(|l| l.file).collect())
        });
        if let Some(names) = names {
            if !names.contains(name) {
                let e = format!(
                    "{}: not listed in its set's manifest {}",
                    dir.join(name).display(),
                    tables::manifest::file_name(id)
                );
                problems += 1;
                writeln!(out, "BAD {e}")?;
                bad_files.push(e);
            }
        }
    }
    if a.quick {
        sets.clear();
    }
    // Step 2. Every entry of every set, re-derived from its children, layer by layer from 0
    // while the layers are there and sound.
    let progress = a.work.progress();
    let mut checked_sets = Vec::new();
    for (id, mut layers) in sets {
        layers.sort_unstable();
        let set = match variant_of(&id) {
            Ok((v, holes)) => {
                mancala::with_rules!(v, r => verify_set(&mut *out, &pool, &dir, r, holes, &layers, progress))?
            }
            Err(e) => {
                writeln!(out, "{id}: cannot check: {e}")?;
                json::VerifiedSet {
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
        let v = json::TablesVerify {
            head: json::ToolHead::new("tables verify"),
            directory: dir.display().to_string(),
            files: count,
            checksums_ok: ok,
            bad_files,
            sets: checked_sets,
            problems,
            ok: problems == 0,
        };
        json::print(&mut stdout, &v)?;
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
) -> Result<json::VerifiedSet> {
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
        if mancala_cli::signal::interrupted() {
            return Err(Interrupted(format!(
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
        let bars = mancala_cli::layer_bars::LayerBars::new(progress);
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
                wrong.push(json::WrongEntry {
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
    Ok(json::VerifiedSet {
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
