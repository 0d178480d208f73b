//! Building tables: layers `0..=K` in dependency order, each solved by retrograde analysis and
//! written atomically, resuming from whatever valid layers a killed build left behind.

use std::path::Path;
use std::time::Instant;

use solver::{
    layer_working_bytes, solve_layer, solve_layer_by_graph, Game, Indexer, LayerError, Lower, Stop,
    StopToken, Stoppable,
};

use crate::atomic_write::write_atomic;
use crate::error::TableError;
use crate::format::{encode_parts, Encoding, TableId};
use crate::progress::Progress;
use crate::table::{Expected, Table};

/// How to build.
#[derive(Clone, Debug)]
pub struct BuildOptions {
    /// Worker threads (0 is taken as 1).
    pub threads: usize,
    /// Solve cyclic layers with the former algorithm that stores the in-layer graph
    /// ([`solver::solve_layer_by_graph`], about 25 bytes per slot plus 8 per internal edge, which
    /// [`memory_estimate`] does not cover) instead of the lean passes: for tests that check the
    /// two give the same files. `false` for real builds.
    pub cyclic_by_graph: bool,
    /// Raised by the caller to stop the build (a Ctrl-C, a front end's cancel button): the
    /// layer being solved is abandoned within a chunk of a few thousand positions, nothing more
    /// is written, and [`build`] returns [`TableError::Stopped`] with the layers finished.
    pub stop: Option<StopToken>,
}

impl BuildOptions {
    /// Whether the caller has asked the build to stop.
    pub(crate) fn stopped(&self) -> bool {
        self.stop.as_ref().is_some_and(StopToken::is_stopped)
    }
}

/// What happened to one layer.
#[derive(Clone, Debug)]
pub struct LayerReport {
    /// The layer.
    pub layer: u32,
    /// Its entries.
    pub entries: u64,
    /// Bytes of its file.
    pub bytes: u64,
    /// How its entries are stored.
    pub encoding: Encoding,
    /// Entries in the exception list.
    pub exceptions: u64,
    /// Wall-clock seconds spent on it (solving, encoding and writing; or checking when resumed).
    pub seconds: f64,
    /// Whether a valid file was already there (a resumed build).
    pub resumed: bool,
    /// Why an existing file was rebuilt, when it was.
    pub rebuilt_because: Option<String>,
}

/// The progress line of a layer, as `tables build` prints it: number, entries, encoding,
/// exceptions, file bytes, then the time and rate (or that the file was kept).
impl std::fmt::Display for LayerReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "layer {:>3}: {:>12} entries, {}",
            self.layer, self.entries, self.encoding
        )?;
        if self.exceptions > 0 {
            write!(f, " + {} exceptions", self.exceptions)?;
        }
        write!(f, ", {:>12} bytes, ", self.bytes)?;
        if self.resumed {
            write!(f, "kept (already built)")
        } else {
            write!(
                f,
                "{:.3} s, {:.1} M positions/s",
                self.seconds,
                self.entries as f64 / self.seconds.max(1e-9) / 1e6
            )
        }
    }
}

/// Memory a build needs, in bytes, stated before it starts.
#[derive(Clone, Copy, Debug)]
pub struct MemoryEstimate {
    /// Entries over all layers `0..=K`.
    pub entries: u64,
    /// Entries of the largest layer.
    pub largest_layer: u64,
    /// Peak working memory of the retrograde analysis (the largest layer).
    pub working: u64,
    /// The lower layers held for lookups: a byte per entry of plain values for the build's own
    /// lookups, plus the encoded tables (4 bits per entry; see [`memory_estimate`]).
    pub tables: u64,
}

impl MemoryEstimate {
    /// The sum of both.
    pub fn total(&self) -> u64 {
        self.working.saturating_add(self.tables)
    }
}

/// The memory of a build of layers `0..=max_layer`, in bytes.
///
/// Working memory, for the largest (top) layer: the retrograde analysis
/// ([`solver::layer_working_bytes`]: 2 bytes per slot for an acyclic layer, whose memo becomes
/// the values, plus about one for the encoded file, plus the index's schedule; about 4.1 bytes
/// per slot for the lean cyclic passes, whose extra arrays are freed before the file is encoded).
///
/// Lower tables: each layer below the top is held as a plain byte per entry (the build's own
/// lookups) and as its encoded table, 4 bits per entry when its values have the parity of the
/// layer, as every layer of the five games has (block bases and exceptions add little:
/// docs/performance.md, "Figures behind comments"). A layer without it is encoded in 8 bits, and the estimate is
/// then low by up to half a byte per entry of such layers.
pub fn memory_estimate<I: Indexer>(ix: &I, max_layer: u32) -> MemoryEstimate {
    let lens: Vec<u64> = (0..=max_layer).map(|k| ix.layer_len(k)).collect();
    let largest = lens.iter().copied().max().unwrap_or(0);
    let entries: u64 = lens.iter().fold(0u64, |a, &b| a.saturating_add(b));
    let top = lens.last().copied().unwrap_or(0);
    let solve = layer_working_bytes::<I::G>(largest);
    // The values (2 bytes per slot) and the encoded file (at most one more) at the end.
    let encode = largest.saturating_mul(3);
    let working = if <I::G as Game>::CAN_CYCLE {
        solve.max(encode)
    } else {
        // The memo is the values; the top layer's schedule is the largest, and it lives while
        // that layer is solved.
        encode.saturating_add(ix.schedule_bytes(max_layer))
    };
    let lower = entries.saturating_sub(top);
    MemoryEstimate {
        entries,
        largest_layer: largest,
        working,
        tables: lower.saturating_add(lower.div_ceil(2)),
    }
}

/// Builds (or completes) the tables of `id` for layers `0..=max_layer` in `dir`, and returns
/// them, layer `k` at index `k`.
///
/// A layer whose file already exists, belongs to `id`, has the right size and passes its
/// checksum is kept as it is (so a killed build resumes from the last finished layer); any other
/// file in its place is rebuilt and replaced. `progress` follows each layer solved; `report` is
/// called after each layer. The set's [`crate::manifest`] is written (again) at the end.
///
/// # Errors
/// [`TableError::Io`] when a file cannot be written; [`TableError::Threads`];
/// [`TableError::TooLarge`]; [`TableError::Allocation`] when a layer's arrays (sized by its
/// length) or a kept layer's file cannot be allocated, with the amount and what it was for;
/// [`TableError::Stopped`] when [`BuildOptions::stop`] was raised.
pub fn build<I: Indexer>(
    ix: &I,
    id: &TableId,
    dir: &Path,
    max_layer: u32,
    opts: &BuildOptions,
    progress: &dyn Progress,
    mut report: impl FnMut(&LayerReport),
) -> Result<Vec<Table>, TableError> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(opts.threads.max(1))
        .thread_name(|i| format!("tables-{i}"))
        .build()
        .map_err(TableError::Threads)?;
    // Writers killed before their rename (kill -9, a power cut) leave temporary files behind.
    crate::atomic_write::remove_stale_temporaries(dir);
    let mut tables: Vec<Table> = Vec::with_capacity(max_layer as usize + 1);
    let mut plain: Vec<Option<Vec<i8>>> = Vec::with_capacity(max_layer as usize + 1);
    for layer in 0..=max_layer {
        if opts.stopped() {
            return Err(TableError::Stopped { finished: layer });
        }
        let started = Instant::now();
        let entries = ix.layer_len(layer);
        if usize::try_from(entries).is_err() {
            return Err(TableError::TooLarge { layer, entries });
        }
        let path = dir.join(id.file_name(layer));
        let mut rebuilt_because = None;
        if path.exists() {
            let expected = Expected { id, layer, entries };
            let existing = Table::read_expecting(&path, expected).and_then(|t| {
                t.check_payload()?;
                Ok(t)
            });
            match existing {
                Ok(t) => {
                    report(&layer_report(&t, started, true, None));
                    plain.push(if layer < max_layer {
                        pool.install(|| plain_of_table(&t))?
                    } else {
                        None
                    });
                    tables.push(t);
                    continue;
                }
                // No memory to read a good file is no reason to rebuild it (with still less).
                Err(e @ TableError::Allocation { .. }) => return Err(e),
                Err(e) => rebuilt_because = Some(e.to_string()),
            }
        }
        progress.start(layer, entries);
        let values = {
            let lower = Built {
                tables: &tables,
                plain: &plain,
            };
            let tick = |n: u64| progress.advance(n);
            let watch = Stoppable {
                progress: Some(&tick),
                stop: opts.stop.as_ref().map_or(Stop::never(), StopToken::as_stop),
            };
            if opts.cyclic_by_graph {
                pool.install(|| solve_layer_by_graph(ix, layer, &lower, Some(&watch)))
            } else {
                pool.install(|| solve_layer(ix, layer, &lower, Some(&watch)))
            }
        };
        progress.finish();
        let mut values = match values {
            Ok(v) => v,
            Err(LayerError::Alloc(e)) => return Err(e.into()),
            Err(LayerError::Stopped) => return Err(TableError::Stopped { finished: layer }),
        };
        pool.install(|| fill_unused(ix, layer, &mut values));
        if layer < max_layer {
            plain.push(pool.install(|| plain_of_values(layer, &values))?);
        }
        let (head, payload) = pool.install(|| encode_parts(id, layer, &values))?;
        drop(values);
        write_atomic(&path, &[&head, &payload])?;
        let t = Table::from_parts(path, &head, payload)?;
        report(&layer_report(&t, started, false, rebuilt_because));
        tables.push(t);
    }
    pool.install(|| crate::manifest::write(dir, id, max_layer))?;
    Ok(tables)
}

/// The layers built so far, as the retrograde analysis sees them: a plain byte per entry where
/// the values fit one, else the table.
///
/// Every position of a layer looks up its children in the layers below, at random places. A
/// byte is one load (and one prefetch) with nothing to decode; a table entry is a nibble, its
/// block's base and now and then an exception, and the table lookups are a large part of a
/// build (docs/performance.md, "Plain bytes for the lower layers"). The bytes cost one byte per entry of the lower layers for the length
/// of the build.
pub(crate) struct Built<'a> {
    pub(crate) tables: &'a [Table],
    pub(crate) plain: &'a [Option<Vec<i8>>],
}

impl Lower for Built<'_> {
    #[inline(always)]
    fn value(&self, layer: u32, slot: u64) -> i32 {
        match &self.plain[layer as usize] {
            Some(p) => i32::from(p[slot as usize]),
            None => self.tables[layer as usize].get(slot),
        }
    }

    #[inline(always)]
    fn prefetch(&self, layer: u32, slot: u64) {
        match &self.plain[layer as usize] {
            Some(p) => solver::prefetch(&p[slot as usize]),
            None => self.tables[layer as usize].prefetch(slot),
        }
    }
}

/// The values of layer `layer` as plain bytes (on huge pages), when they all fit in one.
pub(crate) fn plain_of_values(layer: u32, values: &[i16]) -> Result<Option<Vec<i8>>, TableError> {
    use rayon::prelude::*;
    let mut out = plain_bytes(layer, values.len())?;
    // One pass that copies and checks (a loop that vectorizes): the values all fit when no
    // chunk's lowest or highest does not.
    let fits = out
        .par_chunks_mut(1 << 16)
        .zip(values.par_chunks(1 << 16))
        .map(|(o, v)| {
            let (mut lo, mut hi) = (0i16, 0i16);
            for (o, &v) in o.iter_mut().zip(v) {
                *o = v as i8;
                (lo, hi) = (lo.min(v), hi.max(v));
            }
            i8::try_from(lo).is_ok() && i8::try_from(hi).is_ok()
        })
        .reduce(|| true, |a, b| a && b);
    Ok(fits.then_some(out))
}

/// As [`plain_of_values`], for a layer kept from an earlier build.
pub(crate) fn plain_of_table(t: &Table) -> Result<Option<Vec<i8>>, TableError> {
    use rayon::prelude::*;
    let Ok(n) = usize::try_from(t.header().entries) else {
        return Ok(None);
    };
    let mut out = plain_bytes(t.header().layer, n)?;
    let fits = out
        .par_iter_mut()
        .enumerate()
        .all(|(i, o)| i8::try_from(t.get(i as u64)).map(|v| *o = v).is_ok());
    Ok(fits.then_some(out))
}

/// `n` zero bytes for the plain values of `layer`, allocated fallibly.
fn plain_bytes(layer: u32, n: usize) -> Result<Vec<i8>, TableError> {
    Ok(solver::huge_vec(
        n,
        || {
            format!("layer {layer}'s plain values (a byte per entry, for the lookups of the layers above)")
        },
        || 0i8,
    )?)
}

/// Gives the slots that hold no position (their value is unspecified; `solve_layer` leaves 0)
/// the layer's parity, when every other value has it, so that the 4-bit parity encoding applies.
///
/// Only in odd layers (in even ones 0 already has the parity), and only the zeros are looked at:
/// a zero in a slot with a position is a real value against the parity, and the layer keeps its
/// zeros. The check costs one `position` call per zero, a small share of the layer.
pub(crate) fn fill_unused<I: Indexer>(ix: &I, layer: u32, values: &mut [i16]) {
    use rayon::prelude::*;
    if layer.is_multiple_of(2) {
        return;
    }
    // One pass over the layer finds both an even value (then nothing is filled) and the zeros,
    // which are few, rather than three passes (docs/performance.md, "Figures behind comments").
    const CHUNK: usize = 1 << 16;
    let scan: Option<Vec<Vec<u32>>> = values
        .par_chunks(CHUNK)
        .map(|chunk| {
            let mut zeros = Vec::new();
            for (i, &v) in chunk.iter().enumerate() {
                if v == 0 {
                    zeros.push(i as u32);
                } else if v % 2 == 0 {
                    return None;
                }
            }
            Some(zeros)
        })
        .collect();
    let Some(zeros) = scan else {
        return;
    };
    let slot = |c: usize, i: u32| (c * CHUNK) as u64 + u64::from(i);
    let unused = zeros
        .par_iter()
        .enumerate()
        .all(|(c, z)| z.iter().all(|&i| ix.position(layer, slot(c, i)).is_none()));
    if unused {
        for (c, z) in zeros.iter().enumerate() {
            for &i in z {
                values[slot(c, i) as usize] = 1;
            }
        }
    }
}

pub(crate) fn layer_report(
    t: &Table,
    started: Instant,
    resumed: bool,
    rebuilt_because: Option<String>,
) -> LayerReport {
    let h = t.header();
    LayerReport {
        layer: h.layer,
        entries: h.entries,
        bytes: t.file_bytes(),
        encoding: h.encoding,
        exceptions: h.exceptions,
        seconds: started.elapsed().as_secs_f64(),
        resumed,
        rebuilt_because,
    }
}
