//! Probing: a [`Tablebase`] answers exact values of positions in the layers it holds, for
//! queries and as the search's [`Oracle`].
//!
//! # Answers that check themselves
//!
//! A file whose checksums were recomputed after its payload was altered (two blocks swapped, a
//! value changed) opens cleanly, and only `tables verify` would find it. So every answer given
//! position by position is checked first ([`Tablebase::check`]): the stored value of the position,
//! and of every position of its layer that it reaches by moves within the layer, must be the best
//! of `gain ± F(child)` over its moves. Checking one ply alone would not do: a wrong value can
//! agree with children that are wrong in the same way (a swapped block moves whole families of
//! positions together). In an acyclic game the one-ply equations over that closure have exactly
//! one solution given the lower layers (as in [`crate::verify`]), so an answer that passes is
//! the true value whenever the lower layers are (their manifest, or `tables verify`, says so).
//! A contradiction is an error, [`TableError::Contradiction`], naming the file and the entry; no
//! value is served. Positions found consistent are remembered, so that a dump of a whole layer
//! checks each position once.
//!
//! The closure can be most of its layer (in Walak-pussa's cyclic layers it usually is). Walking
//! it one position at a time, remembering each, costs about twice what re-deriving every slot of
//! the layer costs on one thread ([`crate::verify`], which runs on every core), and memory in
//! proportion. So when a closure, or what the layer's checks have remembered, outgrows [`WHOLE`]
//! of its layer, the whole layer is checked instead, once: a superset of every closure in it, its
//! verdict kept for every later answer (a contradiction anywhere in the layer then refuses every
//! answer from it, naming the lowest inconsistent slot).
//!
//! Inside a search, where a check per probe would cost as much as the probe several times over,
//! the [`Oracle`] checks a sample: every probe whose slot hashes into one in [`SAMPLE`], plus
//! every position the search audits (the root's children). The first contradiction is kept and
//! reported through [`Oracle::fault`]; the search then stops with it.

use std::collections::HashSet;
use std::path::Path;
use std::sync::{Arc, Mutex, OnceLock};

use ahash::RandomState;

use rayon::prelude::*;
use solver::search::{Oracle, OracleFault};
use solver::{Children, Game, Indexer, OracleSlot, Stop};

use crate::error::TableError;
use crate::format::TableId;
use crate::progress::Silent;
use crate::table::{Expected, Table};
use crate::verify::{verify_layer_until, WrongEntry};

/// The move type of an indexer's game.
pub type MoveOf<I> = <<I as Indexer>::G as Game>::Move;

/// The tables of one game, options and board size: layers `0..=max_layer()`, all present.
///
/// The layers and what was found of them are shared (behind [`Arc`]s) with every view of the
/// same files through another indexer ([`Tablebase::reindexed`]): a set of tables is held once
/// in memory however many game types search with it, and a contradiction found through one view
/// is every view's fault.
pub struct Tablebase<I: Indexer> {
    ix: I,
    id: TableId,
    /// A slice behind the `Arc`, not a `Vec`: a probe reads the table's address from here
    /// directly, as it did from a `Vec`.
    tables: Arc<[Table]>,
    /// The checks' findings, shared by every view.
    found: Arc<Found>,
}

/// What the checks found in a set of tables, whichever view asked.
struct Found {
    /// The first contradiction a sampled check inside a search found.
    fault: OnceLock<Arc<TableError>>,
    /// What [`Tablebase::check`] knows of each layer (`checks[k]` is layer `k`): slots, which
    /// every view of the same files numbers alike.
    checks: Vec<LayerCheck>,
}

/// What [`Tablebase::check`] found in one layer so far.
#[derive(Default)]
struct LayerCheck {
    /// The slots of every closure found consistent, while they are few (see [`WHOLE`]).
    known: Mutex<HashSet<u64, RandomState>>,
    /// The verdict on the whole layer, once it was checked whole: `None` when every slot is
    /// consistent, else the lowest slot that is not.
    whole: OnceLock<Option<WrongEntry>>,
}

/// A layer is checked whole when a closure in it, or the slots its checks remember, would pass
/// one in `WHOLE` of its slots (or a few thousand, in small layers). A position walked costs
/// about twice a slot of the whole pass on one thread (a set lookup per child;
/// docs/performance.md), and the pass runs on every core: so the walk that gives up costs a few
/// percent of the pass, and what it remembers (about 16 bytes a slot) stays under half the table
/// (4 bits a slot).
pub const WHOLE: u64 = 64;

/// One probe in `SAMPLE` (by a hash of its slot) is checked against its children inside a
/// search: about 1/1000 of the probes, each costing about one node's work, so well under 1 %
/// of the search (docs/tables.md has the measurement).
pub const SAMPLE: u64 = 1024;

/// Whether the probe of `index` in `layer` is in the checked sample: a multiplicative hash,
/// the same for every thread and every run, so the sample costs no shared state.
#[inline(always)]
fn sampled(layer: u32, index: u64) -> bool {
    let h = (index ^ (u64::from(layer) << 40)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    h >> (64 - SAMPLE.trailing_zeros()) == 0
}

/// How to open tables.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Check {
    /// Headers and lengths only: opening costs nothing per entry.
    Headers,
    /// Headers, lengths and payload checksums (one pass over every byte, in parallel).
    Checksums,
}

impl<I: Indexer> Tablebase<I> {
    /// Tables already in hand (`tables[k]` is layer `k`), checked against `ix` and `id`.
    ///
    /// # Errors
    /// [`TableError::NoTables`] when `tables` is empty; [`TableError::Mismatch`] when a table is
    /// not the expected layer of `id`; [`TableError::PayloadChecksum`] with [`Check::Checksums`].
    pub fn new(ix: I, id: TableId, tables: Vec<Table>, check: Check) -> Result<Self, TableError> {
        if tables.is_empty() {
            return Err(TableError::NoTables {
                dir: ".".into(),
                what: id.to_string(),
            });
        }
        for (k, t) in tables.iter().enumerate() {
            t.expect(&id, k as u32, ix.layer_len(k as u32))?;
        }
        if check == Check::Checksums {
            tables.par_iter().try_for_each(Table::check_payload)?;
        }
        Ok(Tablebase {
            ix,
            id,
            found: Arc::new(Found {
                fault: OnceLock::new(),
                checks: (0..tables.len()).map(|_| LayerCheck::default()).collect(),
            }),
            tables: tables.into(),
        })
    }

    /// The same tables read through another indexer `ix`, whose game numbers the slots of each
    /// layer as this one's does (another type for the same positions, e.g. a faster search
    /// node): the layers' bytes and the checks' findings are shared, not copied, so a fault
    /// found through either is reported by both.
    ///
    /// # Errors
    /// [`TableError::Mismatch`] when a layer's length is not what `ix` expects of it.
    pub fn reindexed<J: Indexer>(&self, ix: J) -> Result<Tablebase<J>, TableError> {
        for (k, t) in self.tables.iter().enumerate() {
            t.expect(&self.id, k as u32, ix.layer_len(k as u32))?;
        }
        Ok(Tablebase {
            ix,
            id: self.id.clone(),
            tables: self.tables.clone(),
            found: self.found.clone(),
        })
    }

    /// Reads the tables of `id` from `dir` into memory: layers `0, 1, 2, …` up to the first one
    /// missing.
    ///
    /// # Errors
    /// [`TableError::NoTables`] when layer 0 is missing; any error of a file that is present.
    pub fn open(ix: I, id: TableId, dir: &Path, check: Check) -> Result<Self, TableError> {
        Self::open_up_to(ix, id, dir, check, u32::MAX)
    }

    /// As [`Tablebase::open`], but layers `0..=up_to` at most: the files above are not opened.
    ///
    /// # Errors
    /// As [`Tablebase::open`].
    pub fn open_up_to(
        ix: I,
        id: TableId,
        dir: &Path,
        check: Check,
        up_to: u32,
    ) -> Result<Self, TableError> {
        let tables = Self::collect(&ix, &id, dir, up_to, Table::read_expecting)?;
        Self::new(ix, id, tables, check)
    }

    /// As [`Tablebase::open`], but memory-maps the files.
    ///
    /// # Safety
    /// As [`Table::map`]: no file of `dir` that this opens may be modified or truncated while
    /// the tablebase is alive.
    ///
    /// # Errors
    /// As [`Tablebase::open`].
    pub unsafe fn open_mmap(
        ix: I,
        id: TableId,
        dir: &Path,
        check: Check,
    ) -> Result<Self, TableError> {
        // SAFETY: forwarded to the caller.
        unsafe { Self::open_mmap_up_to(ix, id, dir, check, u32::MAX) }
    }

    /// As [`Tablebase::open_up_to`], but memory-maps the files.
    ///
    /// # Safety
    /// As [`Tablebase::open_mmap`].
    ///
    /// # Errors
    /// As [`Tablebase::open`].
    pub unsafe fn open_mmap_up_to(
        ix: I,
        id: TableId,
        dir: &Path,
        check: Check,
        up_to: u32,
    ) -> Result<Self, TableError> {
        // SAFETY: forwarded to the caller.
        let tables = Self::collect(&ix, &id, dir, up_to, |p, x| unsafe {
            Table::map_expecting(p, x)
        })?;
        Self::new(ix, id, tables, check)
    }

    /// As [`Tablebase::open_up_to`], for a search: each file is memory-mapped from the page
    /// cache when the kernel backs the mapping with huge pages (nothing copied, shared with
    /// every other process using the set), and read into memory otherwise (see
    /// `table/resident.rs`).
    ///
    /// # Safety
    /// As [`Tablebase::open_mmap`].
    ///
    /// # Errors
    /// As [`Tablebase::open`].
    pub unsafe fn open_resident_up_to(
        ix: I,
        id: TableId,
        dir: &Path,
        check: Check,
        up_to: u32,
    ) -> Result<Self, TableError> {
        // SAFETY: forwarded to the caller.
        let tables = Self::collect(&ix, &id, dir, up_to, |p, x| unsafe {
            Table::map_resident_expecting(p, x)
        })?;
        // SAFETY: forwarded to the caller.
        let tables = unsafe { crate::table::settle(tables) }?;
        Self::new(ix, id, tables, check)
    }

    /// Opens layers `0, 1, …` (at most `up_to`) until a file is missing. A path that exists in
    /// any form (a dangling link, a FIFO) counts as present, so that it is reported rather than
    /// taken for the end of the set.
    ///
    /// The files are opened in parallel: reading a big set into memory is mostly the kernel's
    /// copying and zeroing of pages, one file at a time per thread. When several fail, the
    /// lowest layer's error is reported, whatever the thread count.
    fn collect(
        ix: &I,
        id: &TableId,
        dir: &Path,
        up_to: u32,
        open: impl Fn(&Path, Expected<'_>) -> Result<Table, TableError> + Sync,
    ) -> Result<Vec<Table>, TableError> {
        let mut paths = Vec::new();
        while paths.len() as u64 <= u64::from(up_to) {
            let path = dir.join(id.file_name(paths.len() as u32));
            if std::fs::symlink_metadata(&path).is_err() {
                break;
            }
            paths.push(path);
        }
        if paths.is_empty() {
            return Err(TableError::NoTables {
                dir: dir.to_path_buf(),
                what: id.to_string(),
            });
        }
        let opened: Vec<Result<Table, TableError>> = paths
            .par_iter()
            .enumerate()
            .map(|(k, path)| {
                let layer = k as u32;
                let entries = ix.layer_len(layer);
                open(path, Expected { id, layer, entries })
            })
            .collect();
        opened.into_iter().collect()
    }

    /// The highest layer held.
    pub fn max_layer(&self) -> u32 {
        self.tables.len() as u32 - 1
    }

    /// The indexer.
    pub fn indexer(&self) -> &I {
        &self.ix
    }

    /// The identity of the tables.
    pub fn id(&self) -> &TableId {
        &self.id
    }

    /// The tables, layer `k` at index `k`.
    pub fn tables(&self) -> &[Table] {
        &self.tables
    }

    /// The future value of `pos` (0 when the game is over), when its layer is held.
    #[inline]
    pub fn probe_value(&self, pos: &I::G) -> Option<i32> {
        if pos.is_over() {
            return Some(0);
        }
        let t = self.tables.get(pos.layer() as usize)?;
        Some(t.get(self.ix.index(pos)))
    }

    /// The future value of `pos`, checked against its children's (see the module docs).
    ///
    /// # Errors
    /// [`TableError::MissingLayer`] when its layer is not held; [`TableError::Contradiction`]
    /// when the stored value is not the best of its moves'.
    pub fn value(&self, pos: &I::G) -> Result<i32, TableError> {
        let v = self.probe_value(pos).ok_or(TableError::MissingLayer {
            layer: pos.layer(),
            max: Some(self.max_layer()),
        })?;
        self.check(pos)?;
        Ok(v)
    }

    /// Checks the stored value of `pos` (a position of a held layer, or a finished game) and of
    /// every position of its layer that it reaches by moves within the layer: each must be the
    /// best of `gain ± F(child)` over its moves (see the module docs).
    ///
    /// # Errors
    /// [`TableError::Contradiction`] naming the file and the first entry found inconsistent.
    ///
    /// # Panics
    /// When the layer of `pos` is not held.
    pub fn check(&self, pos: &I::G) -> Result<(), TableError> {
        let checked = self.check_until(pos, Stop::never())?;
        debug_assert!(checked, "a stop nobody raises");
        Ok(())
    }

    /// [`Tablebase::check`], given up once `stop` is raised: `Ok(false)` when it stopped before
    /// it could say (nothing is then remembered of the unfinished check).
    ///
    /// # Errors
    /// As [`Tablebase::check`].
    ///
    /// # Panics
    /// As [`Tablebase::check`].
    pub fn check_until(&self, pos: &I::G, stop: Stop<'_>) -> Result<bool, TableError> {
        if pos.is_over() {
            return Ok(true);
        }
        let layer = pos.layer();
        let lc = &self.found.checks[layer as usize];
        if let Some(verdict) = lc.whole.get() {
            return self.verdict(verdict).map(|()| true);
        }
        let limit = (self.ix.layer_len(layer) / WHOLE).max(1 << 12) as usize;
        let first = self.ix.index(pos);
        let mut known = lc.known.lock().unwrap_or_else(|e| e.into_inner());
        if known.contains(&first) {
            return Ok(true);
        }
        let mut seen = HashSet::with_hasher(RandomState::new());
        seen.insert(first);
        let mut stack = vec![*pos];
        let mut children = Children::new();
        while let Some(x) = stack.pop() {
            children.clear();
            x.children(&mut children);
            self.check_one(&x, children.as_slice())?;
            for c in children.as_slice() {
                if c.next.is_over() || c.next.layer() != layer {
                    continue;
                }
                let entry = self.ix.index(&c.next);
                if !known.contains(&entry) && seen.insert(entry) {
                    stack.push(c.next);
                }
            }
            if seen.len() + known.len() > limit {
                drop(known);
                return self.check_whole(layer, stop);
            }
        }
        known.extend(seen);
        Ok(true)
    }

    /// Whether `layer` was checked whole (see the module docs).
    #[cfg(test)]
    pub(crate) fn checked_whole(&self, layer: u32) -> bool {
        self.found.checks[layer as usize].whole.get().is_some()
    }

    /// Checks every slot of `layer` (see the module docs), once, in parallel on the current
    /// rayon pool; `Ok(false)`, and nothing kept, when `stop` was raised before it finished.
    ///
    /// No lock is held while it runs: a rayon worker waiting inside it may take up another check
    /// of the same layer, which must not wait for this one. Two checks that race both run, and the
    /// first verdict is kept (they agree).
    fn check_whole(&self, layer: u32, stop: Stop<'_>) -> Result<bool, TableError> {
        let lc = &self.found.checks[layer as usize];
        if lc.whole.get().is_none() {
            let Some(v) = verify_layer_until(&self.ix, &self.tables, layer, &Silent, stop) else {
                return Ok(false);
            };
            let _ = lc.whole.set(v.examples.into_iter().next());
            *lc.known.lock().unwrap_or_else(|e| e.into_inner()) = HashSet::default();
        }
        self.verdict(lc.whole.get().expect("set above"))
            .map(|()| true)
    }

    /// A whole layer's verdict as an answer's.
    fn verdict(&self, wrong: &Option<WrongEntry>) -> Result<(), TableError> {
        match wrong {
            None => Ok(()),
            Some(w) => Err(TableError::Contradiction {
                path: self.tables[w.layer as usize].path().to_path_buf(),
                layer: w.layer,
                entry: w.index,
                stored: w.stored,
                derived: w.derived,
            }),
        }
    }

    /// Checks one position (live, of a held layer) against `children`, its children.
    fn check_one(&self, pos: &I::G, children: &[solver::Child<I::G>]) -> Result<(), TableError> {
        let layer = pos.layer();
        let entry = self.ix.index(pos);
        let stored = self.tables[layer as usize].get(entry);
        let derived = children
            .iter()
            .map(|c| self.move_value(c))
            .max()
            .unwrap_or(0);
        if stored == derived {
            Ok(())
        } else {
            Err(TableError::Contradiction {
                path: self.tables[layer as usize].path().to_path_buf(),
                layer,
                entry,
                stored,
                derived,
            })
        }
    }

    /// The value of a move for its mover, `gain ± F(next)`, from the stored value of `next`.
    fn move_value(&self, c: &solver::Child<I::G>) -> i32 {
        let f = self
            .probe_value(&c.next)
            .expect("a child's layer is at most its parent's");
        if c.turn_passed {
            c.gain - f
        } else {
            c.gain + f
        }
    }

    /// The value of every legal move of `pos` for its mover (`gain ± F(next)`), in
    /// `children()` order; `pos` and every child are checked against their own children.
    ///
    /// # Errors
    /// As [`Tablebase::value`], for `pos` or any child.
    pub fn move_values(&self, pos: &I::G) -> Result<Vec<(MoveOf<I>, i32)>, TableError> {
        self.value(pos)?; // every child is in this layer or below
        let mut children = Children::new();
        pos.children(&mut children);
        children
            .as_slice()
            .iter()
            .map(|c| {
                self.check(&c.next)?;
                Ok((c.mv, self.move_value(c)))
            })
            .collect()
    }

    /// The first contradiction that a sampled check inside a search found, if any.
    pub fn fault(&self) -> Option<&TableError> {
        self.found.fault.get().map(|e| &**e)
    }

    /// Checks `pos`, at `layer` and `index`, when it is in the sample (see the module docs),
    /// keeping the first contradiction.
    #[inline(always)]
    fn sample(&self, pos: &I::G, layer: u32, index: u64) {
        if sampled(layer, index) {
            self.audit_now(pos);
        }
    }

    /// One ply only: a sample inside a search must stay cheap.
    #[cold]
    #[inline(never)]
    fn audit_now(&self, pos: &I::G) {
        if pos.is_over() {
            return;
        }
        let mut children = Children::new();
        pos.children(&mut children);
        if let Err(e) = self.check_one(pos, children.as_slice()) {
            let _ = self.found.fault.set(Arc::new(e));
        }
    }

    /// The future value of `pos` and every move that achieves it, in `children()` order.
    ///
    /// # Errors
    /// As [`Tablebase::value`].
    pub fn best_moves(&self, pos: &I::G) -> Result<(i32, Vec<MoveOf<I>>), TableError> {
        let v = self.value(pos)?;
        let best = self
            .move_values(pos)?
            .into_iter()
            .filter(|&(_, m)| m == v)
            .map(|(mv, _)| mv)
            .collect();
        Ok((v, best))
    }
}

/// The part of an [`OracleSlot`] that stands for a finished game (worth 0; no layer is read).
const FINISHED: u32 = u32::MAX;

impl<I: Indexer> Tablebase<I> {
    /// The value at a slot from [`Oracle::prefetch`].
    #[inline]
    fn value_at(&self, at: OracleSlot) -> i32 {
        if at.part == FINISHED {
            0
        } else {
            self.tables[at.part as usize].get(at.index)
        }
    }
}

impl<I: Indexer> Oracle<I::G> for Tablebase<I> {
    #[inline]
    fn probe(&self, pos: &I::G) -> Option<i32> {
        if pos.is_over() {
            return Some(0);
        }
        let layer = pos.layer();
        let t = self.tables.get(layer as usize)?;
        let index = self.ix.index(pos);
        self.sample(pos, layer, index);
        Some(t.get(index))
    }

    /// The top layer held: the search asks nothing about the positions above it.
    #[inline]
    fn max_layer(&self) -> u32 {
        Tablebase::max_layer(self)
    }

    /// Every position of a held layer is answered (finished games too, without a lookup: their
    /// slot's part is `FINISHED`).
    #[inline]
    fn prefetch(&self, pos: &I::G) -> Option<OracleSlot> {
        let layer = pos.layer();
        let t = self.tables.get(layer as usize)?;
        if pos.is_over() {
            return Some(OracleSlot {
                part: FINISHED,
                index: 0,
            });
        }
        let index = self.ix.index(pos);
        t.prefetch(index);
        Some(OracleSlot { part: layer, index })
    }

    #[inline]
    fn probe_at(&self, pos: &I::G, at: OracleSlot) -> i32 {
        debug_assert_eq!(self.probe_value(pos), Some(self.value_at(at)));
        if at.part != FINISHED {
            self.sample(pos, at.part, at.index);
        }
        self.value_at(at)
    }

    /// Checks `pos` as an answer is checked ([`Tablebase::check_until`]), whatever the sample
    /// says, when its layer is held.
    fn audit(&self, pos: &I::G, stop: Stop<'_>) {
        if !pos.is_over() && (pos.layer() as usize) < self.tables.len() {
            if let Err(e) = self.check_until(pos, stop) {
                let _ = self.found.fault.set(Arc::new(e));
            }
        }
    }

    fn fault(&self) -> Option<OracleFault> {
        let fault = self.found.fault.get()?.clone();
        Some(OracleFault::shared(fault))
    }
}
