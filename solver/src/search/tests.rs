//! Toy games and slow reference solvers to check the search against.

use std::collections::HashMap;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use proptest::prelude::*;

use std::sync::atomic::Ordering;

use super::defer::BusyMarks;
use super::node::Searcher;
use super::order::move_order;
use super::shared::{Job, Shared, GUESS_STOPPED};
use super::*;
use crate::game::{Child, Children, Game};
use crate::tt::{TranspositionTable, TtError};

// ---------------------------------------------------------------------------------------------
// Toy game 1: take-away. A row of tokens with values; take 1, 2 or 3 from the end and win their
// sum. Taking exactly 2 keeps the turn. Key = tokens left (the values are fixed per game).

#[derive(Debug)]
struct TakeSpec {
    vals: Vec<i32>,
}

#[derive(Clone, Copy)]
struct Take {
    spec: &'static TakeSpec,
    n: usize,
}

impl std::fmt::Debug for Take {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Take({})", self.n)
    }
}

impl Game for Take {
    type Move = u8;
    const CAN_CYCLE: bool = false;

    fn children(&self, out: &mut Children<Self>) {
        for k in 1..=3.min(self.n) {
            let gain = self.spec.vals[self.n - k..self.n].iter().sum();
            let next = Take {
                spec: self.spec,
                n: self.n - k,
            };
            out.push(Child {
                mv: k as u8,
                next,
                gain,
                turn_passed: k != 2,
            });
        }
    }
    fn key(&self) -> u128 {
        self.n as u128
    }
    fn key_bound(&self) -> u128 {
        self.spec.vals.len() as u128 + 1
    }
    fn stake(&self) -> i32 {
        self.spec.vals[..self.n].iter().map(|v| v.abs()).sum()
    }
    fn layer(&self) -> u32 {
        self.n as u32
    }
    fn move_index(mv: u8) -> u8 {
        mv - 1
    }
    fn is_over(&self) -> bool {
        self.n == 0
    }
}

fn take_game(seed: u64, len: usize, lo: i32, hi: i32) -> Take {
    let mut r = seed;
    let vals = (0..len)
        .map(|_| lo + (splitmix(&mut r) % (hi - lo + 1) as u64) as i32)
        .collect();
    Take {
        spec: Box::leak(Box::new(TakeSpec { vals })),
        n: len,
    }
}

// ---------------------------------------------------------------------------------------------
// Toy game 2: a random layered graph, defined by hashing. Node (layer, idx); layer 0 is terminal.
// Moves either drop to a lower layer with a random gain bounded by `max_gain` per layer dropped,
// or stay in the layer with gain 0. In the acyclic version a same-layer move goes to a smaller
// index; in the cyclic version to any index, so positions recur within a layer.

#[derive(Debug)]
struct GraphSpec {
    seed: u64,
    layers: u32,
    width: u32,
    max_branch: u32,
    /// Percent of moves that stay in the layer.
    stay_pct: u64,
    /// Percent of moves that pass the turn.
    pass_pct: u64,
    max_gain: i32,
}

#[derive(Clone, Copy)]
struct Graph<const CYCLIC: bool> {
    spec: &'static GraphSpec,
    layer: u32,
    idx: u32,
}

impl<const C: bool> std::fmt::Debug for Graph<C> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Graph({}, {})", self.layer, self.idx)
    }
}

fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

fn hash(parts: &[u64]) -> u64 {
    let mut s = 0u64;
    for &p in parts {
        s ^= p;
        splitmix(&mut s);
    }
    splitmix(&mut s)
}

impl<const CYCLIC: bool> Game for Graph<CYCLIC> {
    type Move = u8;
    const CAN_CYCLE: bool = CYCLIC;

    fn children(&self, out: &mut Children<Self>) {
        let sp = self.spec;
        if self.layer == 0 {
            return;
        }
        let h0 = hash(&[sp.seed, self.layer as u64, self.idx as u64]);
        if h0 % 17 == 0 {
            return; // an occasional early end of the game
        }
        let moves = 1 + (h0 >> 8) % sp.max_branch as u64;
        for j in 0..moves {
            let h = hash(&[sp.seed, self.layer as u64, self.idx as u64, j + 1]);
            let stay = h % 100 < sp.stay_pct && (CYCLIC || self.idx > 0);
            let (layer, idx, gain) = if stay {
                let bound = if CYCLIC { sp.width } else { self.idx };
                (self.layer, ((h >> 8) % bound as u64) as u32, 0)
            } else {
                let drop = 1 + ((h >> 8) % 3).min(self.layer as u64 - 1) as u32;
                let g = drop as i32 * sp.max_gain;
                let gain = ((h >> 16) % (2 * g as u64 + 1)) as i32 - g;
                (
                    self.layer - drop,
                    ((h >> 24) % sp.width as u64) as u32,
                    gain,
                )
            };
            let turn_passed = (h >> 40) % 100 < sp.pass_pct;
            out.push(Child {
                mv: j as u8,
                next: Graph {
                    spec: sp,
                    layer,
                    idx,
                },
                gain,
                turn_passed,
            });
        }
    }
    fn key(&self) -> u128 {
        (self.layer as u128) * self.spec.width as u128 + self.idx as u128
    }
    fn key_bound(&self) -> u128 {
        (self.spec.layers as u128 + 1) * self.spec.width as u128
    }
    fn stake(&self) -> i32 {
        self.layer as i32 * self.spec.max_gain
    }
    fn layer(&self) -> u32 {
        self.layer
    }
    fn move_index(mv: u8) -> u8 {
        mv
    }
}

fn graph_spec(
    seed: u64,
    layers: u32,
    width: u32,
    stay_pct: u64,
    pass_pct: u64,
) -> &'static GraphSpec {
    Box::leak(Box::new(GraphSpec {
        seed,
        layers,
        width,
        max_branch: 5,
        stay_pct,
        pass_pct,
        max_gain: 3,
    }))
}

fn all_nodes<const C: bool>(spec: &'static GraphSpec) -> Vec<Graph<C>> {
    (0..=spec.layers)
        .flat_map(|layer| (0..spec.width).map(move |idx| Graph { spec, layer, idx }))
        .collect()
}

// ---------------------------------------------------------------------------------------------
// Reference solvers.

/// Plain memoised minimax over the definition (acyclic games only).
fn brute<G: Game>(pos: &G, memo: &mut HashMap<u128, i32>) -> i32 {
    if let Some(&v) = memo.get(&pos.key()) {
        return v;
    }
    let mut ch = Children::new();
    pos.children(&mut ch);
    let v = ch
        .as_slice()
        .iter()
        .map(|c| {
            let f = brute(&c.next, memo);
            if c.turn_passed {
                c.gain - f
            } else {
                c.gain + f
            }
        })
        .max()
        .unwrap_or(0);
    memo.insert(pos.key(), v);
    v
}

/// The exact layered threshold fixpoint of the rules (§8.5), on the whole explicit graph.
///
/// It works with absolute sides: state (node, side), side 0 maximises. Layer by layer, for every
/// candidate threshold t (exit values and 0), W_t is the least (t > 0) or greatest (t <= 0) set of
/// states from which side 0 can force a value >= t; the value is the largest t whose W_t holds the
/// state. Returns F (mover-relative) for every node key.
fn fixpoint<const C: bool>(spec: &'static GraphSpec) -> HashMap<u128, i32> {
    let mut f: HashMap<u128, i32> = HashMap::new();
    let w = spec.width as usize;
    for layer in 0..=spec.layers {
        enum Edge {
            Exit(i32),
            Internal(usize),
        }
        // State s = idx * 2 + side.
        let mut edges: Vec<Vec<Edge>> = Vec::with_capacity(2 * w);
        for idx in 0..w {
            let pos = Graph::<C> {
                spec,
                layer,
                idx: idx as u32,
            };
            let mut ch = Children::new();
            pos.children(&mut ch);
            for side in 0..2 {
                let sign = if side == 0 { 1 } else { -1 };
                let list = ch
                    .as_slice()
                    .iter()
                    .map(|c| {
                        let next_side = side ^ usize::from(c.turn_passed);
                        if c.next.layer == layer {
                            assert_eq!(c.gain, 0);
                            Edge::Internal(c.next.idx as usize * 2 + next_side)
                        } else {
                            let fv = f[&c.next.key()];
                            let next_abs = if next_side == 0 { fv } else { -fv };
                            Edge::Exit(sign * c.gain + next_abs)
                        }
                    })
                    .collect();
                edges.push(list);
            }
        }
        let mut thresholds: Vec<i32> = edges
            .iter()
            .flatten()
            .filter_map(|e| match e {
                Edge::Exit(v) => Some(*v),
                Edge::Internal(_) => None,
            })
            .chain([0])
            .collect();
        thresholds.sort_unstable();
        thresholds.dedup();
        let mut value = vec![i32::MIN; 2 * w];
        for &t in &thresholds {
            let greatest = t <= 0;
            let mut inside = vec![greatest; 2 * w];
            loop {
                let mut changed = false;
                for s in 0..2 * w {
                    let es = &edges[s];
                    let good = |e: &Edge, inside: &[bool]| match e {
                        Edge::Exit(v) => *v >= t,
                        Edge::Internal(u) => inside[*u],
                    };
                    let ok = if es.is_empty() {
                        0 >= t
                    } else if s % 2 == 0 {
                        es.iter().any(|e| good(e, &inside))
                    } else {
                        es.iter().all(|e| good(e, &inside))
                    };
                    if ok != inside[s] && (ok != greatest) {
                        inside[s] = ok;
                        changed = true;
                    }
                }
                if !changed {
                    break;
                }
            }
            for s in 0..2 * w {
                if inside[s] {
                    value[s] = value[s].max(t);
                }
            }
        }
        for idx in 0..w {
            let (v0, v1) = (value[2 * idx], value[2 * idx + 1]);
            assert_eq!(v0, -v1, "side symmetry at layer {layer} idx {idx}");
            f.insert(
                Graph::<C> {
                    spec,
                    layer,
                    idx: idx as u32,
                }
                .key(),
                v0,
            );
        }
    }
    f
}

// ---------------------------------------------------------------------------------------------
// Checks.

fn cfg(threads: usize, tt_bytes: usize) -> SearchConfig {
    SearchConfig {
        threads,
        tt_bytes,
        stop: None,
        progress: None,
        ..SearchConfig::default()
    }
}

/// Mover-relative value of a move given the exact values of positions.
fn move_value<G: Game>(c: &Child<G>, f: &impl Fn(&G) -> i32) -> i32 {
    let v = f(&c.next);
    if c.turn_passed {
        c.gain - v
    } else {
        c.gain + v
    }
}

/// Checks `solve` (value, best set, PV) and `analyze` on `root` against exact values `f`.
fn check_root<G: Game>(root: &G, c: &SearchConfig, f: &impl Fn(&G) -> i32) {
    let want = f(root);
    let r = solve(root, c, None).unwrap();
    assert_eq!(r.value, want, "value of {root:?}");
    let mut ch = Children::new();
    root.children(&mut ch);
    let want_best: Vec<_> = ch
        .as_slice()
        .iter()
        .filter(|c| move_value(c, f) == want)
        .map(|c| c.mv)
        .collect();
    assert_eq!(r.best, want_best, "best moves of {root:?}");
    // The PV is played out: every move is the first, in the search's static order, to achieve
    // its position's value, so the gains collected along it (turns taken into account) plus the
    // value where it stops add up to the root value. It stops at the end of the game, or (cyclic
    // games) at a repetition.
    let (mut pos, mut sign, mut total) = (*root, 1, 0);
    let mut seen = vec![pos.key()];
    for mv in &r.pv {
        let mut ch = Children::new();
        pos.children(&mut ch);
        let kids = ch.as_slice();
        let order = move_order(kids, None, |_, c| c.gain);
        let first_best = order[..kids.len()]
            .iter()
            .map(|&i| &kids[usize::from(i)])
            .find(|c| move_value(c, f) == f(&pos))
            .unwrap();
        assert_eq!(first_best.mv, *mv, "PV of {root:?} at {pos:?}");
        total += sign * first_best.gain;
        if first_best.turn_passed {
            sign = -sign;
        }
        pos = first_best.next;
        seen.push(pos.key());
    }
    assert_eq!(total + sign * f(&pos), want, "PV sum of {root:?}");
    let repeated = seen[..seen.len() - 1].contains(&pos.key());
    assert!(
        pos.is_over() || (G::CAN_CYCLE && repeated),
        "PV of {root:?} stops at {pos:?}"
    );
    let a = analyze(root, c, None).unwrap();
    let want_a: Vec<_> = ch
        .as_slice()
        .iter()
        .map(|c| (c.mv, move_value(c, f)))
        .collect();
    assert_eq!(a, want_a, "analysis of {root:?}");
}

#[test]
fn take_away_matches_minimax() {
    for seed in 0..20 {
        let g = take_game(seed, 24, -4, 6);
        let mut memo = HashMap::new();
        for n in 0..=24 {
            brute(&Take { n, ..g }, &mut memo);
        }
        let f = |p: &Take| memo[&p.key()];
        for n in [0, 1, 2, 3, 7, 24] {
            for threads in [1, 2] {
                check_root(&Take { n, ..g }, &cfg(threads, 1 << 12), &f);
            }
        }
    }
}

#[test]
fn game_over_root() {
    let g = take_game(1, 5, -4, 6);
    let root = Take { n: 0, ..g };
    let r = solve(&root, &cfg(2, 1 << 12), None).unwrap();
    assert_eq!((r.value, r.best.len(), r.pv.len()), (0, 0, 0));
    assert!(analyze(&root, &cfg(2, 1 << 12), None).unwrap().is_empty());
}

#[test]
fn reference_solvers_agree_on_acyclic_graphs() {
    for seed in 0..4 {
        let spec = graph_spec(seed, 6, 12, 40, 60);
        let fx = fixpoint::<false>(spec);
        let mut memo = HashMap::new();
        for p in all_nodes::<false>(spec) {
            assert_eq!(brute(&p, &mut memo), fx[&p.key()], "{p:?}");
        }
    }
}

#[test]
fn acyclic_graphs_all_positions_thread_counts_and_table_sizes() {
    for seed in 0..6 {
        let spec = graph_spec(100 + seed, 7, 16, 45, 50);
        let mut memo = HashMap::new();
        let nodes = all_nodes::<false>(spec);
        for p in &nodes {
            brute(p, &mut memo);
        }
        let f = |p: &Graph<false>| memo[&p.key()];
        for (i, p) in nodes.iter().enumerate().filter(|(i, _)| i % 5 == 0) {
            // 16 bytes = one bucket: nearly every store evicts something.
            let c = [cfg(1, 16), cfg(2, 64), cfg(4, 1 << 16)][i % 3].clone();
            check_root(p, &c, &f);
        }
    }
}

#[test]
fn cyclic_graphs_match_the_layered_fixpoint() {
    for seed in 0..8 {
        // Many same-layer moves, so cycles are everywhere and often forced.
        let spec = graph_spec(200 + seed, 5, 10, 55 + 5 * (seed % 4), 50);
        let fx = fixpoint::<true>(spec);
        let f = |p: &Graph<true>| fx[&p.key()];
        for (i, p) in all_nodes::<true>(spec).iter().enumerate() {
            let c = [cfg(1, 1 << 16), cfg(2, 32), cfg(4, 1 << 10), cfg(1, 16)][i % 4].clone();
            check_root(p, &c, &f);
        }
    }
}

#[test]
fn cyclic_values_do_not_depend_on_threads_or_table_size() {
    let spec = graph_spec(77, 8, 40, 60, 50);
    let fx = fixpoint::<true>(spec);
    for p in all_nodes::<true>(spec).iter().filter(|p| p.layer == 8) {
        for c in [
            cfg(1, 1 << 16),
            cfg(2, 1 << 16),
            cfg(4, 1 << 16),
            cfg(3, 48),
        ] {
            assert_eq!(solve(p, &c, None).unwrap().value, fx[&p.key()], "{p:?}");
        }
    }
}

/// An acyclic game searched as if it could cycle: the path bookkeeping must change no value.
#[derive(Clone, Copy, Debug)]
struct CycleFlag<G>(G);

impl<G: Game<Move = u8>> Game for CycleFlag<G> {
    type Move = u8;
    const CAN_CYCLE: bool = true;
    fn children(&self, out: &mut Children<Self>) {
        let mut ch = Children::new();
        self.0.children(&mut ch);
        for c in ch.as_slice() {
            let next = CycleFlag(c.next);
            out.push(Child {
                mv: c.mv,
                next,
                gain: c.gain,
                turn_passed: c.turn_passed,
            });
        }
    }
    fn key(&self) -> u128 {
        self.0.key()
    }
    fn key_bound(&self) -> u128 {
        self.0.key_bound()
    }
    fn stake(&self) -> i32 {
        self.0.stake()
    }
    fn layer(&self) -> u32 {
        self.0.layer()
    }
    fn move_index(mv: u8) -> u8 {
        G::move_index(mv)
    }
}

#[test]
fn a_cycle_flag_on_an_acyclic_game_changes_nothing() {
    let spec = graph_spec(5, 7, 16, 45, 50);
    let mut memo = HashMap::new();
    for p in all_nodes::<false>(spec) {
        brute(&p, &mut memo);
    }
    let f = |p: &CycleFlag<Graph<false>>| memo[&p.key()];
    for (i, p) in all_nodes::<false>(spec).into_iter().enumerate() {
        check_root(&CycleFlag(p), &[cfg(1, 16), cfg(2, 1 << 14)][i % 2], &f);
    }
}

/// An oracle that knows the exact values of the lowest layers.
struct LowLayers<'a> {
    values: &'a HashMap<u128, i32>,
    up_to: u32,
    calls: std::sync::atomic::AtomicU64,
}

impl<const C: bool> Oracle<Graph<C>> for LowLayers<'_> {
    fn probe(&self, pos: &Graph<C>) -> Option<i32> {
        self.calls.fetch_add(1, Ordering::Relaxed);
        (pos.layer <= self.up_to).then(|| self.values[&pos.key()])
    }
}

#[test]
fn oracle_is_used_and_exact() {
    let spec = graph_spec(31, 9, 30, 55, 50);
    let fx = fixpoint::<true>(spec);
    let oracle = LowLayers {
        values: &fx,
        up_to: 5,
        calls: Default::default(),
    };
    for p in all_nodes::<true>(spec).iter().filter(|p| p.layer == 9) {
        let with = solve(p, &cfg(2, 1 << 14), Some(&oracle)).unwrap();
        let without = solve(p, &cfg(1, 1 << 14), None).unwrap();
        assert_eq!(with.value, fx[&p.key()]);
        assert_eq!(without.value, fx[&p.key()]);
        let a = analyze(p, &cfg(2, 1 << 14), Some(&oracle)).unwrap();
        assert_eq!(a, analyze(p, &cfg(1, 1 << 14), None).unwrap());
    }
    assert!(oracle.calls.load(Ordering::Relaxed) > 0);
}

#[test]
fn one_thread_is_deterministic() {
    let spec = graph_spec(9, 10, 200, 45, 50);
    let root = Graph::<false> {
        spec,
        layer: 10,
        idx: 3,
    };
    let a = solve(&root, &cfg(1, 1 << 12), None).unwrap();
    let b = solve(&root, &cfg(1, 1 << 12), None).unwrap();
    assert_eq!(
        (a.value, a.nodes, a.tt_hits, &a.pv),
        (b.value, b.nodes, b.tt_hits, &b.pv)
    );
    assert!(a.nodes > 0 && a.tt_probes >= a.tt_hits && a.tt_hits > 0);
}

#[test]
fn stop_flag_interrupts() {
    let spec = graph_spec(9, 10, 200, 45, 50);
    let root = Graph::<false> {
        spec,
        layer: 10,
        idx: 3,
    };
    let stop = Arc::new(AtomicBool::new(true));
    let progress = Arc::new(Progress::new());
    let c = SearchConfig {
        threads: 2,
        tt_bytes: 1 << 12,
        stop: Some(stop.clone()),
        progress: Some(progress.clone()),
        ..SearchConfig::default()
    };
    assert_eq!(
        solve(&root, &c, None).unwrap_err(),
        SearchError::Interrupted
    );
    stop.store(false, Ordering::Relaxed);
    let r = solve(&root, &c, None).unwrap();
    assert_eq!(progress.bounds().0, progress.bounds().1);
    assert!(progress.nodes() >= r.nodes / 2);
}

/// A take-away game whose keys claim to need far more room than a small table has.
#[derive(Clone, Copy, Debug)]
struct WideKeys(Take);

impl Game for WideKeys {
    type Move = u8;
    const CAN_CYCLE: bool = false;
    fn children(&self, out: &mut Children<Self>) {
        let mut ch = Children::new();
        self.0.children(&mut ch);
        for c in ch.as_slice() {
            out.push(Child {
                mv: c.mv,
                next: WideKeys(c.next),
                gain: c.gain,
                turn_passed: c.turn_passed,
            });
        }
    }
    fn key(&self) -> u128 {
        self.0.key()
    }
    fn key_bound(&self) -> u128 {
        1 << 60
    }
    fn stake(&self) -> i32 {
        self.0.stake()
    }
    fn layer(&self) -> u32 {
        self.0.layer()
    }
    fn move_index(mv: u8) -> u8 {
        mv - 1
    }
}

#[test]
fn table_errors_are_reported() {
    let root = WideKeys(take_game(3, 10, -4, 6));
    let err = solve(&root, &cfg(1, 1 << 20), None).unwrap_err();
    assert!(
        matches!(err, SearchError::Table(TtError::KeyTooLarge { .. })),
        "{err}"
    );
    assert!(solve(&root, &cfg(1, 1 << 30), None).is_ok());

    let big = take_game(3, 100, 1, 10);
    assert!(big.stake() > crate::tt::MAX_STAKE);
    let err = solve(&big, &cfg(1, 1 << 20), None).unwrap_err();
    assert!(
        matches!(err, SearchError::Table(TtError::StakeTooLarge { .. })),
        "{err}"
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn random_cyclic_graphs(seed in 1000u64..1_000_000, stay in 20u64..80, pass in 0u64..100,
                            threads in 1usize..4, tt in 0usize..3) {
        let spec = graph_spec(seed, 4, 8, stay, pass);
        let fx = fixpoint::<true>(spec);
        let c = cfg(threads, [16, 256, 1 << 14][tt]);
        for p in all_nodes::<true>(spec) {
            prop_assert_eq!(solve(&p, &c, None).unwrap().value, fx[&p.key()]);
        }
    }

    #[test]
    fn random_acyclic_graphs(seed in 1000u64..1_000_000, stay in 0u64..90, pass in 0u64..100,
                             threads in 1usize..4, tt in 0usize..3) {
        let spec = graph_spec(seed, 6, 12, stay, pass);
        let mut memo = HashMap::new();
        let c = cfg(threads, [16, 256, 1 << 14][tt]);
        for p in all_nodes::<false>(spec).iter().filter(|p| p.layer >= 4) {
            prop_assert_eq!(solve(p, &c, None).unwrap().value, brute(p, &mut memo));
        }
    }
}

/// Timing run, not a check: `cargo test -p solver --release -- --ignored --nocapture perf`.
#[test]
#[ignore]
fn perf_large_graph() {
    let layers: u32 = std::env::var("PERF_LAYERS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(22);
    let spec = Box::leak(Box::new(GraphSpec {
        seed: 42,
        layers,
        width: 1 << 20,
        max_branch: 6,
        stay_pct: 50,
        pass_pct: 60,
        max_gain: 2,
    }));
    let root = Graph::<false> {
        spec,
        layer: layers,
        idx: 1,
    };
    let mut values = Vec::new();
    for threads in [1, 2] {
        let r = solve(&root, &cfg(threads, 1 << 26), None).unwrap();
        println!(
            "threads {threads}: value {} nodes {} in {:.2} s = {:.2} Mnodes/s, hits {:.1}%, pv {}",
            r.value,
            r.nodes,
            r.seconds,
            r.nodes as f64 / r.seconds / 1e6,
            100.0 * r.tt_hits as f64 / r.tt_probes as f64,
            r.pv.len()
        );
        values.push(r.value);
    }
    assert_eq!(values[0], values[1]);
}

/// The shared state of a two-thread value job with `lower..=upper` proven, as `Pool::run`
/// makes it.
fn two_threads<'a, G: Game>(
    tt: &'a TranspositionTable,
    busy: &'a BusyMarks,
    cfg: &'a SearchConfig,
    pos: G,
    lower: i32,
    upper: i32,
) -> Shared<'a, G> {
    Shared::new(tt, None, busy, cfg, Job::Exact(pos, lower, upper))
}

/// A thread gives up a null-window test that another thread already answered (the shared
/// proven bounds settle it), and says so; a test they do not settle runs to its answer.
#[test]
fn a_test_another_thread_answered_is_given_up() {
    let g = take_game(3, 24, -4, 6);
    let tt = TranspositionTable::for_game(&g, 1 << 12).unwrap();
    let busy = BusyMarks::new();
    let c = cfg(2, 1 << 12);
    let shared = |lower, upper| two_threads(&tt, &busy, &c, g, lower, upper);
    let s = g.stake();
    let mut memo = HashMap::new();
    let v = brute(&g, &mut memo);
    for t in [v - 2, v - 1, v, v + 1] {
        // Proven above t, or proven at most t: either way the test is moot.
        for (lo, hi) in [(t + 1, s), (-s, t)] {
            let sh = shared(lo, hi);
            assert_eq!(Searcher::new(&sh, 0).test(&g, t, false), Err(true), "t {t}");
        }
        let sh = shared(-s, s);
        let r = Searcher::new(&sh, 0).test(&g, t, t >= v).unwrap();
        assert_eq!(r > t, v > t, "t {t}: fail-soft {r}, value {v}");
    }
}

/// Thread 0 makes the heuristic guess of a value job and publishes it; the other threads take
/// it from there without searching, and give up when thread 0 was stopped.
#[test]
fn the_guess_is_made_once_and_shared() {
    let g = take_game(5, 24, -4, 6);
    let tt = TranspositionTable::for_game(&g, 1 << 12).unwrap();
    let busy = BusyMarks::new();
    let c = cfg(2, 1 << 12);
    let s = g.stake();
    let sh = two_threads(&tt, &busy, &c, g, -s, s);
    let mine = Searcher::new(&sh, 0).guess(&g, 4).unwrap();
    let mut first = Searcher::new(&sh, 0);
    assert_eq!(first.shared_guess(&g, 4), Some(mine));
    assert!(first.finish().nodes > 0);
    assert_eq!(sh.guess.load(Ordering::Relaxed), mine);
    let mut other = Searcher::new(&sh, 1);
    assert_eq!(other.shared_guess(&g, 4), Some(mine));
    assert_eq!(other.finish().nodes, 0);
    sh.guess.store(GUESS_STOPPED, Ordering::Relaxed);
    assert_eq!(Searcher::new(&sh, 1).shared_guess(&g, 4), None);
}
