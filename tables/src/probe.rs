//! Probing: a [`Tablebase`] answers exact values of positions in the layers it holds, for
//! queries and as the search's [`Oracle`].

use std::path::Path;

use rayon::prelude::*;
use solver::search::Oracle;
use solver::{Children, Game, Indexer, OracleSlot};

use crate::error::TableError;
use crate::format::TableId;
use crate::table::{Expected, Table};

/// The move type of an indexer's game.
pub type MoveOf<I> = <<I as Indexer>::G as Game>::Move;

/// The tables of one game, options and board size: layers `0..=max_layer()`, all present.
pub struct Tablebase<I: Indexer> {
    ix: I,
    id: TableId,
    tables: Vec<Table>,
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
        Ok(Tablebase { ix, id, tables })
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

    /// Opens layers `0, 1, …` (at most `up_to`) until a file is missing. A path that exists in
    /// any form (a dangling link, a FIFO) counts as present, so that it is reported rather than
    /// taken for the end of the set.
    fn collect(
        ix: &I,
        id: &TableId,
        dir: &Path,
        up_to: u32,
        open: impl Fn(&Path, Expected<'_>) -> Result<Table, TableError>,
    ) -> Result<Vec<Table>, TableError> {
        let mut tables = Vec::new();
        loop {
            let layer = tables.len() as u32;
            if layer > up_to {
                break;
            }
            let path = dir.join(id.file_name(layer));
            if std::fs::symlink_metadata(&path).is_err() {
                break;
            }
            let entries = ix.layer_len(layer);
            tables.push(open(&path, Expected { id, layer, entries })?);
        }
        if tables.is_empty() {
            return Err(TableError::NoTables {
                dir: dir.to_path_buf(),
                what: id.to_string(),
            });
        }
        Ok(tables)
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

    /// The future value of `pos`.
    ///
    /// # Errors
    /// [`TableError::MissingLayer`] when its layer is not held.
    pub fn value(&self, pos: &I::G) -> Result<i32, TableError> {
        self.probe_value(pos).ok_or(TableError::MissingLayer {
            layer: pos.layer(),
            max: Some(self.max_layer()),
        })
    }

    /// The value of every legal move of `pos` for its mover (`gain ± F(next)`), in
    /// `children()` order.
    ///
    /// # Errors
    /// [`TableError::MissingLayer`] when the layer of `pos` is not held.
    pub fn move_values(&self, pos: &I::G) -> Result<Vec<(MoveOf<I>, i32)>, TableError> {
        self.value(pos)?; // every child is in this layer or below
        let mut children = Children::new();
        pos.children(&mut children);
        Ok(children
            .as_slice()
            .iter()
            .map(|c| {
                let f = self
                    .probe_value(&c.next)
                    .expect("a child's layer is at most its parent's");
                (
                    c.mv,
                    if c.turn_passed {
                        c.gain - f
                    } else {
                        c.gain + f
                    },
                )
            })
            .collect())
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
        self.probe_value(pos)
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
        self.value_at(at)
    }
}
