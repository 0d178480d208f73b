//! Endgame tables: the exact future value of every position with `k` seeds (or, generically,
//! every position of layer `k`) for `k = 0..=K`, computed by the retrograde analysis of the
//! `solver` crate, stored one file per layer, verified, and probed by the search.
//!
//! The crate is game-agnostic: it works over any [`solver::Indexer`] (a perfect index of each
//! layer's positions), and the caller names the table (game, options, board size) with a
//! [`TableId`] that every file's header records and every reader checks.
//!
//! - [`mod@format`], the file format (magic, version, bincode 2 header, CRC-32s, 4-bit / 8-bit /
//!   16-bit entries) and atomic writes.
//! - [`atomic_write`], atomic writes and the removal of killed writers' temporary files.
//! - [`checksum`], CRC-32.
//! - [`table`], one layer's [`Table`], read into memory or memory-mapped.
//! - [`mod@build`], layers in dependency order, in parallel, resumable.
//! - [`mod@build_split`], the same build by several processes (MPI ranks) together.
//! - [`manifest`], the size and SHA-256 of every layer file of a set, written by every build.
//! - [`probe`], the [`Tablebase`], which is also the search's [`solver::search::Oracle`].
//! - [`progress`], the [`Progress`] observer of builds and verifications (the crate draws nothing).
//! - [`validate`], the structural checks of a payload when a table is opened.
//! - [`verify`], every entry re-derived from its children.
//! - [`error`], [`TableError`].
//!
//! ```
//! # use tables::format::{encode_file, TableId};
//! # use tables::Table;
//! let id = TableId { game: "kalah".into(), options: vec![], holes: 6 };
//! let bytes = encode_file(&id, 3, &[3, 1, -1, -3]);
//! let t = Table::from_bytes("kalah_6h_k003.mtb", bytes).unwrap();
//! t.check_payload().unwrap();
//! assert_eq!((0..4).map(|i| t.get(i)).collect::<Vec<_>>(), [3, 1, -1, -3]);
//! ```

#![deny(missing_docs)]

pub mod atomic_write;
pub mod build;
pub mod build_split;
pub mod checksum;
pub mod error;
pub mod format;
pub mod manifest;
pub mod probe;
pub mod progress;
pub mod table;
pub mod validate;
pub mod verify;

#[cfg(test)]
mod tests;

pub use build::{build, memory_estimate, BuildOptions, LayerReport, MemoryEstimate};
pub use build_split::build_split;
pub use error::{HeaderFault, ManifestFault, Mismatch, PayloadError, TableError, UnfitManifest};
pub use format::{Encoding, Header, TableId};
pub use probe::{Check, Tablebase};
pub use progress::{Progress, Silent};
pub use table::{Expected, Table};
pub use verify::{verify_layer, verify_layer_until, LayerVerdict, WrongEntry};

use std::path::{Path, PathBuf};

/// Every table file (`*.mtb`) in `dir`, sorted by name: every entry of that name but
/// directories, so that a FIFO, a device or a dangling link named like a table is reported by the
/// reader (which refuses it) rather than silently skipped.
///
/// # Errors
/// [`TableError::Io`] when the directory cannot be listed.
pub fn table_files(dir: &Path) -> Result<Vec<PathBuf>, TableError> {
    let mut paths: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|e| TableError::io(dir, e))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == format::EXTENSION) && !p.is_dir())
        .collect();
    paths.sort();
    Ok(paths)
}
