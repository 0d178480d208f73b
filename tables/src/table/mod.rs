//! One layer's table, in memory or memory-mapped: checked on opening, read entry by entry.

use std::fs;
use std::io::Read;
use std::path::{Path, PathBuf};

use memmap2::Mmap;

use crate::checksum::crc32;
use crate::error::{HeaderFault, Mismatch, TableError};
use crate::format::{self, byte_at, code_at, wide_at, Encoding, Header, Nibbles, TableId, ESCAPE};

/// Where a table's bytes live.
enum Bytes {
    Owned(Vec<u8>),
    Mapped(Mmap),
}

impl Bytes {
    #[inline(always)]
    fn as_slice(&self) -> &[u8] {
        match self {
            Bytes::Owned(v) => v,
            Bytes::Mapped(m) => m,
        }
    }
}

/// One layer's entries, with the header they came with.
///
/// Opening checks the framing (magic, version, header checksum, header, exact length) and the
/// payload's structure ([`crate::validate`]: every value in range, every escape with its
/// exception), so a table that opens never panics and never serves an impossible value; the
/// payload checksum is checked by [`Table::check_payload`], which costs a pass over the data.
pub struct Table {
    bytes: Bytes,
    header: Header,
    payload_at: usize,
    /// The length of the file (`bytes` may hold only the payload, see [`Table::from_parts`]).
    file_len: u64,
    path: PathBuf,
    /// Where the parts of a nibble payload lie (the default, unused, for the other encodings).
    nibbles: Nibbles,
    /// `fence[b]`: the number of exceptions whose slot lies below `b << FENCE_SHIFT` (see
    /// [`Table::exception`]); empty without exceptions.
    fence: Vec<u32>,
}

/// Entries per fence block: `2^12`. An escaped entry's exception is looked for only among those
/// of its fence block (about 15 at the 0.37% escape rate of Kalah's layer 20, one or two cache
/// lines) instead of by binary search over the whole list (18 dependent cache misses at its
/// 313 k exceptions). The fence costs 4 bytes per 4096 entries, and is built in memory when the
/// table is opened (one pass over the exception slots), so the file does not store it.
const FENCE_SHIFT: u32 = 12;

/// [`Table::expect`] on a header alone.
fn check_expected(path: &Path, h: &Header, x: Expected<'_>) -> Result<(), TableError> {
    let reason = if h.id != *x.id {
        Mismatch::Identity {
            found: Box::new(h.id.clone()),
            asked: Box::new(x.id.clone()),
        }
    } else if h.layer != x.layer {
        Mismatch::Layer {
            found: h.layer,
            asked: x.layer,
        }
    } else if h.entries != x.entries {
        Mismatch::Entries {
            found: h.entries,
            layer: x.layer,
            asked: x.entries,
        }
    } else {
        return Ok(());
    };
    Err(TableError::Mismatch {
        path: path.to_path_buf(),
        reason,
    })
}

impl std::fmt::Debug for Table {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Table")
            .field("path", &self.path)
            .field("header", &self.header)
            .finish()
    }
}

/// An empty buffer with room for `len` bytes, on huge pages where possible. Lookups are random
/// accesses: on 4 KiB pages nearly each one also misses the TLB, and a prefetch that misses the
/// TLB holds up the instructions behind it until its page walk is done (in a profiled build the
/// lookups' stalls sat on the page walks; docs/performance.md). The length comes from a file, so
/// a request the machine cannot meet is an error, not an abort.
fn huge_buffer(len: usize, what: &Path) -> Result<Vec<u8>, TableError> {
    let mut v = Vec::new();
    v.try_reserve_exact(len)
        .map_err(|_| TableError::Allocation {
            what: format!("the table {}", what.display()),
            bytes: len as u64,
        })?;
    solver::advise_huge_pages(v.as_ptr(), len);
    Ok(v)
}

/// What the caller knows a file must hold: checked against its header before its payload is
/// read, so that a file claiming a huge payload is refused before anything is allocated.
#[derive(Clone, Copy, Debug)]
pub struct Expected<'a> {
    /// The table.
    pub id: &'a TableId,
    /// The layer.
    pub layer: u32,
    /// The layer's number of entries.
    pub entries: u64,
}

/// Opens `path` for reading only if it is a regular file (following links): a FIFO would block
/// the open itself, a device (`/dev/zero`) would be read without end. The check is made on the
/// path before opening (so that a FIFO is never opened) and again on the open file.
pub(crate) fn open_regular(path: &Path) -> Result<(fs::File, u64), TableError> {
    let kind = |m: &fs::Metadata| {
        let t = m.file_type();
        if t.is_dir() {
            "a directory"
        } else {
            #[cfg(unix)]
            {
                use std::os::unix::fs::FileTypeExt;
                if t.is_fifo() {
                    return "a FIFO";
                } else if t.is_char_device() || t.is_block_device() {
                    return "a device";
                } else if t.is_socket() {
                    return "a socket";
                }
            }
            "not a regular file"
        }
    };
    let check = |m: &fs::Metadata| {
        if m.is_file() {
            Ok(())
        } else {
            Err(TableError::NotAFile {
                path: path.to_path_buf(),
                kind: kind(m),
            })
        }
    };
    check(&fs::metadata(path).map_err(|e| TableError::io(path, e))?)?;
    let file = fs::File::open(path).map_err(|e| TableError::io(path, e))?;
    let meta = file.metadata().map_err(|e| TableError::io(path, e))?;
    check(&meta)?;
    Ok((file, meta.len()))
}

impl Table {
    /// A table from the bytes of a file (`path` is only for messages).
    ///
    /// # Errors
    /// As [`format::parse`], [`TableError::BadPayload`], [`TableError::Allocation`].
    pub fn from_bytes(path: impl Into<PathBuf>, bytes: Vec<u8>) -> Result<Self, TableError> {
        let path = path.into();
        let mut owned = huge_buffer(bytes.len(), &path)?;
        owned.extend_from_slice(&bytes);
        drop(bytes);
        Self::new(path, Bytes::Owned(owned))
    }

    /// A table from a file in the two parts that [`format::encode_parts`] makes (`path` is only
    /// for messages), keeping `payload` where it is.
    ///
    /// # Errors
    /// As [`format::parse`], [`TableError::BadPayload`].
    pub fn from_parts(
        path: impl Into<PathBuf>,
        head: &[u8],
        payload: Vec<u8>,
    ) -> Result<Self, TableError> {
        let path = path.into();
        let (header, payload_at) = format::parse_parts(&path, head, &payload)?;
        if payload_at != head.len() {
            return Err(TableError::BadHeader {
                path,
                reason: HeaderFault::PartBoundary {
                    header_end: payload_at,
                    part_len: head.len(),
                },
            });
        }
        let file_len = (head.len() + payload.len()) as u64;
        Self::with_header(path, Bytes::Owned(payload), header, 0, file_len)
    }

    /// Reads a table file into memory.
    ///
    /// # Errors
    /// As [`Table::read_expecting`], without the [`TableError::Mismatch`].
    pub fn read(path: &Path) -> Result<Self, TableError> {
        Self::read_checked(path, None)
    }

    /// Reads a table file into memory, after checking that its header describes `expected`.
    /// Only a regular file is opened; its header is read first and checked against the file's
    /// real length and `expected`, then exactly the payload is read (never more than the header
    /// promised, which the file's length confirmed), into memory allocated fallibly.
    ///
    /// # Errors
    /// [`TableError::Io`], [`TableError::NotAFile`], as [`format::parse`],
    /// [`TableError::Mismatch`], [`TableError::Allocation`], [`TableError::BadPayload`].
    pub fn read_expecting(path: &Path, expected: Expected<'_>) -> Result<Self, TableError> {
        Self::read_checked(path, Some(expected))
    }

    fn read_checked(path: &Path, expected: Option<Expected<'_>>) -> Result<Self, TableError> {
        let (file, file_len) = open_regular(path)?;
        let io = |e| TableError::io(path, e);
        // The prefix says how long the header is; read that much more (bounded by MAX_HEADER),
        // never past what the file's length says is there.
        let mut head = Vec::with_capacity(format::PREFIX);
        let mut bounded = (&file).take(format::PREFIX as u64);
        bounded.read_to_end(&mut head).map_err(io)?;
        if head.len() == format::PREFIX && head[..8] == format::MAGIC {
            let h = u32::from_le_bytes(head[12..16].try_into().expect("4 bytes")) as u64;
            let rest = (h.min(format::MAX_HEADER as u64) + 4).min(file_len);
            (&file).take(rest).read_to_end(&mut head).map_err(io)?;
        }
        let (header, payload_at) = format::parse_head(path, &head, file_len)?;
        head.truncate(payload_at);
        if let Some(x) = expected {
            check_expected(path, &header, x)?;
        }
        let len = usize::try_from(header.payload_len).map_err(|_| TableError::TooLarge {
            layer: header.layer,
            entries: header.entries,
        })?;
        let mut payload = huge_buffer(len, path)?;
        (&file)
            .take(header.payload_len)
            .read_to_end(&mut payload)
            .map_err(io)?;
        if payload.len() != len {
            // The file shrank since its length was taken.
            return Err(TableError::Truncated {
                path: path.to_path_buf(),
                expected: payload_at as u64 + header.payload_len,
                found: payload_at as u64 + payload.len() as u64,
            });
        }
        Self::with_header(
            path.to_path_buf(),
            Bytes::Owned(payload),
            header,
            0,
            file_len,
        )
    }

    /// Memory-maps a table file: entries are read from the page cache on demand.
    ///
    /// # Safety
    ///
    /// The file must not be modified or truncated while the table (or anything borrowed from it)
    /// is alive: the mapping would change under the program's feet, and a truncated mapping
    /// faults (SIGBUS) on access. This crate never modifies a table file in place (it writes new
    /// files and renames them over old ones, which leaves existing mappings intact), so the
    /// contract is about other programs and users.
    ///
    /// # Errors
    /// As [`Table::map_expecting`], without the [`TableError::Mismatch`].
    pub unsafe fn map(path: &Path) -> Result<Self, TableError> {
        // SAFETY: forwarded to the caller.
        unsafe { Self::map_checked(path, None) }
    }

    /// Memory-maps a table file after checking that its header describes `expected` (only a
    /// regular file is mapped; the payload is validated before the table is returned).
    ///
    /// # Safety
    /// As [`Table::map`].
    ///
    /// # Errors
    /// [`TableError::Io`], [`TableError::NotAFile`], as [`format::parse`],
    /// [`TableError::Mismatch`], [`TableError::BadPayload`].
    pub unsafe fn map_expecting(path: &Path, expected: Expected<'_>) -> Result<Self, TableError> {
        // SAFETY: forwarded to the caller.
        unsafe { Self::map_checked(path, Some(expected)) }
    }

    unsafe fn map_checked(path: &Path, expected: Option<Expected<'_>>) -> Result<Self, TableError> {
        // SAFETY: forwarded to the caller (see `map`).
        unsafe { Self::map_advised(path, expected, |_| (), |_| ()) }
    }

    /// [`Table::map_checked`], with `on_map` called on the mapping before anything is read from
    /// it, and `on_header` once its header was found sound and of the expected layer (and so the
    /// file's length what the header says), before its payload is validated.
    unsafe fn map_advised(
        path: &Path,
        expected: Option<Expected<'_>>,
        on_map: impl FnOnce(&Mmap),
        on_header: impl FnOnce(&Mmap),
    ) -> Result<Self, TableError> {
        let (file, _) = open_regular(path)?;
        // SAFETY: forwarded to the caller (see `map`).
        let map = unsafe { Mmap::map(&file) }.map_err(|e| TableError::io(path, e))?;
        on_map(&map);
        let (header, payload_at) = format::parse(path, &map)?;
        if let Some(x) = expected {
            check_expected(path, &header, x)?;
        }
        on_header(&map);
        let file_len = map.len() as u64;
        Self::with_header(
            path.to_path_buf(),
            Bytes::Mapped(map),
            header,
            payload_at,
            file_len,
        )
    }

    fn new(path: PathBuf, bytes: Bytes) -> Result<Self, TableError> {
        let (header, payload_at) = format::parse(&path, bytes.as_slice())?;
        let file_len = bytes.as_slice().len() as u64;
        Self::with_header(path, bytes, header, payload_at, file_len)
    }

    /// A table whose header was parsed: the payload is `bytes[payload_at..]`. The payload's
    /// structure is validated here, before any value can be served ([`crate::validate`]); when
    /// it fails and the checksum fails too, the file is reported as damaged.
    fn with_header(
        path: PathBuf,
        bytes: Bytes,
        header: Header,
        payload_at: usize,
        file_len: u64,
    ) -> Result<Self, TableError> {
        if usize::try_from(header.entries).is_err() {
            return Err(TableError::TooLarge {
                layer: header.layer,
                entries: header.entries,
            });
        }
        let payload = &bytes.as_slice()[payload_at..];
        if let Err(reason) = crate::validate::check_structure(&header, payload) {
            let computed = crc32(payload);
            return Err(if computed != header.payload_crc {
                TableError::PayloadChecksum {
                    path,
                    stored: header.payload_crc,
                    computed,
                }
            } else {
                TableError::BadPayload { path, reason }
            });
        }
        let nibbles = Nibbles::of(&header).unwrap_or_default();
        let mut t = Table {
            bytes,
            header,
            payload_at,
            file_len,
            path,
            nibbles,
            fence: Vec::new(),
        };
        t.fence = t.build_fence();
        Ok(t)
    }

    /// Checks that the header describes `layer` of table `id` with `entries` entries.
    ///
    /// # Errors
    /// [`TableError::Mismatch`] saying what differs.
    pub fn expect(&self, id: &TableId, layer: u32, entries: u64) -> Result<(), TableError> {
        check_expected(&self.path, &self.header, Expected { id, layer, entries })
    }

    /// Recomputes the payload checksum and compares it with the header's.
    ///
    /// # Errors
    /// [`TableError::PayloadChecksum`].
    pub fn check_payload(&self) -> Result<(), TableError> {
        let computed = crc32(self.payload());
        if computed == self.header.payload_crc {
            Ok(())
        } else {
            Err(TableError::PayloadChecksum {
                path: self.path.clone(),
                stored: self.header.payload_crc,
                computed,
            })
        }
    }

    /// The header.
    pub fn header(&self) -> &Header {
        &self.header
    }

    /// The file this table came from.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Number of entries.
    pub fn len(&self) -> u64 {
        self.header.entries
    }

    /// Whether the table has no entries (never, for a real layer).
    pub fn is_empty(&self) -> bool {
        self.header.entries == 0
    }

    /// Bytes of the whole file.
    pub fn file_bytes(&self) -> u64 {
        self.file_len
    }

    /// The mapped bytes of the whole file, when the table is memory-mapped.
    pub(crate) fn mapping(&self) -> Option<&[u8]> {
        match &self.bytes {
            Bytes::Mapped(m) => Some(m),
            Bytes::Owned(_) => None,
        }
    }

    #[inline(always)]
    fn payload(&self) -> &[u8] {
        &self.bytes.as_slice()[self.payload_at..]
    }

    /// Starts loading entry `index` (see [`solver::prefetch`]); out-of-range indexes are ignored.
    #[inline]
    pub fn prefetch(&self, index: u64) {
        let i = index as usize;
        let at = match self.header.encoding {
            Encoding::Nibble { .. } => {
                // The block's base too (a small array, usually cached already).
                if let Some(b) = self
                    .payload()
                    .get(self.nibbles.bases_at + i / format::BLOCK)
                {
                    solver::prefetch(b);
                }
                i >> 1
            }
            Encoding::Byte => i,
            Encoding::Wide => 2 * i,
        };
        if let Some(b) = self.payload().get(at) {
            solver::prefetch(b);
        }
    }

    /// Entry `index`: the future value of the side to move in that slot.
    ///
    /// # Panics
    /// When `index >= len()` (the payload's bounds check; in debug builds, an assertion). Every
    /// escaped entry has its exception: opening validated the payload.
    #[inline]
    pub fn get(&self, index: u64) -> i32 {
        debug_assert!(
            index < self.header.entries,
            "entry {index} beyond the {} of layer {}",
            self.header.entries,
            self.header.layer
        );
        let p = self.payload();
        let i = index as usize;
        match self.header.encoding {
            Encoding::Nibble { .. } => {
                let code = code_at(p, i);
                if code != ESCAPE {
                    self.nibbles.value(code, self.nibbles.base(p, i))
                } else {
                    self.exception(index)
                }
            }
            Encoding::Byte => byte_at(p, i),
            Encoding::Wide => wide_at(p, i),
        }
    }

    /// The slot of exception `j` (opening checked that the list holds `exceptions` of them).
    #[inline]
    fn exception_slot(&self, j: usize) -> u64 {
        self.nibbles.exception_slot(self.payload(), j)
    }

    /// The fence over the exception list (see [`FENCE_SHIFT`]). The slots of a sound file
    /// increase; in a damaged one (its payload checksum fails) the fence is still well formed
    /// (non-decreasing, at most the list's length), so lookups stay in bounds.
    fn build_fence(&self) -> Vec<u32> {
        let n = self.header.exceptions;
        if !matches!(self.header.encoding, Encoding::Nibble { .. }) || n == 0 {
            return Vec::new();
        }
        let Ok(n32) = u32::try_from(n) else {
            return Vec::new(); // more than 2^32 exceptions: plain binary search
        };
        let blocks = (self.header.entries >> FENCE_SHIFT) as usize + 1;
        let mut fence = Vec::with_capacity(blocks + 1);
        fence.push(0);
        let mut j = 0u32;
        for b in 1..=blocks as u64 {
            let end = b << FENCE_SHIFT;
            while j < n32 && self.exception_slot(j as usize) < end {
                j += 1;
            }
            fence.push(j);
        }
        fence
    }

    /// The value of an escaped entry: binary search of the exceptions of its fence block (or of
    /// the whole list when there is no fence).
    #[cold]
    fn exception(&self, index: u64) -> i32 {
        let n = self.header.exceptions as usize;
        let (mut lo, mut hi) = match self.fence.get((index >> FENCE_SHIFT) as usize..) {
            Some([a, b, ..]) => (*a as usize, *b as usize),
            _ => (0, n),
        };
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            match self.exception_slot(mid).cmp(&index) {
                std::cmp::Ordering::Less => lo = mid + 1,
                std::cmp::Ordering::Greater => hi = mid,
                std::cmp::Ordering::Equal => {
                    return self.nibbles.exception_value(self.payload(), mid)
                }
            }
        }
        unreachable!(
            "{}: entry {index} is escaped but has no exception, which opening rules out",
            self.path.display()
        )
    }
}

mod resident;
pub(crate) use resident::settle;

#[cfg(test)]
mod tests;
