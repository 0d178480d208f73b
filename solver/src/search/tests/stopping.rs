//! Stopping a search: a test another thread answered is given up, the guess is shared, a
//! stopped search keeps what it proved, and an oracle that finds a fault in its own data stops
//! the search with it.

use super::*;

/// The shared state of a two-thread value job with `lower..=upper` proven, as `Pool::run`
/// makes it.
fn two_threads<'a, G: Game>(
    tt: &'a Table<Narrow>,
    busy: &'a BusyMarks,
    cfg: &'a SearchConfig,
    pos: G,
    lower: i32,
    upper: i32,
) -> Shared<'a, G, Narrow> {
    Shared::new(tt, None, busy, cfg, Job::Exact(pos, lower, upper), u64::MAX)
}

/// A thread gives up a null-window test that another thread already answered (the shared
/// proven bounds settle it), and says so; a test they do not settle runs to its answer.
#[test]
fn a_test_another_thread_answered_is_given_up() {
    let g = take_game(3, 24, -4, 6);
    let tt = Table::<Narrow>::zeroed(1 << 8).unwrap();
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
            assert_eq!(
                Searcher::new(&sh, 0).test(&g, t, false),
                Err(TestEnd::Moot),
                "t {t}"
            );
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
    let tt = Table::<Narrow>::zeroed(1 << 8).unwrap();
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

/// An oracle that knows nothing and raises the stop flag at its `after`-th call: a search
/// stopped at a chosen point, the same one on every run with one thread.
struct StopAfter {
    after: u64,
    calls: std::sync::atomic::AtomicU64,
    stop: StopToken,
}

impl<const C: bool> Oracle<Graph<C>> for StopAfter {
    fn probe(&self, _: &Graph<C>) -> Option<i32> {
        if self.calls.fetch_add(1, Ordering::Relaxed) + 1 == self.after {
            self.stop.stop();
        }
        None
    }
}

/// A solve and an analysis of `root` with one thread, stopped at the `after`-th oracle call
/// (never, for `u64::MAX`): their results, what they recorded, and the oracle's calls.
#[allow(clippy::type_complexity)]
fn stopped_at<const C: bool>(
    root: &Graph<C>,
    after: u64,
) -> (
    (Result<SearchResult<Graph<C>>, SearchError>, Proven<u8>, u64),
    (Result<(), SearchError>, Proven<u8>, u64),
) {
    let run = |analysis: bool| {
        let stop = StopToken::new();
        let oracle = StopAfter {
            after,
            calls: Default::default(),
            stop: stop.clone(),
        };
        let c = SearchConfig {
            stop: Some(stop),
            ..cfg(1, 1 << 12)
        };
        let mut solver = Solver::new(root, c, Some(&oracle)).unwrap();
        let mut proven = Proven::default();
        let r = if analysis {
            Err(solver.analyze_tracked(root, &mut proven))
        } else {
            Ok(solver.solve_tracked(root, &mut proven))
        };
        (r, proven, oracle.calls.load(Ordering::Relaxed))
    };
    let (Ok(s), sp, sc) = run(false) else {
        unreachable!()
    };
    let (Err(a), ap, ac) = run(true) else {
        unreachable!()
    };
    ((s, sp, sc), (a, ap, ac))
}

#[test]
fn a_stopped_search_keeps_what_it_proved() {
    let spec = graph_spec(42, 20, 1 << 15, 50, 60);
    let root = Graph::<false> {
        spec,
        layer: 20,
        idx: 1,
    };
    let ((full, _, solve_calls), (_, full_analysis, analysis_calls)) = stopped_at(&root, u64::MAX);
    let full = full.unwrap();
    let mut ch = Children::new();
    root.children(&mut ch);
    let moves: Vec<_> = ch.as_slice().iter().map(|c| c.mv).collect();
    assert!(moves.len() > 2);
    // Where the value phase of the solve ends, and where the first move's valuation ends: the
    // oracle calls of those searches alone (one thread: the same on every run).
    let counted = |f: &dyn Fn(&mut Solver<'_, Graph<false>>)| {
        let oracle = StopAfter {
            after: u64::MAX,
            calls: Default::default(),
            stop: StopToken::new(),
        };
        f(&mut Solver::new(&root, cfg(1, 1 << 12), Some(&oracle)).unwrap());
        oracle.calls.load(Ordering::Relaxed)
    };
    let value_calls = counted(&|s| {
        s.value(&root).unwrap();
    });
    let first_move_calls = counted(&|s| {
        s.value(&ch.as_slice()[0].next).unwrap();
    });
    assert!(value_calls < solve_calls && first_move_calls < analysis_calls);
    let mut points: Vec<u64> = (1..8).map(|i| solve_calls * i / 8).collect();
    points.extend([value_calls + 1, first_move_calls + 1]);
    let (mut value_only, mut some_valued) = (false, false);
    for after in points {
        let ((s, sp, _), (a, ap, _)) = stopped_at(&root, after);
        // Solve: the value once known is the value; each move proven best is best and each
        // proven worse is not, tested in move order.
        match s {
            Ok(r) => assert_eq!((r.value, &r.best), (full.value, &full.best)),
            Err(e) => assert_eq!(e, SearchError::Interrupted),
        }
        match sp.value {
            Some(v) => assert_eq!(v, full.value),
            None => assert!(sp.best.is_empty() && sp.worse.is_empty()),
        }
        let tested = sp.best.len() + sp.worse.len();
        value_only |= sp.value.is_some() && tested < moves.len();
        let in_order: Vec<_> = moves
            .iter()
            .filter(|m| sp.best.contains(m) || sp.worse.contains(m))
            .copied()
            .collect();
        assert_eq!(in_order, moves[..tested].to_vec());
        assert!(sp.best.iter().all(|m| full.best.contains(m)));
        assert!(sp.worse.iter().all(|m| !full.best.contains(m)));
        // Analysis: the moves valued are the first ones of the full analysis, with its values.
        assert_eq!(ap.valued, full_analysis.valued[..ap.valued.len()].to_vec());
        match a {
            Ok(()) => assert_eq!(ap, full_analysis),
            Err(e) => assert_eq!(e, SearchError::Interrupted),
        }
        some_valued |= !ap.valued.is_empty() && ap.valued.len() < moves.len();
    }
    assert!(
        value_only,
        "no solve stopped between its value and its best moves"
    );
    assert!(
        some_valued,
        "no analysis stopped with some of its moves valued"
    );
}

/// The fault [`Faulty`] reports.
const FAULT: &str = "layer 3, entry 7 contradicts itself";

/// An oracle that answers the low layers exactly but reports a fault once it has been probed
/// `after` times (as endgame tables do when a sampled check finds a contradiction), and counts
/// the positions audited.
struct Faulty<'a> {
    low: LowLayers<'a>,
    after: u64,
    audited: std::sync::atomic::AtomicU64,
}

impl<const C: bool> Oracle<Graph<C>> for Faulty<'_> {
    fn probe(&self, pos: &Graph<C>) -> Option<i32> {
        self.low.probe(pos)
    }

    fn audit(&self, _: &Graph<C>, _: Stop<'_>) {
        self.audited.fetch_add(1, Ordering::Relaxed);
    }

    fn fault(&self) -> Option<OracleFault> {
        (self.low.calls.load(Ordering::Relaxed) >= self.after)
            .then(|| OracleFault::new(std::io::Error::other(FAULT)))
    }
}

/// A fault found during a search stops it with [`SearchError::Oracle`], whatever the thread
/// count, and no value is returned; the job's position and its children are audited first; an
/// oracle that never faults changes nothing.
#[test]
fn an_oracle_fault_stops_the_search() {
    let spec = graph_spec(31, 9, 30, 55, 50);
    let fx = fixpoint::<true>(spec);
    let p = all_nodes::<true>(spec)
        .into_iter()
        .find(|p| p.layer == 9)
        .unwrap();
    let mut children = Children::new();
    p.children(&mut children);
    for threads in [1, 2] {
        let faulty = Faulty {
            low: LowLayers {
                values: &fx,
                up_to: 5,
                calls: Default::default(),
            },
            after: 0,
            audited: Default::default(),
        };
        assert_eq!(
            solve(&p, &cfg(threads, 1 << 14), Some(&faulty)).err(),
            Some(SearchError::Oracle(OracleFault::new(
                std::io::Error::other(FAULT)
            )))
        );
        assert!(faulty.audited.load(Ordering::Relaxed) > children.len() as u64);
        let sound = Faulty {
            after: u64::MAX,
            ..faulty
        };
        assert_eq!(
            solve(&p, &cfg(threads, 1 << 14), Some(&sound))
                .unwrap()
                .value,
            fx[&p.key()]
        );
    }
}

/// A solve audits its root and the root's moves once, whatever the jobs it runs inside (the
/// floor, the tests that settle the moves, the principal variation): an audit can cost more
/// than the search, so the interior is left to the oracle's sampled checks.
#[test]
fn a_solve_audits_its_root_and_moves_once() {
    let spec = graph_spec(31, 9, 30, 55, 50);
    let fx = fixpoint::<true>(spec);
    let p = all_nodes::<true>(spec)
        .into_iter()
        .find(|p| p.layer == 9)
        .unwrap();
    let mut children = Children::new();
    p.children(&mut children);
    for threads in [1, 2] {
        let sound = Faulty {
            low: LowLayers {
                values: &fx,
                up_to: 5,
                calls: Default::default(),
            },
            after: u64::MAX,
            audited: Default::default(),
        };
        let r = solve(&p, &cfg(threads, 1 << 14), Some(&sound)).unwrap();
        assert_eq!(r.value, fx[&p.key()]);
        assert!(!r.pv.is_empty(), "the solve ran jobs below its root");
        assert_eq!(
            sound.audited.load(Ordering::Relaxed),
            1 + children.len() as u64
        );
    }
}

/// An oracle whose audit is where the stop flag goes up (a signal during a long audit): it
/// counts its audits and its probes.
struct StopInAudit {
    stop: StopToken,
    audited: std::sync::atomic::AtomicU64,
    probes: std::sync::atomic::AtomicU64,
}

impl<const C: bool> Oracle<Graph<C>> for StopInAudit {
    fn probe(&self, _: &Graph<C>) -> Option<i32> {
        self.probes.fetch_add(1, Ordering::Relaxed);
        None
    }

    fn audit(&self, _: &Graph<C>, stop: Stop<'_>) {
        assert!(!stop.is_raised(), "audited after the stop");
        self.audited.fetch_add(1, Ordering::Relaxed);
        self.stop.stop();
    }
}

/// A stop raised while the root is audited ends the entry point there: the audit is handed the
/// search's stop flag, no child is audited after it, no job runs, and the answer is
/// [`SearchError::Interrupted`], on every entry point and thread count, with the progress
/// bounds at the whole stake (not an earlier answer's).
#[test]
fn a_stop_during_the_audit_ends_the_answer() {
    let spec = graph_spec(31, 9, 30, 55, 50);
    let p = all_nodes::<true>(spec)
        .into_iter()
        .find(|p| p.layer == 9)
        .unwrap();
    for threads in [1, 2] {
        for entry in 0..4 {
            let stop = StopToken::new();
            let oracle = StopInAudit {
                stop: stop.clone(),
                audited: Default::default(),
                probes: Default::default(),
            };
            let progress = Arc::new(Progress::new());
            progress.start_job(1, 1); // an earlier answer's bounds
            let c = SearchConfig {
                stop: Some(stop),
                progress: Some(progress.clone()),
                ..cfg(threads, 1 << 12)
            };
            let mut solver = Solver::new(&p, c, Some(&oracle)).unwrap();
            let r = match entry {
                0 => solver.solve(&p).map(|r| r.value),
                1 => solver.value(&p),
                2 => solver.bound(&p, 0),
                _ => solver.guess(&p),
            };
            assert_eq!(r, Err(SearchError::Interrupted), "entry {entry}");
            assert_eq!(oracle.audited.load(Ordering::Relaxed), 1, "entry {entry}");
            assert_eq!(oracle.probes.load(Ordering::Relaxed), 0, "entry {entry}");
            let s = p.stake();
            assert_eq!(progress.bounds(), (-s, s), "entry {entry}: what is known");
        }
    }
}
