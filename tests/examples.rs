//! Every worked example of docs/rules.md, exactly as written there: the rows of
//! `tests/data/rules_examples.jsonl` played by the main engine, and the examples' prose claims
//! over all openings.

use crate::util::{legal, pos, rules_examples, Claim, Move, Position, Side};
use mancala::rules::{DjenonAboure, GameKind, Kalah, Rules, SanYao, WalakPussa};

/// One claim of an example under `rules`, with the main engine (positions are normalised when
/// read, as the engine reads every position).
fn check<R: Rules>(id: &str, rules: R, position: &str, claim: &Claim) {
    let p = pos(rules, position);
    match claim {
        Claim::Play { mv, after } => {
            let q = p
                .try_play(Move(*mv))
                .unwrap_or_else(|e| panic!("{id}: move {mv} illegal: {e}"));
            assert_eq!(&q.to_string(), after, "{id} {rules:?} move {mv}");
        }
        Claim::Normalised(n) => assert_eq!(&p.to_string(), n, "{id} {rules:?}"),
        Claim::Legal(l) => assert_eq!(&legal(&p), l, "{id} {rules:?}"),
        // Values need the search: `agree::cycle_positions_have_their_documented_values`.
        Claim::Value(_) => {}
    }
}

/// Checks every example row of `kind`'s game, under each rule set it lists; returns how many
/// claims were checked.
fn check_game(kind: GameKind) -> usize {
    let mut checked = 0;
    for e in rules_examples() {
        for &(v, _) in &e.games {
            if v.kind() == kind {
                mancala::with_rules!(v, r => check(&e.id, r, &e.position, &e.claim));
                checked += 1;
            }
        }
    }
    checked
}

#[test]
fn kalah_examples() {
    assert!(check_game(GameKind::Kalah) >= 27);
}

#[test]
fn kalah_after_k4_diagram() {
    // The diagram after K4: North's row right to left on top.
    let p = pos(Kalah::default(), "0,6,2,6,6,0/0,5,5,5,4,0/8,1/N");
    let b = p.board();
    let north_display: Vec<u8> = (6..12).rev().map(|i| b.pits.get(i)).collect();
    assert_eq!(north_display, [0, 4, 5, 5, 5, 0]);
}

#[test]
fn dakon_examples() {
    assert!(check_game(GameKind::Dakon) >= 13);
    // Moves 2-7 from the start all end South's turn with 9 in the store.
    let p = Position::start(mancala::rules::Dakon::default(), 7, 7).unwrap();
    for m in 2..=7 {
        let q = p.try_play(Move(m)).unwrap();
        assert_eq!(q.score(), [9, 0], "move {m}");
        assert_eq!(q.to_move(), Some(Side::North), "move {m}");
    }
}

#[test]
fn djenon_aboure_examples() {
    assert!(check_game(GameKind::DjenonAboure) >= 9);
    let g = DjenonAboure;
    // J3: move 6 relays forever.
    assert_eq!(
        pos(g, "2,1,2,3,2,3/1,2,1,5,4,3/0,0/S").try_play(Move(6)),
        Err(mancala::IllegalMove::Endless)
    );
    // Every South opening captures exactly 2.
    let start = pos(g, "4,4,4,4,4,4/4,4,4,4,4,4/0,0/S");
    for m in 1..=6 {
        assert_eq!(
            start.try_play(Move(m)).unwrap().score(),
            [2, 0],
            "opening {m}"
        );
    }
    // Djenon-aboure with one seed a pit: nobody can move; each takes their own row.
    assert_eq!(
        Position::start(g, 6, 1).unwrap().to_string(),
        "0,0,0,0,0,0/0,0,0,0,0,0/6,6/-"
    );
}

#[test]
fn walak_pussa_examples() {
    assert!(check_game(GameKind::WalakPussa) >= 39);
    let p = pos(WalakPussa::default(), "4,4,4,4,4,4,4/4,4,4,4,4,4,4/0,0/S");
    for m in 1..=7 {
        assert_eq!(p.try_play(Move(m)).unwrap().score(), [6, 0], "opening {m}");
    }
}

#[test]
fn san_yao_examples() {
    assert!(check_game(GameKind::SanYao) >= 18);
    let p = pos(SanYao, "5,5,5,5,5/5,5,5,5,5/0,0/S");
    for m in 1..=5 {
        assert_eq!(p.try_play(Move(m)).unwrap().score(), [9, 0], "opening {m}");
    }
}
