//! The pieces of a solve split into jobs for several processes (the MPI binary's `solve`)
//! besides the manager's logic ([`super::manager`]): the positions the jobs are on, `depth`
//! plies below the root ([`frontier`]); the worker of a position, by a hash of it ([`owner`]),
//! so the same position always goes to the same worker and its transposition table; and the
//! journal of finished jobs ([`Journal`]), so that a killed run restarts with the results it
//! had.

use std::collections::HashSet;
use std::fs::{File, OpenOptions};
use std::io::{BufRead, BufReader, Write};
use std::path::Path;

use crate::game::{Children, Game};

/// The distinct positions `depth` plies below `root` (moves that end the game stop earlier and
/// give no job), merged by [`Game::key`], in the order a depth-first walk in move order meets
/// them: the same on every process. `depth == 0` gives the root itself unless the game is over.
pub fn frontier<G: Game>(root: &G, depth: u32) -> Vec<G> {
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    if !root.is_over() {
        walk(root, depth, &mut seen, &mut out);
    }
    out
}

fn walk<G: Game>(p: &G, depth: u32, seen: &mut HashSet<u128>, out: &mut Vec<G>) {
    if depth == 0 {
        if seen.insert(p.key()) {
            out.push(*p);
        }
        return;
    }
    let mut kids = Children::new();
    p.children(&mut kids);
    for c in kids.as_slice() {
        if !c.next.is_over() {
            walk(&c.next, depth - 1, seen, out);
        }
    }
}

/// The worker (`0..workers`) of the job of the position with this key: a hash of the key, so
/// that a position (and the positions near it, which share its table entries) always goes to
/// the same worker.
pub fn owner(key: u128, workers: usize) -> usize {
    // SplitMix64's finaliser over both halves: keys of nearby positions differ in few bits.
    let mut z = (key as u64) ^ ((key >> 64) as u64).rotate_left(32);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^= z >> 31;
    (z % workers.max(1) as u64) as usize
}

/// A finished job of the journal: the position's key, the bound of its test, the result.
pub type JobResult = (u128, i32, i32);

/// The journal of a split solve: a text file whose first line names the solve (the root, the
/// rules, the depth: any line the caller makes) and whose every other line is a finished job,
/// `KEY BOUND RESULT` (the position's [`Game::key`] in hex, the bound of its null-window test
/// "F >= BOUND?", the fail-soft result: `RESULT >= BOUND` proves `F >= RESULT`, else
/// `F <= RESULT`), appended and synced to disk as each job finishes.
pub struct Journal {
    file: File,
}

impl Journal {
    /// Opens the journal at `path` for the solve named `header`, creating it when missing, and
    /// returns the jobs it holds, `(key, bound, result)`, in order. A last line cut short (a run killed while writing it) is
    /// ignored, and cut off so that the next job starts on a line of its own.
    ///
    /// # Errors
    /// When the file cannot be read or written, or belongs to another solve (another header),
    /// or holds a line that is not a job.
    pub fn open(path: &Path, header: &str) -> Result<(Journal, Vec<JobResult>), String> {
        let io = |e: std::io::Error| format!("{}: {e}", path.display());
        let mut done = Vec::new();
        let mut keep = 0u64;
        if path.exists() {
            let mut lines = BufReader::new(File::open(path).map_err(io)?).split(b'\n');
            match lines.next() {
                Some(Ok(first)) if first == header.as_bytes() => {
                    keep = first.len() as u64 + 1;
                }
                Some(Ok(first)) if !first.is_empty() => {
                    return Err(format!(
                        "{}: the journal of another solve ({}), not of {header}",
                        path.display(),
                        String::from_utf8_lossy(&first)
                    ))
                }
                Some(Err(e)) => return Err(io(e)),
                _ => {}
            }
            let len = std::fs::metadata(path).map_err(io)?.len();
            for line in lines {
                let line = line.map_err(io)?;
                let end = keep + line.len() as u64 + 1;
                if end > len {
                    break; // the last line, without its newline: cut short
                }
                let text = String::from_utf8_lossy(&line);
                let mut words = text.split(' ');
                let mut job = || {
                    let k = u128::from_str_radix(words.next()?, 16).ok()?;
                    let b = words.next()?.parse::<i32>().ok()?;
                    let r = words.next()?.parse::<i32>().ok()?;
                    words.next().is_none().then_some((k, b, r))
                };
                let Some(j) = job() else {
                    return Err(format!("{}: not a journal line: {text}", path.display()));
                };
                done.push(j);
                keep = end;
            }
        }
        let mut file = OpenOptions::new()
            .create(true)
            .truncate(false)
            .read(true)
            .write(true)
            .open(path)
            .map_err(io)?;
        if keep == 0 {
            file.set_len(0).map_err(io)?;
            writeln!(file, "{header}").map_err(io)?;
        } else {
            file.set_len(keep).map_err(io)?;
        }
        file.sync_data().map_err(io)?;
        let mut j = Journal { file };
        j.seek_end().map_err(io)?;
        Ok((j, done))
    }

    fn seek_end(&mut self) -> std::io::Result<()> {
        use std::io::Seek;
        self.file.seek(std::io::SeekFrom::End(0)).map(|_| ())
    }

    /// Appends a finished job and syncs it to disk.
    ///
    /// # Errors
    /// When the file cannot be written.
    pub fn append(&mut self, key: u128, bound: i32, result: i32) -> std::io::Result<()> {
        writeln!(self.file, "{key:x} {bound} {result}")?;
        self.file.sync_data()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn journal_keeps_finished_jobs_and_drops_a_torn_line() {
        let path = std::env::temp_dir().join(format!("split-journal-{}", std::process::id()));
        let _ = std::fs::remove_file(&path);
        let (mut j, done) = Journal::open(&path, "game x depth 2").unwrap();
        assert!(done.is_empty());
        j.append(0xabc, -2, -3).unwrap();
        j.append(7, 12, 12).unwrap();
        drop(j);
        // A run killed while writing its third job.
        let mut f = OpenOptions::new().append(true).open(&path).unwrap();
        f.write_all(b"ff 4 5").unwrap();
        drop(f);
        let (mut j, done) = Journal::open(&path, "game x depth 2").unwrap();
        assert_eq!(done, [(0xabc, -2, -3), (7, 12, 12)]);
        j.append(0xff, 4, 5).unwrap();
        drop(j);
        let (_, done) = Journal::open(&path, "game x depth 2").unwrap();
        assert_eq!(done.len(), 3);
        assert_eq!(done[2], (0xff, 4, 5));
        let other = Journal::open(&path, "game y depth 2").err().unwrap();
        assert!(other.contains("the journal of another solve"), "{other}");
        std::fs::remove_file(&path).unwrap();
        for w in 1..5 {
            assert!((0..1000u128).all(|k| owner(k, w) < w));
        }
    }
}
