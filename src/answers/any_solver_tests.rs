//! The analyzer's search through [`KalahNode`] against the same search through [`Position`]:
//! the same values, best moves, principal variations and, on 1 thread, node counts, with and
//! without endgame tables.

use super::*;
use crate::answers::{shared_tables, Analyzer, AnalyzerConfig, Limits, TableSize, TablesChoice};
use crate::endgame::table_id;
use crate::rules::Kalah;
use std::path::{Path, PathBuf};
use tables::BuildOptions;

/// The analyzer's table size in these tests: fixed, so the reference can be given the same.
const TT_BYTES: u64 = 1 << 20;

/// Kalah under the standard rules and with empty captures.
fn kalahs() -> [Kalah; 2] {
    [
        Kalah::default(),
        Kalah {
            empty_capture: true,
            ..Kalah::default()
        },
    ]
}

/// Boards of 3 to 5 holes: starts, and positions a few moves in with either side to move (a
/// node is the board from the mover's view, so North's is turned).
fn boards(rules: Kalah) -> Vec<Position<Kalah>> {
    let mut out = Vec::new();
    for (holes, seeds) in [(3, 4), (4, 3), (5, 2)] {
        let mut p = Position::start(rules, holes, seeds).expect("a start");
        out.push(p);
        // The last legal move each time, so the game leaves the principal variation.
        for _ in 0..4 {
            if p.is_over() {
                break;
            }
            let mv = *p.legal_moves().as_slice().last().expect("a move");
            p = p.play_unchecked(mv);
            out.push(p);
        }
    }
    out
}

/// An analyzer as the front ends make one, on 1 thread with a fixed table, without the book.
fn analyzer(tables: TablesChoice) -> Analyzer<Kalah> {
    Analyzer::new(AnalyzerConfig {
        threads: 1,
        table_size: TableSize::fixed(TT_BYTES),
        tables,
        book: false,
        ..AnalyzerConfig::default()
    })
}

/// The analyzer's search configuration for `p`, for the reference.
fn config(p: &Position<Kalah>) -> SearchConfig {
    let size = TableSize::fixed(TT_BYTES);
    SearchConfig {
        threads: 1,
        tt_bytes: size.first_bytes(p),
        tt_max_bytes: size.max_bytes(p),
        ..SearchConfig::default()
    }
}

/// Asserts that the node's search of `p` said what the search over [`Position`] said: value, best
/// moves, PV, 1-thread nodes and oracle probes (some, when `tables`).
fn assert_same_search(
    node: &SearchResult<Position<Kalah>>,
    reference: &SearchResult<Position<Kalah>>,
    tables: bool,
    p: &Position<Kalah>,
) {
    assert_eq!(node.value, reference.value, "{p}");
    assert_eq!(node.best, reference.best, "{p}");
    assert_eq!(node.pv, reference.pv, "{p}");
    assert_eq!(node.nodes, reference.nodes, "{p}");
    assert_eq!(
        (node.oracle_probes, node.oracle_hits),
        (reference.oracle_probes, reference.oracle_hits),
        "{p}"
    );
    if tables {
        assert!(node.oracle_probes > 0, "{p}");
    }
}

/// Solves every board through a fresh analyzer (the node) and through [`Position`] with the
/// same configuration and tables, and compares what they say.
fn same_as_position(tables: impl Fn(&Position<Kalah>) -> TablesChoice, dir: Option<&Path>) {
    for rules in kalahs() {
        for p in boards(rules) {
            if p.is_over() {
                continue;
            }
            let mut a = analyzer(tables(&p));
            let node = a
                .search(&p, &Limits::none(), |s| {
                    assert!(s.is_node(), "{p}");
                    s.solve(&p)
                })
                .expect("a search")
                .expect("solved");
            let tb = dir.map(|d| shared_tables::for_search(d, &p).expect("the tables"));
            let reference = AnySolver::over_position(&p, config(&p), tb)
                .and_then(|mut s| {
                    assert!(!s.is_node());
                    s.solve(&p)
                })
                .expect("solved");
            assert_same_search(&node, &reference, dir.is_some(), &p);
            // The analyzer's own answer is the search's.
            let answer = a.solve(&p, &Limits::none()).expect("an answer");
            assert_eq!(answer.future.value(), Some(reference.value), "{p}");
            assert_eq!(answer.best, reference.best, "{p}");
        }
    }
}

#[test]
fn the_analyzers_search_through_the_node_is_the_positions() {
    same_as_position(|_| TablesChoice::Off, None);
}

/// Kalah tables of 3 to 5 holes up to `k` seeds, both rules, built in a fresh directory of its
/// own (`name`: the tests run at once).
fn built_tables(name: &str, k: u32) -> PathBuf {
    let dir =
        std::env::temp_dir().join(format!("mancala-any-solver-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    let opts = BuildOptions {
        threads: 2,
        cyclic_by_graph: false,
        stop: None,
    };
    for rules in kalahs() {
        for holes in 3..=5 {
            let ix = MancalaIndexer::new(rules, holes);
            let id = table_id(&rules, holes);
            tables::build(&ix, &id, &dir, k, &opts, &tables::Silent, |_| {}).expect("built");
        }
    }
    dir
}

#[test]
fn the_analyzers_search_through_the_node_with_tables_is_the_positions() {
    let dir = built_tables("search", 8);
    same_as_position(|_| TablesChoice::Dir(dir.clone()), Some(&dir));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_view_through_the_nodes_index_shares_the_layers_and_their_faults() {
    let dir = built_tables("view", 4);
    let rules = Kalah::default();
    let p = Position::start(rules, 4, 1).expect("a start");
    let tb = shared_tables::for_search(&dir, &p).expect("the tables");
    let view = node_view::<Kalah, 4>(tb, rules).expect("a view");
    assert!(std::ptr::eq(view.tables().as_ptr(), tb.tables().as_ptr()));
    // Views are made once per set and size.
    let again = node_view::<Kalah, 4>(tb, rules).expect("a view");
    assert!(std::ptr::eq(view, again));
    // Another size's index does not fit these layers.
    assert!(matches!(
        tb.reindexed(crate::rules::KalahNodeIndexer::<3>::new(rules)),
        Err(tables::TableError::Mismatch { .. })
    ));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_scoped_search_with_its_own_tables_is_the_positions() {
    // Tables opened for one search (as `mancala.solve` and `verify` open them), the node's view
    // made for the call: the same answers, 1-thread nodes and oracle probes as over `Position`.
    let dir = built_tables("scoped", 8);
    for rules in kalahs() {
        for p in boards(rules) {
            if p.is_over() {
                continue;
            }
            let tb = crate::endgame::open_for_search(&dir, &p).expect("the tables");
            for tables in [None, Some(&tb)] {
                let node = AnySolver::scoped(&p, config(&p), tables, |s| {
                    assert!(s.is_node(), "{p}");
                    (s.solve(&p), s.nodes())
                })
                .expect("a solver");
                let node = (node.0.expect("solved"), node.1);
                let reference = AnySolver::over_position(&p, config(&p), tables)
                    .and_then(|mut s| Ok((s.solve(&p)?, s.nodes())))
                    .expect("solved");
                assert_same_search(&node.0, &reference.0, tables.is_some(), &p);
                assert_eq!(node.1, reference.1, "{p}");
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}
