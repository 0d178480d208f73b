//! Cyclic layers by the explicit in-layer graph: the exact §8.5 fixpoint, all thresholds in one
//! linear pass with counters. No longer the default (the lean passes of `passes.rs` are); kept as an
//! independent check of them ([`super::solve_layer_by_graph`]).
//!
//! See the module docs of `retro` for the algorithm and why it is exact.

use std::sync::atomic::{AtomicU32, Ordering};

use rayon::prelude::*;

use super::entry::{classify, to_entry, Edge, CHUNK, MAX_VALUE};
use super::index::{Indexer, Lower};
use super::watch::{self, LayerError, LayerWatch};
use crate::game::{Children, Game};

/// In a successor or predecessor entry: the edge passes the turn. The low 31 bits are the slot.
const PASSED: u32 = 1 << 31;
/// The slot bits of an edge entry.
const SLOT: u32 = PASSED - 1;

/// `best_exit` of a slot without exits: below every positive threshold `u` (no exit reaches `u`)
/// and at or below every `-u` ("every exit is `<= -u`" holds vacuously), as the rules need.
const NO_EXIT: i16 = i16::MIN;

/// `flags` bit: the slot is in `P` (its mover can force the current threshold).
const IN_P: u8 = 1;
/// `flags` bit: the slot is in `N` (its mover's opponent can force the current threshold).
const IN_N: u8 = 2;
/// In a queue entry: the slot joined `N` (else `P`).
const JOINED_N: u32 = 1 << 31;

/// A layer's internal graph, ready for the fixpoint.
pub(super) struct Graph {
    /// Per slot: the best exit value for its mover, or `NO_EXIT`. A slot without children (or
    /// without a position) counts as having the single exit 0. (Only the best exit matters: the
    /// mover reaches `u` by an exit iff the best one is `>= u`, and the opponent can hold the
    /// mover to `-u` only if every exit, so the best one, is `<= -u`.)
    best_exit: Vec<i16>,
    /// Per slot: the number of internal edges (with multiplicity).
    out_deg: Vec<u32>,
    /// Predecessor lists in CSR form: the edges into slot `y` are
    /// `preds[pred_start[y]..pred_start[y + 1]]`, each `source | PASSED if the edge passes`.
    pred_start: Vec<usize>,
    /// See `pred_start`.
    preds: Vec<u32>,
}

/// Computes `F` of every slot of a layer that may contain cycles.
pub(super) fn solve<I: Indexer, L: Lower + ?Sized>(
    ix: &I,
    layer: u32,
    lower: &L,
    watch: Option<&dyn LayerWatch>,
) -> Result<Vec<i16>, LayerError> {
    let graph = build(ix, layer, lower, watch);
    // The fixpoint itself is quick next to the graph's construction; it is not interrupted.
    watch::finished(watch, graph).map(fixpoint)
}

/// Generates every slot's children once (in parallel): exit values, successor lists, and their
/// inversion into predecessor lists.
pub(super) fn build<I: Indexer, L: Lower + ?Sized>(
    ix: &I,
    layer: u32,
    lower: &L,
    watch: Option<&dyn LayerWatch>,
) -> Graph {
    let len = ix.layer_len(layer);
    assert!(
        len <= u64::from(SLOT) + 1,
        "a cyclic layer may have at most 2^31 slots, layer {layer} has {len}"
    );
    let n = len as usize;
    let mut best_exit = vec![0i16; n];
    let mut out_deg = vec![0u32; n];

    // 1. Successors, chunk by chunk: chunk `c` holds the internal edges of slots
    //    `c * CHUNK ..`, in slot order, `out_deg` of each.
    let succ: Vec<Vec<u32>> = best_exit
        .par_chunks_mut(CHUNK)
        .zip(out_deg.par_chunks_mut(CHUNK))
        .enumerate()
        .map(|(c, (best, deg))| {
            let mut edges = Vec::new();
            if watch::stopped(watch) {
                return edges;
            }
            let mut kids = Children::new();
            for k in 0..best.len() {
                let slot = (c * CHUNK + k) as u64;
                let Some(pos) = ix.position(layer, slot) else {
                    continue;
                };
                debug_assert_eq!(
                    ix.index(&pos),
                    slot,
                    "position({layer}, {slot}) = {pos:?} indexes elsewhere"
                );
                kids.clear();
                pos.children(&mut kids);
                if kids.is_empty() {
                    continue; // game over: F = 0, as if by an exit of value 0
                }
                let mut hi = i32::MIN;
                for ch in kids.as_slice() {
                    match classify(ch, layer, lower, || ix.index(&ch.next)) {
                        Edge::Exit(v) => hi = hi.max(v),
                        Edge::Internal => {
                            let t = ix.index(&ch.next);
                            debug_assert!(
                                t < len,
                                "slot {t} of {:?} is out of range in layer {layer}",
                                ch.next
                            );
                            edges.push(t as u32 | if ch.turn_passed { PASSED } else { 0 });
                            deg[k] += 1;
                        }
                    }
                }
                best[k] = if hi == i32::MIN {
                    NO_EXIT
                } else {
                    to_entry(hi)
                };
            }
            watch::advance(watch, best.len() as u64);
            edges
        })
        .collect();

    // 2. Invert: count the edges into each slot, lay out the lists, then fill each list from its
    //    end, using the count as a cursor. (The order inside a list depends on the scheduling; the
    //    fixpoint does not depend on it.)
    let fill: Vec<AtomicU32> = (0..n).into_par_iter().map(|_| AtomicU32::new(0)).collect();
    succ.par_iter().for_each(|edges| {
        for &e in edges {
            fill[(e & SLOT) as usize].fetch_add(1, Ordering::Relaxed);
        }
    });
    let mut pred_start = Vec::with_capacity(n + 1);
    let mut total = 0usize;
    pred_start.push(0);
    for f in &fill {
        total += f.load(Ordering::Relaxed) as usize;
        pred_start.push(total);
    }
    let preds: Vec<AtomicU32> = (0..total)
        .into_par_iter()
        .map(|_| AtomicU32::new(0))
        .collect();
    succ.par_iter()
        .zip(out_deg.par_chunks(CHUNK))
        .enumerate()
        .for_each(|(c, (edges, deg))| {
            let mut e = edges.iter();
            for (k, &d) in deg.iter().enumerate() {
                let source = (c * CHUNK + k) as u32;
                for &edge in e.by_ref().take(d as usize) {
                    let t = (edge & SLOT) as usize;
                    let at = pred_start[t] + fill[t].fetch_sub(1, Ordering::Relaxed) as usize - 1;
                    preds[at].store(source | (edge & PASSED), Ordering::Relaxed);
                }
            }
        });
    drop(succ);
    let preds = preds.into_iter().map(AtomicU32::into_inner).collect();
    Graph {
        best_exit,
        out_deg,
        pred_start,
        preds,
    }
}

/// The joint least fixpoint of `P_u` and `N_u` for all positive thresholds `u`, largest first,
/// and the values it implies. See the module docs of `retro`.
pub(super) fn fixpoint(g: Graph) -> Vec<i16> {
    let n = g.best_exit.len();
    let mut value = vec![0i16; n];
    let mut flags = vec![0u8; n];
    let mut counter = g.out_deg;
    // Slots by the threshold at which their exits start to count: a best exit `u > 0` puts the slot in `P_u`;
    // a best exit `-u < 0` lets the slot join `N_u` once its counter is 0.
    let p_first = Buckets::new(n, |x| g.best_exit[x].max(0) as u16);
    let n_first = Buckets::new(n, |x| {
        if g.best_exit[x] == NO_EXIT {
            0
        } else {
            (-g.best_exit[x]).max(0) as u16
        }
    });
    let mut queue: Vec<u32> = Vec::new();

    for u in (1..=MAX_VALUE as u16).rev() {
        let (ps, ns) = (p_first.get(u), n_first.get(u));
        if ps.is_empty() && ns.is_empty() {
            continue; // the rules are those of the previous threshold: nothing new
        }
        let v = u as i16;
        let neg = -i32::from(u);
        for &x in ps {
            join(&mut flags, &mut value, &mut queue, x, IN_P, v);
        }
        for &x in ns {
            if counter[x as usize] == 0 {
                join(&mut flags, &mut value, &mut queue, x, IN_N, -v);
            }
        }
        while let Some(entry) = queue.pop() {
            let y = (entry & SLOT) as usize;
            let joined_n = entry & JOINED_N != 0;
            for &p in &g.preds[g.pred_start[y]..g.pred_start[y + 1]] {
                let x = p & SLOT;
                let passed = p & PASSED != 0;
                if passed == joined_n {
                    // x's mover can move to a position where x's mover gets at least u.
                    join(&mut flags, &mut value, &mut queue, x, IN_P, v);
                } else {
                    // One more of x's edges leads where x's opponent gets at least u.
                    let c = &mut counter[x as usize];
                    *c -= 1;
                    if *c == 0 && i32::from(g.best_exit[x as usize]) <= neg {
                        join(&mut flags, &mut value, &mut queue, x, IN_N, -v);
                    }
                }
            }
        }
    }
    value
}

/// Adds `x` to the set `set` (`IN_P` or `IN_N`) unless it is there, recording its value.
#[inline]
fn join(flags: &mut [u8], value: &mut [i16], queue: &mut Vec<u32>, x: u32, set: u8, v: i16) {
    let f = &mut flags[x as usize];
    if *f & set != 0 {
        return;
    }
    debug_assert_eq!(*f, 0, "slot {x} would be in both P and N");
    *f |= set;
    value[x as usize] = v;
    queue.push(x | if set == IN_N { JOINED_N } else { 0 });
}

/// Slots grouped by a key in `1..=MAX_VALUE` (key 0: left out), by counting sort.
struct Buckets {
    start: Vec<u32>,
    items: Vec<u32>,
}

impl Buckets {
    fn new(n: usize, key: impl Fn(usize) -> u16) -> Self {
        let keys = MAX_VALUE as usize + 1;
        let mut start = vec![0u32; keys + 1];
        for x in 0..n {
            let k = key(x) as usize;
            if k > 0 {
                start[k + 1] += 1;
            }
        }
        for k in 1..start.len() {
            start[k] += start[k - 1];
        }
        let mut cursor = start.clone();
        let mut items = vec![0u32; start[keys] as usize];
        for x in 0..n {
            let k = key(x) as usize;
            if k > 0 {
                items[cursor[k] as usize] = x as u32;
                cursor[k] += 1;
            }
        }
        Self { start, items }
    }

    fn get(&self, k: u16) -> &[u32] {
        &self.items[self.start[k as usize] as usize..self.start[k as usize + 1] as usize]
    }
}
