//! How the layer builders see a game: a perfect index of each layer's positions ([`Indexer`]),
//! optionally in stages ([`Schedule`], with the moves [`Placed`]), and the values of the layers
//! below ([`Lower`]).

use crate::game::{Children, FixedVec, Game, MAX_MOVES};
use crate::memory::AllocError;

/// A perfect index of the positions of each layer.
///
/// Layers and slots are dense: layer `k` has slots `0..layer_len(k)`. An index may fold together
/// positions that the game treats as equivalent (same future value, for instance mirror images
/// with the side to move swapped), and may leave slots unused.
pub trait Indexer: Sync {
    /// The game.
    type G: Game;

    /// Number of index slots in `layer`.
    fn layer_len(&self, layer: u32) -> u64;

    /// The slot of a position (in layer `pos.layer()`). Positions that the game treats as
    /// equivalent (same future value) may share a slot.
    fn index(&self, pos: &Self::G) -> u64;

    /// The position in a slot, or `None` when the slot holds no position the search can meet (an
    /// unreachable or non-normalised slot; its value is then unspecified: store 0).
    fn position(&self, layer: u32, index: u64) -> Option<Self::G>;

    /// Calls `f(slot, position(layer, slot))` for every slot of `slots`, in increasing order, for
    /// which `wanted(slot)` is true when its turn comes.
    ///
    /// The default unranks each wanted slot with [`Indexer::position`]; an index that can step
    /// from one slot's position to the next more cheaply than it unranks should override it
    /// (the acyclic builder visits every slot this way).
    fn for_each_position(
        &self,
        layer: u32,
        slots: std::ops::Range<u64>,
        wanted: &mut dyn FnMut(u64) -> bool,
        f: &mut dyn FnMut(u64, Option<Self::G>),
    ) {
        for slot in slots {
            if wanted(slot) {
                f(slot, self.position(layer, slot));
            }
        }
    }

    /// A [`Schedule`] of `layer`: an order in stages in which every internal edge leads to an
    /// earlier stage. The acyclic builder then needs no depth-first walk. The default is none;
    /// an index for a game with a potential that strictly rises along every internal edge can
    /// offer one (stage `s` holding the positions of the `s`-th largest potential).
    ///
    /// # Errors
    /// [`AllocError`] when the schedule's tables cannot be allocated (their size grows with the
    /// layer).
    fn schedule(&self, layer: u32) -> Result<Option<Box<dyn Schedule + '_>>, AllocError> {
        let _ = layer;
        Ok(None)
    }

    /// The heap memory [`Indexer::schedule`] takes for `layer`, in bytes, for the build's memory
    /// estimate (0 when there is no schedule).
    fn schedule_bytes(&self, layer: u32) -> u64 {
        let _ = layer;
        0
    }
}

/// Appends the children of `pos` (a live position) to `out`, which the caller has cleared, and
/// notes where each one lies: `layers[i]` and `slots[i]` are child `i`'s layer and slot, or
/// `layers[i] == OVER` when the game is over there (nothing to look up; the slot is then
/// meaningless).
#[inline]
pub(super) fn place_children<I: Indexer + ?Sized>(
    ix: &I,
    pos: &I::G,
    out: &mut Children<I::G>,
    layers: &mut [u32; MAX_MOVES],
    slots: &mut [u64; MAX_MOVES],
) {
    pos.children(out);
    for (i, c) in out.as_slice().iter().enumerate() {
        if c.next.is_over() {
            layers[i] = OVER;
        } else {
            layers[i] = c.next.layer();
            slots[i] = ix.index(&c.next);
        }
    }
}

/// The positions of one layer in stages, for the acyclic builder: every internal edge (a move to
/// a position of the same layer) leads from a stage to an earlier one. The builder solves the
/// stages in order, the units of each in parallel, and finds every child already known. The
/// schedule hands over each position's moves already placed ([`Placed`]), so it can generate
/// them in whatever way suits its order (sharing work between successive positions), and it
/// chooses the order, so it can put the lookups of successive positions near each other in
/// memory.
pub trait Schedule: Sync {
    /// The number of stages.
    fn stages(&self) -> usize;

    /// The number of units of work of `stage` (run in parallel, in any order).
    fn units(&self, stage: usize) -> usize;

    /// Calls `f(slot, moves)` for each slot of unit `unit` of `stage`, with the moves of its
    /// position, or `None` for a slot that holds no live position (as [`Indexer::position`]).
    /// Over all stages and units, every slot of the layer comes exactly once.
    fn for_each(&self, stage: usize, unit: usize, f: &mut dyn FnMut(u64, Option<&[Placed]>));
}

/// One move as the scheduled builder sees it: what it wins, whether the turn passes, and where it
/// leads (`layer` is [`OVER`] when the game is over there; `slot` is then meaningless).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Placed {
    /// Net stake the mover wins by the move ([`crate::Child::gain`]).
    pub gain: i32,
    /// Whether the turn passes ([`crate::Child::turn_passed`]).
    pub turn_passed: bool,
    /// The layer of the position after the move, or [`OVER`].
    pub layer: u32,
    /// Its slot in that layer.
    pub slot: u64,
}

/// The moves of `pos` ([`Game::children`]), each live child indexed by `ix`: for a [`Schedule`]
/// that has nothing faster.
pub fn placed_moves<I: Indexer + ?Sized>(ix: &I, pos: &I::G, out: &mut FixedVec<Placed>) {
    let mut kids = Children::new();
    let (mut layers, mut slots) = ([OVER; MAX_MOVES], [0u64; MAX_MOVES]);
    place_children(ix, pos, &mut kids, &mut layers, &mut slots);
    for (i, c) in kids.as_slice().iter().enumerate() {
        out.push(Placed {
            gain: c.gain,
            turn_passed: c.turn_passed,
            layer: layers[i],
            slot: slots[i],
        });
    }
}

/// The layer of a [`Placed`] move after which the game is over.
pub const OVER: u32 = u32::MAX;

/// The exact values of the layers below the one being solved (the tables built so far), by
/// layer and slot of the [`Indexer`].
///
/// Every closure `Fn(u32, u64) -> i32` is one; a table store can also implement
/// [`Lower::prefetch`], which the acyclic builder calls for all the lower-layer children of a
/// position before it asks for any of their values, so that their memory loads overlap.
pub trait Lower: Sync {
    /// `F` of the live position in `slot` of `layer` (a layer below the one being solved).
    fn value(&self, layer: u32, slot: u64) -> i32;

    /// A hint that [`Lower::value`] will soon be asked for this slot. The default does nothing.
    #[inline]
    fn prefetch(&self, layer: u32, slot: u64) {
        let _ = (layer, slot);
    }
}

impl<F: Fn(u32, u64) -> i32 + Sync> Lower for F {
    #[inline]
    fn value(&self, layer: u32, slot: u64) -> i32 {
        self(layer, slot)
    }
}
