//! Typed errors: every way a table file can be missing, damaged or not the one asked for.

use std::fmt;
use std::io;
use std::path::PathBuf;

/// Why a table could not be read, written, built or trusted.
#[derive(Debug)]
pub enum TableError {
    /// An I/O error on a file or directory.
    Io {
        /// The file or directory.
        path: PathBuf,
        /// The underlying error.
        source: io::Error,
    },
    /// The file does not start with the table magic: not a table file at all.
    NotATable {
        /// The file.
        path: PathBuf,
    },
    /// The file is a table of a format version this program does not read.
    Version {
        /// The file.
        path: PathBuf,
        /// The version found.
        found: u32,
        /// The version this program reads.
        reads: u32,
    },
    /// The file is shorter (or longer) than its header says.
    Truncated {
        /// The file.
        path: PathBuf,
        /// The length the header implies.
        expected: u64,
        /// The actual length.
        found: u64,
    },
    /// The header bytes do not match their checksum.
    HeaderChecksum {
        /// The file.
        path: PathBuf,
    },
    /// The header could not be decoded, or is inconsistent in itself.
    BadHeader {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        reason: String,
    },
    /// The payload matches its checksum but not the format: an escaped entry without its
    /// exception, an exception list out of order or out of range, a value outside the layer's
    /// `-k..=k` (a bad writer or a crafted file; see [`crate::validate`]).
    BadPayload {
        /// The file.
        path: PathBuf,
        /// What is wrong, at the first bad place.
        reason: String,
    },
    /// The path is not a regular file (a FIFO, a device, a directory, or a link to one): table
    /// readers open nothing else, so that no read blocks or runs without end.
    NotAFile {
        /// The path.
        path: PathBuf,
        /// What it is.
        kind: String,
    },
    /// Memory for a table could not be allocated.
    Allocation {
        /// What the memory was for.
        what: String,
        /// The bytes asked for.
        bytes: u64,
    },
    /// The header is valid but describes another table than the one asked for.
    Mismatch {
        /// The file.
        path: PathBuf,
        /// What differs.
        reason: String,
    },
    /// The payload does not match its checksum.
    PayloadChecksum {
        /// The file.
        path: PathBuf,
        /// The checksum in the header.
        stored: u32,
        /// The checksum of the bytes on disk.
        computed: u32,
    },
    /// No table of the asked game, options and size exists in the directory.
    NoTables {
        /// The directory.
        dir: PathBuf,
        /// The table identity, as `game [options] holes`.
        what: String,
    },
    /// A layer was asked for that the tables do not cover.
    MissingLayer {
        /// The layer.
        layer: u32,
        /// The highest layer available (`None`: none at all).
        max: Option<u32>,
    },
    /// The worker threads could not be started.
    Threads(String),
    /// A layer too large for this machine's address space, or for the format.
    TooLarge {
        /// The layer.
        layer: u32,
        /// Its number of entries.
        entries: u64,
    },
}

impl TableError {
    pub(crate) fn io(path: impl Into<PathBuf>, source: io::Error) -> Self {
        TableError::Io {
            path: path.into(),
            source,
        }
    }
}

impl fmt::Display for TableError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TableError::Io { path, source } => write!(f, "{}: {source}", path.display()),
            TableError::NotATable { path } => {
                write!(f, "{}: not a mancala table file (bad magic bytes)", path.display())
            }
            TableError::Version { path, found, reads } => write!(
                f,
                "{}: table format version {found}, but this program reads version {reads} (run `mancala tables build` again: it rebuilds such layers)",
                path.display()
            ),
            TableError::Truncated { path, expected, found } => write!(
                f,
                "{}: file is {found} bytes but its header says {expected} (truncated or damaged file)",
                path.display()
            ),
            TableError::HeaderChecksum { path } => {
                write!(f, "{}: header checksum mismatch (damaged header)", path.display())
            }
            TableError::BadHeader { path, reason } => {
                write!(f, "{}: invalid header: {reason}", path.display())
            }
            TableError::BadPayload { path, reason } => {
                write!(f, "{}: invalid payload (its checksum matches): {reason}", path.display())
            }
            TableError::NotAFile { path, kind } => {
                write!(f, "{}: not a regular file ({kind}); table files must be regular files", path.display())
            }
            TableError::Allocation { what, bytes } => write!(
                f,
                "cannot allocate {bytes} bytes ({:.1} MiB) for {what}: not enough memory",
                *bytes as f64 / (1u64 << 20) as f64
            ),
            TableError::Mismatch { path, reason } => {
                write!(f, "{}: wrong table: {reason}", path.display())
            }
            TableError::PayloadChecksum { path, stored, computed } => write!(
                f,
                "{}: payload checksum mismatch (header says {stored:08x}, data is {computed:08x}): damaged file",
                path.display()
            ),
            TableError::NoTables { dir, what } => {
                write!(f, "no tables for {what} in {}", dir.display())
            }
            TableError::MissingLayer { layer, max: Some(m) } => write!(
                f,
                "the tables cover 0 to {m} seeds on the board, not {layer}"
            ),
            TableError::MissingLayer { layer, max: None } => {
                write!(f, "no tables, so no layer {layer}")
            }
            TableError::Threads(e) => write!(f, "cannot start the worker threads: {e}"),
            TableError::TooLarge { layer, entries } => {
                write!(f, "layer {layer} has {entries} entries: too large for this machine")
            }
        }
    }
}

/// A failed allocation of a build or an encoding, with its amount and purpose.
impl From<solver::AllocError> for TableError {
    fn from(e: solver::AllocError) -> Self {
        TableError::Allocation {
            what: e.what,
            bytes: e.bytes,
        }
    }
}

impl std::error::Error for TableError {
    // No `source`: the message already ends with the I/O error, and a chain printer (anyhow's
    // `{:#}`) would say it a second time ("(os error 2): ... (os error 2)").
}
