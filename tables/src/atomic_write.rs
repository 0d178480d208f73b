//! Atomic writes of table files, and the temporary files they leave when a writer is killed.
//!
//! A file is written to `.{name}.{pid}.tmp` in its directory, flushed, then renamed over its
//! name: a reader sees no file or a complete one. A `kill -9` or a power cut during the write
//! leaves the temporary file; the PID in its name lets a later build tell whether its writer is
//! still alive, and remove it when not ([`remove_stale_temporaries`]). A process stopped by a
//! signal removes the temporary files of its own writes in progress ([`abandon_writes`]).

use std::fs;
use std::io::Write;
use std::path::Path;

use crate::error::TableError;
use crate::format::EXTENSION;

/// Writes `parts`, one after the other, to `path` atomically: a temporary file in the same
/// directory, flushed to disk, then renamed over `path`. Creates the directory when needed.
///
/// # Errors
/// [`TableError::Io`].
pub fn write_atomic(path: &Path, parts: &[&[u8]]) -> Result<(), TableError> {
    let dir = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    fs::create_dir_all(dir).map_err(|e| TableError::io(dir, e))?;
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let tmp = dir.join(temporary_name(&name, std::process::id()));
    let _registered = InProgress::register(&tmp);
    let result = (|| {
        let mut f = fs::File::create(&tmp)?;
        for part in parts {
            f.write_all(part)?;
        }
        f.sync_all()?;
        drop(f);
        fs::rename(&tmp, path)?;
        // Make the rename itself durable; not every platform lets a directory be synced.
        if let Ok(d) = fs::File::open(dir) {
            let _ = d.sync_all();
        }
        Ok(())
    })();
    result.map_err(|e| {
        let _ = fs::remove_file(&tmp);
        TableError::io(path, e)
    })
}

/// The temporary name of a file `name` being written by process `pid`: hidden, and carrying
/// the writer's PID so that a later build can tell whether its writer is still alive.
fn temporary_name(name: &str, pid: u32) -> String {
    format!(".{name}.{pid}.tmp")
}

/// The PID in a temporary name of a table file (`.{name}.mtb.{pid}.tmp`), if it is one.
fn temporary_owner(file_name: &str) -> Option<u32> {
    let inner = file_name.strip_prefix('.')?.strip_suffix(".tmp")?;
    let (name, pid) = inner.rsplit_once('.')?;
    if !name.ends_with(&format!(".{EXTENSION}")) || pid.is_empty() {
        return None;
    }
    if !pid.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    pid.parse().ok()
}

/// Whether process `pid` may be alive. Only Linux's `/proc` gives a cheap answer; elsewhere every
/// process is taken as alive, so that nothing another writer owns is ever removed.
fn may_be_alive(pid: u32) -> bool {
    if pid == std::process::id() {
        return true;
    }
    if cfg!(target_os = "linux") && Path::new("/proc/self").exists() {
        Path::new(&format!("/proc/{pid}")).exists()
    } else {
        true
    }
}

/// Removes the temporary files that writers killed before their rename left in `dir` (a
/// `kill -9` during a layer's write leaves its `.{name}.mtb.{pid}.tmp`): only names of that
/// pattern, and only when no live process has that PID. Returns the files removed.
pub fn remove_stale_temporaries(dir: &Path) -> Vec<std::path::PathBuf> {
    let Ok(entries) = fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut removed = Vec::new();
    for e in entries.flatten() {
        let name = e.file_name();
        let Some(pid) = name.to_str().and_then(temporary_owner) else {
            continue;
        };
        let is_file = e.file_type().is_ok_and(|t| t.is_file());
        if is_file && !may_be_alive(pid) && fs::remove_file(e.path()).is_ok() {
            removed.push(e.path());
        }
    }
    removed.sort();
    removed
}

/// The temporary files this process is writing, so that a signal handler can remove them before
/// the process exits ([`abandon_writes`]).
static IN_PROGRESS: std::sync::Mutex<Vec<std::path::PathBuf>> = std::sync::Mutex::new(Vec::new());

/// A temporary file registered in [`IN_PROGRESS`] while it lives.
struct InProgress(std::path::PathBuf);

impl InProgress {
    fn register(path: &Path) -> Self {
        if let Ok(mut v) = IN_PROGRESS.lock() {
            v.push(path.to_path_buf());
        }
        InProgress(path.to_path_buf())
    }
}

impl Drop for InProgress {
    fn drop(&mut self) {
        if let Ok(mut v) = IN_PROGRESS.lock() {
            v.retain(|p| *p != self.0);
        }
    }
}

/// Removes the temporary files of the writes in progress: for a process about to exit on a
/// signal, so that it leaves nothing half-written. A write whose rename already happened is
/// complete (it was flushed first); one whose temporary file is removed fails its rename.
pub fn abandon_writes() {
    if let Ok(v) = IN_PROGRESS.lock() {
        for p in v.iter() {
            let _ = fs::remove_file(p);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stale_temporaries_of_dead_writers_only_are_removed() {
        let dir = std::env::temp_dir().join(format!("tables-stale-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        // PIDs above the kernel's largest (4194304) belong to no process.
        let dead = temporary_name("kalah_6h_k019.mtb", 999_999_999);
        let mine = temporary_name("kalah_6h_k019.mtb", std::process::id());
        let others = [
            mine.as_str(),
            ".kalah_6h_k019.mtb.tmp",
            ".notes.txt.999999999.tmp",
            "kalah_6h_k019.mtb.999999999.tmp",
            ".kalah_6h_k019.mtb.12x.tmp",
        ];
        for n in std::iter::once(dead.as_str()).chain(others) {
            fs::write(dir.join(n), b"partial").unwrap();
        }
        assert_eq!(remove_stale_temporaries(&dir), vec![dir.join(&dead)]);
        for n in others {
            assert!(dir.join(n).exists(), "{n} was removed");
        }
        assert_eq!(temporary_owner(&dead), Some(999_999_999));
        fs::remove_dir_all(&dir).unwrap();
    }
}
