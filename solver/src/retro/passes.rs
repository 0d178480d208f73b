//! Cyclic layers, lean: the §8.5 fixpoint by value iteration from 0, in passes over the layer
//! that regenerate each position's children. No graph is stored: about 4 bytes per slot.
//!
//! See the module docs of `retro` ("The lean cyclic algorithm") for why iterating
//! `F(x) = max over children` from all zeros, in place, until a pass changes nothing, yields
//! exactly the §8.5 values, and why a slot marked final can be skipped.

use std::sync::atomic::{AtomicI16, AtomicU64, Ordering};

use rayon::prelude::*;

use super::entry::{classify, into_values, to_entry, Edge, CHUNK};
use super::index::{Indexer, Lower};
use super::watch::{self, LayerError, LayerWatch};
use crate::game::{Child, Children, Game};
use crate::memory::{huge_vec, try_vec, AllocError};

/// `best` of a slot with children but no exit.
const NO_EXIT: i16 = i16::MIN;

/// Bytes of working memory [`solve`] takes for a layer of `slots` slots: the values (2 bytes),
/// the best exits (2 bytes) and the live bits (1 bit) of every slot.
pub(super) fn working_bytes(slots: u64) -> u64 {
    slots
        .saturating_mul(4)
        .saturating_add(slots.div_ceil(64).saturating_mul(8))
}

/// The state shared by the passes.
pub(super) struct State {
    /// The current value of every slot: 0 at the start, then moving away from 0, never past the
    /// exact value (see the module docs of `retro`).
    value: Vec<AtomicI16>,
    /// One bit per slot: set while the slot's value may still change. Cleared (with `Release`,
    /// after the final value is stored) at most once; a reader that sees it clear (with
    /// `Acquire`) then reads the final value.
    live: Vec<AtomicU64>,
}

impl State {
    /// The current value of slot `t` and whether it is final.
    #[inline]
    fn read(&self, t: u64) -> (i32, bool) {
        let fin = self.live[(t / 64) as usize].load(Ordering::Acquire) & (1 << (t % 64)) == 0;
        (
            i32::from(self.value[t as usize].load(Ordering::Relaxed)),
            fin,
        )
    }

    /// Stores a new value of slot `x` (owned by the caller's chunk) and, when it can no longer
    /// change, marks it final. Returns whether the value changed.
    #[inline]
    fn set(&self, x: u64, v: i32, fin: bool) -> bool {
        let cell = &self.value[x as usize];
        let old = i32::from(cell.load(Ordering::Relaxed));
        debug_assert!(
            (old >= 0 && v >= old) || (old <= 0 && v <= old),
            "slot {x}: the value went from {old} to {v}, towards 0 (a broken Game contract?)"
        );
        let changed = v != old;
        if changed {
            cell.store(v as i16, Ordering::Relaxed);
        }
        if fin {
            self.live[(x / 64) as usize].fetch_and(!(1 << (x % 64)), Ordering::Release);
        }
        changed
    }

    fn is_live(&self, x: u64) -> bool {
        self.live[(x / 64) as usize].load(Ordering::Relaxed) & (1 << (x % 64)) != 0
    }
}

/// What the internal edges of a position offer its mover now.
struct Internal {
    /// The best of `±value` over the internal edges (`i32::MIN` when there is none).
    best: i32,
    /// Whether there is one.
    any: bool,
    /// Whether every internal edge leads to a final slot.
    all_final: bool,
}

impl Internal {
    fn new() -> Self {
        Self {
            best: i32::MIN,
            any: false,
            all_final: true,
        }
    }

    #[inline]
    fn add<G: Game>(&mut self, st: &State, ch: &Child<G>, t: u64) {
        let (v, fin) = st.read(t);
        self.best = self.best.max(if ch.turn_passed { -v } else { v });
        self.any = true;
        self.all_final &= fin;
    }

    /// The new value of a slot whose best exit is `exit` (or `i32::MIN`), and whether it is
    /// final: no internal edge, every internal edge final, or a negative value already down to
    /// the best exit (it can only fall, and never below the best exit).
    fn value(&self, exit: i32) -> (i32, bool) {
        let v = exit.max(self.best);
        (v, !self.any || self.all_final || (v < 0 && v == exit))
    }
}

/// Computes `F` of every slot of a layer that may contain cycles.
///
/// The single process is the split build's one rank: the same passes ([`first_pass_range`],
/// [`later_pass_range`]) over the whole layer, so that the two cannot drift apart.
pub(super) fn solve<I: Indexer, L: Lower + ?Sized>(
    ix: &I,
    layer: u32,
    lower: &L,
    watch: Option<&dyn LayerWatch>,
) -> Result<Vec<i16>, LayerError> {
    let n = usize::try_from(ix.layer_len(layer)).expect("a layer that fits in memory");
    let st = new_state(layer, n)?;
    let mut best: Vec<i16> = huge_vec(n, || format!("layer {layer}'s best exits"), || 0i16)?;
    // Pass 1 looks the lower layers up once and keeps each slot's best exit, so that the later
    // passes, until one changes nothing, only look inside the layer.
    first_pass_range(ix, layer, lower, &st, &mut best, 0, watch);
    while !watch::stopped(watch) && later_pass_range(ix, layer, &st, &best, 0, watch) != 0 {}
    drop(best);
    watch::finished(watch, st.into_values())
}

// The passes below serve both the single process (`solve`, over the whole layer) and one rank of
// a split build (`split`): every rank holds the values and live bits of the whole layer, updates
// its own slots in place, and reads the others' slots as the last exchange left them. Values read
// that way are at or below the fixpoint, so the argument of the module docs holds as it is (see
// `split::solve_cyclic`).

/// The state of layer `layer`, of `n` slots, before the first pass: every value 0, every slot
/// live.
pub(super) fn new_state(layer: u32, n: usize) -> Result<State, AllocError> {
    let words = n.div_ceil(64);
    let mut live = try_vec(words, || format!("layer {layer}'s live bits"))?;
    live.par_extend((0..words).into_par_iter().map(|w| {
        let bits = n - w * 64;
        AtomicU64::new(if bits >= 64 {
            u64::MAX
        } else {
            (1 << bits) - 1
        })
    }));
    Ok(State {
        value: huge_vec(
            n,
            || format!("layer {layer}'s values"),
            || AtomicI16::new(0),
        )?,
        live,
    })
}

impl State {
    /// The values, for an exchange between ranks.
    pub(super) fn values(&self) -> &[AtomicI16] {
        &self.value
    }

    /// The live bits, 64 slots a word, for an exchange between ranks.
    pub(super) fn live_words(&self) -> &[AtomicU64] {
        &self.live
    }

    /// The values, when the passes are over.
    pub(super) fn into_values(self) -> Vec<i16> {
        into_values(self.value)
    }
}

/// Pass 1 over the slots `from..from + best.len()` (`from` a multiple of `CHUNK`): every slot's
/// children, with the lower layers looked up once; stores the slots' best exits in `best` and
/// their first values in `st`.
pub(super) fn first_pass_range<I: Indexer, L: Lower + ?Sized>(
    ix: &I,
    layer: u32,
    lower: &L,
    st: &State,
    best: &mut [i16],
    from: u64,
    watch: Option<&dyn LayerWatch>,
) {
    let len = ix.layer_len(layer);
    best.par_chunks_mut(CHUNK)
        .enumerate()
        .for_each(|(c, chunk)| {
            if watch::stopped(watch) {
                return;
            }
            let mut kids = Children::new();
            let base = from + (c * CHUNK) as u64;
            ix.for_each_position(
                layer,
                base..base + chunk.len() as u64,
                &mut |_| true,
                &mut |slot, pos| {
                    let Some(pos) = pos else {
                        st.set(slot, 0, true);
                        return;
                    };
                    debug_assert_eq!(
                        ix.index(&pos),
                        slot,
                        "position({layer}, {slot}) = {pos:?} indexes elsewhere"
                    );
                    kids.clear();
                    pos.children(&mut kids);
                    if kids.is_empty() {
                        st.set(slot, 0, true); // game over: F = 0
                        return;
                    }
                    let mut exit = i32::MIN;
                    let mut int = Internal::new();
                    for ch in kids.as_slice() {
                        match classify(ch, layer, lower, || ix.index(&ch.next)) {
                            Edge::Exit(v) => exit = exit.max(v),
                            Edge::Internal => {
                                let t = ix.index(&ch.next);
                                debug_assert!(t < len, "slot {t} out of range in layer {layer}");
                                int.add(st, ch, t);
                            }
                        }
                    }
                    chunk[(slot - base) as usize] = if exit == i32::MIN {
                        NO_EXIT
                    } else {
                        to_entry(exit)
                    };
                    let (v, fin) = int.value(exit);
                    st.set(slot, v, fin);
                },
            );
            watch::advance(watch, chunk.len() as u64);
        });
}

/// A later pass over the live slots of `from..from + best.len()`; returns how many
/// values changed (chunks skipped because `watch` asked to stop count none).
pub(super) fn later_pass_range<I: Indexer>(
    ix: &I,
    layer: u32,
    st: &State,
    best: &[i16],
    from: u64,
    watch: Option<&dyn LayerWatch>,
) -> u64 {
    best.par_chunks(CHUNK)
        .enumerate()
        .map(|(c, chunk)| {
            if watch::stopped(watch) {
                return 0;
            }
            let base = from + (c * CHUNK) as u64;
            let mut kids = Children::new();
            let mut changed = 0u64;
            ix.for_each_position(
                layer,
                base..base + chunk.len() as u64,
                &mut |slot| st.is_live(slot),
                &mut |slot, pos| {
                    let pos = pos.expect("a live slot holds a position");
                    kids.clear();
                    pos.children(&mut kids);
                    let mut int = Internal::new();
                    for ch in kids.as_slice() {
                        if ch.next.layer() == layer && !ch.next.is_over() {
                            int.add(st, ch, ix.index(&ch.next));
                        }
                    }
                    let e = chunk[(slot - base) as usize];
                    let exit = if e == NO_EXIT { i32::MIN } else { i32::from(e) };
                    let (v, fin) = int.value(exit);
                    changed += u64::from(st.set(slot, v, fin));
                },
            );
            changed
        })
        .sum()
}
