//! The search checked against slow reference solvers on the toy games of `crate::toy`.

use std::collections::HashMap;
use std::sync::atomic::Ordering;
use std::sync::Arc;

use proptest::prelude::*;

use super::defer::BusyMarks;
use super::node::{Searcher, TestEnd};
use super::order::move_order;
use super::shared::{Job, Shared, GUESS_STOPPED};
use super::*;
use crate::game::{Child, Children, Game};
use crate::stop::{Stop, StopToken};
use crate::toy::graph::{all_nodes, graph_spec, CycleFlag, Flagged, Graph, GraphIx, GraphSpec};
use crate::toy::reference::{brute_all, minimax as brute};
use crate::toy::take::{take_game, Take, WideKeys};
use crate::tt::{Narrow, Table, TtError};

/// The exact value of every node of `spec`, by docs/rules.md §8.5 ([`brute_all`]), by key.
fn fixpoint<const C: bool>(spec: &'static GraphSpec) -> HashMap<u128, i32> {
    let tables = brute_all(&GraphIx::<C>(spec), spec.layers);
    all_nodes::<C>(spec)
        .iter()
        .map(|p| (p.key(), tables[p.layer as usize][p.idx as usize]))
        .collect()
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
    let mut s = Solver::new(root, c.clone(), None).unwrap();
    assert_eq!(
        s.best_moves(root, false).unwrap(),
        (want, want_best.clone())
    );
    let first: Vec<_> = want_best.iter().take(1).copied().collect();
    assert_eq!(s.best_moves(root, true).unwrap(), (want, first));
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

#[test]
fn a_cycle_flag_on_an_acyclic_game_changes_nothing() {
    let spec = graph_spec(5, 7, 16, 45, 50);
    let mut memo = HashMap::new();
    for p in all_nodes::<false>(spec) {
        brute(&p, &mut memo);
    }
    let f = |p: &CycleFlag<Graph<false>>| memo[&p.key()];
    for (i, p) in all_nodes::<false>(spec).into_iter().enumerate() {
        check_root(&Flagged(p), &[cfg(1, 16), cfg(2, 1 << 14)][i % 2], &f);
    }
}

/// The wide entry searches exactly like the narrow one: with as many buckets the table behaves the
/// same (same bucket, same replacement), so on one thread even the node counts agree; on several
/// threads the values still match the fixpoint. Tables of 1 to 64 buckets force replacement.
#[test]
fn wide_entries_search_like_narrow_ones() {
    let wide = |threads, bytes| SearchConfig {
        wide_table: true,
        ..cfg(threads, bytes)
    };
    for seed in 0..4 {
        let spec = graph_spec(300 + seed, 6, 12, 55, 50);
        let fx = fixpoint::<true>(spec);
        let f = |p: &Graph<true>| fx[&p.key()];
        for (i, p) in all_nodes::<true>(spec).iter().enumerate() {
            let buckets = [1, 4, 64][i % 3];
            let n = solve(p, &cfg(1, 16 * buckets), None).unwrap();
            let w = solve(p, &wide(1, 32 * buckets), None).unwrap();
            assert_eq!(
                (n.value, &n.best, &n.pv, n.nodes, n.tt_hits),
                (w.value, &w.best, &w.pv, w.nodes, w.tt_hits),
                "{p:?}"
            );
            assert_eq!((n.tt_bytes, w.tt_bytes), (16 * buckets, 32 * buckets));
            check_root(p, &wide(2, 32 * buckets), &f);
        }
    }
    let g = take_game(7, 24, -4, 6);
    let n = solve(&g, &cfg(1, 16 * 8), None).unwrap();
    let w = solve(&g, &wide(1, 32 * 8), None).unwrap();
    assert_eq!((n.value, &n.pv, n.nodes), (w.value, &w.pv, w.nodes));
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

/// [`LowLayers`] that declares its top layer ([`Oracle::max_layer`]) and refuses to be asked
/// about any position above it.
struct Bounded<'a>(LowLayers<'a>);

impl<const C: bool> Oracle<Graph<C>> for Bounded<'_> {
    fn probe(&self, pos: &Graph<C>) -> Option<i32> {
        assert!(pos.layer <= self.0.up_to, "asked above max_layer: {pos:?}");
        self.0.probe(pos)
    }

    fn max_layer(&self) -> u32 {
        self.0.up_to
    }
}

/// Solves every position of layers 9 (above the oracle's) and 5 (its top layer) of a toy graph
/// with an oracle of layers `0..=5` that declares them, with `threads` threads.
fn bounded_oracle_is_exact<const C: bool>(threads: usize) {
    let spec = graph_spec(31, 9, 30, 55, 50);
    let fx = fixpoint::<C>(spec);
    let oracle = Bounded(LowLayers {
        values: &fx,
        up_to: 5,
        calls: Default::default(),
    });
    for p in all_nodes::<C>(spec)
        .iter()
        .filter(|p| p.layer == 9 || p.layer == 5)
    {
        let r = solve(p, &cfg(threads, 1 << 14), Some(&oracle)).unwrap();
        assert_eq!(r.value, fx[&p.key()], "{p:?}");
    }
    assert!(oracle.0.calls.load(Ordering::Relaxed) > 0);
}

#[test]
fn oracle_is_not_asked_above_its_max_layer() {
    bounded_oracle_is_exact::<false>(1);
    bounded_oracle_is_exact::<true>(2);
}

/// An oracle of the layers `0..=up_to` that locates its answers ([`Oracle::prefetch`]), as
/// endgame tables do, for any game on the graph's keys.
struct Located<'a> {
    values: &'a HashMap<u128, i32>,
    up_to: u32,
}

impl<G: Game> Oracle<G> for Located<'_> {
    fn probe(&self, pos: &G) -> Option<i32> {
        (pos.layer() <= self.up_to).then(|| self.values[&pos.key()])
    }

    fn max_layer(&self) -> u32 {
        self.up_to
    }

    fn prefetch(&self, pos: &G) -> Option<OracleSlot> {
        (pos.layer() <= self.up_to).then(|| OracleSlot {
            part: pos.layer(),
            index: pos.key() as u64,
        })
    }
}

/// A game's children generated before its node's table entry is read
/// ([`Game::EARLY_CHILDREN`]): on one thread the same tree as before (nodes, table and oracle
/// probes and hits, value, best moves, PV) with tables of 1 to 1024 buckets and with an oracle
/// that locates its answers; on two threads the fixpoint's values.
fn early_children_search_the_same_tree<const C: bool>(spec: &'static GraphSpec) {
    let fx = fixpoint::<C>(spec);
    let oracle = Located {
        values: &fx,
        up_to: 3,
    };
    let f = |p: &Flagged<Graph<C>, false, true>| fx[&p.key()];
    for (i, p) in all_nodes::<C>(spec)
        .iter()
        .filter(|p| p.layer >= 3)
        .enumerate()
    {
        let early = Flagged::<_, false, true>(*p);
        let c = cfg(1, 16 << (2 * (i % 5)));
        let with: Option<&dyn Oracle<Graph<C>>> = (i % 2 == 1).then_some(&oracle);
        let with_early: Option<&dyn Oracle<Flagged<Graph<C>, false, true>>> =
            (i % 2 == 1).then_some(&oracle);
        let a = solve(p, &c, with).unwrap();
        let b = solve(&early, &c, with_early).unwrap();
        assert_eq!(
            (a.value, &a.best, &a.pv, a.nodes, a.tt_probes, a.tt_hits),
            (b.value, &b.best, &b.pv, b.nodes, b.tt_probes, b.tt_hits),
            "{p:?}"
        );
        assert_eq!(
            (a.oracle_probes, a.oracle_hits),
            (b.oracle_probes, b.oracle_hits),
            "{p:?}"
        );
        assert_eq!(a.value, fx[&p.key()], "{p:?}");
        check_root(&early, &cfg(2, 1 << 14), &f);
    }
}

#[test]
fn early_children_change_no_tree() {
    for seed in 0..3 {
        early_children_search_the_same_tree::<false>(graph_spec(400 + seed, 6, 12, 50, 50));
        early_children_search_the_same_tree::<true>(graph_spec(500 + seed, 6, 10, 55, 50));
    }
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
    let stop = StopToken::new();
    stop.stop();
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
    stop.reset();
    let r = solve(&root, &c, None).unwrap();
    assert_eq!(progress.bounds().0, progress.bounds().1);
    assert!(progress.nodes() >= r.nodes / 2);
    // The live best move a finished solve leaves is a best move, at the value.
    let (index, reached) = progress.best_move().expect("a best move");
    assert_eq!(reached, r.value);
    assert!(r
        .best
        .iter()
        .any(|&m| Graph::<false>::move_index(m) == index));
}

/// `Solver::bound` is a fail-soft null-window test: `r >= t` proves `F >= r`, `r < t` proves
/// `F <= r`, on acyclic and cyclic graphs, with one solver (and table) across the tests and a
/// stop raised and lowered in between (as a worker of the distributed solve does).
#[test]
fn bound_is_a_fail_soft_test() {
    for cyclic in [false, true] {
        let spec = graph_spec(500 + u64::from(cyclic), 6, 12, 50, 50);
        if cyclic {
            let fx = fixpoint::<true>(spec);
            let nodes = all_nodes::<true>(spec);
            let stop = StopToken::new();
            let c = SearchConfig {
                stop: Some(stop.clone()),
                ..cfg(2, 1 << 12)
            };
            let top = nodes.iter().max_by_key(|p| p.layer).unwrap();
            let mut s = Solver::new(top, c, None).unwrap();
            for p in nodes.iter().step_by(3) {
                let f = fx[&p.key()];
                for t in [f - 2, f, f + 1, f + 3] {
                    let r = s.bound(p, t).unwrap();
                    assert!(
                        if r >= t { f >= r } else { f <= r },
                        "{p:?} {t}: {r} vs {f}"
                    );
                }
                stop.stop();
                let _ = s.bound(p, f + 5);
                stop.reset();
            }
        } else {
            let mut memo = HashMap::new();
            let nodes = all_nodes::<false>(spec);
            for p in &nodes {
                brute(p, &mut memo);
            }
            let top = nodes.iter().max_by_key(|p| p.layer).unwrap();
            let mut s = Solver::new(top, cfg(1, 1 << 12), None).unwrap();
            for p in nodes.iter().step_by(3) {
                let f = memo[&p.key()];
                for t in [f - 2, f, f + 1, f + 3] {
                    let r = s.bound(p, t).unwrap();
                    assert!(
                        if r >= t { f >= r } else { f <= r },
                        "{p:?} {t}: {r} vs {f}"
                    );
                }
            }
        }
    }
}

#[test]
fn table_errors_are_reported() {
    // Keys too wide for the narrow entry in 1 MiB take the wide one and solve alike; keys beyond
    // even the wide entry in a small table are refused.
    let g = take_game(3, 10, -4, 6);
    let want = solve(&g, &cfg(1, 1 << 20), None).unwrap();
    let r = solve(&WideKeys::<60>(g), &cfg(1, 1 << 20), None).unwrap();
    assert_eq!(
        (r.value, &r.best, &r.pv),
        (want.value, &want.best, &want.pv)
    );
    let r = solve(&WideKeys::<112>(g), &cfg(1, 1 << 20), None).unwrap();
    assert_eq!(r.value, want.value);
    let root = WideKeys::<128>(g);
    let err = solve(&root, &cfg(1, 1 << 20), None).unwrap_err();
    assert!(
        matches!(err, SearchError::Table(TtError::KeyTooLarge { .. })),
        "{err}"
    );

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

mod stopping;

/// A table that starts at one bucket and grows (keeping its entries) gives the same values,
/// best moves and analyses as a fixed one, on acyclic and cyclic games, for 1 and 2 threads;
/// it grows when a job outgrows it, and never past its limit.
#[test]
fn a_growing_table_changes_no_value() {
    let growing = |threads| SearchConfig {
        tt_max_bytes: 1 << 16,
        ..cfg(threads, 16)
    };
    let mut grew = 0;
    let mut check = |r: SearchResult<_>| {
        assert!(r.tt_bytes >= 16 && r.tt_bytes <= 1 << 16, "{}", r.tt_bytes);
        grew += usize::from(r.tt_bytes > 16);
    };
    for seed in 0..3 {
        let spec = graph_spec(300 + seed, 7, 16, 45, 50);
        let mut memo = HashMap::new();
        let nodes = all_nodes::<false>(spec);
        for p in &nodes {
            brute(p, &mut memo);
        }
        let f = |p: &Graph<false>| memo[&p.key()];
        for (i, p) in nodes.iter().enumerate().filter(|(i, _)| i % 7 == 0) {
            check_root(p, &growing(1 + i % 2), &f);
            check(solve(p, &growing(1), None).unwrap());
            let fixed = solve(p, &cfg(1, 16), None).unwrap();
            assert_eq!(
                fixed.tt_bytes, 16,
                "without a limit the table keeps its size"
            );
        }
    }
    let spec = graph_spec(400, 5, 10, 60, 50);
    let fx = fixpoint::<true>(spec);
    let f = |p: &Graph<true>| fx[&p.key()];
    for (i, p) in all_nodes::<true>(spec)
        .iter()
        .enumerate()
        .filter(|(i, _)| i % 3 == 0)
    {
        check_root(p, &growing(1 + i % 2), &f);
    }
    // The toy searches are small (a few thousand nodes a job), so few of them outgrow the
    // table between two looks at the node count; tests/first_hour.rs checks growth on Kalah.
    let _ = grew;
}
