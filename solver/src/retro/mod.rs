//! Retrograde analysis, layer by layer, over an indexable game.
//!
//! A [`Game`]'s layer number never increases along a play, and every move that wins anything
//! strictly lowers it. So the exact future value `F` (see [`crate::game`]) of every position of
//! layer `k` depends only on the positions of layer `k` and on the already known values of lower
//! layers. [`solve_layer`] computes one layer's table, given an [`Indexer`] (a perfect index of
//! the layer's positions) and a lookup of lower-layer values (the caller's earlier tables). The
//! caller solves layers `0, 1, 2, …` in order: the dependency order of endgame tables.
//!
//! # Edges
//!
//! For a position `x` of layer `k`, each child `c` is one of:
//!
//! - an **exit**, when `c.next` lies in a lower layer or the game is over there. Its value, from
//!   the point of view of the side to move at `x`, is known at once:
//!   `c.gain ± F(c.next)` (minus when `c.turn_passed`), with `F(c.next)` from the lower tables,
//!   or just `c.gain` when `c.next` is over;
//! - an **internal edge** to a position `y` of layer `k` (its gain is 0 by the trait's contract).
//!   Its value is `F(y)`, or `-F(y)` when the turn passed: turns need not alternate, so the side to
//!   move at `y` may be the side to move at `x`.
//!
//! A slot whose position has no children (the game is over) has `F = 0`.
//!
//! # Two algorithms
//!
//! [`solve_layer`] picks one from [`Game::CAN_CYCLE`]:
//!
//! - **Acyclic layers** (`CAN_CYCLE == false`): the internal edges form a DAG, so
//!   `F(x) = max over children` is a plain recursion. It runs as a memoised depth-first minimax
//!   inside the layer, in parallel over chunks of slots, with the memo a shared array of atomics
//!   (one sentinel value means "not computed yet"). Several threads may compute the same slot; the
//!   value is a function of the slot, so the race is harmless. The depth-first walk keeps its own
//!   explicit stack (one reused frame per level per worker), so it neither allocates per slot nor
//!   overflows the thread's stack: its depth is bounded by the longest internal path of the layer
//!   (a walk deeper than the layer has slots proves a cycle, and panics). Time: one child
//!   generation per slot (a few more where threads race), `O(slots + edges)` in all, spread over
//!   the threads. Memory: 2 bytes per slot, plus a stack of `MAX_MOVES` children per level of the
//!   deepest walk per thread.
//!
//!   When the [`Indexer`] offers a [`Schedule`] (stages such that every internal edge leads to an
//!   earlier stage, for instance by a potential that rises along every move inside a layer), the
//!   walk is not needed: the stages are solved in order, the units of each in parallel, and
//!   every position is evaluated exactly once from children that are all known (one that is not
//!   means a broken schedule, and panics rather than give a wrong value). The schedule also
//!   chooses the order of the positions, so it can put the lookups of successive positions near
//!   each other in memory.
//!
//! - **Cyclic layers** (`CAN_CYCLE == true`): the exact fixpoint of docs/rules.md §8.5 for *all
//!   thresholds together*, by value iteration from 0 in passes over the layer that regenerate the
//!   children, with about 4 bytes per slot and no stored graph (see "The lean cyclic algorithm"
//!   below). [`solve_layer_by_graph`] keeps the former algorithm, counters on the explicit
//!   in-layer graph in time linear in its size ("The cyclic algorithm"), as a check.
//!
//! # The cyclic algorithm
//!
//! §8.5 states the fixpoint for a fixed maximising player, South. Here values are relative to the
//! side to move at each node, and a slot may even stand for positions of either side (when the
//! indexer folds mirror images together), so "South" is not a property of a slot. The exact
//! statement is over the *doubled* graph: node `(x, 0)` is `x` with the maximiser `A` to move,
//! `(x, 1)` is `x` with the minimiser `B` to move; an internal edge `x → y` leads from `(x, p)` to
//! `(y, p ^ turn_passed)`; an exit of value `e` (for `x`'s mover) pays `A` the amount `e` at
//! `(x, 0)` and `-e` at `(x, 1)`. §8.5 on that graph defines `W_t` for each threshold `t`, and
//! `F(x) = max { t : (x, 0) ∈ W_t }`.
//!
//! Rather than work on the doubled graph, we name its two halves for a positive threshold `u`:
//!
//! ```text
//! P_u = { x : (x, 0) ∈ W_u } = { x : F(x) >= u }     the mover can force at least u
//! N_u = { x : (x, 1) ∈ W_u } = { x : F(x) <= -u }    the opponent can force at least u
//! ```
//!
//! and read §8.5's set equations off the doubled graph, in terms of each node's own mover:
//!
//! ```text
//! x ∈ P_u  ⇐  some exit  e >= u,
//!             or some internal edge to y ∈ P_u that keeps the turn,
//!             or some internal edge to y ∈ N_u that passes it;
//! x ∈ N_u  ⇐  x has a child, every exit e <= -u,
//!             every internal edge that keeps the turn leads into N_u,
//!             and every internal edge that passes it leads into P_u.
//! ```
//!
//! This is the crux with turns that need not alternate: a threshold is always stated for the
//! mover *at that node*. An edge that keeps the turn carries "the mover gets at least `u`" to the
//! same statement at the target; an edge that passes it turns it into "the target's mover gets at
//! most `-u`". So `P_u` and `N_u` (same `u`) are computed together, and nothing else couples.
//! When every slot carries its absolute side to move, the doubled graph is just two mirror copies
//! of the game; when an index folds a position with its mirror image, a cycle may return to a slot
//! with the other player to move, and the doubled graph handles that too.
//!
//! For `u > 0` both sets are *least* fixpoints (one joint least fixpoint of the pair): a player
//! who wants at least `u > 0` must actually reach a good exit, because staying in the layer forever
//! yields 0 < `u`. This is the attractor of a reachability game, and it is exactly §8.5 for `t > 0`
//! on both halves of the doubled graph.
//!
//! §8.5's *greatest* fixpoints for `t <= 0` need no separate pass. The greatest fixpoint `W_t` for
//! `t <= 0` is the complement of the least fixpoint of the dual game, in which the minimiser tries
//! to force a payoff below `t`, that is at least `1 - t > 0` for itself (values are integers),
//! and for that player an endless stay (worth 0 >= `t` to the maximiser) is a loss. On the doubled
//! graph that dual attractor is `{ (x, 0) : x ∈ N_{1-t} } ∪ { (x, 1) : x ∈ P_{1-t} }` (the
//! rules match one for one). So `F(x) >= t ⇔ x ∉ N_{1-t}` for `t <= 0`, and the positive
//! thresholds determine everything:
//!
//! ```text
//! F(x) = u    when u is the largest u with x ∈ P_u,
//! F(x) = -u   when u is the largest u with x ∈ N_u,
//! F(x) = 0    when x lies in no P_u and no N_u (neither side can force a gain: endless play).
//! ```
//!
//! Only a slot's *best* exit matters (the mover reaches `u` by an exit iff the best one is
//! `>= u`; every exit is `<= -u` iff the best one is), so the sets change only at thresholds `u`
//! equal to `|best exit|` of some slot, and every value is `±` such a `u`, or 0.
//!
//! **Counters.** Both sets shrink as `u` grows. So the algorithm visits the thresholds in
//! *decreasing* order and grows the sets incrementally: going from `u'` down to `u < u'`, the
//! least fixpoint for `u` is the closure, under the `u` rules, of the least fixpoint for `u'`
//! (which it contains). Each slot keeps one counter: the number of its internal edges not yet
//! "satisfied" for `N` (a turn-keeping edge is satisfied when its target joins `N`, a passing edge
//! when its target joins `P`). At threshold `u` the algorithm
//!
//! 1. adds to `P` every slot whose best exit is `u`;
//! 2. adds to `N` every slot whose best exit is `-u` and whose counter is already 0;
//! 3. propagates along predecessor lists: when `y` joins `P`, a predecessor by a turn-keeping edge
//!    joins `P`, and a predecessor by a passing edge decrements its counter; when `y` joins `N`, a
//!    predecessor by a passing edge joins `P`, and one by a turn-keeping edge decrements its
//!    counter; a slot whose counter reaches 0 joins `N` if its best exit is `<= -u` (or it has no
//!    exit; a slot with no child at all counts as having the exit 0).
//!
//! A slot's value is fixed when it joins a set: `u` for `P`, `-u` for `N`.
//!
//! **Termination and cost.** Each slot joins each set at most once, and each internal edge is
//! looked at once when its target joins `P` and once when it joins `N`. So the whole fixpoint,
//! over all thresholds, costs `O(slots + edges)` after building the graph, not
//! `O(thresholds × edges)`.
//!
//! **Exactness.** Every join is derived by a rule of the current threshold `u` from slots
//! already in the sets, and the rules of larger thresholds are stricter, so (by induction on the
//! order of joins) the sets never leave the least fixpoint for `u`. Conversely, when the
//! propagation stops no rule of `u` can add a slot: a slot's exit rules are checked when `u`
//! reaches its best exit, and its edge rules whenever one of its successors joins. So the sets are
//! closed under the rules: a fixpoint inside the least one, hence the least one.
//!
//! Building the graph (one child generation per slot, the exit values, the successor lists in CSR
//! form, the predecessor lists by inverting them) runs in parallel; the propagation is sequential
//! and linear. Memory at the peak: about 25 bytes per slot plus 8 bytes per internal edge (edge
//! entries are `u32` slots, one bit of which marks a passing edge, so a cyclic layer may have at
//! most 2^31 slots).
//!
//! # The lean cyclic algorithm
//!
//! The graph above costs about 70 bytes per slot on the real games (417 M slots at Djenon-aboure
//! 6 holes, 24 seeds: 31 GiB). Without predecessors (the games cannot unplay a move), the same
//! fixpoint is reached by passes that regenerate each position's children.
//!
//! **All thresholds in one number.** Let `a(x)` be the largest `u > 0` with `x ∈ P_u` (0 if
//! none) and `b(x)` the largest with `x ∈ N_u`. The sets shrink as `u` grows, so `a` and `b`
//! describe them all, and as `P_u ∩ N_u = ∅` at most one of `a(x)`, `b(x)` is positive: the
//! single number `v(x) = a(x) - b(x)` holds every `P_u` and `N_u` (it is `F(x)` at the end). One
//! application of the rules of every `u` at once, to sets given by `v`, reads (write `s` for a
//! child's `v(y)`, or `-v(y)` when the edge passes the turn, and `e` for the best exit,
//! `-∞` when there is none):
//!
//! ```text
//! new a(x) = max(0, e, max over internal edges of max(s, 0))       (x ∈ P_u for u <= this)
//! new b(x) = max(0, -max(e, max over internal edges of min(s, 0)))  (x ∈ N_u for u <= this)
//! ```
//!
//! and with `m = max(e, max s)` both are one: `m > 0` gives `a = m, b = 0`; `m <= 0` gives
//! `a = 0, b = -m`. So `new v(x) = m`: **the rules of all thresholds together are plain
//! minimax, `v(x) = max over children`**, and the joint least fixpoint is its least fixpoint in
//! the order "`v` moves away from 0" (`v <= w` when `0 <= v <= w` or `w <= v <= 0`), reached
//! by iterating from `v = 0` everywhere (the bottom of that order, where every set is empty).
//! A slot with no child keeps 0.
//!
//! **Exactness.** The update is monotone in that order (it is the union of monotone set
//! operators). Iterating in place, in any order, with any interleaving of threads, every value
//! computed from values at or below the least fixpoint is at or below it (induction over the
//! updates), so no value ever overshoots `F`, and each slot's value only moves away from 0 (a
//! debug assertion checks it). When a whole pass changes nothing, the values are a fixpoint (every
//! slot was recomputed from values that did not change during the pass), at or below the least
//! one, hence the least one: exactly `F`, whatever the order or the number of threads. It
//! terminates: values are bounded by the best exits, and every pass but the last moves one.
//!
//! **Skipping settled slots.** A slot is marked final, and no longer recomputed, when its
//! value can no longer change: it has no internal edge (its value is its best exit); every
//! internal edge led to a final slot when it was computed (its inputs are fixed); or its value is
//! negative and equals its best exit (it can only fall, and `max` never goes below the best exit).
//! A final mark is set with `Release` after the value is stored and read with `Acquire` before
//! it, so a slot read as final is read with its final value.
//!
//! **Cost.** The first pass generates every slot's children and looks up the lower layers; it
//! keeps the best exit (2 bytes per slot), so later passes only generate the live slots'
//! children and read this layer's values. The number of passes is about the longest chain of
//! forced internal moves that runs against the slot order, plus one. In Djenon-aboure the live
//! slots shrink fast from pass to pass; in Walak-pussa the slots on cycles or worth 0 by endless
//! play stay live, and every pass visits them (docs/performance.md, "Lean cyclic layers" and
//! "Figures behind comments", has the counts). Memory: 2 bytes of value, 2 of best exit and a live bit per
//! slot ([`layer_working_bytes`]), about 4.1 bytes per slot; the result is the value array.

use crate::game::Game;

mod acyclic;
mod cyclic;
mod entry;
mod index;
mod passes;
pub mod split;
#[cfg(test)]
mod tests;
mod watch;

pub use index::{placed_moves, Indexer, Lower, Placed, Schedule, OVER};
pub use split::{solve_layer_split, Collective};
pub use watch::{LayerError, LayerWatch, Stoppable};

/// Solves one layer: `F` (future value of the side to move, see [`crate::game`]) of every slot.
///
/// `lower` returns the exact `F` of any live position in a lower layer (the caller's
/// already-built tables); finished games are worth 0 and never looked up. `progress`, when
/// given, is called from worker threads with the number of slots just finished, in chunks of a
/// few thousand; the calls add up to `layer_len(layer)`. (In a cyclic layer they count the first
/// pass; the shorter later passes follow the last call.)
///
/// Runs on the current rayon thread pool (use `ThreadPool::install` to choose one). The result
/// does not depend on the number of threads. Slots whose position is `None` get 0. See the module
/// docs for the algorithms.
///
/// `watch` (when given) hears of the slots done, from worker threads, in chunks of a few
/// thousand, and is asked before each chunk whether to stop (see [`LayerWatch`]).
///
/// # Panics
///
/// When a value does not fit in `-32767..=32767`; when a game with `CAN_CYCLE == false` has a
/// cycle in this layer; and (in debug builds) when the game breaks the [`Game`] contract (an
/// internal edge with a gain, a child in a higher layer).
///
/// # Errors
/// [`LayerError::Alloc`] when the layer's arrays (sized by its length, [`layer_working_bytes`])
/// or its [`Schedule`] cannot be allocated: the caller reports it, nothing aborts.
/// [`LayerError::Stopped`] when `watch` asked it to stop.
pub fn solve_layer<I: Indexer, L: Lower + ?Sized>(
    ix: &I,
    layer: u32,
    lower: &L,
    watch: Option<&dyn LayerWatch>,
) -> Result<Vec<i16>, LayerError> {
    if <I::G as Game>::CAN_CYCLE {
        passes::solve(ix, layer, lower, watch)
    } else {
        acyclic::solve(ix, layer, lower, watch)
    }
}

/// As [`solve_layer`], but a cyclic layer is solved by the counter algorithm on the explicit
/// in-layer graph (see the module docs), which [`solve_layer`] used before the lean passes.
///
/// It needs about 25 bytes per slot plus 8 per internal edge, and is kept as an independent
/// check of the lean algorithm: both must give the same values on every layer. Acyclic games
/// are solved as by [`solve_layer`].
///
/// # Panics
/// As [`solve_layer`], and when a cyclic layer has more than 2^31 slots.
///
/// # Errors
/// As [`solve_layer`] for an acyclic game. The graph of a cyclic layer is allocated as it is
/// found (its edge count is not known in advance), infallibly: this is a check for tests, not
/// what a real build runs.
pub fn solve_layer_by_graph<I: Indexer, L: Lower + ?Sized>(
    ix: &I,
    layer: u32,
    lower: &L,
    watch: Option<&dyn LayerWatch>,
) -> Result<Vec<i16>, LayerError> {
    if <I::G as Game>::CAN_CYCLE {
        cyclic::solve(ix, layer, lower, watch)
    } else {
        acyclic::solve(ix, layer, lower, watch)
    }
}

/// The heap memory [`solve_layer`] takes for a layer of `slots` slots of game `G`, in bytes,
/// beyond the lower layers' tables and the index's [`Schedule`]: the memo of 2 bytes per slot of
/// an acyclic layer (taken over as the result), or the values, best exits and live bits of the
/// lean cyclic passes (about 4.1 bytes per slot, the result included).
pub fn layer_working_bytes<G: Game>(slots: u64) -> u64 {
    if G::CAN_CYCLE {
        passes::working_bytes(slots)
    } else {
        slots.saturating_mul(2)
    }
}
