//! Exact values from the search against published values: RULES.md §3.7 and REFERENCE.md.

use crate::util::{kalah, solve_start};

/// RULES.md §3.7: holes × seeds, then standard, end-when-mover-empty, empty-capture, both.
const RULES_TABLE: [(u8, u8, [i32; 4]); 17] = [
    (1, 1, [0, 0, 0, 0]),
    (1, 2, [-2, -2, -2, -2]),
    (1, 3, [6, 6, 6, 6]),
    (1, 4, [-2, -2, -2, -2]),
    (2, 1, [2, 2, 2, 2]),
    (2, 2, [-2, -2, -2, 0]),
    (2, 3, [-2, -2, -2, -2]),
    (2, 4, [-10, -12, -12, -10]),
    (3, 1, [0, 0, 0, 0]),
    (3, 2, [4, 4, 4, 4]),
    (3, 3, [2, 2, 2, 4]),
    (3, 4, [2, 2, 2, 0]),
    (4, 1, [2, 2, 2, 2]),
    (4, 2, [6, 6, 6, 6]),
    (4, 3, [6, 6, 8, 8]),
    (5, 1, [0, 0, 0, 0]),
    (6, 1, [2, 2, 2, 2]),
];

#[test]
fn kalah_small_boards_match_rules_md() {
    for (holes, seeds, values) in RULES_TABLE {
        let columns = [
            kalah(false, false),
            kalah(false, true),
            kalah(true, false),
            kalah(true, true),
        ];
        for (rules, want) in columns.into_iter().zip(values) {
            let (got, _) = solve_start(rules, holes, seeds, 1);
            assert_eq!(got, want, "Kalah({holes},{seeds}) {:?}", rules);
        }
    }
}

/// REFERENCE.md, "agreed by independent public solvers" (default end rule), with best moves.
#[test]
fn kalah_reference_values_and_best_moves() {
    // (holes, seeds, empty_capture, value, best first moves or empty when not published)
    let rows: [(u8, u8, bool, i32, &[u8]); 17] = [
        (2, 2, false, -2, &[]),
        (4, 2, false, 6, &[]),
        (4, 3, false, 6, &[2]),
        (4, 3, true, 8, &[2]),
        (4, 4, false, 2, &[1]),
        (4, 4, true, 2, &[1, 3]),
        (5, 2, false, 2, &[]),
        (5, 3, false, 6, &[3]),
        (5, 3, true, 8, &[3]),
        (5, 4, false, 10, &[2]),
        (5, 4, true, 12, &[2]),
        (6, 2, false, 6, &[]),
        (6, 2, true, 10, &[]),
        (6, 3, false, 2, &[5]),
        (6, 3, true, 2, &[5]),
        // Irving et al. 2000, empty-capture: (6,1) = +2, (6,2) = +10, (6,3) = +2.
        (6, 1, true, 2, &[]),
        (6, 2, true, 10, &[]),
    ];
    for (holes, seeds, ec, want, best) in rows {
        let (got, moves) = solve_start(kalah(ec, false), holes, seeds, 2);
        assert_eq!(got, want, "Kalah({holes},{seeds}) empty_capture={ec}");
        if !best.is_empty() {
            assert_eq!(
                moves, best,
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
