//! The reference engine against every worked example of RULES.md, and its own notation checks.

use super::board::{board_of, Endless};
use super::engine::sow_turn;
use super::*;


pub(super) const KALAH: RefGame = RefGame::Kalah {
    empty_capture: false,
    end_when_mover_empty: false,
};
pub(super) const KALAH_MOVER: RefGame = RefGame::Kalah {
    empty_capture: false,
    end_when_mover_empty: true,
};
pub(super) const KALAH_EC: RefGame = RefGame::Kalah {
    empty_capture: true,
    end_when_mover_empty: false,
};
pub(super) const KALAH_BOTH: RefGame = RefGame::Kalah {
    empty_capture: true,
    end_when_mover_empty: true,
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

/// Checks `before` --mv--> `after` (both in notation).
fn check_move(g: RefGame, before: &str, mv: u8, after: &str) {
    let p = pos(before);
    assert_eq!(format(&p), before, "round trip");
    let r = play(g, &p, mv).unwrap_or_else(|e| panic!("{g:?} {before} move {mv}: {e}"));
    assert_eq!(format(&r), after, "{g:?} {before} move {mv}");
}

fn check_norm(g: RefGame, before: &str, after: &str) {
    assert_eq!(
        format(&normalize(g, &pos(before))),
        after,
        "{g:?} normalise {before}"
    );
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
    check_move(
        KALAH,
        "4,4,4,4,4,4/4,4,4,4,4,4/0,0/S",
        3,
        "4,4,0,5,5,5/4,4,4,4,4,4/1,0/S",
    );
    check_move(
        KALAH,
        "4,4,0,5,5,5/4,4,4,4,4,4/1,0/S",
        6,
        "4,4,0,5,5,0/5,5,5,5,4,4/2,0/N",
    );
    check_move(
        KALAH,
        "4,4,0,5,5,0/5,5,5,5,4,4/2,0/N",
        6,
        "5,5,1,5,5,0/5,5,5,5,4,0/2,1/S",
    );
    check_move(
        KALAH,
        "5,5,1,5,5,0/5,5,5,5,4,0/2,1/S",
        1,
        "0,6,2,6,6,0/0,5,5,5,4,0/8,1/N",
    );
    check_move(
        KALAH,
        "13,0,0,0,0,0/1,1,1,1,1,2/0,0/S",
        1,
        "0,1,1,1,1,1/2,2,2,2,2,0/5,0/N",
    );
    // The same moves under every option combination (none of them is affected).
    for g in [KALAH_MOVER, KALAH_EC, KALAH_BOTH] {
        check_move(
            g,
            "4,4,4,4,4,4/4,4,4,4,4,4/0,0/S",
            3,
            "4,4,0,5,5,5/4,4,4,4,4,4/1,0/S",
        );
        check_move(
            g,
            "5,5,1,5,5,0/5,5,5,5,4,0/2,1/S",
            1,
            "0,6,2,6,6,0/0,5,5,5,4,0/8,1/N",
        );
        check_move(
            g,
            "13,0,0,0,0,0/1,1,1,1,1,2/0,0/S",
            1,
            "0,1,1,1,1,1/2,2,2,2,2,0/5,0/N",
        );
    }
}

#[test]
fn kalah_kx1_kx2_kx3() {
    check_move(
        KALAH,
        "0,0,0,0,0,2/0,0,0,0,0,3/20,23/S",
        6,
        "0,0,0,0,0,0/0,0,0,0,0,0/21,27/-",
    );
    check_move(
        KALAH_MOVER,
        "0,0,0,0,0,2/0,0,0,0,0,3/20,23/S",
        6,
        "0,0,0,0,0,0/1,0,0,0,0,3/21,23/N",
    );
    check_move(
        KALAH,
        "1,0,0,0,0,3/1,1,1,1,0,1/0,0/S",
        1,
        "0,1,0,0,0,3/1,1,1,1,0,1/0,0/N",
    );
    check_move(
        KALAH_EC,
        "1,0,0,0,0,3/1,1,1,1,0,1/0,0/S",
        1,
        "0,0,0,0,0,3/1,1,1,1,0,1/1,0/N",
    );
    for g in [KALAH, KALAH_MOVER, KALAH_EC, KALAH_BOTH] {
        check_move(
            g,
            "0,0,0,0,0,1/0,0,1,0,2,0/22,22/S",
            6,
            "0,0,0,0,0,0/0,0,0,0,0,0/23,25/-",
        );
    }
}

#[test]
fn kalah_kx4_normalisation() {
    let s = "0,0,0,0,0,0/1,2,0,0,0,0/20,25/N";
    check_norm(KALAH, s, "0,0,0,0,0,0/0,0,0,0,0,0/20,28/-");
    check_norm(KALAH_EC, s, "0,0,0,0,0,0/0,0,0,0,0,0/20,28/-");
    check_norm(KALAH_MOVER, s, s);
    check_norm(KALAH_BOTH, s, s);
    // With the mover-empty rule, the mover with no seeds ends the game.
    check_norm(
        KALAH_MOVER,
        "0,0,0,0,0,0/1,2,0,0,0,0/20,25/S",
        "0,0,0,0,0,0/0,0,0,0,0,0/20,28/-",
    );
}

// ----- Dakon -----

#[test]
fn dakon_d1_to_d6() {
    let start7 = "7,7,7,7,7,7,7/7,7,7,7,7,7,7/0,0/S";
    check_move(DAKON, start7, 1, "0,8,8,8,8,8,8/7,7,7,7,7,7,7/1,0/S");
    check_move(DAKON, start7, 2, "8,1,8,8,8,8,8/0,8,8,8,8,0,8/9,0/N");
    assert_eq!(lap_ends(DAKON, &pos(start7), 2), vec![Some(7), Some(1)]);
    let d3 = "0,8,8,8,8,8,8/7,7,7,7,7,7,7/1,0/S";
    check_move(DAKON, d3, 2, "6,2,0,1,3,0,4/13,5,13,13,4,13,13/8,0/S");
    let ends: Vec<Option<usize>> = [8, 2, 11, 6, 2, 4, 1, 5, 3, 2, 5]
        .iter()
        .map(|&i| Some(i))
        .chain([None])
        .collect();
    assert_eq!(lap_ends(DAKON, &pos(d3), 2), ends, "D3 lap ends (12 laps)");
    check_move(
        DAKON,
        "1,1,1,1,1,1,3/1,0,2,1,1,1,1/0,0/S",
        7,
        "1,1,1,1,1,1,0/0,0,0,1,1,1,1/6,0/N",
    );
    check_move(
        DAKON_NO_MIKUL,
        "1,1,1,1,1,1,3/1,0,2,1,1,1,1/0,0/S",
        7,
        "1,1,1,1,1,1,0/2,1,2,1,1,1,1/1,0/N",
    );
    check_move(
        DAKON,
        "1,1,1,1,1,1,2/0,1,1,1,1,1,1/0,0/S",
        7,
        "1,1,1,1,1,1,0/1,1,1,1,1,1,1/1,0/N",
    );
    check_move(
        DAKON,
        "1,0,1,1,1,1,1/1,1,1,1,1,5,1/0,0/S",
        1,
        "0,1,1,1,1,1,1/1,1,1,1,1,0,1/5,0/N",
    );
    check_move(
        DAKON_LANDING,
        "1,0,1,1,1,1,1/1,1,1,1,1,5,1/0,0/S",
        1,
        "0,0,1,1,1,1,1/1,1,1,1,1,0,1/6,0/N",
    );
    check_move(
        DAKON_BOTH,
        "1,0,1,1,1,1,1/1,1,1,1,1,5,1/0,0/S",
        1,
        "0,0,1,1,1,1,1/1,1,1,1,1,0,1/6,0/N",
    );
}

#[test]
fn dakon_dx1_dx2() {
    check_move(
        DAKON,
        "0,0,0,0,0,0,1/3,0,0,0,0,0,0/40,54/S",
        7,
        "0,0,0,0,0,0,0/0,0,0,0,0,0,0/41,57/-",
    );
    check_move(
        DAKON,
        "1,0,0,0,0,0,0/0,0,0,0,0,3,0/40,54/S",
        1,
        "0,0,0,0,0,0,0/0,0,0,0,0,0,0/44,54/-",
    );
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
    assert_eq!(
        format(&play(DAKON, &s, 3).unwrap()),
        "8,8,1,8,8,8,8/8,0,8,8,0,8,8/9,0/N"
    );
    assert_eq!(
        format(&play(DAKON, &s, 7).unwrap()),
        "8,8,8,8,8,8,1/0,8,8,8,8,0,8/9,0/N"
    );
}

// ----- Djenon-aboure -----

#[test]
fn djenon_j1_j2() {
    let s = "4,4,4,4,4,4/4,4,4,4,4,4/0,0/S";
    check_move(DJENON, s, 1, "2,6,6,0,5,5/5,1,5,5,5,1/2,0/N");
    assert_eq!(
        lap_ends(DJENON, &pos(s), 1),
        vec![Some(3), Some(7), Some(11), Some(3)],
        "J1 4 laps"
    );
    check_move(
        DJENON,
        "2,2,2,2,3,3/1,2,2,2,2,2/0,0/S",
        5,
        "2,2,2,2,1,0/0,2,2,2,2,2/6,0/N",
    );
}

#[test]
fn djenon_jx1_jx2() {
    check_move(
        DJENON,
        "2,0,0,0,0,0/1,1,1,1,1,1/22,18/S",
        1,
        "0,0,0,0,0,0/0,0,0,0,0,0/24,24/-",
    );
    check_move(
        DJENON,
        "2,2,0,0,0,0/1,1,1,1,1,1/20,18/S",
        2,
        "2,1,1,0,0,0/1,1,1,1,1,1/20,18/S",
    );
}

#[test]
fn djenon_j3_endless() {
    let p = pos("2,1,2,3,2,3/1,2,1,5,4,3/0,0/S");
    assert_eq!(candidates(DJENON, &p), vec![1, 3, 4, 5, 6]);
    assert_eq!(legal_moves(DJENON, &p), vec![1, 3, 4, 5]);
    assert_eq!(
        endless_info(DJENON, &p, 6),
        Endless {
            first_lap: 0,
            period: 54
        }
    );
    assert!(play(DJENON, &p, 6).is_err());
    assert_eq!(format(&normalize(DJENON, &p)), format(&p));
}

#[test]
fn djenon_jx3_forced_pass() {
    let p = pos("7,1,0,1,0,1/11,4,3,2,3,4/0,0/S");
    assert_eq!(candidates(DJENON, &p), vec![1]);
    assert_eq!(legal_moves(DJENON, &p), Vec::<u8>::new());
    assert_eq!(
        endless_info(DJENON, &p, 1),
        Endless {
            first_lap: 1,
            period: 462
        }
    );
    let q = normalize(DJENON, &p);
    assert_eq!(format(&q), "7,1,0,1,0,1/11,4,3,2,3,4/0,0/N");
    assert_eq!(legal_moves(DJENON, &q), vec![1, 2, 3, 4, 5, 6]);
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
    assert_eq!(
        format(&start(DJENON, 6, 1)),
        "0,0,0,0,0,0/0,0,0,0,0,0/6,6/-"
    );
}

// ----- Walak-pussa -----

#[test]
fn walak_w1() {
    let s = "4,4,4,4,4,4,4/4,4,4,4,4,4,4/0,0/S";
    check_move(WALAK, s, 1, "2,1,7,7,7,0,7/0,0,6,1,6,6,0/6,0/N");
    let ends: Vec<Option<usize>> = [4, 9, 0, 6, 12, 4, 6].iter().map(|&i| Some(i)).collect();
    assert_eq!(lap_ends(WALAK, &pos(s), 1), ends, "W1 7 laps");
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
    let p = pos("0,1,0,1,0,1,2/1,0,1,0,1,0,1/0,0/S");
    assert_eq!(candidates(WALAK, &p), vec![2, 4, 6, 7]);
    assert_eq!(legal_moves(WALAK, &p), vec![2, 4, 6]);
    assert_eq!(
        endless_info(WALAK, &p, 7),
        Endless {
            first_lap: 0,
            period: 98
        }
    );
    assert_eq!(candidates(WALAK_SR, &p), vec![7]);
    assert_eq!(legal_moves(WALAK_SR, &p), Vec::<u8>::new());
    assert_eq!(
        format(&normalize(WALAK_SR, &p)),
        "0,0,0,0,0,0,0/0,0,0,0,0,0,0/0,9/-"
    );
    assert_eq!(format(&normalize(WALAK, &p)), format(&p));
}

pub(super) const W3: [(&str, u8); 14] = [
    ("0,0,0,0,0,1,0/0,0,0,0,0,1,0/29,25/S", 6),
    ("0,0,0,0,0,0,1/0,0,0,0,0,1,0/29,25/N", 6),
    ("0,0,0,0,0,0,1/0,0,0,0,0,0,1/29,25/S", 7),
    ("0,0,0,0,0,0,0/1,0,0,0,0,0,1/29,25/N", 7),
    ("1,0,0,0,0,0,0/1,0,0,0,0,0,0/29,25/S", 1),
    ("0,1,0,0,0,0,0/1,0,0,0,0,0,0/29,25/N", 1),
    ("0,1,0,0,0,0,0/0,1,0,0,0,0,0/29,25/S", 2),
    ("0,0,1,0,0,0,0/0,1,0,0,0,0,0/29,25/N", 2),
    ("0,0,1,0,0,0,0/0,0,1,0,0,0,0/29,25/S", 3),
    ("0,0,0,1,0,0,0/0,0,1,0,0,0,0/29,25/N", 3),
    ("0,0,0,1,0,0,0/0,0,0,1,0,0,0/29,25/S", 4),
    ("0,0,0,0,1,0,0/0,0,0,1,0,0,0/29,25/N", 4),
    ("0,0,0,0,1,0,0/0,0,0,0,1,0,0/29,25/S", 5),
    ("0,0,0,0,0,1,0/0,0,0,0,1,0,0/29,25/N", 5),
];

#[test]
fn walak_w3_cycle() {
    for g in [WALAK, WALAK_SR] {
        for i in 0..W3.len() {
            let (before, mv) = W3[i];
            let after = W3[(i + 1) % W3.len()].0;
            check_move(g, before, mv, after);
        }
        check_move(
            g,
            "0,0,0,0,0,0,0/1,0,0,0,0,0,1/29,25/N",
            1,
            "0,0,0,0,0,0,0/0,0,0,0,0,0,0/29,27/-",
        );
        assert_eq!(value(g, &pos(W3[0].0)), 2, "{g:?}");
    }
}

#[test]
fn walak_wx1_wx2() {
    check_move(
        WALAK,
        "0,0,0,0,0,1,0/0,3,0,0,0,0,0/25,27/S",
        6,
        "0,0,0,0,0,0,0/0,0,0,0,0,0,0/29,27/-",
    );
    let p = pos("1,2,0,0,0,0,1/4,0,0,0,0,0,0/0,0/S");
    assert_eq!(legal_moves(WALAK, &p), vec![1, 2, 7]);
    assert_eq!(legal_moves(WALAK_SR, &p), vec![2]);
}

// ----- San-Yao -----

#[test]
fn sanyao_y1() {
    let s = "5,5,5,5,5/5,5,5,5,5/0,0/S";
    check_move(SANYAO, s, 1, "3,9,2,9,9/9,0,0,0,0/9,0/N");
    let ends: Vec<Option<usize>> = [5, 1, 8, 5, 7, 5].iter().map(|&i| Some(i)).collect();
    assert_eq!(lap_ends(SANYAO, &pos(s), 1), ends, "Y1 6 laps");
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
    let p = pos("1,0,2,1,1/0,1,0,1,0/0,0/S");
    assert_eq!(candidates(SANYAO, &p), vec![1, 3, 4, 5]);
    assert_eq!(legal_moves(SANYAO, &p), vec![1, 3, 4]);
    assert_eq!(
        endless_info(SANYAO, &p, 5),
        Endless {
            first_lap: 0,
            period: 50
        }
    );
    assert!(play(SANYAO, &p, 5).is_err());
}

pub(super) const Y3: [(&str, u8); 10] = [
    ("0,0,0,0,0/1,0,0,0,1/19,29/N", 5),
    ("1,0,0,0,0/1,0,0,0,0/19,29/S", 1),
    ("0,1,0,0,0/1,0,0,0,0/19,29/N", 1),
    ("0,1,0,0,0/0,1,0,0,0/19,29/S", 2),
    ("0,0,1,0,0/0,1,0,0,0/19,29/N", 2),
    ("0,0,1,0,0/0,0,1,0,0/19,29/S", 3),
    ("0,0,0,1,0/0,0,1,0,0/19,29/N", 3),
    ("0,0,0,1,0/0,0,0,1,0/19,29/S", 4),
    ("0,0,0,0,1/0,0,0,1,0/19,29/N", 4),
    ("0,0,0,0,1/0,0,0,0,1/19,29/S", 5),
];

#[test]
fn sanyao_y3_cycle() {
    for i in 0..Y3.len() {
        let (before, mv) = Y3[i];
        let after = Y3[(i + 1) % Y3.len()].0;
        check_move(SANYAO, before, mv, after);
    }
    check_move(SANYAO, Y3[0].0, 1, "0,0,0,0,0/0,1,0,0,1/19,29/N");
    check_move(
        SANYAO,
        "0,0,0,0,0/0,1,0,0,1/19,29/N",
        2,
        "0,0,0,0,0/0,0,0,0,0/19,31/-",
    );
    assert_eq!(value(SANYAO, &pos(Y3[0].0)), -12);
}

#[test]
fn sanyao_yx1_yx2_yx3() {
    check_move(
        SANYAO,
        "0,0,0,0,1/0,0,1,0,0/22,26/S",
        5,
        "0,0,0,0,0/0,0,0,0,0/23,27/-",
    );
    check_move(
        SANYAO,
        "0,0,0,0,0/2,0,0,0,0/24,24/N",
        1,
        "0,0,0,0,0/0,1,1,0,0/24,24/N",
    );
    check_norm(
        SANYAO,
        "0,0,0,0,0/0,0,1,0,0/24,25/S",
        "0,0,0,0,0/0,0,0,0,0/24,26/-",
    );
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
