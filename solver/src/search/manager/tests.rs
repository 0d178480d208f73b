//! The manager against one in-process solve: the same value and best moves, for any number of
//! workers and any order of answers.

use std::collections::VecDeque;

use super::*;
use crate::search::{solve, SearchConfig, Solver};
use crate::toy::digits::Digits;
use crate::toy::graph::{all_nodes, graph_spec};
use crate::toy::rng::mix;
use crate::toy::take::take_game;
use crate::toy::track::Track;

fn cfg() -> SearchConfig {
    SearchConfig {
        threads: 1,
        tt_bytes: 1 << 14,
        ..SearchConfig::default()
    }
}

/// A run of the manager with in-process workers, one solver for all: the jobs out are
/// answered one at a time, in an order drawn from `seed` (0: the oldest first), so that
/// later jobs often finish first and a sibling's answer cancels jobs still out. Starts from
/// `journal`'s results; returns the outcome, the counters and every result.
fn run<G: Game>(
    root: G,
    depth: u32,
    workers: usize,
    per_worker: usize,
    seed: u64,
    journal: &[(u128, i32, i32)],
) -> (Outcome<G>, Counts, Vec<(u128, i32, i32)>) {
    let mut solver = Solver::new(&root, cfg(), None).unwrap();
    let mut m = Manager::new(root, depth, workers, per_worker);
    m.start_at((seed % 9) as i32 - 4);
    for &(k, b, r) in journal {
        m.learn(k, b, r);
    }
    let mut queue: VecDeque<(u64, G, i32)> = VecDeque::new();
    let mut log = Vec::new();
    let mut step = 0;
    loop {
        match m.poll() {
            Poll::Done(o) => {
                assert!(queue.is_empty());
                return (o, m.counts(), log);
            }
            Poll::Orders(orders) => {
                for o in orders {
                    match o {
                        Order::Run { id, pos, bound, .. } => {
                            queue.push_back((id, pos, bound));
                        }
                        Order::Cancel { id, .. } => {
                            let i = queue.iter().position(|j| j.0 == id).unwrap();
                            queue.remove(i);
                            m.cancelled(id);
                        }
                    }
                }
            }
        }
        if queue.is_empty() {
            continue; // everything out was cancelled
        }
        step += 1;
        let i = if seed == 0 {
            0
        } else {
            (mix(seed ^ step) % queue.len() as u64) as usize
        };
        let (id, pos, bound) = queue.remove(i).unwrap();
        let r = solver.bound(&pos, bound).unwrap();
        let (k, b) = m.finished(id, r);
        assert_eq!((k, b), (pos.key(), bound));
        log.push((k, b, r));
    }
}

/// The manager's value and best moves are the single-process solve's, for several depths,
/// worker counts and answer orders; returns the jobs cancelled over all runs.
fn check<G: Game>(root: G) -> u64 {
    let want = solve(&root, &cfg(), None).unwrap();
    let mut cancelled = 0;
    for depth in 1..=4 {
        for (workers, per_worker, seed) in [(1, 1, 0), (3, 2, 0), (4, 2, 7), (2, 3, 99)] {
            let (o, c, _) = run(root, depth, workers, per_worker, seed, &[]);
            assert_eq!(
                (o.value, &o.best),
                (want.value, &want.best),
                "{root:?} at depth {depth} on {workers} workers, seed {seed}"
            );
            assert_eq!(c.issued, c.finished + c.cancelled);
            cancelled += c.cancelled;
        }
    }
    cancelled
}

#[test]
fn take_away_equals_one_solve() {
    let mut cancelled = 0;
    for seed in 0..6 {
        let g = take_game(seed, 24, -4, 6);
        for n in [0, 1, 5, 13, 24] {
            cancelled += check(crate::toy::take::Take { n, ..g });
        }
    }
    assert!(cancelled > 0, "no job was ever cancelled");
}

#[test]
fn graphs_equal_one_solve_acyclic_and_cyclic() {
    for seed in 0..3 {
        let spec = graph_spec(300 + seed, 6, 12, 45, 50);
        for p in all_nodes::<false>(spec).iter().step_by(7) {
            check(*p);
        }
        let spec = graph_spec(400 + seed, 5, 10, 60, 50);
        for p in all_nodes::<true>(spec).iter().step_by(5) {
            check(*p);
        }
    }
}

#[test]
fn digits_and_track_equal_one_solve() {
    for p in [0, 7, 100, 201, 255] {
        check(Digits { s: 6, p, d: 4 });
    }
    for s in 0..=4 {
        for q in 0..=8 {
            check(Track { s, q });
        }
    }
}

/// A run restarted from the results of a run cut short needs fewer jobs and ends the same;
/// from all of them, none.
#[test]
fn journaled_results_are_reused() {
    let root = Digits { s: 8, p: 201, d: 4 };
    let want = solve(&root, &cfg(), None).unwrap();
    let (o, _, log) = run(root, 3, 3, 2, 5, &[]);
    assert_eq!((o.value, &o.best), (want.value, &want.best));
    assert!(log.len() > 4);
    let (o, c2, _) = run(root, 3, 3, 2, 6, &log[..log.len() / 2]);
    assert_eq!((o.value, &o.best), (want.value, &want.best));
    assert_eq!(c2.reused, (log.len() / 2) as u64);
    let mut m = Manager::new(root, 3, 1, 1);
    for &(k, b, r) in &log {
        m.learn(k, b, r);
    }
    assert_eq!(m.root_interval(), (want.value, want.value));
    let (o, c3, _) = run(root, 3, 1, 1, 0, &log);
    assert_eq!((o.value, &o.best), (want.value, &want.best));
    assert_eq!((c3.issued, c3.reused), (0, log.len() as u64));
}
