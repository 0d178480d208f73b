//! Exact values from the search against published values: docs/rules.md §3.7 and REFERENCE.md.

use crate::util::{kalah, kalah_start_values, solve_start};

/// docs/rules.md §3.7: every board size under the four rule combinations.
#[test]
fn kalah_small_boards_match_rules_md() {
    let rows: Vec<_> = kalah_start_values()
        .into_iter()
        .filter(|r| r.source.contains("docs/rules.md"))
        .collect();
    assert_eq!(rows.len(), 17 * 4, "the whole §3.7 table");
    for r in rows {
        let (got, _) = solve_start(r.rules, r.holes, r.seeds, 1);
        assert_eq!(got, r.value, "Kalah({},{}) {:?}", r.holes, r.seeds, r.rules);
    }
}

/// REFERENCE.md, "agreed by independent public solvers" and Irving et al. 2000 (default end
/// rule), with the best first moves where published.
#[test]
fn kalah_reference_values_and_best_moves() {
    let rows: Vec<_> = kalah_start_values()
        .into_iter()
        .filter(|r| r.source.contains("REFERENCE.md"))
        .collect();
    assert_eq!(rows.len(), 16);
    for r in rows {
        let (holes, seeds, ec) = (r.holes, r.seeds, r.rules.empty_capture);
        assert!(!r.rules.end_when_mover_empty);
        let (got, moves) = solve_start(r.rules, holes, seeds, 2);
        assert_eq!(got, r.value, "Kalah({holes},{seeds}) empty_capture={ec}");
        if !r.best.is_empty() {
            assert_eq!(
                moves, r.best,
                "best moves of Kalah({holes},{seeds}) empty_capture={ec}"
            );
        }
    }
}

/// The same value for any thread count.
#[test]
fn thread_count_does_not_change_values() {
    for (holes, seeds) in [(4, 4), (5, 3), (3, 4)] {
        let one = solve_start(kalah(false, false), holes, seeds, 1);
        for threads in [2, 3, 4] {
            assert_eq!(
                solve_start(kalah(false, false), holes, seeds, threads),
                one,
                "Kalah({holes},{seeds}) threads={threads}"
            );
        }
    }
}
