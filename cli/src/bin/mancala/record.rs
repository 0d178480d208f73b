//! Game records: one game in a file, one JSON object on one line, that `play --record FILE`
//! writes and `--load FILE` reads back on every command that takes a position (docs/cli.md,
//! "Game records"). The rules travel with the moves, so a record never replays under other
//! rules than it was played by.

use anyhow::{bail, Context, Result};
use mancala::board::Side;
use mancala::rules::{GameKind, Rules};
use mancala::variant::Variant;
use mancala::Position;
use serde::{Deserialize, Serialize};
use std::path::Path;

/// The record format's version: raised when a field changes meaning or goes away.
pub const RECORD_FORMAT: u32 = 1;

/// The largest record file read (a game of a few thousand moves is a few tens of KiB).
const MAX_RECORD_BYTES: u64 = 16 << 20;

/// One recorded game.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Record {
    /// [`RECORD_FORMAT`].
    pub format: u32,
    /// The game (`kalah`, `dakon`, ...).
    pub game: String,
    /// The rule options switched on (`["empty-capture"]`).
    pub options: Vec<String>,
    /// The position the game started from, in docs/rules.md notation.
    pub start: String,
    /// The moves in order, each marked with its side (`S3`, `N1`).
    pub moves: Vec<String>,
    /// The value (final South minus North) of the position after each move, where a search
    /// proved it; `null` otherwise.
    pub values: Vec<Option<i32>>,
    /// The position after the last move.
    pub end: String,
    /// The seeds each side has won at the end: `[south, north]`.
    pub score: [u32; 2],
    /// Whether the game is over at the end.
    pub over: bool,
}

impl Record {
    /// The record of the game from `start` through `moves` (each legal: they were played).
    pub fn of<R: Rules>(start: &Position<R>, moves: &[mancala::board::Move]) -> Self {
        let mut p = *start;
        let mut marked = Vec::with_capacity(moves.len());
        for &m in moves {
            let side = p.to_move().unwrap_or(Side::South);
            marked.push(format!("{}{}", side.letter(), m.0));
            p = p.play_unchecked(m);
        }
        Self {
            format: RECORD_FORMAT,
            game: R::KIND.name().to_string(),
            options: start
                .rules()
                .option_names()
                .into_iter()
                .map(str::to_string)
                .collect(),
            start: start.to_string(),
            values: vec![None; marked.len()],
            moves: marked,
            end: p.to_string(),
            score: p.score(),
            over: p.is_over(),
        }
    }

    /// Reads the record in `path`.
    pub fn read(path: &Path) -> Result<Self> {
        let name = path.display();
        let meta = std::fs::metadata(path).with_context(|| format!("--load {name}"))?;
        if !meta.is_file() {
            bail!("--load {name}: not a regular file");
        }
        if meta.len() > MAX_RECORD_BYTES {
            bail!(
                "--load {name}: {} bytes is too large for a game record (at most {MAX_RECORD_BYTES})",
                meta.len()
            );
        }
        let text = std::fs::read_to_string(path).with_context(|| format!("--load {name}"))?;
        let mut lines = text.lines().filter(|l| !l.trim().is_empty());
        let Some(first) = lines.next() else {
            bail!("--load {name}: the file is empty, not a game record");
        };
        if lines.next().is_some() {
            bail!("--load {name}: a game record is one JSON line, and this file has more");
        }
        let r: Record = serde_json::from_str(first)
            .with_context(|| format!("--load {name}: not a game record"))?;
        if r.format != RECORD_FORMAT {
            bail!(
                "--load {name}: record format {} is not one this program reads ({RECORD_FORMAT})",
                r.format
            );
        }
        if r.values.len() != r.moves.len() {
            bail!(
                "--load {name}: {} values for {} moves",
                r.values.len(),
                r.moves.len()
            );
        }
        Ok(r)
    }

    /// The game and rules the record was played by.
    pub fn variant(&self) -> Result<Variant> {
        let kind: GameKind = self
            .game
            .parse()
            .map_err(|e| anyhow::anyhow!("the record's game: {e}"))?;
        Variant::new(kind, &self.options).map_err(|e| anyhow::anyhow!("the record's rules: {e}"))
    }

    /// Writes the record to `path` atomically (a temporary file renamed over it), so that an
    /// interrupted write never leaves a file that looks like a record. Only a regular file is
    /// replaced: a device, a directory, a FIFO or a symbolic link at `path` is refused, not
    /// turned into a record. The temporary beside it gets a name of its own (the process id and
    /// a counter) and is created with `O_EXCL` (`create_new`), which never follows a symbolic
    /// link and never opens a file another writer created: two writers never share one.
    pub fn write(&self, path: &Path) -> Result<()> {
        let name = path.display();
        match std::fs::symlink_metadata(path) {
            Ok(meta) if !meta.file_type().is_file() => bail!(
                "--record {name}: not a regular file ({}); a record replaces only a regular file",
                kind_of(&meta.file_type())
            ),
            Ok(_) => {}
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => return Err(e).with_context(|| format!("--record {name}")),
        }
        let text = serde_json::to_string(self)? + "\n";
        let (tmp, mut file) = create_temporary(path).with_context(|| format!("--record {name}"))?;
        let written = std::io::Write::write_all(&mut file, text.as_bytes())
            .and_then(|()| file.sync_all())
            .and_then(|()| std::fs::rename(&tmp, path));
        if let Err(e) = written {
            let _ = std::fs::remove_file(&tmp);
            return Err(e).with_context(|| format!("--record {name}"));
        }
        Ok(())
    }
}

/// A fresh temporary file beside `path`, `NAME.PID.N.tmp`, created exclusively.
fn create_temporary(path: &Path) -> std::io::Result<(std::path::PathBuf, std::fs::File)> {
    use std::sync::atomic::{AtomicU32, Ordering};
    static COUNTER: AtomicU32 = AtomicU32::new(0);
    let mut last = None;
    for _ in 0..100 {
        let n = COUNTER.fetch_add(1, Ordering::Relaxed);
        let mut tmp = path.as_os_str().to_owned();
        tmp.push(format!(".{}.{n}.tmp", std::process::id()));
        let tmp = std::path::PathBuf::from(tmp);
        match std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&tmp)
        {
            Ok(f) => return Ok((tmp, f)),
            // Someone else's file (or link) by that name: never touched, try the next name.
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => last = Some(e),
            Err(e) => return Err(e),
        }
    }
    Err(last.unwrap_or_else(|| std::io::Error::other("no free temporary name")))
}

/// What a file that is not a regular file is, in words.
fn kind_of(t: &std::fs::FileType) -> &'static str {
    use std::os::unix::fs::FileTypeExt;
    if t.is_dir() {
        "a directory"
    } else if t.is_symlink() {
        "a symbolic link"
    } else if t.is_fifo() {
        "a FIFO"
    } else if t.is_char_device() || t.is_block_device() {
        "a device"
    } else if t.is_socket() {
        "a socket"
    } else {
        "a special file"
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use mancala::board::Move;
    use mancala::rules::Kalah;

    #[test]
    fn a_record_round_trips_through_its_file() {
        let start = Position::start(Kalah::default(), 4, 3).unwrap();
        let r = Record::of(&start, &[Move(2), Move(4), Move(1)]);
        assert_eq!(r.moves, vec!["S2", "S4", "N1"]);
        let dir = std::env::temp_dir().join(format!("mancala-record-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let f = dir.join("game.json");
        r.write(&f).unwrap();
        assert_eq!(Record::read(&f).unwrap(), r);
        let left: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .flatten()
            .map(|e| e.file_name())
            .collect();
        assert_eq!(
            left,
            vec![std::ffi::OsString::from("game.json")],
            "no temporary left"
        );
        std::fs::write(&f, "{\"format\":1}").unwrap();
        assert!(Record::read(&f).is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
