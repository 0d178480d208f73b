//! The memory of proven positions: what searches proved (exact values, or the bounds of a
//! stopped search, and a best move), kept on disk and shared by every process and run.
//!
//! ## Why SQLite
//! The memory is written by several processes at once (a `mancala serve`, a batch, a Python
//! notebook) and must never be left half-written. SQLite (through `rusqlite`, compiled in with
//! its `bundled` feature) gives exactly that: transactions are atomic, its locks let any number
//! of processes read and write one file, and its write-ahead log keeps readers off writers.
//! redb, the other well-kept embedded store, takes an exclusive lock on its file: a second
//! process cannot even open it, so a server and a command line could not share one memory. A
//! file of our own would have to reinvent the locking and the journal.
//!
//! ## Never trusted blindly
//! - A header, the `meta` table, names the format ([`FORMAT`]); a file that SQLite finds is not
//!   a database or is corrupt, or whose `meta` names another format, is refused: it is moved
//!   aside to `FILE.refused` (its `-wal` and `-shm` renamed with it, never deleted) and a new
//!   memory is started ([`Opened::refused`] says why). The schema is created only in an empty
//!   file: another program's SQLite database (tables, but no `meta`) is
//!   [`MemoryError::Foreign`], never written into nor moved.
//! - Any other failure to open (another process holding the lock past the wait, a read-only
//!   file, a full disk, I/O) is [`MemoryError::Sqlite`]: the file is left as it is, and the
//!   analyzer goes on without a memory and says so.
//! - Each record carries the rules' identity ([`rules_identity`](super::rules_identity)) next
//!   to the position's key, and a CRC-32 of both and of its values. A record whose checksum
//!   does not match (or whose values are out of range) is never served: [`Memory::get`]
//!   deletes it, in a write transaction, and answers that nothing is known, with a note
//!   ([`Memory::take_notes`]); [`Memory::put`] overwrites it with what was proved. The
//!   analyzer also checks a record against its position (a best move that is legal there,
//!   bounds within its stake) and deletes one that does not fit ([`Memory::forget`]). The
//!   store itself stays in use.
//! - Values are *future* values (what the side to move still wins, stores left out), as the
//!   transposition table keeps them, so a record answers for every position of its key.
//!
//! ## Bounded
//! At most [`Memory::capacity`] records ([`DEFAULT_CAPACITY`] unless chosen): past it, the
//! least recently *written* tenth is forgotten (a record's `used` stamp changes when it is
//! written, not when it is read, so that answering stays a read).

use std::cell::RefCell;
use std::fmt;
use std::path::{Path, PathBuf};
use std::time::Duration;

use rusqlite::{params, Connection, OpenFlags, OptionalExtension, TransactionBehavior};

use super::answer::Bounds;
use crate::board::Move;

/// The format this program reads and writes, as the `meta` table states it.
pub const FORMAT: &str = "mancala memory 1";

/// How many records a memory keeps by default (about 60 bytes each on disk).
pub const DEFAULT_CAPACITY: u64 = 2_000_000;

/// The environment variable naming the memory's file.
pub const MEMORY_ENV: &str = "MANCALA_MEMORY";

/// The default memory file: `$MANCALA_MEMORY`, else `memory.sqlite` beside the default table
/// directory ([`crate::endgame::default_dir`]): `~/.cache/mancala/memory.sqlite`. `None` when
/// `$MANCALA_MEMORY` is `off`: no memory unless one is named.
pub fn default_path() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os(MEMORY_ENV).filter(|v| !v.is_empty()) {
        return (p != "off").then(|| PathBuf::from(p));
    }
    let tables = crate::endgame::default_dir();
    Some(tables.with_file_name("memory.sqlite"))
}

/// Why the memory cannot be used.
#[derive(Debug)]
pub enum MemoryError {
    /// SQLite failed (I/O, locking beyond the wait, a full disk).
    Sqlite {
        /// The file.
        path: PathBuf,
        /// What failed.
        source: rusqlite::Error,
    },
    /// A damaged or foreign store: not a database, another format, or a record whose checksum
    /// does not match.
    Damaged {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        why: String,
    },
    /// Another program's SQLite database (tables, none of them our `meta`): left exactly as it
    /// is, neither written nor moved.
    Foreign {
        /// The file.
        path: PathBuf,
        /// What it holds.
        why: String,
    },
    /// A refused store could not be moved aside.
    Io {
        /// The file.
        path: PathBuf,
        /// What failed.
        source: std::io::Error,
    },
}

impl fmt::Display for MemoryError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MemoryError::Sqlite { path, source } => {
                write!(f, "memory {}: {source}", path.display())
            }
            MemoryError::Damaged { path, why } => {
                write!(f, "memory {}: refused, {why}", path.display())
            }
            MemoryError::Io { path, source } => write!(f, "memory {}: {source}", path.display()),
            MemoryError::Foreign { path, why } => write!(
                f,
                "memory {}: not a memory of this program ({why}); it is left as it is: name \
                 another file with --memory or ${MEMORY_ENV}",
                path.display()
            ),
        }
    }
}

impl std::error::Error for MemoryError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            MemoryError::Sqlite { source, .. } => Some(source),
            MemoryError::Io { source, .. } => Some(source),
            MemoryError::Damaged { .. } | MemoryError::Foreign { .. } => None,
        }
    }
}

/// What the memory knows of one position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Record {
    /// Bounds on its future value (exact when they meet).
    pub future: Bounds,
    /// A best move, when one is proven.
    pub best: Option<Move>,
}

/// A memory opened, and what was refused on the way.
pub struct Opened {
    /// The memory.
    pub memory: Memory,
    /// Why an earlier file was refused and moved aside to `FILE.refused`, when one was.
    pub refused: Option<String>,
}

/// The memory of proven positions: see the [module documentation](self).
pub struct Memory {
    path: PathBuf,
    db: Connection,
    capacity: u64,
    /// Writes since the size was last checked.
    writes: u64,
    /// Damaged records deleted, for the caller to say ([`Memory::take_notes`]).
    notes: RefCell<Vec<String>>,
}

/// A record's stored columns: lower, upper, best, crc.
type Row = (i64, i64, i64, i64);

/// The record stored as `row`, or `None` when it is damaged: a value out of range, bounds
/// that cross, or a checksum that does not match.
fn decode(rules: &str, key: u128, (lower, upper, best, crc): Row) -> Option<Record> {
    let (Ok(lower), Ok(upper), Ok(best)) = (
        i32::try_from(lower),
        i32::try_from(upper),
        u8::try_from(best),
    ) else {
        return None;
    };
    let record = Record {
        future: Bounds { lower, upper },
        best: (best != 0).then_some(Move(best)),
    };
    (lower <= upper && i64::from(record_crc(rules, key, &record)) == crc).then_some(record)
}

/// How long a connection waits for another process's lock before it fails.
const BUSY_WAIT: Duration = Duration::from_secs(30);

/// Writes between two checks of the size.
const TRIM_EVERY: u64 = 4096;

/// The CRC-32 of a record: its rules, key and values.
fn record_crc(rules: &str, key: u128, r: &Record) -> u32 {
    let mut crc = tables::checksum::update(0, rules.as_bytes());
    crc = tables::checksum::update(crc, &key.to_be_bytes());
    crc = tables::checksum::update(crc, &r.future.lower.to_le_bytes());
    crc = tables::checksum::update(crc, &r.future.upper.to_le_bytes());
    tables::checksum::update(crc, &[r.best.map_or(0, |m| m.0)])
}

impl Memory {
    /// Opens the memory in `path`, creating it when missing; a damaged or foreign file is moved
    /// aside to `path.refused` and a new memory started.
    ///
    /// # Errors
    /// [`MemoryError`] when no memory can be opened or created there.
    pub fn open(path: &Path, capacity: u64) -> Result<Opened, MemoryError> {
        Self::open_waiting(path, capacity, BUSY_WAIT)
    }

    /// [`Memory::open`], waiting at most `wait` for another process's lock.
    fn open_waiting(path: &Path, capacity: u64, wait: Duration) -> Result<Opened, MemoryError> {
        match Self::open_checked(path, capacity, wait) {
            Ok(memory) => Ok(Opened {
                memory,
                refused: None,
            }),
            Err(MemoryError::Damaged { why, .. }) => {
                let aside = refused_path(path);
                std::fs::rename(path, &aside).map_err(|source| MemoryError::Io {
                    path: path.to_path_buf(),
                    source,
                })?;
                // Its journal goes with it (never deleted: `FILE.refused-wal` is the journal
                // SQLite looks for beside `FILE.refused`), so that the new store does not
                // replay the old one's.
                for suffix in ["-wal", "-shm"] {
                    let side = with_suffix(path, suffix);
                    if side.exists() {
                        let _ = std::fs::rename(&side, with_suffix(&aside, suffix));
                    }
                }
                let memory = Self::open_checked(path, capacity, wait)?;
                Ok(Opened {
                    memory,
                    refused: Some(format!(
                        "memory {}: refused ({why}); moved to {} and started anew",
                        path.display(),
                        aside.display()
                    )),
                })
            }
            Err(e) => Err(e),
        }
    }

    /// Opens `path`, creating the schema when the file is new, and checks its format.
    ///
    /// Only an explicit finding makes a file [`MemoryError::Damaged`] (and so moved aside):
    /// SQLite saying it is not a database or is corrupt, or a `meta` table naming another
    /// format, or our format without our `proven` table. Any other failure (busy beyond the
    /// wait, read-only, a full disk, I/O) is [`MemoryError::Sqlite`]: the store may be healthy
    /// and in use by another process, so it is left as it is.
    fn open_checked(path: &Path, capacity: u64, wait: Duration) -> Result<Memory, MemoryError> {
        let sqlite = |source: rusqlite::Error| {
            if is_corrupt(&source) {
                MemoryError::Damaged {
                    path: path.to_path_buf(),
                    why: format!("not a memory store: {source}"),
                }
            } else {
                MemoryError::Sqlite {
                    path: path.to_path_buf(),
                    source,
                }
            }
        };
        let damaged = |why: String| MemoryError::Damaged {
            path: path.to_path_buf(),
            why,
        };
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(|source| MemoryError::Io {
                path: path.to_path_buf(),
                source,
            })?;
        }
        let db = Connection::open_with_flags(
            path,
            OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_CREATE,
        )
        .map_err(sqlite)?;
        db.busy_timeout(wait).map_err(sqlite)?;
        // The first statement reads the file's header: a file that is not a database fails here.
        // Nothing is written before the file is known to be ours or empty.
        let tables = schema_names(&db).map_err(sqlite)?;
        if tables.is_empty() {
            db.query_row("PRAGMA journal_mode=WAL", [], |r| r.get::<_, String>(0))
                .map_err(sqlite)?;
            create_schema(&db).map_err(|e| {
                let _ = db.execute_batch("ROLLBACK");
                sqlite(e)
            })?;
        } else if !tables.iter().any(|t| t == "meta") {
            return Err(MemoryError::Foreign {
                path: path.to_path_buf(),
                why: format!("a SQLite database of the tables {tables:?}"),
            });
        } else {
            if let Err(why) = check_columns(&db, "meta", &["name", "value"]).map_err(sqlite)? {
                return Err(MemoryError::Foreign {
                    path: path.to_path_buf(),
                    why,
                });
            }
        }
        let format: Option<String> = db
            .query_row("SELECT value FROM meta WHERE name = 'format'", [], |r| {
                r.get(0)
            })
            .optional()
            .map_err(sqlite)?;
        if format.as_deref() != Some(FORMAT) {
            return Err(damaged(format!(
                "its format is {:?}, this program reads {FORMAT:?}",
                format.unwrap_or_default()
            )));
        }
        // Our format: the columns must be ours too.
        check_columns(&db, "proven", PROVEN_COLUMNS)
            .map_err(sqlite)?
            .map_err(damaged)?;
        db.query_row("PRAGMA journal_mode=WAL", [], |r| r.get::<_, String>(0))
            .map_err(sqlite)?;
        let mut m = Memory {
            path: path.to_path_buf(),
            db,
            capacity: capacity.max(1),
            writes: 0,
            notes: RefCell::new(Vec::new()),
        };
        m.trim()?;
        Ok(m)
    }

    /// Its file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The most records it keeps.
    pub fn capacity(&self) -> u64 {
        self.capacity
    }

    /// How many records it holds.
    ///
    /// # Errors
    /// [`MemoryError::Sqlite`].
    pub fn len(&self) -> Result<u64, MemoryError> {
        self.db
            .query_row("SELECT count(*) FROM proven", [], |r| r.get::<_, i64>(0))
            .map(|n| u64::try_from(n).unwrap_or(0))
            .map_err(|source| self.sqlite(source))
    }

    /// Whether it holds no record.
    ///
    /// # Errors
    /// [`MemoryError::Sqlite`].
    pub fn is_empty(&self) -> Result<bool, MemoryError> {
        Ok(self.len()? == 0)
    }

    fn sqlite(&self, source: rusqlite::Error) -> MemoryError {
        if is_corrupt(&source) {
            return MemoryError::Damaged {
                path: self.path.clone(),
                why: source.to_string(),
            };
        }
        MemoryError::Sqlite {
            path: self.path.clone(),
            source,
        }
    }

    /// What the memory knows of the position of key `key` under the rules `rules` (their
    /// identity), its checksum checked. A record whose checksum does not match is deleted (in
    /// a write transaction, unless another process rewrote it meanwhile) and is absent, with a
    /// note ([`Memory::take_notes`]).
    ///
    /// # Errors
    /// [`MemoryError::Sqlite`]; [`MemoryError::Damaged`] when SQLite finds the file corrupt.
    pub fn get(&self, rules: &str, key: u128) -> Result<Option<Record>, MemoryError> {
        let Some(row) = self.read_row(rules, key)? else {
            return Ok(None);
        };
        if let Some(record) = decode(rules, key, row) {
            return Ok(Some(record));
        }
        self.forget_damaged(rules, key)?;
        Ok(None)
    }

    /// Deletes the record of `key` under `rules` when it is still damaged, with a note.
    fn forget_damaged(&self, rules: &str, key: u128) -> Result<(), MemoryError> {
        self.db
            .execute_batch("BEGIN IMMEDIATE")
            .map_err(|e| self.sqlite(e))?;
        let deleted = (|| -> Result<bool, MemoryError> {
            match self.read_row(rules, key)? {
                Some(row) if decode(rules, key, row).is_none() => {
                    self.delete(rules, key)?;
                    Ok(true)
                }
                _ => Ok(false),
            }
        })();
        let end = if deleted.is_ok() {
            "COMMIT"
        } else {
            "ROLLBACK"
        };
        let ended = self.db.execute_batch(end).map_err(|e| self.sqlite(e));
        if deleted? {
            self.note(rules, key);
        }
        ended
    }

    /// Forgets the record of `key` under `rules`, with a note: what the caller found it says
    /// does not fit the position (a best move that is not legal, bounds beyond its stake).
    ///
    /// # Errors
    /// [`MemoryError::Sqlite`].
    pub fn forget(&self, rules: &str, key: u128) -> Result<(), MemoryError> {
        self.delete(rules, key)?;
        self.note(rules, key);
        Ok(())
    }

    fn delete(&self, rules: &str, key: u128) -> Result<(), MemoryError> {
        self.db
            .execute(
                "DELETE FROM proven WHERE rules = ?1 AND key = ?2",
                params![rules, &key.to_be_bytes()[..]],
            )
            .map_err(|e| self.sqlite(e))?;
        Ok(())
    }

    fn note(&self, rules: &str, key: u128) {
        self.notes.borrow_mut().push(format!(
            "memory {}: the record of {rules} key {key:#x} was damaged; it was deleted",
            self.path.display()
        ));
    }

    /// What went wrong with single records (damaged ones deleted), each said once. Drains the
    /// list.
    pub fn take_notes(&self) -> Vec<String> {
        std::mem::take(&mut *self.notes.borrow_mut())
    }

    /// The stored columns of one record.
    fn read_row(&self, rules: &str, key: u128) -> Result<Option<Row>, MemoryError> {
        self.db
            .prepare_cached(
                "SELECT lower, upper, best, crc FROM proven WHERE rules = ?1 AND key = ?2",
            )
            .and_then(|mut s| {
                s.query_row(params![rules, &key.to_be_bytes()[..]], |r| {
                    Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?))
                })
                .optional()
            })
            .map_err(|e| self.sqlite(e))
    }

    /// Checks the whole store: SQLite's own integrity check, then every record's checksum.
    /// Returns the number of records.
    ///
    /// # Errors
    /// [`MemoryError::Damaged`] at the first fault; [`MemoryError::Sqlite`].
    pub fn check(&self) -> Result<u64, MemoryError> {
        let damaged = |why: String| MemoryError::Damaged {
            path: self.path.clone(),
            why,
        };
        let verdict: String = self
            .db
            .query_row("PRAGMA integrity_check", [], |r| r.get(0))
            .map_err(|e| self.sqlite(e))?;
        if verdict != "ok" {
            return Err(damaged(format!("SQLite's integrity check: {verdict}")));
        }
        let mut s = self
            .db
            .prepare("SELECT rules, key, lower, upper, best, crc FROM proven")
            .map_err(|e| self.sqlite(e))?;
        let rows = s
            .query_map([], |r| {
                Ok((
                    r.get::<_, String>(0)?,
                    r.get::<_, Vec<u8>>(1)?,
                    r.get::<_, i64>(2)?,
                    r.get::<_, i64>(3)?,
                    r.get::<_, i64>(4)?,
                    r.get::<_, i64>(5)?,
                ))
            })
            .map_err(|e| self.sqlite(e))?;
        let mut n = 0;
        for row in rows {
            let (rules, key, lower, upper, best, crc) = row.map_err(|e| self.sqlite(e))?;
            let key: [u8; 16] = key
                .try_into()
                .map_err(|_| damaged(format!("a key of {rules} is not 16 bytes")))?;
            let key = u128::from_be_bytes(key);
            if decode(&rules, key, (lower, upper, best, crc)).is_none() {
                return Err(damaged(format!(
                    "the record of {rules} key {key:#x} does not match its checksum"
                )));
            }
            n += 1;
        }
        Ok(n)
    }

    /// Keeps what a search proved of a position: its bounds narrow those already kept (an
    /// exact value stays exact), a best move is kept when given.
    ///
    /// # Errors
    /// [`MemoryError`]: the record already kept is damaged, or SQLite failed.
    pub fn put(&mut self, rules: &str, key: u128, proved: Record) -> Result<(), MemoryError> {
        self.put_all(rules, &[(key, proved)])
    }

    /// [`Memory::put`] for many positions in one transaction.
    ///
    /// # Errors
    /// As [`Memory::put`].
    pub fn put_all(&mut self, rules: &str, proved: &[(u128, Record)]) -> Result<(), MemoryError> {
        if proved.is_empty() {
            return Ok(());
        }
        let tx = self
            .db
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(|source| MemoryError::Sqlite {
                path: self.path.clone(),
                source,
            })?;
        let path = self.path.clone();
        let sqlite = |source| MemoryError::Sqlite {
            path: path.clone(),
            source,
        };
        let used: i64 = tx
            .query_row("SELECT coalesce(max(used), 0) + 1 FROM proven", [], |r| {
                r.get(0)
            })
            .map_err(sqlite)?;
        for &(key, new) in proved {
            let old: Option<Row> = tx
                .query_row(
                    "SELECT lower, upper, best, crc FROM proven WHERE rules = ?1 AND key = ?2",
                    params![rules, &key.to_be_bytes()[..]],
                    |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)),
                )
                .optional()
                .map_err(sqlite)?;
            let mut record = new;
            // A damaged record is overwritten by what was proved now.
            if let Some(kept) = old.and_then(|row| decode(rules, key, row)) {
                record.future = kept.future.narrowed_by(new.future);
                record.best = new.best.or(kept.best);
            }
            tx.execute(
                "INSERT OR REPLACE INTO proven VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
                params![
                    rules,
                    &key.to_be_bytes()[..],
                    record.future.lower,
                    record.future.upper,
                    record.best.map_or(0, |m| m.0),
                    used,
                    record_crc(rules, key, &record)
                ],
            )
            .map_err(sqlite)?;
        }
        tx.commit().map_err(sqlite)?;
        self.writes = self
            .writes
            .saturating_add(u64::try_from(proved.len()).unwrap_or(u64::MAX));
        if self.writes >= TRIM_EVERY {
            self.trim()?;
        }
        Ok(())
    }

    /// Forgets the least recently written tenth of the records when there are more than the
    /// capacity.
    fn trim(&mut self) -> Result<(), MemoryError> {
        self.writes = 0;
        let n = self.len()?;
        if n <= self.capacity {
            return Ok(());
        }
        let drop = n - self.capacity + self.capacity / 10;
        self.db
            .execute(
                "DELETE FROM proven WHERE (rules, key) IN \
                 (SELECT rules, key FROM proven ORDER BY used LIMIT ?1)",
                params![i64::try_from(drop).unwrap_or(i64::MAX)],
            )
            .map_err(|e| self.sqlite(e))?;
        Ok(())
    }
}

/// Whether SQLite says the file is not a database or is corrupt.
fn is_corrupt(e: &rusqlite::Error) -> bool {
    matches!(
        e.sqlite_error_code(),
        Some(rusqlite::ErrorCode::NotADatabase | rusqlite::ErrorCode::DatabaseCorrupt)
    )
}

/// The names of the tables and indexes in the file.
fn schema_names(db: &Connection) -> Result<Vec<String>, rusqlite::Error> {
    let mut s = db.prepare("SELECT name FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'")?;
    let names = s.query_map([], |r| r.get::<_, String>(0))?.collect();
    names
}

/// Creates the schema in an empty file (unless another process did it first).
fn create_schema(db: &Connection) -> Result<(), rusqlite::Error> {
    db.execute_batch("BEGIN IMMEDIATE")?;
    if schema_names(db)?.is_empty() {
        db.execute_batch(
            "CREATE TABLE meta (name TEXT PRIMARY KEY, value TEXT NOT NULL);
             INSERT INTO meta VALUES ('format', 'mancala memory 1');
             CREATE TABLE proven (
                 rules TEXT NOT NULL,
                 key BLOB NOT NULL,
                 lower INTEGER NOT NULL,
                 upper INTEGER NOT NULL,
                 best INTEGER NOT NULL,
                 used INTEGER NOT NULL,
                 crc INTEGER NOT NULL,
                 PRIMARY KEY (rules, key)
             ) WITHOUT ROWID;
             CREATE INDEX proven_used ON proven (used);",
        )?;
    }
    db.execute_batch("COMMIT")
}

/// The columns of the `proven` table, in order.
const PROVEN_COLUMNS: &[&str] = &["rules", "key", "lower", "upper", "best", "used", "crc"];

/// Whether `table` has exactly `columns`: `Ok(Err(why))` when it does not (or is missing).
fn check_columns(
    db: &Connection,
    table: &str,
    columns: &[&str],
) -> Result<Result<(), String>, rusqlite::Error> {
    let mut s = db.prepare("SELECT name FROM pragma_table_info(?1) ORDER BY cid")?;
    let found = s
        .query_map([table], |r| r.get::<_, String>(0))?
        .collect::<Result<Vec<_>, _>>()?;
    if found.iter().map(String::as_str).eq(columns.iter().copied()) {
        Ok(Ok(()))
    } else if found.is_empty() {
        Ok(Err(format!("it has no table {table}")))
    } else {
        Ok(Err(format!(
            "its table {table} has the columns {found:?}, not {columns:?}"
        )))
    }
}

/// Where a refused file is moved: `FILE.refused`.
fn refused_path(path: &Path) -> PathBuf {
    with_suffix(path, ".refused")
}

/// `path` with `suffix` appended to its name.
fn with_suffix(path: &Path, suffix: &str) -> PathBuf {
    let mut p = path.as_os_str().to_owned();
    p.push(suffix);
    PathBuf::from(p)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp(name: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("mancala-memory-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir.join("memory.sqlite")
    }

    #[test]
    fn bounds_narrow_and_an_exact_value_stays() {
        let path = temp("narrow");
        let mut m = Memory::open(&path, 100).unwrap().memory;
        let id = "kalah/6";
        assert_eq!(m.get(id, 7).unwrap(), None);
        let wide = Record {
            future: Bounds {
                lower: -10,
                upper: 20,
            },
            best: None,
        };
        m.put(id, 7, wide).unwrap();
        let tighter = Record {
            future: Bounds {
                lower: 2,
                upper: 30,
            },
            best: Some(Move(3)),
        };
        m.put(id, 7, tighter).unwrap();
        let got = m.get(id, 7).unwrap().unwrap();
        assert_eq!(
            got.future,
            Bounds {
                lower: 2,
                upper: 20
            }
        );
        assert_eq!(got.best, Some(Move(3)));
        // Another game's record of the same key is another record.
        assert_eq!(m.get("kalah+empty-capture/6", 7).unwrap(), None);
        drop(m);
        // Reopened by another connection (another process would see the same).
        let m = Memory::open(&path, 100).unwrap().memory;
        assert_eq!(
            m.get(id, 7).unwrap().unwrap().future,
            Bounds {
                lower: 2,
                upper: 20
            }
        );
    }

    #[test]
    fn a_damaged_record_is_deleted_and_a_file_that_is_no_database_moved_aside() {
        let path = temp("damaged");
        let mut m = Memory::open(&path, 100).unwrap().memory;
        m.put(
            "kalah/6",
            9,
            Record {
                future: Bounds::exact(4),
                best: None,
            },
        )
        .unwrap();
        m.put(
            "kalah/6",
            10,
            Record {
                future: Bounds::exact(2),
                best: None,
            },
        )
        .unwrap();
        // A bit flips in the value, not in the checksum.
        m.db.execute("UPDATE proven SET lower = 5, upper = 5", [])
            .unwrap();
        assert_eq!(
            m.get("kalah/6", 9).unwrap(),
            None,
            "a damaged record is absent"
        );
        assert_eq!(m.take_notes().len(), 1);
        assert_eq!(m.len().unwrap(), 1, "and deleted");
        // A damaged record is overwritten by a write.
        m.put(
            "kalah/6",
            10,
            Record {
                future: Bounds::exact(7),
                best: None,
            },
        )
        .unwrap();
        assert_eq!(
            m.get("kalah/6", 10).unwrap().unwrap().future,
            Bounds::exact(7)
        );
        assert!(m.take_notes().is_empty());
        assert_eq!(m.check().unwrap(), 1);
        drop(m);
        // A file that is not a database is moved aside and a new memory started.
        std::fs::write(
            &path,
            b"this is not a database, but it is long enough to have a header",
        )
        .unwrap();
        let opened = Memory::open(&path, 100).unwrap();
        let why = opened.refused.expect("the file was refused");
        assert!(why.contains("refused"), "{why}");
        assert!(refused_path(&path).exists());
        assert!(opened.memory.is_empty().unwrap());
    }

    #[test]
    fn a_store_locked_by_another_process_is_left_in_place() {
        let path = temp("locked");
        let mut m = Memory::open(&path, 100).unwrap().memory;
        let kept = Record {
            future: Bounds::exact(3),
            best: None,
        };
        m.put("kalah/6", 5, kept).unwrap();
        drop(m);
        // Another process holds the write lock past our wait.
        let other = Connection::open(&path).unwrap();
        other.execute_batch("BEGIN EXCLUSIVE").unwrap();
        // Opening only reads (the store is ours and whole), so it may succeed; a write then
        // waits for the lock and fails, as SQLite, never as a damaged store.
        match Memory::open_waiting(&path, 100, Duration::from_millis(10)) {
            Ok(opened) => {
                assert!(opened.refused.is_none());
                let mut m = opened.memory;
                let e = m.put("kalah/6", 6, kept).unwrap_err();
                assert!(matches!(e, MemoryError::Sqlite { .. }), "{e}");
            }
            Err(e) => assert!(matches!(e, MemoryError::Sqlite { .. }), "{e}"),
        }
        assert!(
            !refused_path(&path).exists(),
            "a healthy store was moved aside"
        );
        assert!(path.exists());
        other.execute_batch("COMMIT").unwrap();
        drop(other);
        let opened = Memory::open(&path, 100).unwrap();
        assert!(opened.refused.is_none());
        assert_eq!(opened.memory.get("kalah/6", 5).unwrap(), Some(kept));
    }

    #[test]
    fn another_programs_database_is_neither_written_nor_moved() {
        let path = temp("other-program");
        let db = Connection::open(&path).unwrap();
        db.execute_batch("CREATE TABLE people (name TEXT); INSERT INTO people VALUES ('ada');")
            .unwrap();
        drop(db);
        let before = std::fs::read(&path).unwrap();
        let e = Memory::open(&path, 100).err().expect("refused");
        assert!(matches!(e, MemoryError::Foreign { .. }), "{e}");
        let said = e.to_string();
        assert!(said.contains(&path.display().to_string()), "{said}");
        assert!(
            said.contains(MEMORY_ENV) && said.contains("--memory"),
            "{said}"
        );
        assert_eq!(
            std::fs::read(&path).unwrap(),
            before,
            "the file was written"
        );
        assert!(!refused_path(&path).exists());
        assert!(!with_suffix(&path, "-wal").exists());
    }

    #[test]
    fn a_foreign_database_is_refused() {
        let path = temp("foreign");
        let db = Connection::open(&path).unwrap();
        db.execute_batch("CREATE TABLE meta (name TEXT PRIMARY KEY, value TEXT NOT NULL); INSERT INTO meta VALUES ('format', 'someone else 7');").unwrap();
        drop(db);
        let opened = Memory::open(&path, 100).unwrap();
        assert!(opened.refused.unwrap().contains("someone else 7"));
    }

    #[test]
    fn the_least_recently_written_are_forgotten_past_the_capacity() {
        let path = temp("capacity");
        let mut m = Memory::open(&path, 10).unwrap().memory;
        for k in 0..20u128 {
            m.put(
                "kalah/6",
                k,
                Record {
                    future: Bounds::exact(1),
                    best: None,
                },
            )
            .unwrap();
        }
        drop(m);
        let m = Memory::open(&path, 10).unwrap().memory;
        assert!(m.len().unwrap() <= 10);
        assert!(m.get("kalah/6", 19).unwrap().is_some());
        assert!(m.get("kalah/6", 0).unwrap().is_none());
    }
}
