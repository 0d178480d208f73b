//! The table file format: one file per layer (seed count on the board).
//!
//! # Layout
//!
//! All integers are little-endian.
//!
//! | offset     | bytes | field                                                              |
//! |------------|-------|--------------------------------------------------------------------|
//! | 0          | 8     | magic `MNCLTBL\n` (the newline catches text-mode transfers)        |
//! | 8          | 4     | format version, `u32` (now [`VERSION`])                            |
//! | 12         | 4     | `H`, the length of the encoded header, `u32` (at most 64 KiB)      |
//! | 16         | `H`   | the [`Header`], encoded with bincode 2 (standard configuration)    |
//! | 16 + H     | 4     | CRC-32 of bytes `0 .. 16 + H` (magic, version, length and header)  |
//! | 20 + H     | `P`   | the payload: the entries, as [`Encoding`] says; `P = payload_len`  |
//!
//! The file ends there: its length must be exactly `20 + H + P`. The header carries the CRC-32
//! of the payload ([`crate::checksum`]). The version and the header length sit outside the
//! bincode header so that a file of another version is recognised as such, whatever its header
//! looks like.
//!
//! # Entries
//!
//! Entry `i` is the future value `F` (net seeds the side to move will still win, see
//! `solver::game`) of the position in slot `i` of the layer (the game's [`solver::Indexer`]).
//! For layer `k`, `|F| <= k`. Three encodings; the builder picks the smallest for each layer:
//!
//! - [`Encoding::Nibble`]: 4 bits per entry, entry `2j` in the low nibble of byte `j`, entry
//!   `2j + 1` in the high nibble. Then one base per block of [`BLOCK`] entries (an `i8`, the
//!   value of code 7 in that block). A code `c` in `0..=14` of entry `i` stands for
//!   `base[i / BLOCK] + step * (c - 7)`; the code 15 is an escape: the value is in the exception
//!   list that follows the bases, `exceptions` slot numbers (increasing) and then as many values,
//!   each as narrow as the header allows ([`exception_widths`]): slots are `u32` when the layer
//!   has at most 2^32 entries (else `u64`), values `i8` when the layer is at most 127 (else
//!   `i16`). `step` is 2 when every value of the layer has the parity of `k` (in Kalah and Dakon
//!   every seed ends in a store, so `F ≡ k (mod 2)`; the builder checks this on the data rather
//!   than assuming it): a block's window then spans 29 values, else 15.
//!
//!   Why a base per block: neighbouring slots differ in the first pits of the mover's row, so
//!   they share the split of seeds between the rows, and their values cluster. A window placed
//!   per block of 256 leaves 0.11% of Kalah's layer 18 outside it, against 1.55% for the best
//!   window of the whole layer; the bases cost 1/32 bit per entry. (Format 1 had one window per
//!   layer and 10-byte exceptions; docs/performance.md compares the two.)
//! - [`Encoding::Byte`]: one `i8` per entry (any layer whose values fit, so any `k <= 127`).
//! - [`Encoding::Wide`]: one `i16` per entry.
//!
//! # What readers check
//!
//! Nothing in a file is trusted. Every reader ([`crate::Table`]'s constructors) checks, before
//! any value is served:
//!
//! 1. the path is a regular file (following links): a FIFO would block the open, a device such
//!    as `/dev/zero` would be read without end;
//! 2. the framing: magic, version, header length (at most [`MAX_HEADER`]), header CRC-32, the
//!    header's own consistency (`payload_len` equals what `entries`, the encoding and
//!    `exceptions` imply) and the file's real length, exactly `20 + H + P`;
//! 3. when the caller knows the layer (the [`crate::Tablebase`], a resumed build, `verify`), the
//!    game, layer and entry count against the header, *before* the payload is read or memory
//!    allocated for it; then only `P` bytes are read, into fallibly allocated memory;
//! 4. the payload's structure ([`crate::validate`]): every value within `-k..=k`, the exception
//!    list strictly increasing, every slot in it below `entries` and escaped, and as many escapes
//!    as exceptions. A payload that fails this and its CRC is reported as damaged
//!    ([`TableError::PayloadChecksum`]), one that fails only this as invalid
//!    ([`TableError::BadPayload`]: a bad writer or a crafted file).
//!
//! The payload CRC-32 is checked by [`crate::Table::check_payload`] (a search checks every layer,
//! a query the layers it reads). A table that opens therefore never panics on a lookup and
//! never serves a value outside its layer's range; a value in range but wrong is what
//! [`crate::verify`] exists for.
//!
//! # Writes and names
//!
//! A file is written to a temporary name in the same directory, flushed to disk, then renamed
//! over its final name ([`crate::atomic_write::write_atomic`]): a reader sees either no file or a complete one, and a
//! build killed at any point resumes from the last layer whose file is complete and valid. The
//! name is `{game}[+{option}...]_{holes}h_k{layer:03}.mtb` ([`TableId::file_name`]); it is only
//! a convenience for finding files, every reader checks the header. The temporary name is
//! `.{name}.{pid}.tmp`: a build removes those whose writer is no longer alive
//! ([`crate::atomic_write::remove_stale_temporaries`]), and a process stopped by a signal removes its own
//! ([`crate::atomic_write::abandon_writes`]).

use std::path::Path;

use bincode::{Decode, Encode};
use solver::AllocError;

use crate::checksum::crc32;
use crate::error::{HeaderFault, TableError};

mod payload;

pub use payload::{
    byte_at, code_at, encode_entries, exception_widths, wide_at, Nibbles, BLOCK, ESCAPE,
};

/// The magic bytes at the start of every table file.
pub const MAGIC: [u8; 8] = *b"MNCLTBL\n";
/// The format version this program writes and reads.
pub const VERSION: u32 = 2;
/// The largest encoded header accepted.
pub const MAX_HEADER: usize = 1 << 16;
/// Bytes before the encoded header: magic, version, header length.
pub const PREFIX: usize = 16;
/// The file extension of table files.
pub const EXTENSION: &str = "mtb";

/// Which game, options and board a table belongs to: what the caller states, the header records,
/// and every reader checks.
#[derive(Encode, Decode, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TableId {
    /// The game's name, e.g. `kalah`.
    pub game: String,
    /// The rule options switched on, e.g. `["empty-capture"]`, in the game's canonical order.
    pub options: Vec<String>,
    /// Holes per row.
    pub holes: u32,
}

impl TableId {
    /// The file name of `layer`: `kalah_6h_k020.mtb`, `kalah+empty-capture_6h_k020.mtb`.
    pub fn file_name(&self, layer: u32) -> String {
        let mut s = self.game.clone();
        for o in &self.options {
            s.push('+');
            s.push_str(o);
        }
        format!("{s}_{}h_k{layer:03}.{EXTENSION}", self.holes)
    }
}

/// The identity of the toy tables of the unit tests: no game, no options, 2 holes.
#[cfg(test)]
pub(crate) fn toy_id() -> TableId {
    TableId {
        game: "toy".into(),
        options: vec![],
        holes: 2,
    }
}

impl std::fmt::Display for TableId {
    /// `kalah --empty-capture, 6 holes`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.game)?;
        for o in &self.options {
            write!(f, " --{o}")?;
        }
        write!(f, ", {} holes", self.holes)
    }
}

/// How the entries of a layer are stored (see the module docs).
#[derive(Encode, Decode, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Encoding {
    /// 4 bits per entry: code `c < 15` is `base + step * (c - 7)` with the base of the entry's
    /// block, 15 escapes to the list.
    Nibble {
        /// 1, or 2 when every value has the parity of the layer.
        step: u8,
    },
    /// One `i8` per entry.
    Byte,
    /// One `i16` per entry.
    Wide,
}

impl std::fmt::Display for Encoding {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Encoding::Nibble { step: 1, .. } => f.write_str("4-bit"),
            Encoding::Nibble { .. } => f.write_str("4-bit (parity)"),
            Encoding::Byte => f.write_str("8-bit"),
            Encoding::Wide => f.write_str("16-bit"),
        }
    }
}

/// The header of a table file.
#[derive(Encode, Decode, Clone, Debug, PartialEq, Eq)]
pub struct Header {
    /// Game, options and holes.
    pub id: TableId,
    /// The layer: seeds on the board.
    pub layer: u32,
    /// Number of entries (slots of the layer).
    pub entries: u64,
    /// How they are stored.
    pub encoding: Encoding,
    /// Entries in the exception list (nibble encoding only; 0 otherwise).
    pub exceptions: u64,
    /// Payload length in bytes.
    pub payload_len: u64,
    /// CRC-32 of the payload.
    pub payload_crc: u32,
}

impl Header {
    /// The payload length its fields imply; `None` on overflow.
    pub fn expected_payload_len(&self) -> Option<u64> {
        let (sw, vw) = exception_widths(self.entries, self.layer);
        match self.encoding {
            Encoding::Nibble { .. } => self
                .entries
                .div_ceil(2)
                .checked_add(self.entries.div_ceil(BLOCK as u64))?
                .checked_add(self.exceptions.checked_mul((sw + vw) as u64)?),
            Encoding::Byte => Some(self.entries),
            Encoding::Wide => self.entries.checked_mul(2),
        }
    }
}

fn config() -> impl bincode::config::Config {
    bincode::config::standard().with_limit::<MAX_HEADER>()
}

/// The complete bytes of a table file for `id`, layer `layer`, with these entries: for small
/// tables (tests, examples), whose memory is no question.
///
/// # Panics
/// When the memory cannot be allocated (the builder uses [`encode_parts`], which reports it).
pub fn encode_file(id: &TableId, layer: u32, values: &[i16]) -> Vec<u8> {
    let (head, payload) = encode_parts(id, layer, values).expect("memory for a small table");
    [head, payload].concat()
}

/// A table file for `id`, layer `layer`, with these entries, in its two parts: everything up to
/// the payload (magic, version, header length, header, header checksum), and the payload. The
/// builder writes the parts one after the other and keeps the payload as the layer's table, so
/// the payload, the bulk of a large layer, is never copied (docs/performance.md, "Figures behind
/// comments").
///
/// # Errors
/// As [`encode_entries`].
pub fn encode_parts(
    id: &TableId,
    layer: u32,
    values: &[i16],
) -> Result<(Vec<u8>, Vec<u8>), AllocError> {
    let (encoding, exceptions, payload) = encode_entries(layer, values)?;
    let header = Header {
        id: id.clone(),
        layer,
        entries: values.len() as u64,
        encoding,
        exceptions,
        payload_len: payload.len() as u64,
        payload_crc: crc32(&payload),
    };
    Ok((encode_head(&header), payload))
}

/// The bytes of a file before its payload, for `header`: magic, version, header length, the
/// encoded header and its CRC-32 (the tests use it to craft files whose checksums are valid).
pub fn encode_head(header: &Header) -> Vec<u8> {
    let h = bincode::encode_to_vec(header, config()).expect("a header always encodes");
    let mut out = Vec::with_capacity(PREFIX + h.len() + 4);
    out.extend_from_slice(&MAGIC);
    out.extend_from_slice(&VERSION.to_le_bytes());
    out.extend_from_slice(&(h.len() as u32).to_le_bytes());
    out.extend_from_slice(&h);
    let crc = crc32(&out);
    out.extend_from_slice(&crc.to_le_bytes());
    out
}

/// Parses and checks the framing of a table file (magic, version, header checksum, header,
/// length), without reading the payload. Returns the header and the payload's offset.
///
/// # Errors
/// [`TableError::NotATable`], [`TableError::Version`], [`TableError::HeaderChecksum`],
/// [`TableError::BadHeader`], [`TableError::Truncated`].
pub fn parse(path: &Path, bytes: &[u8]) -> Result<(Header, usize), TableError> {
    parse_parts(path, bytes, &[])
}

/// As [`parse`], for a file whose bytes are `head` followed by `tail`: everything up to the
/// payload must lie in `head`.
pub(crate) fn parse_parts(
    path: &Path,
    head: &[u8],
    tail: &[u8],
) -> Result<(Header, usize), TableError> {
    parse_head(path, head, (head.len() + tail.len()) as u64)
}

/// As [`parse`], for a file of `file_len` bytes of which `bytes` is the beginning (at least up
/// to the payload, or the whole file when it is shorter): the header is checked against the
/// file's real length before anything is read or allocated for the payload.
pub(crate) fn parse_head(
    path: &Path,
    bytes: &[u8],
    file_len: u64,
) -> Result<(Header, usize), TableError> {
    let p = || path.to_path_buf();
    let truncated = |expected: u64| TableError::Truncated {
        path: p(),
        expected,
        found: file_len,
    };
    if bytes.len() < 8 {
        return Err(if MAGIC.starts_with(bytes) {
            truncated(PREFIX as u64)
        } else {
            TableError::NotATable { path: p() }
        });
    }
    if bytes[..8] != MAGIC {
        return Err(TableError::NotATable { path: p() });
    }
    if bytes.len() < PREFIX {
        return Err(truncated(PREFIX as u64));
    }
    let version = u32::from_le_bytes(bytes[8..12].try_into().unwrap());
    if version != VERSION {
        return Err(TableError::Version {
            path: p(),
            found: version,
            reads: VERSION,
        });
    }
    let h = u32::from_le_bytes(bytes[12..16].try_into().unwrap()) as usize;
    if h > MAX_HEADER {
        return Err(TableError::BadHeader {
            path: p(),
            reason: HeaderFault::TooLong {
                len: h,
                max: MAX_HEADER,
            },
        });
    }
    let payload_at = PREFIX + h + 4;
    if bytes.len() < payload_at {
        return Err(truncated(payload_at as u64));
    }
    let stored = u32::from_le_bytes(bytes[PREFIX + h..payload_at].try_into().unwrap());
    if crc32(&bytes[..PREFIX + h]) != stored {
        return Err(TableError::HeaderChecksum { path: p() });
    }
    let (header, used): (Header, usize) =
        bincode::decode_from_slice(&bytes[PREFIX..PREFIX + h], config()).map_err(|e| {
            TableError::BadHeader {
                path: p(),
                reason: HeaderFault::Decode(e),
            }
        })?;
    if used != h {
        return Err(TableError::BadHeader {
            path: p(),
            reason: HeaderFault::StrayBytes { count: h - used },
        });
    }
    match header.encoding {
        Encoding::Nibble { step: 1 | 2 } => {}
        Encoding::Nibble { step } => {
            return Err(TableError::BadHeader {
                path: p(),
                reason: HeaderFault::NibbleStep { step },
            })
        }
        Encoding::Byte | Encoding::Wide if header.exceptions != 0 => {
            return Err(TableError::BadHeader {
                path: p(),
                reason: HeaderFault::ExceptionsWithoutNibble,
            })
        }
        _ => {}
    }
    if header.expected_payload_len() != Some(header.payload_len) {
        return Err(TableError::BadHeader {
            path: p(),
            reason: HeaderFault::PayloadLength {
                payload_len: header.payload_len,
                entries: header.entries,
                encoding: header.encoding,
                exceptions: header.exceptions,
            },
        });
    }
    let total = (payload_at as u64)
        .checked_add(header.payload_len)
        .ok_or_else(|| TableError::BadHeader {
            path: p(),
            reason: HeaderFault::PayloadOverflow,
        })?;
    if file_len != total {
        return Err(truncated(total));
    }
    Ok((header, payload_at))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn id() -> TableId {
        TableId {
            game: "toy".into(),
            options: vec!["opt".into()],
            holes: 3,
        }
    }

    #[test]
    fn file_names() {
        assert_eq!(id().file_name(7), "toy+opt_3h_k007.mtb");
        let plain = TableId {
            game: "kalah".into(),
            options: vec![],
            holes: 6,
        };
        assert_eq!(plain.file_name(20), "kalah_6h_k020.mtb");
        assert_eq!(plain.to_string(), "kalah, 6 holes");
    }

    #[test]
    fn parse_round_trip_and_framing_errors() {
        let v: Vec<i16> = (0..37).map(|i| i % 9 - 4).collect();
        let bytes = encode_file(&id(), 9, &v);
        let path = Path::new("x.mtb");
        let (h, at) = parse(path, &bytes).unwrap();
        assert_eq!((h.id, h.layer, h.entries), (id(), 9, 37));
        assert_eq!(at + h.payload_len as usize, bytes.len());
        assert!(matches!(
            parse(path, &bytes[..bytes.len() - 1]),
            Err(TableError::Truncated { .. })
        ));
        assert!(matches!(
            parse(path, &bytes[..10]),
            Err(TableError::Truncated { .. })
        ));
        assert!(matches!(
            parse(path, b"hello world, not a table"),
            Err(TableError::NotATable { .. })
        ));
        let mut b = bytes.clone();
        b[8] = 9;
        assert!(matches!(
            parse(path, &b),
            Err(TableError::Version { found: 9, .. })
        ));
        let mut b = bytes.clone();
        b[PREFIX + 2] ^= 0x40;
        assert!(matches!(
            parse(path, &b),
            Err(TableError::HeaderChecksum { .. })
        ));
    }
}
