//! What both layer builders share: a child seen as an exit or an internal edge ([`Edge`]), and
//! values narrowed to table entries and kept in memo arrays.

use std::sync::atomic::{AtomicI16, Ordering};

use super::index::Lower;
use crate::game::{Child, Game};

/// Slots per unit of parallel work (and per progress report).
pub(super) const CHUNK: usize = 1 << 12;

/// The largest value magnitude a table holds; `i16::MIN` stays free as a sentinel.
pub(super) const MAX_VALUE: i32 = i16::MAX as i32;

/// What a child is, seen from its parent in `layer`.
pub(super) enum Edge {
    /// The value of the move for the parent's mover, known without looking inside the layer.
    Exit(i32),
    /// A move to a live position of the same layer; the value is `±F(next)`.
    Internal,
}

/// Classifies a child of a position of `layer`, computing its value when it is an exit. `slot`
/// gives the child's slot in its own layer (only asked for live children).
#[inline]
pub(super) fn classify<G: Game, L: Lower + ?Sized>(
    c: &Child<G>,
    layer: u32,
    lower: &L,
    slot: impl FnOnce() -> u64,
) -> Edge {
    let next_layer = c.next.layer();
    debug_assert!(
        next_layer <= layer,
        "a move raised the layer from {layer} to {next_layer}: {c:?}"
    );
    if c.next.is_over() {
        // A finished game is worth nothing more.
        debug_assert!(
            next_layer < layer || c.gain == 0,
            "a move that wins something stayed in layer {layer}: {c:?}"
        );
        Edge::Exit(c.gain)
    } else if next_layer < layer {
        let f = lower.value(next_layer, slot());
        Edge::Exit(c.gain + if c.turn_passed { -f } else { f })
    } else {
        debug_assert_eq!(
            c.gain, 0,
            "a move that wins something stayed in layer {layer}: {c:?}"
        );
        Edge::Internal
    }
}

/// Narrows a value to a table entry.
///
/// # Panics
/// When it does not fit in `-MAX_VALUE..=MAX_VALUE`.
#[inline]
pub(super) fn to_entry(v: i32) -> i16 {
    assert!(
        (-MAX_VALUE..=MAX_VALUE).contains(&v),
        "value {v} does not fit in a table entry"
    );
    v as i16
}

/// Unwraps a finished memo array without copying (in-place collect: same size and alignment).
pub(super) fn into_values(memo: Vec<AtomicI16>) -> Vec<i16> {
    memo.into_iter().map(|a| a.into_inner()).collect()
}

/// Loads a memo entry (relaxed: each entry is written once with its final value, or several
/// times with the same value, and nothing else is published through it).
#[inline]
pub(super) fn load(memo: &[AtomicI16], slot: u64) -> i16 {
    memo[slot as usize].load(Ordering::Relaxed)
}
