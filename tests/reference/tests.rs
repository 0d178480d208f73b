//! The reference engine against every worked example of docs/rules.md (the rows of
//! tests/data/rules_examples.jsonl, plus the reference's own details: lap ends, endless-relay
//! periods, candidates), and its own notation checks.

use super::board::{board_of, Endless};
use super::engine::sow_turn;
use super::*;
use crate::util::{examples_named, Claim};

pub(super) const KALAH: RefGame = RefGame::Kalah {
    empty_capture: false,
    end_when_mover_empty: false,
    leftovers_unscored: false,
};
pub(super) const KALAH_MOVER: RefGame = RefGame::Kalah {
    empty_capture: false,
    end_when_mover_empty: true,
    leftovers_unscored: false,
};
pub(super) const KALAH_EC: RefGame = RefGame::Kalah {
    empty_capture: true,
    end_when_mover_empty: false,
    leftovers_unscored: false,
};
pub(super) const KALAH_BOTH: RefGame = RefGame::Kalah {
    empty_capture: true,
    end_when_mover_empty: true,
    leftovers_unscored: false,
};
pub(super) const DAKON: RefGame = RefGame::Dakon {
    nembak_takes_landing_seed: false,
    no_mikul: false,
};
pub(super) const DAKON_LANDING: RefGame = RefGame::Dakon {
    nembak_takes_landing_seed: true,
    no_mikul: false,
};
pub(super) const DAKON_NO_MIKUL: RefGame = RefGame::Dakon {
    nembak_takes_landing_seed: false,
    no_mikul: true,
};
pub(super) const DAKON_BOTH: RefGame = RefGame::Dakon {
    nembak_takes_landing_seed: true,
    no_mikul: true,
};
pub(super) const DJENON: RefGame = RefGame::DjenonAboure;
pub(super) const WALAK: RefGame = RefGame::WalakPussa {
    singleton_restriction: false,
};
pub(super) const WALAK_SR: RefGame = RefGame::WalakPussa {
    singleton_restriction: true,
};
pub(super) const SANYAO: RefGame = RefGame::SanYao;

pub(super) fn pos(s: &str) -> RefPos {
    parse(s).unwrap_or_else(|e| panic!("parse {s}: {e}"))
}

/// Checks the claims of the examples named `ids` (tests/data/rules_examples.jsonl) with the
/// reference engine, under every game listed for each; the values with the brute force.
fn check_examples(ids: &[&str]) {
    for e in examples_named(ids) {
        for &(_, g) in &e.games {
            let p = pos(&e.position);
            assert_eq!(format(&p), e.position, "{}: round trip", e.id);
            match &e.claim {
                Claim::Play { mv, after } => {
                    let r = play(g, &p, *mv)
                        .unwrap_or_else(|err| panic!("{} {g:?} move {mv}: {err}", e.id));
                    assert_eq!(&format(&r), after, "{} {g:?} move {mv}", e.id);
                }
                Claim::Normalised(n) => {
                    assert_eq!(&format(&normalize(g, &p)), n, "{} {g:?} normalise", e.id)
                }
                Claim::Legal(l) => {
                    assert_eq!(&legal_moves(g, &normalize(g, &p)), l, "{} {g:?}", e.id)
                }
                Claim::Value(v) => assert_eq!(value(g, &p), *v, "{} {g:?} value", e.id),
            }
        }
    }
}

/// The lap-end pits of a move (None = own store), for the detailed examples.
fn lap_ends(g: RefGame, p: &RefPos, mv: u8) -> Vec<Option<usize>> {
    let n = p.south.len();
    let side = p.to_move.unwrap();
    sow_turn(g, &board_of(p), p.stores, side, side * n + mv as usize - 1)
        .unwrap()
        .lap_ends
}

fn endless_info(g: RefGame, p: &RefPos, mv: u8) -> Endless {
    let n = p.south.len();
    let side = p.to_move.unwrap();
    sow_turn(g, &board_of(p), p.stores, side, side * n + mv as usize - 1).unwrap_err()
}

/// The position of the first row of example `id`.
fn example_pos(id: &str) -> RefPos {
    pos(&examples_named(&[id])[0].position)
}

// ----- notation -----

#[test]
fn parse_and_format_round_trip() {
    let s = "4,4,4,4,4,4/4,4,4,4,4,4/0,0/S";
    let p = pos(s);
    assert_eq!(p.south, vec![4; 6]);
    assert_eq!(p.to_move, Some(0));
    assert_eq!(format(&p), s);
    assert_eq!(pos("0,0/0,0/3,4/-").to_move, None);
    assert_eq!(pos("1,0/0,2/3,4/N").to_move, Some(1));
    // Leading zeros are accepted on input and not printed.
    assert_eq!(format(&pos("01,0/0,2/3,04/N")), "1,0/0,2/3,4/N");
}

#[test]
fn parse_errors() {
    let bad = [
        "4,4,4/4,4/0,0/S",                 // row lengths differ
        "4,4/4,4,4/0,0/S",                 // row lengths differ
        "/ /0,0/S",                        // empty rows
        "//0,0/S",                         // empty rows
        "4,x/4,4/0,0/S",                   // non-numeric
        "4,4/4,4/0,a/S",                   // non-numeric store
        "4,-1/4,4/0,0/S",                  // negative
        "4,4/4,4/-1,0/S",                  // negative store
        "4,+1/4,4/0,0/S",                  // sign
        "4, 4/4,4/0,0/S",                  // space
        "4,4/4,4/0,0/X",                   // bad side marker
        "4,4/4,4/0,0/s",                   // bad side marker (lower case)
        "4,4/4,4/0,0/",                    // missing side marker
        "4,4/4,4/0,0/SN",                  // bad side marker
        "4,4/4,4/0,0/-",                   // '-' with seeds on board
        "0,0/0,1/0,0/-",                   // '-' with seeds on board
        "4,4/4,4/0/S",                     // one store
        "4,4/4,4/0,0,0/S",                 // three stores
        "4,4/4,4/0,0",                     // missing group
        "4,4/4,4/0,0/S/S",                 // extra group
        "4,,4/4,4,4/0,0/S",                // empty count
        "99999999999,4/4,4/0,0/S",         // too large
        "4000000000,4000000000/0,0/0,0/S", // total too large
    ];
    for s in bad {
        assert!(parse(s).is_err(), "should reject {s:?}");
    }
}

// ----- Kalah -----

#[test]
fn kalah_k1_to_k5() {
    check_examples(&["K1", "K2", "K3", "K4", "K5"]);
}

#[test]
fn kalah_kx1_kx2_kx3() {
    check_examples(&["KX1", "KX1'", "KX2", "KX2'", "KX3"]);
}

#[test]
fn kalah_kx4_normalisation() {
    check_examples(&["KX4", "KX4'"]);
}

/// docs/rules.md §3.5's KL1 under every end and capture rule, with and without
/// `leftovers-unscored`, by play and by the brute force; KL2 and KL3 (KX4's and KX3's positions
/// with the leftovers set aside) by hand.
#[test]
fn kalah_kl1_leftovers_unscored() {
    check_examples(&["KL1", "KL1'", "KL2", "KL3"]);
}

// ----- Dakon -----

#[test]
fn dakon_d1_to_d6() {
    check_examples(&["D1", "D2", "D3", "D4", "D4'", "D5", "D6", "D6'"]);
    let start7 = "7,7,7,7,7,7,7/7,7,7,7,7,7,7/0,0/S";
    assert_eq!(lap_ends(DAKON, &pos(start7), 2), vec![Some(7), Some(1)]);
    let d3 = example_pos("D3");
    let ends: Vec<Option<usize>> = [8, 2, 11, 6, 2, 4, 1, 5, 3, 2, 5]
        .iter()
        .map(|&i| Some(i))
        .chain([None])
        .collect();
    assert_eq!(lap_ends(DAKON, &d3, 2), ends, "D3 lap ends (12 laps)");
}

#[test]
fn dakon_dx1_dx2() {
    check_examples(&["DX1", "DX2"]);
}

#[test]
fn dakon_opening_moves_2_to_7() {
    let s = start(DAKON, 7, 7);
    assert_eq!(format(&s), "7,7,7,7,7,7,7/7,7,7,7,7,7,7/0,0/S");
    for mv in 2..=7u8 {
        let r = play(DAKON, &s, mv).unwrap();
        assert_eq!(r.stores, [9, 0], "move {mv}");
        assert_eq!(r.to_move, Some(1), "move {mv}");
    }
    check_examples(&["D-start"]);
}

// ----- Djenon-aboure -----

#[test]
fn djenon_j1_j2() {
    check_examples(&["J1", "J2"]);
    assert_eq!(
        lap_ends(DJENON, &example_pos("J1"), 1),
        vec![Some(3), Some(7), Some(11), Some(3)],
        "J1 4 laps"
    );
}

#[test]
fn djenon_jx1_jx2() {
    check_examples(&["JX1", "JX2"]);
}

#[test]
fn djenon_j3_endless() {
    check_examples(&["J3"]);
    let p = example_pos("J3");
    assert_eq!(candidates(DJENON, &p), vec![1, 3, 4, 5, 6]);
    assert_eq!(
        endless_info(DJENON, &p, 6),
        Endless {
            first_lap: 0,
            period: 54
        }
    );
    assert!(play(DJENON, &p, 6).is_err());
}

#[test]
fn djenon_jx3_forced_pass() {
    check_examples(&["JX3"]);
    let p = example_pos("JX3");
    assert_eq!(candidates(DJENON, &p), vec![1]);
    assert_eq!(legal_moves(DJENON, &p), Vec::<u8>::new());
    assert_eq!(
        endless_info(DJENON, &p, 1),
        Endless {
            first_lap: 1,
            period: 462
        }
    );
}

#[test]
fn djenon_openings_capture_2() {
    let s = start(DJENON, 6, 4);
    let j1 = board_of(&play(DJENON, &s, 1).unwrap());
    for mv in 1..=6u8 {
        let r = play(DJENON, &s, mv).unwrap();
        assert_eq!(r.stores, [2, 0], "move {mv}");
        assert_eq!(r.to_move, Some(1));
        let mut rot = j1.clone();
        rot.rotate_right(mv as usize - 1);
        assert_eq!(board_of(&r), rot, "rotation of J1, move {mv}");
    }
}

#[test]
fn djenon_start_with_one_seed_ends_at_once() {
    check_examples(&["J-start"]);
    assert_eq!(
        format(&start(DJENON, 6, 1)),
        "0,0,0,0,0,0/0,0,0,0,0,0/6,6/-"
    );
}

// ----- Walak-pussa -----

#[test]
fn walak_w1() {
    check_examples(&["W1"]);
    let ends: Vec<Option<usize>> = [4, 9, 0, 6, 12, 4, 6].iter().map(|&i| Some(i)).collect();
    assert_eq!(lap_ends(WALAK, &example_pos("W1"), 1), ends, "W1 7 laps");
}

#[test]
fn walak_openings_capture_6() {
    for g in [WALAK, WALAK_SR] {
        let s = start(g, 7, 4);
        let w1 = board_of(&play(g, &s, 1).unwrap());
        for mv in 1..=7u8 {
            let r = play(g, &s, mv).unwrap();
            assert_eq!(r.stores, [6, 0], "move {mv}");
            assert_eq!(r.to_move, Some(1));
            let mut rot = w1.clone();
            rot.rotate_right(mv as usize - 1);
            assert_eq!(board_of(&r), rot, "rotation of W1, move {mv}");
        }
    }
}

#[test]
fn walak_w2_endless() {
    check_examples(&["W2"]);
    let p = example_pos("W2");
    assert_eq!(candidates(WALAK, &p), vec![2, 4, 6, 7]);
    assert_eq!(
        endless_info(WALAK, &p, 7),
        Endless {
            first_lap: 0,
            period: 98
        }
    );
    assert_eq!(candidates(WALAK_SR, &p), vec![7]);
    assert_eq!(legal_moves(WALAK_SR, &p), Vec::<u8>::new());
}

/// The 14-turn cycle, its exit, and the value of its first position (brute force).
#[test]
fn walak_w3_cycle() {
    check_examples(&["W3", "W3-exit"]);
}

#[test]
fn walak_wx1_wx2() {
    check_examples(&["WX1", "WX2"]);
}

// ----- San-Yao -----

#[test]
fn sanyao_y1() {
    check_examples(&["Y1"]);
    let ends: Vec<Option<usize>> = [5, 1, 8, 5, 7, 5].iter().map(|&i| Some(i)).collect();
    assert_eq!(lap_ends(SANYAO, &example_pos("Y1"), 1), ends, "Y1 6 laps");
}

#[test]
fn sanyao_openings_capture_9() {
    let s = start(SANYAO, 5, 5);
    let y1 = board_of(&play(SANYAO, &s, 1).unwrap());
    for mv in 1..=5u8 {
        let r = play(SANYAO, &s, mv).unwrap();
        assert_eq!(r.stores, [9, 0], "move {mv}");
        assert_eq!(r.to_move, Some(1));
        let mut rot = y1.clone();
        rot.rotate_right(mv as usize - 1);
        assert_eq!(board_of(&r), rot, "rotation of Y1, move {mv}");
    }
}

#[test]
fn sanyao_y2_endless() {
    check_examples(&["Y2"]);
    let p = example_pos("Y2");
    assert_eq!(candidates(SANYAO, &p), vec![1, 3, 4, 5]);
    assert_eq!(
        endless_info(SANYAO, &p, 5),
        Endless {
            first_lap: 0,
            period: 50
        }
    );
    assert!(play(SANYAO, &p, 5).is_err());
}

/// The 10-turn cycle, its exit, and the value of its first position (brute force).
#[test]
fn sanyao_y3_cycle() {
    check_examples(&["Y3", "Y3-exit"]);
}

#[test]
fn sanyao_yx1_yx2_yx3() {
    check_examples(&["YX1", "YX2", "YX3"]);
}

/// Every row of the data file is checked by one of the tests above.
#[test]
fn every_rules_example_is_checked_here() {
    let here = include_str!("tests.rs");
    for e in crate::util::rules_examples() {
        assert!(
            here.contains(&format!("\"{}\"", e.id)),
            "{} is not checked",
            e.id
        );
    }
}

// ----- play errors -----
#[test]
fn play_errors() {
    let k = pos("4,0,4,4,4,4/4,4,4,4,4,4/0,0/S");
    assert!(play(KALAH, &k, 0).is_err());
    assert!(play(KALAH, &k, 7).is_err());
    assert!(play(KALAH, &k, 2).is_err(), "empty pit");
    assert!(play(KALAH, &k, 1).is_ok());
    let over = pos("0,0,0,0,0,0/0,0,0,0,0,0/24,24/-");
    assert!(play(KALAH, &over, 1).is_err());
    let j = pos("2,1,2,3,2,3/1,2,1,5,4,3/0,0/S");
    assert!(
        play(DJENON, &j, 2).is_err(),
        "singleton is not a Djenon candidate"
    );
    let w = pos("1,2,0,0,0,0,1/4,0,0,0,0,0,0/0,0/S");
    assert!(play(WALAK_SR, &w, 1).is_err(), "singleton restriction");
    assert!(play(WALAK, &w, 1).is_ok());
}
