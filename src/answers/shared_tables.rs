//! Endgame tables opened once per process: every [`Analyzer`](super::Analyzer) of a process
//! (the server's, a batch's, each Python `Analyzer`) shares the tables of one game and board.
//!
//! Opening tables for a search reads every layer into memory and checks its checksum: seconds
//! and gigabytes for the recommended tables, which a server must not pay per request nor a
//! Python loop per call. So the first opening of `(directory, rules, holes)` is kept for the
//! rest of the process, deliberately leaked to a `&'static` reference: the search borrows its
//! oracle for as long as its transposition table lives ([`solver::search::Solver`]), and a
//! process holds at most one copy of each table set.

use std::any::Any;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock};

use tables::{TableError, Tablebase};

use super::identity::rules_identity;
use crate::endgame::{open_for_search, table_id, MancalaIndexer};
use crate::rules::Rules;
use crate::Position;

/// A table set as the process keeps it: one game's, behind [`Any`] so that one map holds every
/// game's.
type Kept = &'static (dyn Any + Send + Sync);

/// Every table set opened so far, by directory and rules identity.
fn opened() -> &'static Mutex<HashMap<(PathBuf, String), Kept>> {
    static OPENED: OnceLock<Mutex<HashMap<(PathBuf, String), Kept>>> = OnceLock::new();
    OPENED.get_or_init(|| Mutex::new(HashMap::new()))
}

/// Whether `dir` holds tables for the game of `p` on its board (its first layer's file).
pub fn holds_tables<R: Rules>(dir: &Path, p: &Position<R>) -> bool {
    let id = table_id(p.rules(), p.board().holes);
    dir.join(id.file_name(0)).is_file()
}

/// The tables in `dir` for a search from `p`, opened (every layer checked) the first time this
/// process asks for them and shared afterwards.
///
/// # Errors
/// As [`open_for_search`]: a missing, damaged or foreign layer.
pub fn for_search<R: Rules>(
    dir: &Path,
    p: &Position<R>,
) -> Result<&'static Tablebase<MancalaIndexer<R>>, TableError> {
    let key = (
        dir.canonicalize().unwrap_or_else(|_| dir.to_path_buf()),
        rules_identity(p.rules(), p.board().holes),
    );
    // Held while opening: two threads asking at once open the tables once.
    let mut map = opened().lock().unwrap_or_else(|e| e.into_inner());
    if let Some(kept) = map.get(&key) {
        if let Some(tb) = kept.downcast_ref::<Tablebase<MancalaIndexer<R>>>() {
            return Ok(tb);
        }
    }
    let tb: &'static Tablebase<MancalaIndexer<R>> = Box::leak(Box::new(open_for_search(dir, p)?));
    map.insert(key, tb);
    Ok(tb)
}
