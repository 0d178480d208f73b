//! Independent methods must agree:
//! - the packed rules engine against the plain-array reference engine (`reference`), move by
//!   move along random games of every game and several sizes;
//! - the search (`solver::search`) against the reference's brute-force whole-graph solver on
//!   every game at boards small enough.

use crate::reference as refe;
use crate::util::{
    cfg, example_value, legal, pos, rules_examples, solve_value, xorshift, Claim, Move, Pair,
    Position, Setup,
};
use mancala::rules::{Dakon, DjenonAboure, Kalah, SanYao, WalakPussa};
use proptest::prelude::*;
use solver::search::analyze;

/// Plays a random game with both engines side by side, comparing the normalised position, the
/// legal moves and every move's result at every step.
fn compare_playout<R: Pair>(rules: R, holes: u8, seeds: u8, mut rng: u64, max_moves: usize) {
    let g = rules.reference();
    let mut p = Position::start(rules, holes, seeds).unwrap();
    let mut q = refe::start(g, holes as usize, seeds as u32);
    for _ in 0..max_moves {
        assert_eq!(p.to_string(), refe::format(&q));
        let mine = legal(&p);
        assert_eq!(mine, refe::legal_moves(g, &q), "legal moves of {p}");
        for m in 1..=holes {
            let a = p.try_play(Move(m)).map(|x| x.to_string()).ok();
            let b = refe::play(g, &q, m).map(|x| refe::format(&x)).ok();
            assert_eq!(a, b, "{p} move {m}");
        }
        if mine.is_empty() {
            break;
        }
        let m = mine[(xorshift(&mut rng) % mine.len() as u64) as usize];
        p = p.try_play(Move(m)).unwrap();
        q = refe::play(g, &q, m).unwrap();
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn kalah_engines_agree(holes in 1u8..=8, seeds in 1u8..=8, ec: bool, me: bool, lu: bool, rng in 1u64..) {
        compare_playout(Kalah { empty_capture: ec, end_when_mover_empty: me, leftovers_unscored: lu }, holes, seeds, rng, 200);
    }

    #[test]
    fn dakon_engines_agree(holes in 3u8..=10, seeds in 1u8..=10, nt: bool, nm: bool, rng in 1u64..) {
        compare_playout(Dakon { nembak_takes_landing_seed: nt, no_mikul: nm }, holes, seeds, rng, 200);
    }

    #[test]
    fn djenon_aboure_engines_agree(holes in 2u8..=9, seeds in 1u8..=8, rng in 1u64..) {
        compare_playout(DjenonAboure, holes, seeds, rng, 150);
    }

    #[test]
    fn walak_pussa_engines_agree(holes in 2u8..=9, seeds in 1u8..=8, sr: bool, rng in 1u64..) {
        compare_playout(WalakPussa { singleton_restriction: sr }, holes, seeds, rng, 150);
    }

    #[test]
    fn san_yao_engines_agree(holes in 2u8..=9, seeds in 1u8..=8, rng in 1u64..) {
        compare_playout(SanYao, holes, seeds, rng, 150);
    }

    /// Arbitrary analysis positions (not only reachable ones) normalise alike.
    #[test]
    fn normalisation_agrees(pits in proptest::collection::vec(0u32..6, 8), s0 in 0u32..30, s1 in 0u32..30, north: bool) {
        let text = format!("{}/{}/{s0},{s1}/{}",
            pits[..4].iter().map(u32::to_string).collect::<Vec<_>>().join(","),
            pits[4..].iter().map(u32::to_string).collect::<Vec<_>>().join(","),
            if north { 'N' } else { 'S' });
        fn one<R: Pair>(rules: R, text: &str) {
            let setup: Setup = text.parse().unwrap();
            let mine = Position::from_setup(rules, &setup).unwrap().to_string();
            let theirs = refe::format(&refe::normalize(rules.reference(), &refe::parse(text).unwrap()));
            assert_eq!(mine, theirs, "{text}");
        }
        one(Kalah::default(), &text);
        one(Kalah { empty_capture: true, end_when_mover_empty: true, leftovers_unscored: false }, &text);
        one(Kalah { empty_capture: false, end_when_mover_empty: false, leftovers_unscored: true }, &text);
        one(Kalah { empty_capture: true, end_when_mover_empty: true, leftovers_unscored: true }, &text);
        one(Dakon::default(), &text);
        one(DjenonAboure, &text);
        one(WalakPussa::default(), &text);
        one(WalakPussa { singleton_restriction: true }, &text);
        one(SanYao, &text);
    }
}

/// The search's value of `text` (and of each of its moves) equals the brute force's.
fn compare_values<R: Pair>(rules: R, text: &str) {
    let p = pos(rules, text);
    let q = refe::parse(text).unwrap();
    let g = rules.reference();
    let want = refe::value(g, &q);
    for threads in [1, 2] {
        assert_eq!(solve_value(&p, threads), want, "{text} ({threads} threads)");
    }
    let moves = analyze(&p, &cfg(1), None).unwrap();
    for (m, v) in moves {
        let child = refe::play(g, &refe::normalize(g, &q), m.0).unwrap();
        assert_eq!(p.final_value(v), refe::value(g, &child), "{text} move {m}");
    }
}

/// Every start of every game small enough for the brute force, and positions met on the way.
fn compare_small_starts<R: Pair>(rules: R, sizes: &[(u8, u8)]) {
    for &(holes, seeds) in sizes {
        let start = Position::start(rules, holes, seeds).unwrap();
        compare_values(rules, &start.to_string());
        // A few positions further down the game, for positions that are not starts.
        let mut p = start;
        for step in 0..6 {
            let moves = p.legal_moves();
            if moves.is_empty() {
                break;
            }
            p = p.try_play(moves.as_slice()[step % moves.len()]).unwrap();
            compare_values(rules, &p.to_string());
        }
    }
}

#[test]
fn search_agrees_with_brute_force_kalah() {
    for ec in [false, true] {
        for me in [false, true] {
            compare_small_starts(
                Kalah {
                    empty_capture: ec,
                    end_when_mover_empty: me,
                    leftovers_unscored: false,
                },
                &[(2, 3), (3, 3), (3, 4), (4, 2)],
            );
            // Seeds set aside at the end (§3.5): values are no longer bounded below by the
            // sweep, and a draw need not split the seeds evenly.
            compare_small_starts(
                Kalah {
                    empty_capture: ec,
                    end_when_mover_empty: me,
                    leftovers_unscored: true,
                },
                &[(2, 3), (3, 3), (4, 2)],
            );
        }
    }
}

#[test]
fn search_agrees_with_brute_force_dakon() {
    for nt in [false, true] {
        for nm in [false, true] {
            compare_small_starts(
                Dakon {
                    nembak_takes_landing_seed: nt,
                    no_mikul: nm,
                },
                &[(3, 1), (3, 2), (3, 3)],
            );
        }
    }
}

#[test]
fn search_agrees_with_brute_force_djenon_aboure() {
    compare_small_starts(DjenonAboure, &[(2, 2), (2, 3), (3, 2), (3, 3)]);
}

#[test]
fn search_agrees_with_brute_force_walak_pussa() {
    for sr in [false, true] {
        compare_small_starts(
            WalakPussa {
                singleton_restriction: sr,
            },
            &[(2, 1), (2, 2), (2, 3), (3, 1), (3, 2)],
        );
    }
    // The W3 cycle's first position.
    compare_values(WalakPussa::default(), &example_value("W3").0);
}

#[test]
fn search_agrees_with_brute_force_san_yao() {
    compare_small_starts(SanYao, &[(2, 1), (2, 2), (2, 3), (3, 1), (3, 2)]);
    // The Y3 cycle's first position.
    compare_values(SanYao, &example_value("Y3").0);
}

/// Hand-checked values from docs/rules.md (KL1 with and without leftovers-unscored, the W3 and
/// Y3 cycle positions): every value row of
/// tests/data/rules_examples.jsonl, by the search, under each rule set it lists.
#[test]
fn cycle_positions_have_their_documented_values() {
    let mut checked = Vec::new();
    for e in rules_examples() {
        let Claim::Value(want) = e.claim else {
            continue;
        };
        for &(v, _) in &e.games {
            let got = mancala::with_rules!(v, r => solve_value(&pos(r, &e.position), 2));
            assert_eq!(got, want, "{} under {}", e.id, v.describe());
        }
        checked.push(e.id);
    }
    assert_eq!(checked, ["KL1", "KL1'", "W3", "Y3"]);
}
