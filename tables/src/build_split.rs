//! Building tables with several processes ("ranks", as in MPI): [`build_split`], the same layers
//! and the same files as [`build`](crate::build()), each layer solved by all the ranks together
//! ([`solver::solve_layer_split`]) and written by rank 0 alone.
//!
//! Every rank holds every layer built so far (the lower layers are replicated, not sharded), so a
//! rank needs the memory of a single-process build, plus the exchange buffers of the split
//! solve. Only rank 0 touches the directory: it removes killed writers' temporaries, decides
//! which existing layers are kept (the checks of [`build`](crate::build())) and hands their bytes
//! to the other ranks, and writes each new layer atomically. The ranks learn of a failure on any
//! of them after every layer, and all return an error, so that no rank waits for the others in a
//! collective that never comes.

use std::io;
use std::path::Path;
use std::time::Instant;

use solver::{solve_layer_split, Collective, Indexer};

use crate::atomic_write::{remove_stale_temporaries, write_atomic};
use crate::build::{fill_unused, layer_report, plain_of_table, plain_of_values, Built};
use crate::error::TableError;
use crate::format::{encode_parts, TableId};
use crate::progress::Progress;
use crate::table::{Expected, Table};
use crate::LayerReport;

/// As [`build`](crate::build()), by the ranks of `group` together: every rank calls it with the
/// same arguments and gets the same tables; the files are those of a single-process build, byte
/// for byte, written by rank 0. Runs on the caller's current rayon pool (size it, for instance
/// the global one, before the call), with the lean algorithm for cyclic layers (the graph
/// algorithm has no split); `progress` follows this rank's share of each layer solved (pass
/// [`crate::Silent`] on the ranks that should not draw).
/// `report` is called on every rank after each layer (`rebuilt_because` is known on rank 0 only).
///
/// # Errors
/// As [`build`](crate::build()), on the rank where it happened; on every other rank a
/// [`TableError::Io`] that names the rank that failed and the layer.
pub fn build_split<I: Indexer, C: Collective + ?Sized>(
    ix: &I,
    id: &TableId,
    dir: &Path,
    max_layer: u32,
    group: &C,
    progress: &dyn Progress,
    mut report: impl FnMut(&LayerReport),
) -> Result<Vec<Table>, TableError> {
    let root = group.rank() == 0;
    if root {
        remove_stale_temporaries(dir);
    }
    let mut tables: Vec<Table> = Vec::with_capacity(max_layer as usize + 1);
    let mut plain: Vec<Option<Vec<i8>>> = Vec::with_capacity(max_layer as usize + 1);
    for layer in 0..=max_layer {
        let started = Instant::now();
        let entries = ix.layer_len(layer);
        if usize::try_from(entries).is_err() {
            // The same on every rank: nobody waits.
            return Err(TableError::TooLarge { layer, entries });
        }
        let path = dir.join(id.file_name(layer));
        // Rank 0 decides whether the file there is kept; a kept file's bytes go to every rank.
        let (kept, rebuilt_because) = if root {
            existing(&path, Expected { id, layer, entries })
        } else {
            (None, None)
        };
        let len = kept.as_ref().map_or(0, |b| b.len() as u64 + 1);
        let len = group.gather(len)[0];
        if len > 0 {
            let n = (len - 1) as usize;
            let mut bytes = vec![0u8; n];
            let mut counts = vec![0usize; group.ranks()];
            counts[0] = n;
            let mine = kept.as_deref().unwrap_or(&[]);
            group.gather_bytes(mine, &counts, &mut bytes);
            let t = Table::from_bytes(&path, bytes);
            let t = agree(group, layer, t)?;
            report(&layer_report(&t, started, true, None));
            // An error on one rank ends the job: mpirun stops the others when a rank exits.
            plain.push(if layer < max_layer {
                plain_of_table(&t)?
            } else {
                None
            });
            tables.push(t);
            continue;
        }
        progress.start(layer, entries);
        let mut values = {
            let lower = Built {
                tables: &tables,
                plain: &plain,
            };
            let tick = |n: u64| progress.advance(n);
            let values = solve_layer_split(ix, layer, &lower, group, Some(&tick));
            progress.finish();
            values?
        };
        fill_unused(ix, layer, &mut values);
        if layer < max_layer {
            plain.push(plain_of_values(layer, &values)?);
        }
        let (head, payload) = encode_parts(id, layer, &values)?;
        drop(values);
        let written = if root {
            write_atomic(&path, &[&head, &payload])
        } else {
            Ok(())
        };
        agree(group, layer, written)?;
        let t = Table::from_parts(&path, &head, payload);
        let t = agree(group, layer, t)?;
        report(&layer_report(&t, started, false, rebuilt_because));
        tables.push(t);
    }
    let written = if root {
        crate::manifest::write(dir, id, max_layer).map(drop)
    } else {
        Ok(())
    };
    agree(group, max_layer, written)?;
    Ok(tables)
}

/// The bytes of a valid table file of `expected` at `path` (kept), or why it is rebuilt.
fn existing(path: &Path, expected: Expected<'_>) -> (Option<Vec<u8>>, Option<String>) {
    if !path.exists() {
        return (None, None);
    }
    let checked = Table::read_expecting(path, expected)
        .and_then(|t| t.check_payload())
        .and_then(|()| std::fs::read(path).map_err(|e| TableError::io(path, e)));
    match checked {
        Ok(bytes) => (Some(bytes), None),
        Err(e) => (None, Some(e.to_string())),
    }
}

/// `result` on this rank, once every rank has said how its own went: an error on any rank
/// is an error on all (this rank's own, or one that names the first rank that failed).
fn agree<T, C: Collective + ?Sized>(
    group: &C,
    layer: u32,
    result: Result<T, TableError>,
) -> Result<T, TableError> {
    let failed = group.gather(u64::from(result.is_err()));
    match result {
        Err(e) => Err(e),
        Ok(v) => match failed.iter().position(|&f| f != 0) {
            None => Ok(v),
            Some(r) => Err(TableError::Io {
                path: format!("layer {layer}").into(),
                source: io::Error::other(format!("rank {r} failed (see its message)")),
            }),
        },
    }
}
