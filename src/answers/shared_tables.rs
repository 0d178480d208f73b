//! Endgame tables opened once per process: every [`Analyzer`](super::Analyzer) of a process
//! (the server's, a batch's, each Python `Analyzer`) shares the tables of one game and board.
//!
//! Opening tables for a search reads its layers into memory and checks their checksums: up to
//! seconds and gigabytes for the recommended tables, which a server must not pay per request nor a
//! Python loop per call. So the first opening of `(directory, rules, holes)` is kept for the
//! rest of the process, deliberately leaked to a `&'static` reference: the search borrows its
//! oracle for as long as its transposition table lives ([`solver::search::Solver`]), and a
//! process holds one copy of each table set (and at most one smaller part of it, see
//! [`for_search`]).

use std::any::Any;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock};

use tables::{TableError, Tablebase};

use super::identity::rules_identity;
use crate::board::MAX_BOARD_SEEDS;
use crate::endgame::{open_for_layers, reachable_layer, table_id, MancalaIndexer};
use crate::rules::Rules;
use crate::Position;

/// A table set as the process keeps it: one game's, behind [`Any`] so that one map holds every
/// game's, with the highest layer it may be asked about (all of its layers unless it was opened
/// for one small position, see [`for_search`]).
struct Kept {
    tables: &'static (dyn Any + Send + Sync),
    covers: u32,
}

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

/// A first opening reads only the layers its position can reach when they are at most this
/// fraction of the set's bytes (a late position of a game, or a batch's first line); else it
/// reads every layer at once. A position above the layers read later opens the whole set again,
/// and the small set stays in memory beside it (it is borrowed for the process's life), so this
/// also bounds what that costs.
const SMALL_SHARE: u64 = 4;

/// The tables in `dir` for a search from `p`, opened (every layer read checked) the first time
/// this process asks for them and shared afterwards.
///
/// # Errors
/// As [`crate::endgame::open_for_search`]: a missing, damaged or foreign layer.
pub fn for_search<R: Rules>(
    dir: &Path,
    p: &Position<R>,
) -> Result<&'static Tablebase<MancalaIndexer<R>>, TableError> {
    let key = (
        dir.canonicalize().unwrap_or_else(|_| dir.to_path_buf()),
        rules_identity(p.rules(), p.board().holes),
    );
    let needs = reachable_layer(p);
    // Held while opening: two threads asking at once open the tables once.
    let mut map = opened().lock().unwrap_or_else(|e| e.into_inner());
    if let Some(kept) = map.get(&key) {
        if let Some(tb) = kept.tables.downcast_ref::<Tablebase<MancalaIndexer<R>>>() {
            if needs <= kept.covers {
                return Ok(tb);
            }
        }
    }
    let first = !map.contains_key(&key);
    let up_to = if first && reachable_share(dir, p, needs) {
        needs
    } else {
        MAX_BOARD_SEEDS
    };
    let tb: &'static Tablebase<MancalaIndexer<R>> =
        Box::leak(Box::new(open_for_layers(dir, p, up_to)?));
    // A set that ended below `up_to` was read whole and serves every position; one read in
    // part serves the positions whose layers it read.
    let covers = if tb.max_layer() < up_to {
        MAX_BOARD_SEEDS
    } else {
        up_to
    };
    map.insert(key, Kept { tables: tb, covers });
    Ok(tb)
}

/// Whether the files of layers `0..=needs` are at most [`SMALL_SHARE`]'s fraction of the set in
/// `dir` (by their sizes; a file that cannot be looked at counts as large, so the whole set is
/// opened and the opening reports it).
fn reachable_share<R: Rules>(dir: &Path, p: &Position<R>, needs: u32) -> bool {
    let id = table_id(p.rules(), p.board().holes);
    let (mut reachable, mut all) = (0u64, 0u64);
    for layer in 0..=MAX_BOARD_SEEDS {
        let Ok(meta) = std::fs::metadata(dir.join(id.file_name(layer))) else {
            break;
        };
        if !meta.is_file() {
            return false;
        }
        all += meta.len();
        if layer <= needs {
            reachable += meta.len();
        }
    }
    reachable.saturating_mul(SMALL_SHARE) <= all
}
