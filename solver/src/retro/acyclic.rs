//! Acyclic layers: memoised depth-first minimax inside the layer, parallel over chunks of slots;
//! or, when the index offers a [`Schedule`], stage after stage with no walk at all.
//!
//! The work is dominated by memory latency: every child is a lookup at a random place, either in
//! a lower layer's table or in this layer's memo. So when a position's children are generated,
//! the lookups of all of them are started at once (prefetches), and the slots of a chunk are
//! generated [`AHEAD`] positions ([`STAGE_AHEAD`] in a scheduled layer) before they are
//! evaluated: by the time a value is read, its load has had the work of several positions to
//! arrive in.

use std::sync::atomic::{AtomicI16, Ordering};

use rayon::prelude::*;

use super::entry::{into_values, load, to_entry, CHUNK};
use super::index::{place_children, Indexer, Lower, Placed, Schedule, OVER};
use super::watch::{self, LayerError, LayerWatch};
use crate::game::{Children, FixedVec, Game, MAX_MOVES};
use crate::memory::{huge_vec, AllocError};

/// The memo entry of a slot not computed yet. Never a value (see `to_entry`).
const UNKNOWN: i16 = i16::MIN;

/// Positions whose children are generated, and their lookups started, before the first of
/// them is evaluated. A position's lookups are loads at random places (a lower layer or this
/// layer's memo); started only just before they are read, they wait for memory one position at a
/// time. Started this many positions ahead, they are mostly in cache by then (4 and 16 did as
/// well as 8; docs/performance.md).
const AHEAD: usize = 8;

/// [`AHEAD`] for the positions of a [`Schedule`]: a scheduled position costs much less work than
/// a walked one, so its lookups need more positions ahead to arrive in (32 builds Kalah's
/// layers 7-9 % faster than 8, and as fast as 16-48; docs/performance.md).
const STAGE_AHEAD: usize = 32;

/// One position being computed: a pending root or a level of the depth-first stack.
struct Frame<G: Game> {
    /// The slot being computed.
    slot: u64,
    /// Its children.
    children: Children<G>,
    /// The next child to look at.
    cursor: usize,
    /// The best child value so far (`i32::MIN` before the first).
    best: i32,
    /// The slot of each live child in its own layer.
    slots: [u64; MAX_MOVES],
    /// The layer of each child, or [`OVER`]: noted when the children are generated, so that
    /// evaluating them neither counts seeds again nor copies a child.
    layers: [u32; MAX_MOVES],
}

/// The frames of one worker, reused from position to position (no allocation once it has
/// reached the layer's deepest internal path):
///
/// ```text
/// frames:  [0 .. AHEAD)         [AHEAD ..)
///          pending roots (ring)  the depth-first levels above the root being walked
/// ```
struct Stack<G: Game> {
    frames: Vec<Frame<G>>,
}

impl<G: Game> Stack<G> {
    fn new() -> Self {
        Self { frames: Vec::new() }
    }

    /// The frame of `level` of a walk from the root in frame `root`: the root at level 0.
    #[inline]
    fn at(root: usize, level: usize) -> usize {
        if level == 0 {
            root
        } else {
            AHEAD + level - 1
        }
    }

    /// Fills frame `i` with `pos` in `slot`: generates its children, and starts loading what
    /// each of them will be looked up in: its lower-layer table entry, or its memo entry.
    fn fill<I: Indexer<G = G>, L: Lower + ?Sized>(
        &mut self,
        i: usize,
        cx: &Cx<'_, I, L>,
        slot: u64,
        pos: &G,
    ) {
        let layer = cx.layer;
        while self.frames.len() <= i {
            self.frames.push(Frame {
                slot: 0,
                children: Children::new(),
                cursor: 0,
                best: i32::MIN,
                slots: [0; MAX_MOVES],
                layers: [OVER; MAX_MOVES],
            });
        }
        let f = &mut self.frames[i];
        f.slot = slot;
        f.cursor = 0;
        f.best = i32::MIN;
        f.children.clear();
        place_children(cx.ix, pos, &mut f.children, &mut f.layers, &mut f.slots);
        for i in 0..f.children.len() {
            let l = f.layers[i];
            if l == OVER {
                continue;
            }
            let s = f.slots[i];
            debug_assert!(
                l <= layer,
                "a move raised the layer from {layer} to {l}: {:?}",
                f.children.as_slice()[i]
            );
            if l < layer {
                cx.lower.prefetch(l, s);
            } else {
                crate::memory::prefetch(&cx.memo[s as usize]);
            }
        }
    }
}

/// What every step of a layer's walk reads.
struct Cx<'a, I: Indexer, L: Lower + ?Sized> {
    ix: &'a I,
    layer: u32,
    lower: &'a L,
    memo: &'a [AtomicI16],
}

impl<I: Indexer, L: Lower + ?Sized> Clone for Cx<'_, I, L> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<I: Indexer, L: Lower + ?Sized> Copy for Cx<'_, I, L> {}

/// Computes `F` of every slot of an acyclic layer. See the module docs of `retro`.
///
/// The single process is the split build's one rank: the same bodies ([`walk_range`],
/// [`stage_units`]) over the whole layer, so that the two cannot drift apart.
pub(super) fn solve<I: Indexer, L: Lower + ?Sized>(
    ix: &I,
    layer: u32,
    lower: &L,
    watch: Option<&dyn LayerWatch>,
) -> Result<Vec<i16>, LayerError> {
    let len = ix.layer_len(layer);
    let n = usize::try_from(len).expect("layer too large for this machine");
    let memo = new_memo(layer, n)?;
    if let Some(schedule) = ix.schedule(layer)? {
        for stage in 0..schedule.stages() {
            // A later stage reads every value of the earlier ones: stop between stages.
            if watch::stopped(watch) {
                break;
            }
            let units = 0..schedule.units(stage);
            stage_units::<Uncounted>(layer, lower, &memo, &*schedule, stage, units, watch);
        }
    } else {
        walk_range(ix, layer, lower, &memo, 0..len, watch);
    }
    watch::finished(watch, into_values(memo))
}

/// One position of a scheduled layer waiting in the pipeline: its slot and its moves.
struct Pending {
    slot: u64,
    moves: FixedVec<Placed>,
}

/// Computes and stores `F` of a pending position, all of whose children are known.
///
/// # Panics
/// When a child in this layer is not known yet: the schedule broke its promise (a value read
/// there would be wrong, so this is checked in release builds too).
#[inline]
fn evaluate<L: Lower + ?Sized>(layer: u32, lower: &L, memo: &[AtomicI16], p: &Pending) {
    let mut best = i32::MIN;
    for m in p.moves.as_slice() {
        let v = if m.layer == OVER {
            m.gain
        } else {
            let next = if m.layer < layer {
                lower.value(m.layer, m.slot)
            } else {
                let known = load(memo, m.slot);
                assert!(
                    known != UNKNOWN,
                    "the schedule of layer {layer} visits slot {} before its child in slot {}",
                    p.slot,
                    m.slot
                );
                i32::from(known)
            };
            m.gain + if m.turn_passed { -next } else { next }
        };
        best = best.max(v);
    }
    let v = if p.moves.is_empty() {
        0
    } else {
        to_entry(best)
    };
    memo[p.slot as usize].store(v, Ordering::Relaxed);
}

/// Computes and memoises `F` of the root in frame `root` (already filled) and of every internal
/// descendant not yet known, depth first. A root computed meanwhile (as a descendant of an
/// earlier root) is left as it is: its value is the same.
fn walk<I: Indexer, L: Lower + ?Sized>(cx: &Cx<'_, I, L>, stack: &mut Stack<I::G>, root: usize) {
    let Cx {
        ix,
        layer,
        lower,
        memo,
    } = *cx;
    if load(memo, stack.frames[root].slot) != UNKNOWN {
        return;
    }
    // A path of distinct slots is at most `len` long, so a deeper walk must be going round a cycle.
    let max_depth = ix.layer_len(layer) as usize;
    let mut level = 0;
    loop {
        let top = &mut stack.frames[Stack::<I::G>::at(root, level)];
        if top.cursor == top.children.len() {
            // Every child seen: the frame's value is final.
            let v = if top.children.is_empty() {
                0
            } else {
                to_entry(top.best)
            };
            memo[top.slot as usize].store(v, Ordering::Relaxed);
            if level == 0 {
                return;
            }
            level -= 1;
            let parent = &mut stack.frames[Stack::<I::G>::at(root, level)];
            let c = &parent.children.as_slice()[parent.cursor];
            let cv = if c.turn_passed {
                -i32::from(v)
            } else {
                i32::from(v)
            };
            parent.best = parent.best.max(cv);
            parent.cursor += 1;
            continue;
        }
        let i = top.cursor;
        let (gain, passed) = {
            let c = &top.children.as_slice()[i];
            (c.gain, c.turn_passed)
        };
        let slot = top.slots[i];
        let l = top.layers[i];
        // The child's F, seen from the mover: negated when the turn passed.
        let signed = |f: i32| if passed { -f } else { f };
        if l == OVER {
            // A finished game is worth nothing more.
            top.best = top.best.max(gain);
            top.cursor += 1;
        } else if l < layer {
            top.best = top.best.max(gain + signed(lower.value(l, slot)));
            top.cursor += 1;
        } else {
            debug_assert_eq!(
                gain, 0,
                "a move that wins something stayed in layer {layer}"
            );
            let known = load(memo, slot);
            if known != UNKNOWN {
                top.best = top.best.max(signed(i32::from(known)));
                top.cursor += 1;
            } else {
                let next = top.children.as_slice()[i].next;
                assert!(
                    level < max_depth,
                    "layer {layer} has a cycle through {next:?}, but the game says CAN_CYCLE = false"
                );
                level += 1;
                stack.fill(AHEAD + level - 1, cx, slot, &next);
            }
        }
    }
}

// The bodies below serve both the single process (`solve`, over the whole layer) and one rank of
// a split build (`split`, over its share, into a memo of the whole layer that the ranks complete
// by exchanging what each computed).

/// A memo of `n` slots of layer `layer`, every one not computed yet.
pub(super) fn new_memo(layer: u32, n: usize) -> Result<Vec<AtomicI16>, AllocError> {
    huge_vec(
        n,
        || format!("layer {layer}'s values"),
        || AtomicI16::new(UNKNOWN),
    )
}

/// The walk from every slot of `slots` (whole chunks, from a multiple of `CHUNK`) that is not
/// known yet, in parallel over the chunks. It may also compute slots outside the range
/// (descendants): their values are right, and a rank takes only its range's.
pub(super) fn walk_range<I: Indexer, L: Lower + ?Sized>(
    ix: &I,
    layer: u32,
    lower: &L,
    memo: &[AtomicI16],
    slots: std::ops::Range<u64>,
    watch: Option<&dyn LayerWatch>,
) {
    let cx = Cx {
        ix,
        layer,
        lower,
        memo,
    };
    let from = slots.start as usize;
    let chunks = ((slots.end - slots.start) as usize).div_ceil(CHUNK);
    (0..chunks)
        .into_par_iter()
        .for_each_init(Stack::new, |stack, c| {
            if watch::stopped(watch) {
                return;
            }
            let start = from + c * CHUNK;
            let end = (start + CHUNK).min(slots.end as usize);
            // Roots are filled into the ring in turn; the one filled AHEAD roots ago, in the
            // frame about to be reused, is walked first.
            let mut started = 0usize;
            ix.for_each_position(
                layer,
                start as u64..end as u64,
                &mut |slot| load(memo, slot) == UNKNOWN,
                &mut |slot, pos| match pos {
                    Some(pos) => {
                        debug_assert_eq!(
                            ix.index(&pos),
                            slot,
                            "position({layer}, {slot}) = {pos:?} indexes elsewhere"
                        );
                        let i = started % AHEAD;
                        if started >= AHEAD {
                            walk(&cx, stack, i);
                        }
                        stack.fill(i, &cx, slot, &pos);
                        started += 1;
                    }
                    None => memo[slot as usize].store(0, Ordering::Relaxed),
                },
            );
            for k in started.saturating_sub(AHEAD)..started {
                walk(&cx, stack, k % AHEAD);
            }
            watch::advance(watch, (end - start) as u64);
        });
}

/// What [`stage_units`] keeps of the slots a unit visits: all of them, in order, for a rank that
/// sends its values to the others (`Vec<u64>`), or nothing for the single process
/// ([`Uncounted`]), which would only drop them.
pub(super) trait Visited: Default + Send {
    /// Notes that `slot` was visited.
    fn note(&mut self, slot: u64);
}

impl Visited for Vec<u64> {
    #[inline]
    fn note(&mut self, slot: u64) {
        self.push(slot);
    }
}

/// Keeps nothing (a zero-sized record: collecting a unit's costs no allocation).
#[derive(Default)]
pub(super) struct Uncounted;

impl Visited for Uncounted {
    #[inline]
    fn note(&mut self, _: u64) {}
}

/// Solves the units `units` of `stage` of a [`Schedule`], in parallel: every internal child of a
/// position lies in an earlier stage, so it is in `memo` already when the position is evaluated,
/// and each position is evaluated once. As in the walk, the lookups of a position are started
/// when it arrives and read [`STAGE_AHEAD`] positions later. Returns what `V` kept of each unit's
/// slots, in the order of `units`.
pub(super) fn stage_units<V: Visited>(
    layer: u32,
    lower: &(impl Lower + ?Sized),
    memo: &[AtomicI16],
    schedule: &dyn Schedule,
    stage: usize,
    units: std::ops::Range<usize>,
    watch: Option<&dyn LayerWatch>,
) -> Vec<V> {
    let new_ring = || -> Vec<Pending> {
        (0..STAGE_AHEAD)
            .map(|_| Pending {
                slot: 0,
                moves: FixedVec::new(),
            })
            .collect()
    };
    units
        .into_par_iter()
        .map_init(new_ring, |ring, unit| {
            let mut started = 0usize;
            let mut visited = 0u64;
            let mut kept = V::default();
            if watch::stopped(watch) {
                return kept;
            }
            schedule.for_each(stage, unit, &mut |slot, moves| {
                visited += 1;
                kept.note(slot);
                let Some(moves) = moves else {
                    memo[slot as usize].store(0, Ordering::Relaxed);
                    return;
                };
                let p = &mut ring[started % STAGE_AHEAD];
                if started >= STAGE_AHEAD {
                    evaluate(layer, lower, memo, p);
                }
                p.slot = slot;
                p.moves.clear();
                for m in moves {
                    p.moves.push(*m);
                    if m.layer < layer {
                        lower.prefetch(m.layer, m.slot);
                    } else if m.layer != OVER {
                        crate::memory::prefetch(&memo[m.slot as usize]);
                    }
                }
                // The value will be stored there: start fetching the line too.
                crate::memory::prefetch(&memo[slot as usize]);
                started += 1;
            });
            for k in started.saturating_sub(STAGE_AHEAD)..started {
                evaluate(layer, lower, memo, &ring[k % STAGE_AHEAD]);
            }
            watch::advance(watch, visited);
            kept
        })
        .collect()
}
