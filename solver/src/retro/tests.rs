//! Tests of the retrograde solvers against independent oracles, on toy games of `crate::toy`:
//!
//! - `Digits`: acyclic, with extra turns (moves that keep the turn), stakes, game-over slots and
//!   losing moves;
//! - `Track`: a hand-made cyclic game: an odd cycle of turn-passing moves, self-loops, forced
//!   cycles with and without exits, exits of both signs, an unused slot;
//! - `Rand`: random layered graphs from a fixed-start generator (cycles, self-loops, multi-edges,
//!   random exits and turn passing, two positions per slot), cyclic or acyclic.
//!
//! Oracles: a naive iteration of the §8.5 set equations on the explicit doubled graph (least
//! fixpoints for `t > 0`, greatest for `t <= 0`, exactly as docs/rules.md states them) and a plain
//! memoised minimax for acyclic games, both in `crate::toy::reference`; and, for small cyclic
//! games, defined here, a plain depth-first minimax over the
//! whole game that scores a repetition on the current path as 0 (exact at its root, docs/rules.md §2.10).

use std::collections::{BTreeSet, HashMap};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use super::*;
use crate::game::{Children, FixedVec, Game};
use crate::memory::AllocError;
use crate::toy::digits::DigitsIx;
use crate::toy::rand::{random_sizes, RGraph, RNode, Rand, RandIx};
use crate::toy::reference::{brute_all, minimax_all};
use crate::toy::rng::Rng;
use crate::toy::track::TrackIx;

// ---------------------------------------------------------------------------------------------
// Harness

/// A layer solver: `solve_layer`, or one of the two algorithms called directly.
type LayerFn<I> = fn(&I, u32, &dyn Lower, Option<&dyn LayerWatch>) -> Vec<i16>;

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
    |ix, layer, lower, progress| solve_layer(ix, layer, lower, progress).unwrap()
}

/// The counter algorithm on the explicit graph (the former cyclic builder).
fn cyclic_fn<I: Indexer>() -> LayerFn<I> {
    |ix, layer, lower, progress| cyclic::solve(ix, layer, lower, progress).unwrap()
}

/// The lean cyclic passes, called directly (also on acyclic games).
fn passes_fn<I: Indexer>() -> LayerFn<I> {
    |ix, layer, lower, progress| passes::solve(ix, layer, lower, progress).unwrap()
}

fn acyclic_fn<I: Indexer>() -> LayerFn<I> {
    |ix, layer, lower, progress| acyclic::solve(ix, layer, lower, progress).unwrap()
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

    fn schedule(&self, layer: u32) -> Result<Option<Box<dyn Schedule + '_>>, AllocError> {
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
        Ok(Some(Box::new(Levels {
            ix: &self.ix,
            layer,
            stages,
        })))
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
    let four_lean = with_threads(4, || solve_all(&ix, 5, passes_fn()));
    assert!(one == four_lean, "Digits, lean cyclic algorithm");

    let g = RGraph::new(99, &[20_000, 30_000, 30_000, 40_000], 3, 2, false);
    let ix = RandIx::<true>(g);
    let one = with_threads(1, || solve_all(&ix, 3, solve_layer_fn()));
    let four = with_threads(4, || solve_all(&ix, 3, solve_layer_fn()));
    assert!(one == four, "Rand");
    assert_tables_eq(&ix, &one, &brute_all(&ix, 3), "large Rand vs brute force");
}

/// A layer solver that may be stopped: `solve_layer`, or one algorithm called directly.
type StoppableFn<I> =
    fn(&I, u32, &dyn Lower, Option<&dyn LayerWatch>) -> Result<Vec<i16>, LayerError>;

/// Solves layer `top` of `ix` on one thread with a watch that asks to stop after the first
/// chunk: the solve must return `Stopped` having done less than the whole layer; a second solve
/// of the same layer with a fresh watch must give the values of an unwatched one.
fn stopped_after_one_chunk<I: Indexer>(ix: &I, top: u32, solve: StoppableFn<I>, what: &str) {
    struct AfterOne {
        done: AtomicU64,
    }
    impl LayerWatch for AfterOne {
        fn advance(&self, slots: u64) {
            self.done.fetch_add(slots, Ordering::Relaxed);
        }
        fn stopped(&self) -> bool {
            self.done.load(Ordering::Relaxed) > 0
        }
    }
    let tables = with_threads(1, || solve_all(ix, top - 1, solve_layer_fn()));
    let lower = |l: u32, slot: u64| i32::from(tables[l as usize][slot as usize]);
    let len = ix.layer_len(top);
    assert!(
        len > 2 * super::entry::CHUNK as u64,
        "{what}: layer {top} has one chunk only"
    );
    let watch = AfterOne {
        done: AtomicU64::new(0),
    };
    let got = with_threads(1, || solve(ix, top, &lower, Some(&watch)));
    assert!(
        matches!(got, Err(LayerError::Stopped)),
        "{what}: a raised stop must abandon the layer"
    );
    let done = watch.done.load(Ordering::Relaxed);
    assert!(
        done < len,
        "{what}: did all {len} slots ({done}) despite the stop"
    );
    let fresh = AfterOne {
        done: AtomicU64::new(0),
    };
    let unwatched = with_threads(1, || solve(ix, top, &lower, None)).expect("no watch, no stop");
    // A watch that is never raised (its first chunk raises it, so use a plain callback).
    let tick = |n: u64| fresh.advance(n);
    let again = with_threads(1, || solve(ix, top, &lower, Some(&tick))).expect("not stopped");
    assert!(again == unwatched, "{what}: a second solve differs");
}

#[test]
fn retro_a_raised_stop_abandons_the_layer() {
    let digits = DigitsIx { d: 7 };
    stopped_after_one_chunk(
        &digits,
        5,
        |i, k, l, w| solve_layer(i, k, l, w),
        "acyclic walk",
    );
    stopped_after_one_chunk(
        &digits,
        5,
        |i, k, l, w| passes::solve(i, k, l, w),
        "lean passes",
    );
    stopped_after_one_chunk(&digits, 5, |i, k, l, w| cyclic::solve(i, k, l, w), "graph");
    let sizes = [3_000, 20_000, 30_000];
    let staged = Staged {
        ix: RandIx::<false>(RGraph::new(5, &sizes, 3, 2, true)),
        reversed: false,
    };
    stopped_after_one_chunk(
        &staged,
        2,
        |i, k, l, w| solve_layer(i, k, l, w),
        "acyclic by schedule",
    );
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
    let t = pool
        .install(|| solve_layer(ix, lower_top, &lower, None))
        .unwrap();
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

// Cyclic games (`cycles`), and the layers solved by several ranks together (`split`).
mod cycles;
mod split;
