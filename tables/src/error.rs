//! Typed errors: every way a table file can be missing, damaged or not the one asked for.

use std::fmt;
use std::io;
use std::path::PathBuf;

use crate::format::{Encoding, TableId};

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
        reason: HeaderFault,
    },
    /// The payload matches its checksum but not the format: an escaped entry without its
    /// exception, an exception list out of order or out of range, a value outside the layer's
    /// `-k..=k` (a bad writer or a crafted file; see [`crate::validate`]).
    BadPayload {
        /// The file.
        path: PathBuf,
        /// What is wrong, at the first bad place.
        reason: PayloadError,
    },
    /// The path is not a regular file (a FIFO, a device, a directory, or a link to one): table
    /// readers open nothing else, so that no read blocks or runs without end.
    NotAFile {
        /// The path.
        path: PathBuf,
        /// What it is ("a directory", "a FIFO", ...).
        kind: &'static str,
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
        reason: Mismatch,
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
    /// A stored value disagrees with what its position's moves give from the same tables: the
    /// set is damaged or crafted in a way its checksums do not show (`tables verify` finds
    /// every such entry). Nothing read from it is served.
    Contradiction {
        /// The file of the entry.
        path: PathBuf,
        /// Its layer.
        layer: u32,
        /// Its entry (the position's slot in the layer).
        entry: u64,
        /// The value stored.
        stored: i32,
        /// The best of the moves' values, from the stored values of the children.
        derived: i32,
    },
    /// A table set's manifest has a line that is not `sha256  bytes  file`.
    BadManifest {
        /// The manifest.
        path: PathBuf,
        /// The line (from 1).
        line: usize,
        /// What is wrong with it.
        reason: ManifestFault,
    },
    /// A table set's manifest that cannot be one: larger than any manifest, or listing no file
    /// (which would vouch for nothing).
    UnfitManifest {
        /// The manifest.
        path: PathBuf,
        /// What is wrong with it.
        reason: UnfitManifest,
    },
    /// The worker threads could not be started (the system refused them).
    Threads(rayon::ThreadPoolBuildError),
    /// A layer too large for this machine's address space, or for the format.
    TooLarge {
        /// The layer.
        layer: u32,
        /// Its number of entries.
        entries: u64,
    },
    /// A build stopped by its caller ([`crate::BuildOptions::stop`]) before it finished.
    Stopped {
        /// The layers finished and written (`0..finished`); the layer being solved is dropped.
        finished: u32,
    },
}

/// What is wrong with a header that passed its checksum ([`TableError::BadHeader`]): a bad
/// writer or a crafted file.
#[derive(Debug)]
pub enum HeaderFault {
    /// The header's length field is larger than any header may be.
    TooLong {
        /// The length given.
        len: usize,
        /// The most allowed ([`crate::format::MAX_HEADER`]).
        max: usize,
    },
    /// The header's bytes do not decode.
    Decode(bincode::error::DecodeError),
    /// The header decodes from fewer bytes than its length field says.
    StrayBytes {
        /// The bytes left over.
        count: usize,
    },
    /// A nibble encoding with a step other than 1 or 2.
    NibbleStep {
        /// The step given.
        step: u8,
    },
    /// Exceptions listed for an encoding that has none (only nibbles escape).
    ExceptionsWithoutNibble,
    /// The payload length is not what the entries, the encoding and the exceptions make.
    PayloadLength {
        /// The length given.
        payload_len: u64,
        /// The entries.
        entries: u64,
        /// The encoding.
        encoding: Encoding,
        /// The exceptions.
        exceptions: u64,
    },
    /// The payload length overflows the file's length.
    PayloadOverflow,
    /// A table given as two parts whose first does not end where the header does.
    PartBoundary {
        /// Where the header ends.
        header_end: usize,
        /// The length of the first part.
        part_len: usize,
    },
}

impl fmt::Display for HeaderFault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HeaderFault::TooLong { len, max } => write!(f, "header length {len} exceeds {max}"),
            HeaderFault::Decode(e) => e.fmt(f),
            HeaderFault::StrayBytes { count } => {
                write!(f, "{count} stray bytes after the header")
            }
            HeaderFault::NibbleStep { step } => write!(f, "nibble step {step}"),
            HeaderFault::ExceptionsWithoutNibble => {
                f.write_str("exceptions without the nibble encoding")
            }
            HeaderFault::PayloadLength {
                payload_len,
                entries,
                encoding,
                exceptions,
            } => write!(
                f,
                "payload length {payload_len} does not match {entries} entries ({encoding}) with {exceptions} exceptions"
            ),
            HeaderFault::PayloadOverflow => f.write_str("payload length overflows"),
            HeaderFault::PartBoundary {
                header_end,
                part_len,
            } => write!(f, "the header ends at {header_end}, its part at {part_len}"),
        }
    }
}

/// How a valid table differs from the one asked for ([`TableError::Mismatch`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Mismatch {
    /// Another game, options or board size (boxed: an error stays small on the `Ok` path).
    Identity {
        /// The table's identity.
        found: Box<TableId>,
        /// The one asked for.
        asked: Box<TableId>,
    },
    /// Another layer.
    Layer {
        /// The table's layer.
        found: u32,
        /// The one asked for.
        asked: u32,
    },
    /// The asked layer, with another number of entries than the layer has.
    Entries {
        /// The table's entries.
        found: u64,
        /// The layer.
        layer: u32,
        /// The layer's entries.
        asked: u64,
    },
}

impl fmt::Display for Mismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Mismatch::Identity { found, asked } => write!(f, "it holds {found}, not {asked}"),
            Mismatch::Layer { found, asked } => write!(f, "it holds layer {found}, not {asked}"),
            Mismatch::Entries {
                found,
                layer,
                asked,
            } => write!(f, "it has {found} entries, but layer {layer} has {asked}"),
        }
    }
}

/// What is wrong with a manifest line ([`TableError::BadManifest`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ManifestFault {
    /// Not three fields.
    FieldCount,
    /// The digest is not 64 hex digits.
    Digest,
    /// The size is not a number.
    Size,
    /// The file name names a directory.
    Directory,
}

impl fmt::Display for ManifestFault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ManifestFault::FieldCount => "expected three fields: sha256, bytes, file",
            ManifestFault::Digest => "the digest is not 64 hex digits",
            ManifestFault::Size => "the size is not a number",
            ManifestFault::Directory => "a file name must not name a directory",
        })
    }
}

/// Why a manifest as a whole cannot be one ([`TableError::UnfitManifest`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum UnfitManifest {
    /// Larger than any manifest: not read.
    TooLarge {
        /// Its size in bytes.
        bytes: u64,
        /// The largest size read.
        limit: u64,
    },
    /// It lists no file, so it vouches for nothing.
    Empty,
}

impl fmt::Display for UnfitManifest {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            UnfitManifest::TooLarge { bytes, limit } => write!(
                f,
                "{bytes} bytes: larger than any manifest (at most {limit}); not read"
            ),
            UnfitManifest::Empty => f.write_str(
                "lists no file, so it vouches for nothing: rebuild the set's manifest \
                 (mancala tables build writes it) or remove it",
            ),
        }
    }
}

/// What is wrong with a payload whose structure breaks the format ([`crate::validate`]), at
/// the first bad place.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PayloadError {
    /// The header counts more entries (or exceptions) than this machine can address.
    TooMany,
    /// An entry decodes to a value no position of the layer can have.
    ValueOutOfRange {
        /// The entry.
        entry: u64,
        /// Its value.
        value: i64,
        /// The layer `k`: values lie in `-k..=k`.
        layer: u32,
    },
    /// The escaped entries and the exception list do not pair up.
    EscapeCount {
        /// Entries holding the escape code.
        escaped: u64,
        /// Exceptions in the list.
        exceptions: u64,
    },
    /// An exception's slot does not come after the previous one's.
    ExceptionOrder {
        /// The exception.
        index: u64,
        /// Its slot.
        slot: u64,
        /// The previous exception's slot.
        previous: u64,
    },
    /// An exception's slot lies beyond the layer.
    ExceptionBeyond {
        /// The exception.
        index: u64,
        /// Its slot.
        slot: u64,
        /// The layer's entries.
        entries: u64,
    },
    /// An exception is for an entry that does not hold the escape code.
    ExceptionNotEscaped {
        /// The exception.
        index: u64,
        /// Its slot.
        slot: u64,
    },
    /// An exception's value lies outside the layer's range.
    ExceptionOutOfRange {
        /// The exception.
        index: u64,
        /// Its slot.
        slot: u64,
        /// Its value.
        value: i64,
        /// The layer `k`.
        layer: u32,
    },
}

impl fmt::Display for PayloadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PayloadError::TooMany => f.write_str("too many entries"),
            PayloadError::ValueOutOfRange {
                entry,
                value,
                layer: k,
            } => write!(f, "entry {entry} is {value}, outside -{k}..={k}"),
            PayloadError::EscapeCount {
                escaped,
                exceptions,
            } => write!(
                f,
                "{escaped} entries are escaped, but the exception list holds {exceptions}"
            ),
            PayloadError::ExceptionOrder {
                index,
                slot,
                previous,
            } => write!(
                f,
                "exception {index} is for entry {slot}, not after the previous one's {previous}"
            ),
            PayloadError::ExceptionBeyond {
                index,
                slot,
                entries,
            } => write!(
                f,
                "exception {index} is for entry {slot}, beyond the {entries} entries"
            ),
            PayloadError::ExceptionNotEscaped { index, slot } => {
                write!(
                    f,
                    "exception {index} is for entry {slot}, which is not escaped"
                )
            }
            PayloadError::ExceptionOutOfRange {
                index,
                slot,
                value,
                layer: k,
            } => write!(
                f,
                "exception {index} (entry {slot}) is {value}, outside -{k}..={k}"
            ),
        }
    }
}

impl std::error::Error for PayloadError {}

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
            TableError::Contradiction {
                path,
                layer,
                entry,
                stored,
                derived,
            } => write!(
                f,
                "{}: the table contradicts itself at layer {layer}, entry {entry}: it stores {stored}, but the position's moves give {derived} (a damaged or altered file; `mancala tables verify` lists every such entry)",
                path.display()
            ),
            TableError::BadManifest { path, line, reason } => {
                write!(f, "{}: line {line}: {reason}", path.display())
            }
            TableError::UnfitManifest { path, reason } => {
                write!(f, "{}: {reason}", path.display())
            }
            TableError::Threads(e) => write!(f, "cannot start the worker threads: {e}"),
            TableError::TooLarge { layer, entries } => {
                write!(f, "layer {layer} has {entries} entries: too large for this machine")
            }
            TableError::Stopped { finished: 0 } => {
                write!(f, "the build was stopped before any layer was finished")
            }
            TableError::Stopped { finished } => write!(
                f,
                "the build was stopped; layers 0 to {} are finished and kept (building again resumes from there)",
                finished - 1
            ),
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
