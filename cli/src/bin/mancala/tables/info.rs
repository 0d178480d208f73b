//! `tables info`: every table file in a directory, and the sets they make.

use super::scan::{file_name, name_disagrees, scan};
use super::DirArgs;
use anyhow::Result;
use clap::Args;
use mancala_cli::watch::{OnSignal, Watcher};
use std::collections::BTreeMap;
use std::io::Write;
use std::path::Path;
use std::process::ExitCode;
use tables::TableId;

#[derive(Args, Debug)]
pub(super) struct InfoArgs {
    #[command(flatten)]
    dir: DirArgs,
    /// Print one JSON object (docs/json.md): {"directory","files","sets",...}.
    #[arg(long)]
    json: bool,
}

/// Runs `tables info`: a signal ends the process (digesting a large set against its manifest
/// takes a while, and looks at no stop flag).
pub(super) fn run(a: &InfoArgs) -> Result<ExitCode> {
    Watcher::new("reading the tables", OnSignal::Exit).run(|| info(&a.dir.dir(), a.json))
}

/// What `tables info` says about a directory without tables.
const NO_TABLES_YET: &str =
    "no tables yet: build them with `mancala tables build GAME --max-seeds K` \
(for example `mancala tables build kalah --max-seeds 16`; add --dir DIR for another directory than \
the default)";

/// `tables info`: every file of the directory, then each set; the JSON and the text come from
/// the same records.
fn info(dir: &Path, as_json: bool) -> Result<ExitCode> {
    use mancala_cli::json::{self, InfoFile, InfoSet, InfoTable, TablesInfo, ToolHead};
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
        json::print(&mut out, &v)?;
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
