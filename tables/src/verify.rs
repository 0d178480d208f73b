//! Verification, apart from building (syzygy's `rtbver`): every entry re-derived by one ply of
//! lookahead from the tables themselves.
//!
//! For a position `x` of layer `k` the verifier recomputes
//! `max over children c of c.gain ± F(c.next)` (minus when the turn passed), reading `F(c.next)`
//! from the lower layers and from layer `k` itself, and compares it with the stored `F(x)`.
//! Slots that hold no position hold no meaningful value (0, or the layer's parity when the
//! builder filled them to keep the 4-bit parity encoding) and are skipped.
//!
//! What this proves: in an acyclic game (Kalah, Dakon) the one-ply equations have exactly one
//! solution (by induction along the layer's DAG), so a layer that passes is exact given its lower
//! layers, and a complete set that passes is exact. In a cyclic game the true values satisfy the
//! same equations, so any wrong entry that breaks them is caught, but the equations can have
//! other solutions along cycles (for example a whole cycle of positions shifted together), so
//! passing is a strong consistency check rather than a proof; the proof there is the fixpoint of
//! the builder.

use rayon::prelude::*;
use solver::{Children, Game, Indexer, Stop};

use crate::progress::Progress;
use crate::table::Table;

/// An entry that does not match what its children say.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WrongEntry {
    /// Its layer.
    pub layer: u32,
    /// Its slot.
    pub index: u64,
    /// The value in the table.
    pub stored: i32,
    /// The value one ply of lookahead gives.
    pub derived: i32,
}

/// The outcome for one layer.
#[derive(Clone, Debug)]
pub struct LayerVerdict {
    /// The layer.
    pub layer: u32,
    /// Entries checked.
    pub entries: u64,
    /// Entries that do not match.
    pub wrong: u64,
    /// The first few of them (by slot).
    pub examples: Vec<WrongEntry>,
}

/// How many wrong entries a verdict keeps as examples.
const EXAMPLES: usize = 10;

/// Re-derives every entry of `layer` from `tables` (`tables[k]` is layer `k`, for every
/// `k <= layer`), in parallel on the current rayon pool, telling `progress` how far it got.
///
/// # Panics
/// When `tables` has no layer `layer`, or a table does not match `ix` in size.
pub fn verify_layer<I: Indexer>(
    ix: &I,
    tables: &[Table],
    layer: u32,
    progress: &dyn Progress,
) -> LayerVerdict {
    verify_layer_until(ix, tables, layer, progress, Stop::never()).expect("a stop nobody raises")
}

/// [`verify_layer`], given up (`None`) once `stop` is raised: the chunks not started by then are
/// skipped, so a caller waits at most one chunk per thread.
///
/// # Panics
/// As [`verify_layer`].
pub fn verify_layer_until<I: Indexer>(
    ix: &I,
    tables: &[Table],
    layer: u32,
    progress: &dyn Progress,
    stop: Stop<'_>,
) -> Option<LayerVerdict> {
    let table = &tables[layer as usize];
    let len = ix.layer_len(layer);
    assert_eq!(
        table.len(),
        len,
        "layer {layer} has {} entries, the indexer says {len}",
        table.len()
    );
    progress.start(layer, len);
    const CHUNK: u64 = 1 << 14;
    let f = |pos: &I::G| -> i32 {
        if pos.is_over() {
            0
        } else {
            tables[pos.layer() as usize].get(ix.index(pos))
        }
    };
    let (wrong, mut examples) = (0..len.div_ceil(CHUNK))
        .into_par_iter()
        .map_init(Children::new, |children, c| {
            let (start, end) = (c * CHUNK, ((c + 1) * CHUNK).min(len));
            let mut wrong = 0u64;
            let mut examples = Vec::new();
            if stop.is_raised() {
                return (wrong, examples);
            }
            for index in start..end {
                let Some(pos) = ix.position(layer, index) else {
                    continue;
                };
                let stored = table.get(index);
                children.clear();
                pos.children(children);
                let derived = children
                    .as_slice()
                    .iter()
                    .map(|c| {
                        let v = f(&c.next);
                        if c.turn_passed {
                            c.gain - v
                        } else {
                            c.gain + v
                        }
                    })
                    .max()
                    .unwrap_or(0);
                if stored != derived {
                    wrong += 1;
                    if examples.len() < EXAMPLES {
                        examples.push(WrongEntry {
                            layer,
                            index,
                            stored,
                            derived,
                        });
                    }
                }
            }
            progress.advance(end - start);
            (wrong, examples)
        })
        .reduce(
            || (0, Vec::new()),
            |(wa, mut ea), (wb, eb)| {
                ea.extend(eb);
                (wa + wb, ea)
            },
        );
    progress.finish();
    if stop.is_raised() {
        return None;
    }
    examples.sort_by_key(|e| e.index);
    examples.truncate(EXAMPLES);
    Some(LayerVerdict {
        layer,
        entries: len,
        wrong,
        examples,
    })
}
