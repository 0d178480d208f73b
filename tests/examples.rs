//! Every worked example of RULES.md, exactly as written there.

use crate::util::{legal, pos, Move, Position};
use mancala::rules::{Dakon, DjenonAboure, Kalah, Rules, SanYao, WalakPussa};

/// Plays `mv` from `before` and checks the normalised result is `after`.
fn check<R: Rules>(id: &str, rules: R, before: &str, mv: u8, after: &str) {
    let p = pos(rules, before);
    let q = p
        .try_play(Move(mv))
        .unwrap_or_else(|e| panic!("{id}: move {mv} illegal: {e}"));
    assert_eq!(q.to_string(), after, "{id}");
}

const STD: Kalah = Kalah {
    empty_capture: false,
    end_when_mover_empty: false,
};
const EMPTY_CAPTURE: Kalah = Kalah {
    empty_capture: true,
    end_when_mover_empty: false,
};
const MOVER_EMPTY: Kalah = Kalah {
    empty_capture: false,
    end_when_mover_empty: true,
};

#[test]
fn kalah_examples() {
    check(
        "K1",
        STD,
        "4,4,4,4,4,4/4,4,4,4,4,4/0,0/S",
        3,
        "4,4,0,5,5,5/4,4,4,4,4,4/1,0/S",
    );
    check(
        "K2",
        STD,
        "4,4,0,5,5,5/4,4,4,4,4,4/1,0/S",
        6,
        "4,4,0,5,5,0/5,5,5,5,4,4/2,0/N",
    );
    check(
        "K3",
        STD,
        "4,4,0,5,5,0/5,5,5,5,4,4/2,0/N",
        6,
        "5,5,1,5,5,0/5,5,5,5,4,0/2,1/S",
    );
    check(
        "K4",
        STD,
        "5,5,1,5,5,0/5,5,5,5,4,0/2,1/S",
        1,
        "0,6,2,6,6,0/0,5,5,5,4,0/8,1/N",
    );
    check(
        "K5",
        STD,
        "13,0,0,0,0,0/1,1,1,1,1,2/0,0/S",
        1,
        "0,1,1,1,1,1/2,2,2,2,2,0/5,0/N",
    );
    check(
        "KX1",
        STD,
        "0,0,0,0,0,2/0,0,0,0,0,3/20,23/S",
        6,
        "0,0,0,0,0,0/0,0,0,0,0,0/21,27/-",
    );
    check(
        "KX1'",
        MOVER_EMPTY,
        "0,0,0,0,0,2/0,0,0,0,0,3/20,23/S",
        6,
        "0,0,0,0,0,0/1,0,0,0,0,3/21,23/N",
    );
    check(
        "KX2",
        STD,
        "1,0,0,0,0,3/1,1,1,1,0,1/0,0/S",
        1,
        "0,1,0,0,0,3/1,1,1,1,0,1/0,0/N",
    );
    check(
        "KX2'",
        EMPTY_CAPTURE,
        "1,0,0,0,0,3/1,1,1,1,0,1/0,0/S",
        1,
        "0,0,0,0,0,3/1,1,1,1,0,1/1,0/N",
    );
    check(
        "KX3",
        STD,
        "0,0,0,0,0,1/0,0,1,0,2,0/22,22/S",
        6,
        "0,0,0,0,0,0/0,0,0,0,0,0/23,25/-",
    );
    check(
        "KX3'",
        MOVER_EMPTY,
        "0,0,0,0,0,1/0,0,1,0,2,0/22,22/S",
        6,
        "0,0,0,0,0,0/0,0,0,0,0,0/23,25/-",
    );
    // KX4: normalisation of an input position.
    assert_eq!(
        pos(STD, "0,0,0,0,0,0/1,2,0,0,0,0/20,25/N").to_string(),
        "0,0,0,0,0,0/0,0,0,0,0,0/20,28/-"
    );
    assert_eq!(
        pos(MOVER_EMPTY, "0,0,0,0,0,0/1,2,0,0,0,0/20,25/N").to_string(),
        "0,0,0,0,0,0/1,2,0,0,0,0/20,25/N"
    );
}

#[test]
fn kalah_after_k4_diagram() {
    // The diagram after K4: North's row right to left on top.
    let p = pos(STD, "0,6,2,6,6,0/0,5,5,5,4,0/8,1/N");
    let b = p.board();
    let north_display: Vec<u8> = (6..12).rev().map(|i| b.pits.get(i)).collect();
    assert_eq!(north_display, [0, 4, 5, 5, 5, 0]);
}

const DAKON: Dakon = Dakon {
    nembak_takes_landing_seed: false,
    no_mikul: false,
};

#[test]
fn dakon_examples() {
    let start = "7,7,7,7,7,7,7/7,7,7,7,7,7,7/0,0/S";
    check("D1", DAKON, start, 1, "0,8,8,8,8,8,8/7,7,7,7,7,7,7/1,0/S");
    check("D2", DAKON, start, 2, "8,1,8,8,8,8,8/0,8,8,8,8,0,8/9,0/N");
    check(
        "D3",
        DAKON,
        "0,8,8,8,8,8,8/7,7,7,7,7,7,7/1,0/S",
        2,
        "6,2,0,1,3,0,4/13,5,13,13,4,13,13/8,0/S",
    );
    check(
        "D4",
        DAKON,
        "1,1,1,1,1,1,3/1,0,2,1,1,1,1/0,0/S",
        7,
        "1,1,1,1,1,1,0/0,0,0,1,1,1,1/6,0/N",
    );
    let no_mikul = Dakon {
        no_mikul: true,
        ..DAKON
    };
    check(
        "D4'",
        no_mikul,
        "1,1,1,1,1,1,3/1,0,2,1,1,1,1/0,0/S",
        7,
        "1,1,1,1,1,1,0/2,1,2,1,1,1,1/1,0/N",
    );
    check(
        "D5",
        DAKON,
        "1,1,1,1,1,1,2/0,1,1,1,1,1,1/0,0/S",
        7,
        "1,1,1,1,1,1,0/1,1,1,1,1,1,1/1,0/N",
    );
    check(
        "D6",
        DAKON,
        "1,0,1,1,1,1,1/1,1,1,1,1,5,1/0,0/S",
        1,
        "0,1,1,1,1,1,1/1,1,1,1,1,0,1/5,0/N",
    );
    let takes = Dakon {
        nembak_takes_landing_seed: true,
        ..DAKON
    };
    check(
        "D6'",
        takes,
        "1,0,1,1,1,1,1/1,1,1,1,1,5,1/0,0/S",
        1,
        "0,0,1,1,1,1,1/1,1,1,1,1,0,1/6,0/N",
    );
    check(
        "DX1",
        DAKON,
        "0,0,0,0,0,0,1/3,0,0,0,0,0,0/40,54/S",
        7,
        "0,0,0,0,0,0,0/0,0,0,0,0,0,0/41,57/-",
    );
    check(
        "DX2",
        DAKON,
        "1,0,0,0,0,0,0/0,0,0,0,0,3,0/40,54/S",
        1,
        "0,0,0,0,0,0,0/0,0,0,0,0,0,0/44,54/-",
    );
    check(
        "D-start-3",
        DAKON,
        start,
        3,
        "8,8,1,8,8,8,8/8,0,8,8,0,8,8/9,0/N",
    );
    check(
        "D-start-7",
        DAKON,
        start,
        7,
        "8,8,8,8,8,8,1/0,8,8,8,8,0,8/9,0/N",
    );
    // Moves 2-7 from the start all end South's turn with 9 in the store.
    let p = pos(DAKON, start);
    for m in 2..=7 {
        let q = p.try_play(Move(m)).unwrap();
        assert_eq!(q.score(), [9, 0], "move {m}");
        assert_eq!(q.to_move(), Some(crate::util::Side::North), "move {m}");
    }
}

#[test]
fn djenon_aboure_examples() {
    let g = DjenonAboure;
    check(
        "J1",
        g,
        "4,4,4,4,4,4/4,4,4,4,4,4/0,0/S",
        1,
        "2,6,6,0,5,5/5,1,5,5,5,1/2,0/N",
    );
    check(
        "J2",
        g,
        "2,2,2,2,3,3/1,2,2,2,2,2/0,0/S",
        5,
        "2,2,2,2,1,0/0,2,2,2,2,2/6,0/N",
    );
    check(
        "JX1",
        g,
        "2,0,0,0,0,0/1,1,1,1,1,1/22,18/S",
        1,
        "0,0,0,0,0,0/0,0,0,0,0,0/24,24/-",
    );
    check(
        "JX2",
        g,
        "2,2,0,0,0,0/1,1,1,1,1,1/20,18/S",
        2,
        "2,1,1,0,0,0/1,1,1,1,1,1/20,18/S",
    );
    // J3: move 6 relays forever; legal moves exactly 1, 3, 4, 5.
    let j3 = "2,1,2,3,2,3/1,2,1,5,4,3/0,0/S";
    assert_eq!(legal(&pos(g, j3)), [1, 3, 4, 5]);
    assert_eq!(
        pos(g, j3).try_play(Move(6)),
        Err(mancala::IllegalMove::Endless)
    );
    // JX3: the only candidate is endless, so South passes.
    let jx3 = pos(g, "7,1,0,1,0,1/11,4,3,2,3,4/0,0/S");
    assert_eq!(jx3.to_string(), "7,1,0,1,0,1/11,4,3,2,3,4/0,0/N");
    assert_eq!(
        legal(&pos(g, "7,1,0,1,0,1/11,4,3,2,3,4/0,0/S")),
        [1, 2, 3, 4, 5, 6]
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
    let g = WalakPussa {
        singleton_restriction: false,
    };
    let restricted = WalakPussa {
        singleton_restriction: true,
    };
    let start = "4,4,4,4,4,4,4/4,4,4,4,4,4,4/0,0/S";
    check("W1", g, start, 1, "2,1,7,7,7,0,7/0,0,6,1,6,6,0/6,0/N");
    let p = pos(g, start);
    for m in 1..=7 {
        assert_eq!(p.try_play(Move(m)).unwrap().score(), [6, 0], "opening {m}");
    }
    let w2 = "0,1,0,1,0,1,2/1,0,1,0,1,0,1/0,0/S";
    assert_eq!(legal(&pos(g, w2)), [2, 4, 6]);
    assert_eq!(
        pos(restricted, w2).to_string(),
        "0,0,0,0,0,0,0/0,0,0,0,0,0,0/0,9/-"
    );
    check(
        "WX1",
        g,
        "0,0,0,0,0,1,0/0,3,0,0,0,0,0/25,27/S",
        6,
        "0,0,0,0,0,0,0/0,0,0,0,0,0,0/29,27/-",
    );
    assert_eq!(legal(&pos(g, "1,2,0,0,0,0,1/4,0,0,0,0,0,0/0,0/S")), [1, 2, 7]);
    assert_eq!(legal(&pos(restricted, "1,2,0,0,0,0,1/4,0,0,0,0,0,0/0,0/S")), [2]);
    // W3: the 14-turn cycle replays, with and without the option.
    let w3 = [
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
    for rules in [g, restricted] {
        for (i, &(before, mv)) in w3.iter().enumerate() {
            let after = w3[(i + 1) % w3.len()].0;
            check("W3", rules, before, mv, after);
        }
    }
    check(
        "W3-exit",
        g,
        "0,0,0,0,0,0,0/1,0,0,0,0,0,1/29,25/N",
        1,
        "0,0,0,0,0,0,0/0,0,0,0,0,0,0/29,27/-",
    );
}

#[test]
fn san_yao_examples() {
    let g = SanYao;
    let start = "5,5,5,5,5/5,5,5,5,5/0,0/S";
    check("Y1", g, start, 1, "3,9,2,9,9/9,0,0,0,0/9,0/N");
    let p = pos(g, start);
    for m in 1..=5 {
        assert_eq!(p.try_play(Move(m)).unwrap().score(), [9, 0], "opening {m}");
    }
    assert_eq!(legal(&pos(g, "1,0,2,1,1/0,1,0,1,0/0,0/S")), [1, 3, 4]);
    let y3 = [
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
    for (i, &(before, mv)) in y3.iter().enumerate() {
        check("Y3", g, before, mv, y3[(i + 1) % y3.len()].0);
    }
    check(
        "Y3-exit-1",
        g,
        "0,0,0,0,0/1,0,0,0,1/19,29/N",
        1,
        "0,0,0,0,0/0,1,0,0,1/19,29/N",
    );
    check(
        "Y3-exit-2",
        g,
        "0,0,0,0,0/0,1,0,0,1/19,29/N",
        2,
        "0,0,0,0,0/0,0,0,0,0/19,31/-",
    );
    check(
        "YX1",
        g,
        "0,0,0,0,1/0,0,1,0,0/22,26/S",
        5,
        "0,0,0,0,0/0,0,0,0,0/23,27/-",
    );
    check(
        "YX2",
        g,
        "0,0,0,0,0/2,0,0,0,0/24,24/N",
        1,
        "0,0,0,0,0/0,1,1,0,0/24,24/N",
    );
    assert_eq!(
        pos(g, "0,0,0,0,0/0,0,1,0,0/24,25/S").to_string(),
        "0,0,0,0,0/0,0,0,0,0/24,26/-"
    );
}
