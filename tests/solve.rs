//! Exact values from the search against published values: docs/rules.md §3.7 and REFERENCE.md.

use crate::reference::{self, RefGame};
use crate::util::{cfg, kalah, kalah_start_values, solve_start};
use mancala::rules::Dakon;
use mancala::Position;
use solver::solve;

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

/// Dakon on its large boards, 7x7 to 10x10 (seeds = holes): South takes every seed on the board,
/// so the value is the whole stake and no search could find more; the principal variation,
/// played on the independent reference engine, ends the game with that score.
#[test]
fn dakon_large_boards_are_won_outright_and_their_pvs_replay() {
    let g = RefGame::Dakon {
        nembak_takes_landing_seed: false,
        no_mikul: false,
    };
    for n in [7u8, 8, 9, 10] {
        let p = Position::start(Dakon::default(), n, n).unwrap();
        let r = solve(&p, &cfg(1), None).unwrap();
        let total = 2 * u32::from(n) * u32::from(n);
        assert_eq!(p.final_value(r.value), total as i32, "Dakon {n}x{n}");
        assert!(!r.best.is_empty() && r.pv[0] == r.best[0], "Dakon {n}x{n}");
        let mut q = reference::start(g, n.into(), n.into());
        for mv in &r.pv {
            q = reference::play(g, &q, mv.0).unwrap();
        }
        assert_eq!(q.to_move, None, "Dakon {n}x{n}: the PV ends the game");
        assert_eq!(q.stores, [total, 0], "Dakon {n}x{n}");
    }
}
