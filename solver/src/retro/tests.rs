//! Tests of the retrograde solvers against independent oracles, on toy games defined here:
//!
//! - `Digits`: acyclic, with extra turns (moves that keep the turn), stakes, game-over slots and
//!   losing moves;
//! - `Track`: a hand-made cyclic game: an odd cycle of turn-passing moves, self-loops, forced
//!   cycles with and without exits, exits of both signs, an unused slot;
//! - `Rand`: random layered graphs from a fixed-start generator (cycles, self-loops, multi-edges,
//!   random exits and turn passing, two positions per slot), cyclic or acyclic.
//!
//! Oracles: a naive iteration of the §8.5 set equations on the explicit doubled graph (least
//! fixpoints for `t > 0`, greatest for `t <= 0`, exactly as RULES states them); a plain memoised
//! minimax for acyclic games; and, for small cyclic games, a plain depth-first minimax over the
//! whole game that scores a repetition on the current path as 0 (exact at its root, RULES §2.10).

use std::collections::{BTreeSet, HashMap};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use super::*;
use crate::game::{Child, Children, FixedVec, Game};

// ---------------------------------------------------------------------------------------------
// Harness

/// A layer solver: `solve_layer`, or one of the two algorithms called directly.
type LayerFn<I> = fn(&I, u32, &dyn Lower, Option<&(dyn Fn(u64) + Sync)>) -> Vec<i16>;

/// Solves layers `0..=top` in order with `solve`, each using the tables built before it.
fn solve_all<I: Indexer>(ix: &I, top: u32, solve: LayerFn<I>) -> Vec<Vec<i16>> {
    let mut tables: Vec<Vec<i16>> = Vec::new();
    for layer in 0..=top {
        let done = AtomicU64::new(0);
        let t = {
            let lower = |l: u32, slot: u64| {
                assert!(
                    l < layer,
                    "lower() asked for layer {l} while solving {layer}"
                );
                i32::from(tables[l as usize][slot as usize])
            };
            let progress = |k: u64| {
                done.fetch_add(k, Ordering::Relaxed);
            };
            solve(ix, layer, &lower, Some(&progress))
        };
        assert_eq!(t.len() as u64, ix.layer_len(layer));
        assert_eq!(
            done.load(Ordering::Relaxed),
            ix.layer_len(layer),
            "progress reports must add up"
        );
        tables.push(t);
    }
    tables
}

fn solve_layer_fn<I: Indexer>() -> LayerFn<I> {
    |ix, layer, lower, progress| solve_layer(ix, layer, lower, progress)
}

fn cyclic_fn<I: Indexer>() -> LayerFn<I> {
    |ix, layer, lower, progress| cyclic::solve(ix, layer, lower, progress)
}

fn acyclic_fn<I: Indexer>() -> LayerFn<I> {
    |ix, layer, lower, progress| acyclic::solve(ix, layer, lower, progress)
}

/// Asserts two sets of tables are equal, naming the first difference.
fn assert_tables_eq<I: Indexer>(ix: &I, got: &[Vec<i16>], want: &[Vec<i32>], what: &str) {
    for (layer, (g, w)) in got.iter().zip(want).enumerate() {
        for slot in 0..g.len() {
            if ix.position(layer as u32, slot as u64).is_some() {
                assert_eq!(
                    i32::from(g[slot]),
                    w[slot],
                    "{what}: layer {layer} slot {slot}: {:?}",
                    ix.position(layer as u32, slot as u64)
                );
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Oracle 1: RULES §8.5 verbatim, by naive iteration on the doubled graph.

#[derive(Clone, Copy)]
enum Mv {
    Exit(i32),
    Int(usize, bool),
}

/// Every layer by brute force, each from the brute-force values of the layers below.
fn brute_all<I: Indexer>(ix: &I, top: u32) -> Vec<Vec<i32>> {
    let mut tables: Vec<Vec<i32>> = Vec::new();
    for layer in 0..=top {
        let t = brute_layer(ix, layer, &|p: &I::G| {
            tables[p.layer() as usize][ix.index(p) as usize]
        });
        tables.push(t);
    }
    tables
}

/// One layer by §8.5. Node `(x, 0)` has the maximiser A to move, `(x, 1)` the minimiser B; an
/// edge that passes the turn switches between them; an exit of value `e` (for x's mover) pays A
/// `e` at `(x, 0)` and `-e` at `(x, 1)`. `F(x) = max { t : (x, 0) ∈ W_t }`.
fn brute_layer<I: Indexer>(ix: &I, layer: u32, lower: &dyn Fn(&I::G) -> i32) -> Vec<i32> {
    let n = ix.layer_len(layer) as usize;
    let mut moves: Vec<Vec<Mv>> = Vec::with_capacity(n);
    let mut thresholds = BTreeSet::from([0]);
    for slot in 0..n {
        let mut list = Vec::new();
        if let Some(pos) = ix.position(layer, slot as u64) {
            let mut kids = Children::new();
            pos.children(&mut kids);
            for c in kids.as_slice() {
                let sign = if c.turn_passed { -1 } else { 1 };
                if c.next.layer() < layer {
                    list.push(Mv::Exit(c.gain + sign * lower(&c.next)));
                } else if c.next.is_over() {
                    list.push(Mv::Exit(c.gain));
                } else {
                    assert_eq!(c.gain, 0);
                    list.push(Mv::Int(ix.index(&c.next) as usize, c.turn_passed));
                }
            }
        }
        if list.is_empty() {
            list.push(Mv::Exit(0)); // game over
        }
        for m in &list {
            if let Mv::Exit(e) = *m {
                thresholds.insert(e);
                thresholds.insert(-e);
            }
        }
        moves.push(list);
    }
    let mut f = vec![i32::MIN; n];
    for &t in &thresholds {
        // Least fixpoint from the empty set for t > 0, greatest from the full set for t <= 0.
        let mut w = vec![[t <= 0; 2]; n];
        loop {
            let mut next = w.clone();
            for x in 0..n {
                next[x][0] = moves[x].iter().any(|m| match *m {
                    Mv::Exit(e) => e >= t,
                    Mv::Int(y, passed) => w[y][passed as usize],
                });
                next[x][1] = moves[x].iter().all(|m| match *m {
                    Mv::Exit(e) => -e >= t,
                    Mv::Int(y, passed) => w[y][1 ^ passed as usize],
                });
            }
            if next == w {
                break;
            }
            w = next;
        }
        for x in 0..n {
            if w[x][0] {
                f[x] = f[x].max(t);
            }
        }
    }
    f
}

// ---------------------------------------------------------------------------------------------
// Oracle 2: memoised minimax (acyclic games only).

fn minimax<G: Game>(pos: &G, memo: &mut HashMap<u128, i32>) -> i32 {
    if let Some(&v) = memo.get(&pos.key()) {
        return v;
    }
    let mut kids = Children::new();
    pos.children(&mut kids);
    let v = kids
        .as_slice()
        .iter()
        .map(|c| {
            let f = minimax(&c.next, memo);
            c.gain + if c.turn_passed { -f } else { f }
        })
        .max()
        .unwrap_or(0);
    memo.insert(pos.key(), v);
    v
}

fn minimax_all<I: Indexer>(ix: &I, top: u32) -> Vec<Vec<i32>> {
    let mut memo = HashMap::new();
    (0..=top)
        .map(|l| {
            (0..ix.layer_len(l))
                .map(|s| ix.position(l, s).map_or(0, |p| minimax(&p, &mut memo)))
                .collect()
        })
        .collect()
}

// ---------------------------------------------------------------------------------------------
// Oracle 3: depth-first minimax scoring a repetition on the path as 0 (small cyclic games).

/// The exact value of `pos`: a fresh depth-first search rooted there. Memoised only per root:
/// a root's value is exact, and a position entered from a higher layer starts a fresh path,
/// because cycles never span layers.
fn first_cycle_root<I: Indexer>(ix: &I, pos: &I::G, roots: &mut HashMap<(u32, u64), i32>) -> i32 {
    let key = (pos.layer(), ix.index(pos));
    if let Some(&v) = roots.get(&key) {
        return v;
    }
    let v = first_cycle(ix, pos, false, &mut Vec::new(), roots);
    roots.insert(key, v);
    v
}

/// `F` of `pos` for its mover, given the path so far. Path entries are (slot, parity of turn
/// passes since the root): the same slot with the other side to move is a different node.
fn first_cycle<I: Indexer>(
    ix: &I,
    pos: &I::G,
    parity: bool,
    path: &mut Vec<(u64, bool)>,
    roots: &mut HashMap<(u32, u64), i32>,
) -> i32 {
    let layer = pos.layer();
    path.push((ix.index(pos), parity));
    let mut kids = Children::new();
    pos.children(&mut kids);
    let mut best = if kids.is_empty() { 0 } else { i32::MIN };
    for c in kids.as_slice() {
        let f = if c.next.layer() < layer {
            first_cycle_root(ix, &c.next, roots)
        } else if path.contains(&(ix.index(&c.next), parity ^ c.turn_passed)) {
            0
        } else {
            first_cycle(ix, &c.next, parity ^ c.turn_passed, path, roots)
        };
        best = best.max(c.gain + if c.turn_passed { -f } else { f });
    }
    path.pop();
    best
}

fn first_cycle_all<I: Indexer>(ix: &I, top: u32) -> Vec<Vec<i32>> {
    let mut roots = HashMap::new();
    (0..=top)
        .map(|l| {
            (0..ix.layer_len(l))
                .map(|s| {
                    ix.position(l, s)
                        .map_or(0, |p| first_cycle_root(ix, &p, &mut roots))
                })
                .collect()
        })
        .collect()
}

// ---------------------------------------------------------------------------------------------
// A deterministic generator (splitmix64): no dependency, same numbers everywhere.

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        mix(self.0)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }
}

fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

// ---------------------------------------------------------------------------------------------
// Toy game (a): `Digits`, acyclic.
//
// A position is a stake `s` (the layer) and a number `p < 4^d`, read as `d` base-4 digits.
// - Lowering one nonzero digit by 1 is an internal move (gain 0); it keeps the turn or passes it
//   depending on the digit's value and place. The digit sum falls, so layers are acyclic, and the
//   longest internal path is at most 3d moves.
// - Taking k in {1, 2} (k <= s) wins k, loses k or wins nothing (by a hash), passes the turn or
//   not (by a hash), and lands on a hashed number in layer s - k.
// - Stake 0, and every p = 5 (mod 13), is game over.

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Digits {
    s: u8,
    p: u32,
    d: u8,
}

impl Digits {
    fn len(d: u8) -> u64 {
        1 << (2 * d)
    }
}

impl Game for Digits {
    type Move = u8;
    const CAN_CYCLE: bool = false;

    fn children(&self, out: &mut Children<Self>) {
        if self.is_over() {
            return;
        }
        for i in 0..self.d {
            let digit = (self.p >> (2 * i)) & 3;
            if digit > 0 {
                out.push(Child {
                    mv: i,
                    next: Digits {
                        p: self.p - (1 << (2 * i)),
                        ..*self
                    },
                    gain: 0,
                    turn_passed: (digit + u32::from(i)) & 1 == 0,
                });
            }
        }
        for k in 1..=self.s.min(2) {
            let h = mix(u64::from(self.p) << 16 | u64::from(self.s) << 8 | u64::from(k));
            let gain = match h % 3 {
                0 => i32::from(k),
                1 => -i32::from(k),
                _ => 0,
            };
            out.push(Child {
                mv: 16 + k,
                next: Digits {
                    s: self.s - k,
                    p: ((h >> 8) % Digits::len(self.d)) as u32,
                    d: self.d,
                },
                gain,
                turn_passed: h & 16 != 0,
            });
        }
    }

    fn is_over(&self) -> bool {
        self.s == 0 || self.p % 13 == 5
    }

    fn key(&self) -> u128 {
        u128::from(self.s) << 32 | u128::from(self.p)
    }

    fn key_bound(&self) -> u128 {
        1 << 40
    }

    fn stake(&self) -> i32 {
        i32::from(self.s)
    }

    fn layer(&self) -> u32 {
        u32::from(self.s)
    }

    fn move_index(mv: u8) -> u8 {
        mv
    }
}

struct DigitsIx {
    d: u8,
}

impl Indexer for DigitsIx {
    type G = Digits;

    fn layer_len(&self, _: u32) -> u64 {
        Digits::len(self.d)
    }

    fn index(&self, pos: &Digits) -> u64 {
        u64::from(pos.p)
    }

    fn position(&self, layer: u32, index: u64) -> Option<Digits> {
        Some(Digits {
            s: layer as u8,
            p: index as u32,
            d: self.d,
        })
    }
}

// ---------------------------------------------------------------------------------------------
// Toy game (b): `Track`, hand-made cyclic.
//
// Layer s has places 0..=8 (slot 9 is unused: `position` says None). For s >= 1
// ("take k" goes to layer s - k; "-> q" stays; "pass" hands the turn over):
//
//   0: -> 1 pass                                         (forced)
//   1: -> 2 pass                                         (forced; 0 -> 1 -> 2 -> 0 is an odd cycle
//   2: -> 0 pass | take 1, win 1, to 3, keep               of passes: the mover alternates)
//   3: -> 3 keep (self-loop) | take 1, lose 1, to 0, pass
//   4: -> 5 keep | -> 6 pass
//   5: -> 4 keep | take s, lose s, game over, keep
//   6: take 2 (s >= 2), win 2, to 1, pass | -> 7 pass
//   7: -> 0 keep | -> 4 pass | take 1, win 0, to 2, pass | -> 8 keep
//   8: -> 8 pass                                         (forced self-loop: endless, F = 0)
//
// Layer 0 is game over everywhere.

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Track {
    s: u8,
    q: u8,
}

impl Game for Track {
    type Move = u8;
    const CAN_CYCLE: bool = true;

    fn children(&self, out: &mut Children<Self>) {
        let s = self.s;
        if s == 0 {
            return;
        }
        let mut n = 0;
        let mut stay = |q: u8, passed: bool| {
            out.push(Child {
                mv: n,
                next: Track { s, q },
                gain: 0,
                turn_passed: passed,
            });
            n += 1;
        };
        match self.q {
            0 => stay(1, true),
            1 => stay(2, true),
            2 => stay(0, true),
            3 => stay(3, false),
            4 => {
                stay(5, false);
                stay(6, true);
            }
            5 => stay(4, false),
            6 => stay(7, true),
            7 => {
                stay(0, false);
                stay(4, true);
                stay(8, false);
            }
            8 => stay(8, true),
            _ => unreachable!(),
        }
        let take = |k: u8, q: u8, gain: i32, passed: bool| Child {
            mv: 10 + k,
            next: Track { s: s - k, q },
            gain,
            turn_passed: passed,
        };
        match self.q {
            2 => out.push(take(1, 3, 1, false)),
            3 => out.push(take(1, 0, -1, true)),
            5 => out.push(take(s, 5, -i32::from(s), false)),
            6 if s >= 2 => out.push(take(2, 1, 2, true)),
            7 => out.push(take(1, 2, 0, true)),
            _ => {}
        }
    }

    fn is_over(&self) -> bool {
        self.s == 0
    }

    fn key(&self) -> u128 {
        u128::from(self.s) * 16 + u128::from(self.q)
    }

    fn key_bound(&self) -> u128 {
        1 << 12
    }

    fn stake(&self) -> i32 {
        i32::from(self.s)
    }

    fn layer(&self) -> u32 {
        u32::from(self.s)
    }

    fn move_index(mv: u8) -> u8 {
        mv
    }
}

struct TrackIx;

impl Indexer for TrackIx {
    type G = Track;

    fn layer_len(&self, _: u32) -> u64 {
        10
    }

    fn index(&self, pos: &Track) -> u64 {
        u64::from(pos.q)
    }

    fn position(&self, layer: u32, index: u64) -> Option<Track> {
        (index < 9).then_some(Track {
            s: layer as u8,
            q: index as u8,
        })
    }
}

// ---------------------------------------------------------------------------------------------
// Toy game (c): `Rand`, random layered graphs.
//
// Each node has random internal edges (any target of its layer, itself included, repeated
// targets allowed, passing the turn at random) and random exits to nodes of lower layers with
// gains in -3..=3. Some nodes have no move at all. Each node stands for two positions (`tag` 0
// and 1) with the same moves, which share a slot; the moves lead to either tag. The last slot of
// each layer is unused. With `C == false` internal edges only go to lower-numbered nodes.

#[derive(Debug)]
struct RNode {
    internal: Vec<(u32, bool)>,
    exits: Vec<(u32, u32, i32, bool)>,
}

struct RGraph {
    layers: Vec<Vec<RNode>>,
}

impl std::fmt::Debug for RGraph {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "RGraph({} layers)", self.layers.len())
    }
}

#[derive(Clone, Copy, Debug)]
struct Rand<const C: bool> {
    g: &'static RGraph,
    layer: u32,
    node: u32,
    tag: u8,
}

impl RGraph {
    /// `sizes` gives the number of nodes per layer; `max_internal`, `max_exits` the most edges
    /// of each kind per node.
    fn new(
        start: u64,
        sizes: &[u32],
        max_internal: u64,
        max_exits: u64,
        acyclic: bool,
    ) -> &'static RGraph {
        let mut rng = Rng(start);
        let layers = sizes
            .iter()
            .enumerate()
            .map(|(l, &n)| {
                (0..n)
                    .map(|x| {
                        if rng.chance(8) {
                            return RNode {
                                internal: vec![],
                                exits: vec![],
                            };
                        }
                        let mut internal = Vec::new();
                        for _ in 0..rng.below(max_internal + 1) {
                            let t = if acyclic {
                                if x == 0 {
                                    continue;
                                }
                                rng.below(u64::from(x)) as u32
                            } else {
                                rng.below(u64::from(n)) as u32
                            };
                            internal.push((t, rng.chance(50)));
                        }
                        let mut exits = Vec::new();
                        if l > 0 {
                            for _ in 0..rng.below(max_exits + 1) {
                                let tl = rng.below(l as u64) as u32;
                                let tn = rng.below(u64::from(sizes[tl as usize])) as u32;
                                exits.push((tl, tn, rng.below(7) as i32 - 3, rng.chance(50)));
                            }
                        }
                        RNode { internal, exits }
                    })
                    .collect()
            })
            .collect();
        Box::leak(Box::new(RGraph { layers }))
    }
}

impl<const C: bool> Game for Rand<C> {
    type Move = u8;
    const CAN_CYCLE: bool = C;

    fn children(&self, out: &mut Children<Self>) {
        let node = &self.g.layers[self.layer as usize][self.node as usize];
        let mut mv = 0u8;
        let mut push = |layer: u32, n: u32, gain: i32, passed: bool| {
            let tag = (mix(u64::from(self.node) << 8 | u64::from(mv)) & 1) as u8;
            out.push(Child {
                mv,
                next: Rand {
                    g: self.g,
                    layer,
                    node: n,
                    tag,
                },
                gain,
                turn_passed: passed,
            });
            mv += 1;
        };
        for &(t, passed) in &node.internal {
            push(self.layer, t, 0, passed);
        }
        for &(tl, tn, gain, passed) in &node.exits {
            push(tl, tn, gain, passed);
        }
    }

    fn key(&self) -> u128 {
        u128::from(self.layer) << 64 | u128::from(self.node) << 1 | u128::from(self.tag)
    }

    fn key_bound(&self) -> u128 {
        1 << 80
    }

    fn stake(&self) -> i32 {
        1000
    }

    fn layer(&self) -> u32 {
        self.layer
    }

    fn move_index(mv: u8) -> u8 {
        mv
    }
}

struct RandIx<const C: bool>(&'static RGraph);

impl<const C: bool> Indexer for RandIx<C> {
    type G = Rand<C>;

    fn layer_len(&self, layer: u32) -> u64 {
        self.0.layers[layer as usize].len() as u64 + 1
    }

    fn index(&self, pos: &Rand<C>) -> u64 {
        u64::from(pos.node)
    }

    fn position(&self, layer: u32, index: u64) -> Option<Rand<C>> {
        (index < self.0.layers[layer as usize].len() as u64).then_some(Rand {
            g: self.0,
            layer,
            node: index as u32,
            tag: 0,
        })
    }
}

fn random_sizes(rng: &mut Rng, layers: u32, max: u64) -> Vec<u32> {
    (0..layers).map(|_| 1 + rng.below(max) as u32).collect()
}

// ---------------------------------------------------------------------------------------------
// Tests: acyclic

#[test]
fn retro_digits_matches_minimax_and_brute_force() {
    for d in [2, 3] {
        let ix = DigitsIx { d };
        let top = 7;
        let got = solve_all(&ix, top, solve_layer_fn());
        let mm = minimax_all(&ix, top);
        assert_tables_eq(&ix, &got, &mm, "Digits vs minimax");
        assert_tables_eq(
            &ix,
            &got,
            &brute_all(&ix, top),
            "Digits vs §8.5 brute force",
        );
        assert_tables_eq(
            &ix,
            &solve_all(&ix, top, cyclic_fn()),
            &mm,
            "Digits, cyclic algorithm",
        );
        // The game is not trivial: values of both signs and beyond ±1, and |F| <= stake.
        let all: Vec<i16> = got.iter().flatten().copied().collect();
        assert!(
            all.iter().any(|&v| v >= 2) && all.iter().any(|&v| v <= -2),
            "{all:?}"
        );
        for (s, t) in got.iter().enumerate() {
            assert!(t.iter().all(|&v| i32::from(v).abs() <= s as i32));
        }
    }
}

#[test]
fn retro_random_acyclic_all_oracles_agree() {
    let mut rng = Rng(7);
    for round in 0..40 {
        let sizes = random_sizes(&mut rng, 5, 30);
        let g = RGraph::new(rng.next(), &sizes, 3, 2, true);
        let ix = RandIx::<false>(g);
        let top = sizes.len() as u32 - 1;
        let got = solve_all(&ix, top, solve_layer_fn());
        let mm = minimax_all(&ix, top);
        assert_tables_eq(
            &ix,
            &got,
            &mm,
            &format!("round {round}: acyclic vs minimax"),
        );
        assert_tables_eq(
            &ix,
            &got,
            &brute_all(&ix, top),
            &format!("round {round}: acyclic vs brute force"),
        );
        assert_tables_eq(
            &ix,
            &solve_all(&ix, top, cyclic_fn()),
            &mm,
            &format!("round {round}: cyclic vs minimax"),
        );
    }
}

/// An acyclic `RandIx` that offers a [`Schedule`]: stage = height of the slot (the longest path
/// of internal edges down from it), each stage cut into units of 3 slots; or, `reversed`, the
/// stages in the wrong order (a broken schedule).
struct Staged {
    ix: RandIx<false>,
    reversed: bool,
}

impl Indexer for Staged {
    type G = Rand<false>;

    fn layer_len(&self, layer: u32) -> u64 {
        self.ix.layer_len(layer)
    }

    fn index(&self, pos: &Rand<false>) -> u64 {
        self.ix.index(pos)
    }

    fn position(&self, layer: u32, index: u64) -> Option<Rand<false>> {
        self.ix.position(layer, index)
    }

    fn schedule(&self, layer: u32) -> Option<Box<dyn Schedule + '_>> {
        fn height(
            ix: &RandIx<false>,
            layer: u32,
            slot: u64,
            memo: &mut HashMap<u64, usize>,
        ) -> usize {
            if let Some(&h) = memo.get(&slot) {
                return h;
            }
            let mut h = 0;
            if let Some(pos) = ix.position(layer, slot) {
                let mut kids = Children::new();
                pos.children(&mut kids);
                for c in kids.as_slice() {
                    if c.next.layer() == layer {
                        h = h.max(1 + height(ix, layer, ix.index(&c.next), memo));
                    }
                }
            }
            memo.insert(slot, h);
            h
        }
        let mut memo = HashMap::new();
        let heights: Vec<usize> = (0..self.layer_len(layer))
            .map(|slot| height(&self.ix, layer, slot, &mut memo))
            .collect();
        let top = heights.iter().copied().max().unwrap_or(0);
        let mut stages = vec![Vec::<u64>::new(); top + 1];
        for (slot, &h) in heights.iter().enumerate() {
            stages[if self.reversed { top - h } else { h }].push(slot as u64);
        }
        Some(Box::new(Levels {
            ix: &self.ix,
            layer,
            stages,
        }))
    }
}

/// The schedule of [`Staged`].
struct Levels<'a> {
    ix: &'a RandIx<false>,
    layer: u32,
    stages: Vec<Vec<u64>>,
}

impl Schedule for Levels<'_> {
    fn stages(&self) -> usize {
        self.stages.len()
    }

    fn units(&self, stage: usize) -> usize {
        self.stages[stage].len().div_ceil(3)
    }

    fn for_each(&self, stage: usize, unit: usize, f: &mut dyn FnMut(u64, Option<&[Placed]>)) {
        for &slot in self.stages[stage]
            .chunks(3)
            .nth(unit)
            .expect("a unit of the stage")
        {
            match self.ix.position(self.layer, slot) {
                Some(pos) => {
                    let mut moves = FixedVec::new();
                    placed_moves(self.ix, &pos, &mut moves);
                    f(slot, Some(moves.as_slice()));
                }
                None => f(slot, None),
            }
        }
    }
}

#[test]
fn retro_acyclic_by_schedule_matches_minimax() {
    let mut rng = Rng(11);
    for round in 0..40 {
        let sizes = random_sizes(&mut rng, 5, 30);
        let g = RGraph::new(rng.next(), &sizes, 3, 2, true);
        let top = sizes.len() as u32 - 1;
        let ix = Staged {
            ix: RandIx::<false>(g),
            reversed: false,
        };
        let got = with_threads(3, || solve_all(&ix, top, solve_layer_fn()));
        assert_tables_eq(
            &ix,
            &got,
            &minimax_all(&ix.ix, top),
            &format!("round {round}: staged vs minimax"),
        );
    }
}

#[test]
#[should_panic(expected = "the schedule of layer")]
fn retro_a_broken_schedule_is_caught() {
    let mut rng = Rng(11);
    let sizes = random_sizes(&mut rng, 5, 30);
    let g = RGraph::new(rng.next(), &sizes, 3, 2, true);
    let ix = Staged {
        ix: RandIx::<false>(g),
        reversed: true,
    };
    solve_all(&ix, sizes.len() as u32 - 1, solve_layer_fn());
}

#[test]
#[should_panic(expected = "CAN_CYCLE = false")]
fn retro_acyclic_algorithm_detects_a_cycle() {
    // Layer 1: node 0 -> node 1 -> node 0.
    let g = Box::leak(Box::new(RGraph {
        layers: vec![
            vec![RNode {
                internal: vec![],
                exits: vec![],
            }],
            vec![
                RNode {
                    internal: vec![(1, true)],
                    exits: vec![(0, 0, 1, false)],
                },
                RNode {
                    internal: vec![(0, false)],
                    exits: vec![],
                },
            ],
        ],
    }));
    solve_all(&RandIx::<false>(g), 1, acyclic_fn());
}

// ---------------------------------------------------------------------------------------------
// Tests: cyclic

#[test]
fn retro_track_matches_brute_force_and_first_cycle_search() {
    let ix = TrackIx;
    let top = 6;
    let got = solve_all(&ix, top, solve_layer_fn());
    assert_tables_eq(&ix, &got, &brute_all(&ix, top), "Track vs brute force");
    assert_tables_eq(
        &ix,
        &got,
        &first_cycle_all(&ix, top),
        "Track vs first-cycle search",
    );
    // Hand-checked values in layer 1 (F for the side to move; layer 0 is all 0):
    // 0 -> 1 -> 2 -> 0 all pass the turn: F(0) = -F(1) = F(2), and F(2) = max(-F(0), 1) (taking
    //    wins 1 and ends the game). So F(2) = max(-F(2), 1), whose only solution is 1.
    // 3: the self-loop is endless (0); the exit loses 1: F(3) = 0.
    // 7: -> 0 keeping the turn is worth F(0) = 1, the best there is: F(7) = 1.
    // 6: its only move (take 2 needs s >= 2) is -> 7 passing: F(6) = -1.
    // 4: -> 6 passing is worth 1; 5: -> 4 keeping the turn beats losing 1: F(4) = F(5) = 1.
    // 8: a forced endless self-loop: 0.
    assert_eq!(&got[1][..9], &[1, -1, 1, 0, 1, 1, -1, 1, 0]);
    assert_eq!(got[1][9], 0, "unused slot");
    let all: Vec<i16> = got.iter().flatten().copied().collect();
    assert!(
        all.iter().any(|&v| v >= 3) && all.iter().any(|&v| v < 0),
        "{all:?}"
    );
}

#[test]
fn retro_random_cyclic_matches_brute_force() {
    let mut rng = Rng(11);
    for round in 0..60 {
        let sizes = random_sizes(&mut rng, 6, 40);
        let g = RGraph::new(rng.next(), &sizes, 4, 2, false);
        let ix = RandIx::<true>(g);
        let top = sizes.len() as u32 - 1;
        let got = solve_all(&ix, top, solve_layer_fn());
        assert_tables_eq(
            &ix,
            &got,
            &brute_all(&ix, top),
            &format!("round {round}: cyclic vs brute force"),
        );
    }
}

#[test]
fn retro_random_cyclic_small_matches_first_cycle_search() {
    let mut rng = Rng(13);
    for round in 0..200 {
        let sizes = random_sizes(&mut rng, 4, 6);
        let g = RGraph::new(rng.next(), &sizes, 3, 2, false);
        let ix = RandIx::<true>(g);
        let top = sizes.len() as u32 - 1;
        let got = solve_all(&ix, top, solve_layer_fn());
        assert_tables_eq(
            &ix,
            &got,
            &first_cycle_all(&ix, top),
            &format!("round {round}: vs first-cycle search"),
        );
    }
}

#[test]
fn retro_random_cyclic_values_are_varied() {
    // Guards the random tests against testing only zeros.
    let mut rng = Rng(11);
    let mut seen = BTreeSet::new();
    for _ in 0..20 {
        let sizes = random_sizes(&mut rng, 6, 40);
        let g = RGraph::new(rng.next(), &sizes, 4, 2, false);
        for t in solve_all(&RandIx::<true>(g), sizes.len() as u32 - 1, solve_layer_fn()) {
            seen.extend(t);
        }
    }
    assert!(seen.len() >= 9 && seen.contains(&0), "{seen:?}");
}

// ---------------------------------------------------------------------------------------------
// Determinism across thread counts

fn with_threads<T: Send>(n: usize, f: impl FnOnce() -> T + Send) -> T {
    rayon::ThreadPoolBuilder::new()
        .num_threads(n)
        .build()
        .unwrap()
        .install(f)
}

#[test]
fn retro_same_tables_with_1_and_4_threads() {
    // Layers larger than several chunks, so that the work really is split.
    let ix = DigitsIx { d: 7 };
    let one = with_threads(1, || solve_all(&ix, 5, solve_layer_fn()));
    let four = with_threads(4, || solve_all(&ix, 5, solve_layer_fn()));
    assert!(one == four, "Digits");
    let four_cyclic = with_threads(4, || solve_all(&ix, 5, cyclic_fn()));
    assert!(one == four_cyclic, "Digits, cyclic algorithm");

    let g = RGraph::new(99, &[20_000, 30_000, 30_000, 40_000], 3, 2, false);
    let ix = RandIx::<true>(g);
    let one = with_threads(1, || solve_all(&ix, 3, solve_layer_fn()));
    let four = with_threads(4, || solve_all(&ix, 3, solve_layer_fn()));
    assert!(one == four, "Rand");
    assert_tables_eq(&ix, &one, &brute_all(&ix, 3), "large Rand vs brute force");
}

// ---------------------------------------------------------------------------------------------
// Throughput (run with `--ignored --nocapture`)

fn time_layer<I: Indexer>(what: &str, ix: &I, lower_top: u32, threads: usize) {
    let tables = with_threads(threads, || solve_all(ix, lower_top - 1, solve_layer_fn()));
    let lower = |l: u32, slot: u64| i32::from(tables[l as usize][slot as usize]);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap();
    let (start, cpu) = (Instant::now(), cpu_seconds());
    let t = pool.install(|| solve_layer(ix, lower_top, &lower, None));
    let (secs, cpu) = (start.elapsed().as_secs_f64(), cpu_seconds() - cpu);
    println!(
        "{what}: layer {lower_top}, {} slots, {threads} thread(s): {secs:.3} s wall ({cpu:.3} s CPU), {:.2} M slots/s",
        t.len(),
        t.len() as f64 / secs / 1e6
    );
}

/// User + system CPU time of this process so far (Linux; 0 elsewhere), to tell a busy machine
/// from poor scaling.
fn cpu_seconds() -> f64 {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    let fields: Vec<&str> = stat
        .rsplit(')')
        .next()
        .unwrap_or("")
        .split_whitespace()
        .collect();
    let ticks = |i: usize| {
        fields
            .get(i)
            .and_then(|f| f.parse::<f64>().ok())
            .unwrap_or(0.0)
    };
    (ticks(11) + ticks(12)) / 100.0
}

#[test]
#[ignore = "timing only"]
fn retro_throughput() {
    for threads in [1, 2] {
        time_layer("Digits d=11 (acyclic)", &DigitsIx { d: 11 }, 6, threads);
    }
    let g = RGraph::new(5, &[1_000_000, 2_000_000, 4_000_000], 3, 2, false);
    for threads in [1, 2] {
        time_layer("Rand (cyclic)", &RandIx::<true>(g), 2, threads);
    }
}
