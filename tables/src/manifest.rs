//! The manifest of a table set: one line per layer file with its size and SHA-256, in the spirit
//! of syzygy's published checksums. A build writes it next to the files; checking a set against
//! it ([`check`]) reads every byte once, which is seconds where `tables verify` (the full
//! re-derivation, the proof) takes as long as a build. A manifest published with a set lets
//! anyone check a download against it, with this program or with `sha256sum` (docs/tables.md).
//!
//! ```text
//! # mancala table manifest: kalah, 6 holes, layers 0 to 16
//! # sha256  bytes  file
//! 5f0c…e1  1179  kalah_6h_k000.mtb
//! ```
//!
//! The CRC-32s inside each file catch accidents; the manifest also catches a file replaced by
//! another valid one (a swapped or altered layer with recomputed CRCs), because its digests come
//! from the build, not from the files being checked.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use rayon::prelude::*;
use sha2::{Digest, Sha256};

use crate::atomic_write::write_atomic;
use crate::error::{ManifestFault, TableError, UnfitManifest};
use crate::format::TableId;
use crate::table::open_regular;

/// The manifest's file name for the set `id`: `kalah+empty-capture_6h.manifest`.
pub fn file_name(id: &TableId) -> String {
    let layer0 = id.file_name(0);
    let stem = layer0
        .rsplit_once("_k")
        .map_or(layer0.as_str(), |(stem, _)| stem);
    format!("{stem}.manifest")
}

/// One line of a manifest: a layer file's name, size and SHA-256.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// The file's name (no directory).
    pub file: String,
    /// Its size in bytes.
    pub bytes: u64,
    /// Its SHA-256.
    pub sha256: [u8; 32],
}

/// How one file of a set compares with its manifest line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Finding {
    /// Same size and digest.
    Matches,
    /// The file is not there.
    Missing,
    /// Its size differs.
    Size {
        /// What the manifest says.
        expected: u64,
        /// What the file has.
        found: u64,
    },
    /// Same size, another digest: the file was altered.
    Digest,
}

/// The SHA-256 of a file, read in 1 MiB pieces.
///
/// # Errors
/// [`TableError::Io`].
pub fn sha256_of(path: &Path) -> Result<[u8; 32], TableError> {
    use std::io::Read;
    // A regular file only, as every table file is read: a FIFO would block, a device never end.
    let (mut f, _) = open_regular(path)?;
    let mut h = Sha256::new();
    let mut buf = vec![0u8; 1 << 20];
    loop {
        let n = f.read(&mut buf).map_err(|e| TableError::io(path, e))?;
        if n == 0 {
            break;
        }
        h.update(&buf[..n]);
    }
    Ok(h.finalize().into())
}

fn hex(d: &[u8; 32]) -> String {
    d.iter().fold(String::with_capacity(64), |mut s, b| {
        let _ = write!(s, "{b:02x}");
        s
    })
}

fn unhex(s: &str) -> Option<[u8; 32]> {
    if s.len() != 64 || !s.is_ascii() {
        return None;
    }
    let mut d = [0u8; 32];
    for (i, b) in d.iter_mut().enumerate() {
        *b = u8::from_str_radix(&s[2 * i..2 * i + 2], 16).ok()?;
    }
    Some(d)
}

/// Writes the manifest of `id`'s layers `0..=max_layer` in `dir` (atomically), digesting the
/// files in parallel on the current rayon pool.
///
/// # Errors
/// [`TableError::Io`] when a file cannot be read or the manifest written.
pub fn write(dir: &Path, id: &TableId, max_layer: u32) -> Result<PathBuf, TableError> {
    let lines: Vec<Line> = (0..=max_layer)
        .into_par_iter()
        .map(|k| {
            let file = id.file_name(k);
            let path = dir.join(&file);
            let bytes = std::fs::metadata(&path)
                .map_err(|e| TableError::io(&path, e))?
                .len();
            Ok(Line {
                file,
                bytes,
                sha256: sha256_of(&path)?,
            })
        })
        .collect::<Result<_, TableError>>()?;
    let mut text = format!("# mancala table manifest: {id}, layers 0 to {max_layer}\n");
    text.push_str("# sha256  bytes  file\n");
    for l in &lines {
        let _ = writeln!(text, "{}  {}  {}", hex(&l.sha256), l.bytes, l.file);
    }
    let path = dir.join(file_name(id));
    write_atomic(&path, &[text.as_bytes()])?;
    Ok(path)
}

/// The largest manifest read: a line is about a hundred bytes, and a set has at most a few
/// hundred layers (one per seed count), so this is thousands of times what any set needs.
pub const MAX_MANIFEST_BYTES: u64 = 1 << 20;

/// Reads a manifest: its lines, in order. It is read as table files are: a regular file only
/// (a FIFO would block the reader, `/dev/zero` would never end), of at most
/// [`MAX_MANIFEST_BYTES`], checked before anything is read.
///
/// # Errors
/// [`TableError::Io`] when it cannot be read; [`TableError::NotAFile`]; [`TableError::BadManifest`]
/// on a line that is not `sha256  bytes  file`; [`TableError::UnfitManifest`] when it is too
/// large or lists no file.
pub fn read(path: &Path) -> Result<Vec<Line>, TableError> {
    use std::io::Read;
    let (file, len) = open_regular(path)?;
    if len > MAX_MANIFEST_BYTES {
        return Err(TableError::UnfitManifest {
            path: path.to_path_buf(),
            reason: UnfitManifest::TooLarge {
                bytes: len,
                limit: MAX_MANIFEST_BYTES,
            },
        });
    }
    let mut text = String::new();
    // `take`: the file may grow after the check.
    file.take(MAX_MANIFEST_BYTES)
        .read_to_string(&mut text)
        .map_err(|e| TableError::io(path, e))?;
    let bad = |n: usize, reason: ManifestFault| TableError::BadManifest {
        path: path.to_path_buf(),
        line: n + 1,
        reason,
    };
    let mut lines = Vec::new();
    for (n, l) in text.lines().enumerate() {
        if l.starts_with('#') || l.trim().is_empty() {
            continue;
        }
        let mut parts = l.split_whitespace();
        let (Some(d), Some(b), Some(f), None) =
            (parts.next(), parts.next(), parts.next(), parts.next())
        else {
            return Err(bad(n, ManifestFault::FieldCount));
        };
        let sha256 = unhex(d).ok_or_else(|| bad(n, ManifestFault::Digest))?;
        let bytes = b.parse().map_err(|_| bad(n, ManifestFault::Size))?;
        if f.contains('/') || f.contains('\\') || f == ".." {
            return Err(bad(n, ManifestFault::Directory));
        }
        lines.push(Line {
            file: f.to_string(),
            bytes,
            sha256,
        });
    }
    if lines.is_empty() {
        return Err(TableError::UnfitManifest {
            path: path.to_path_buf(),
            reason: UnfitManifest::Empty,
        });
    }
    Ok(lines)
}

/// Compares the files of `dir` with the manifest lines, in parallel on the current rayon pool:
/// one [`Finding`] per line, in order (sizes first, so a file of the wrong size is not read).
///
/// # Errors
/// [`TableError::Io`] when a file that is there cannot be read.
pub fn check(dir: &Path, lines: &[Line]) -> Result<Vec<Finding>, TableError> {
    lines
        .par_iter()
        .map(|l| {
            let path = dir.join(&l.file);
            let Ok(meta) = std::fs::metadata(&path) else {
                return Ok(Finding::Missing);
            };
            if meta.len() != l.bytes {
                return Ok(Finding::Size {
                    expected: l.bytes,
                    found: meta.len(),
                });
            }
            Ok(if sha256_of(&path)? == l.sha256 {
                Finding::Matches
            } else {
                Finding::Digest
            })
        })
        .collect()
}

impl std::fmt::Display for Finding {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Finding::Matches => f.write_str("matches its manifest"),
            Finding::Missing => f.write_str("listed in its manifest but missing"),
            Finding::Size { expected, found } => {
                write!(f, "{found} bytes, but its manifest says {expected}")
            }
            Finding::Digest => f.write_str("its SHA-256 differs from its manifest's"),
        }
    }
}

/// The manifests (`*.manifest`) of `dir`, sorted by name.
///
/// # Errors
/// [`TableError::Io`] when the directory cannot be listed.
pub fn manifests(dir: &Path) -> Result<Vec<PathBuf>, TableError> {
    let mut paths: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|e| TableError::io(dir, e))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "manifest") && !p.is_dir())
        .collect();
    paths.sort();
    Ok(paths)
}

/// Every file that a manifest of `dir` lists, compared with it: `(file name, finding)` in the
/// manifests' order.
///
/// # Errors
/// As [`manifests`], [`read`] and [`check`].
pub fn check_dir(dir: &Path) -> Result<Vec<(String, Finding)>, TableError> {
    let mut out = Vec::new();
    for m in manifests(dir)? {
        let lines = read(&m)?;
        let found = check(dir, &lines)?;
        out.extend(lines.into_iter().map(|l| l.file).zip(found));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::{encode_file, toy_id};

    #[test]
    fn names_digests_and_findings() {
        assert_eq!(file_name(&toy_id()), "toy_2h.manifest");
        // The SHA-256 of "abc" (FIPS 180-2, appendix B.1).
        let dir = std::env::temp_dir().join(format!("manifest-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("abc"), b"abc").unwrap();
        assert_eq!(
            hex(&sha256_of(&dir.join("abc")).unwrap()),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
        for k in 0..3u32 {
            let v: Vec<i16> = (0..40).map(|i| (i % 5) as i16 - 2).collect();
            std::fs::write(
                dir.join(toy_id().file_name(k)),
                encode_file(&toy_id(), k + 2, &v),
            )
            .unwrap();
        }
        let path = write(&dir, &toy_id(), 2).unwrap();
        let lines = read(&path).unwrap();
        assert_eq!(lines.len(), 3);
        assert_eq!(unhex(&hex(&lines[1].sha256)), Some(lines[1].sha256));
        assert!(check(&dir, &lines)
            .unwrap()
            .iter()
            .all(|f| *f == Finding::Matches));
        // Layer 0 altered in place (same size), layer 1 cut short, layer 2 gone.
        let f0 = dir.join(toy_id().file_name(0));
        let mut b = std::fs::read(&f0).unwrap();
        let last = b.len() - 1;
        b[last] ^= 1;
        std::fs::write(&f0, &b).unwrap();
        let f1 = dir.join(toy_id().file_name(1));
        let b = std::fs::read(&f1).unwrap();
        std::fs::write(&f1, &b[..b.len() - 1]).unwrap();
        std::fs::remove_file(dir.join(toy_id().file_name(2))).unwrap();
        let found = check(&dir, &lines).unwrap();
        assert_eq!(found[0], Finding::Digest);
        assert!(matches!(found[1], Finding::Size { .. }));
        assert_eq!(found[2], Finding::Missing);
        // A line that is not three fields, or a digest that is not hex, is refused.
        std::fs::write(&path, "# x\nzz  1  a.mtb\n").unwrap();
        assert!(matches!(
            read(&path),
            Err(TableError::BadManifest { line: 2, .. })
        ));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
