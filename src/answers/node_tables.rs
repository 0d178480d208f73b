//! The endgame tables as the Kalah search node reads them: a view of a kept table set through
//! [`KalahNodeIndexer`], made once per set and board size and shared afterwards.
//!
//! A view shares the layers' bytes and the checks' findings with the set it views
//! ([`Tablebase::reindexed`]), so it costs no memory of its own and a contradiction the node's
//! search finds is the set's fault too. The sets are kept for the whole process
//! ([`super::shared_tables`]), so their views are too: one per set and size, however many
//! searches are built.

use std::any::Any;
use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};

use tables::{TableError, Tablebase};

use crate::endgame::MancalaIndexer;
use crate::rules::{Kalah, KalahNodeIndexer, Rules};

/// A view as the process keeps it, behind [`Any`] so that one map holds every size's.
type Kept = &'static (dyn Any + Send + Sync);

/// Every view made so far, by the address of the set it views and its board size. A kept set
/// is never freed, so its address names it for the rest of the process.
fn made() -> &'static Mutex<HashMap<(usize, usize), Kept>> {
    static MADE: OnceLock<Mutex<HashMap<(usize, usize), Kept>>> = OnceLock::new();
    MADE.get_or_init(|| Mutex::new(HashMap::new()))
}

/// The view of `tb` (Kalah tables of `rules` on `N` holes) through [`KalahNodeIndexer<N>`].
///
/// # Errors
/// [`TableError::Mismatch`] when a layer of `tb` is not the length the node's index expects
/// (tables of another game or size).
pub fn node_view<R: Rules, const N: usize>(
    tb: &'static Tablebase<MancalaIndexer<R>>,
    rules: Kalah,
) -> Result<&'static Tablebase<KalahNodeIndexer<N>>, TableError> {
    let key = (std::ptr::from_ref(tb) as usize, N);
    let mut map = made().lock().unwrap_or_else(|e| e.into_inner());
    if let Some(view) = map
        .get(&key)
        .and_then(|kept| kept.downcast_ref::<Tablebase<KalahNodeIndexer<N>>>())
    {
        return Ok(view);
    }
    let view: &'static Tablebase<KalahNodeIndexer<N>> =
        Box::leak(Box::new(tb.reindexed(KalahNodeIndexer::<N>::new(rules))?));
    map.insert(key, view);
    Ok(view)
}
