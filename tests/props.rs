//! Invariants over random games of every game and several board sizes (proptest).

use crate::util::{legal, xorshift, Move, Position, Setup, Side};
use mancala::rules::{Dakon, DjenonAboure, Kalah, Rules, SanYao, WalakPussa};
use proptest::prelude::*;
use std::collections::HashSet;

/// Plays up to `max_moves` random legal moves from the start, calling `check(before, move,
/// after)` on every step. Returns the positions met.
fn playout<R: Rules>(
    rules: R,
    holes: u8,
    seeds: u8,
    mut rng: u64,
    max_moves: usize,
) -> Vec<Position<R>> {
    let mut p = Position::start(rules, holes, seeds).unwrap();
    let mut seen = vec![p];
    for _ in 0..max_moves {
        let moves = p.legal_moves();
        if moves.is_empty() {
            assert!(p.is_over(), "{p}: no legal move but the game is not over");
            break;
        }
        let m = moves.as_slice()[(xorshift(&mut rng) % moves.len() as u64) as usize];
        p = p
            .try_play(m)
            .unwrap_or_else(|e| panic!("{p}: listed move {m} is illegal: {e}"));
        seen.push(p);
    }
    seen
}

/// The invariants every position of every game must satisfy.
fn check_invariants<R: Rules>(rules: R, game: &[Position<R>]) {
    let total = |p: &Position<R>| p.board().seeds_on_board() + p.score()[0] + p.score()[1];
    let t0 = total(&game[0]);
    // Under Kalah's leftovers-unscored (docs/rules.md §3.5) the seeds left at the end leave the
    // game: only then may the total fall, and it never rises.
    let sets_aside = rules.option_names().contains(&"leftovers-unscored");
    for (i, p) in game.iter().enumerate() {
        if sets_aside && p.to_move().is_none() {
            assert!(total(p) <= t0, "{p}");
        } else {
            // Seeds are conserved.
            assert_eq!(total(p), t0, "{p}");
        }
        // Stores never shrink.
        if i > 0 {
            let (a, b) = (game[i - 1].score(), p.score());
            assert!(a[0] <= b[0] && a[1] <= b[1], "{} then {p}", game[i - 1]);
        }
        // Normalised: a side to move has a legal move; a finished game has an empty board.
        match p.to_move() {
            Some(_) => assert!(!p.legal_moves().is_empty(), "{p}: side to move cannot move"),
            None => assert_eq!(p.board().seeds_on_board(), 0, "{p}"),
        }
        // Notation round trip: format, parse, validate gives the same position, and the text
        // is a fixed point.
        let text = p.to_string();
        let setup: Setup = text.parse().unwrap();
        let back = Position::from_setup(rules, &setup).unwrap();
        assert_eq!(back, *p, "{text}");
        assert_eq!(back.to_string(), text);
        // Legal moves agree with try_play and for_each_child.
        let legal = legal(p);
        let mut children = Vec::new();
        p.for_each_child(|m, q| children.push((m.0, q)));
        assert_eq!(children.iter().map(|c| c.0).collect::<Vec<_>>(), legal);
        for (m, q) in children {
            assert_eq!(p.try_play(Move(m)).unwrap(), q);
        }
    }
}

/// Kalah and Dakon are acyclic (docs/rules.md §8.2): no position recurs in a game.
fn check_no_repeats<R: Rules>(game: &[Position<R>]) {
    let mut seen = HashSet::new();
    for p in game {
        let key = (p.board().pits, p.to_move());
        assert!(seen.insert(key), "{p} repeats");
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn kalah_invariants(holes in 1u8..=8, seeds in 1u8..=8, ec: bool, me: bool, lu: bool, rng in 1u64..) {
        let rules = Kalah { empty_capture: ec, end_when_mover_empty: me, leftovers_unscored: lu };
        let g = playout(rules, holes, seeds, rng, 400);
        check_invariants(rules, &g);
        check_no_repeats(&g);
    }

    #[test]
    fn dakon_invariants(holes in 3u8..=10, seeds in 1u8..=10, nt: bool, nm: bool, rng in 1u64..) {
        let rules = Dakon { nembak_takes_landing_seed: nt, no_mikul: nm };
        let g = playout(rules, holes, seeds, rng, 400);
        check_invariants(rules, &g);
        check_no_repeats(&g);
    }

    #[test]
    fn djenon_aboure_invariants(holes in 2u8..=9, seeds in 1u8..=8, rng in 1u64..) {
        let g = playout(DjenonAboure, holes, seeds, rng, 300);
        check_invariants(DjenonAboure, &g);
    }

    #[test]
    fn walak_pussa_invariants(holes in 2u8..=9, seeds in 1u8..=8, sr: bool, rng in 1u64..) {
        let rules = WalakPussa { singleton_restriction: sr };
        let g = playout(rules, holes, seeds, rng, 300);
        check_invariants(rules, &g);
    }

    #[test]
    fn san_yao_invariants(holes in 2u8..=9, seeds in 1u8..=8, rng in 1u64..) {
        let g = playout(SanYao, holes, seeds, rng, 300);
        check_invariants(SanYao, &g);
    }

    /// Arbitrary analysis positions: parsing then formatting is stable, and normalisation is
    /// idempotent. Pits hold at most 8 seeds: normalising a relay game checks whether each move's
    /// sowing ever ends, and with 150-odd seeds on the board a sowing can run through
    /// astronomically many laps before it repeats or stops (with up to 29 seeds per pit, about 1
    /// run in 15 did not finish).
    #[test]
    fn notation_round_trip(pits in proptest::collection::vec(0u32..=8, 12), s0 in 0u32..100, s1 in 0u32..100, north: bool) {
        let setup = Setup { south: pits[..6].to_vec(), north: pits[6..].to_vec(), stores: [s0, s1],
            to_move: Some(if north { Side::North } else { Side::South }) };
        let text = setup.to_string();
        prop_assert_eq!(&text.parse::<Setup>().unwrap(), &setup);
        for_all_games(&setup);
    }
}

fn for_all_games(setup: &Setup) {
    fn one<R: Rules>(rules: R, setup: &Setup) {
        if let Ok(p) = Position::from_setup(rules, setup) {
            let again = Position::from_setup(rules, &p.setup()).unwrap();
            assert_eq!(again, p, "normalising twice changed {p}");
        }
    }
    one(Kalah::default(), setup);
    one(
        Kalah {
            empty_capture: false,
            end_when_mover_empty: true,
            leftovers_unscored: false,
        },
        setup,
    );
    one(
        Kalah {
            empty_capture: true,
            end_when_mover_empty: false,
            leftovers_unscored: true,
        },
        setup,
    );
    one(Dakon::default(), setup);
    one(DjenonAboure, setup);
    one(WalakPussa::default(), setup);
    one(
        WalakPussa {
            singleton_restriction: true,
        },
        setup,
    );
    one(SanYao, setup);
}
