//! `--moves` on every command that takes a position: plain and side-marked moves, a printed PV
//! pasted back.

use crate::util::{fails, json, ok};

/// The PV `solve` prints, as its text line: `S2 S3 N1 ...`.
fn pv_line(out: &str) -> String {
    out.lines()
        .find_map(|l| l.strip_prefix("pv:"))
        .expect("a pv line")
        .trim()
        .to_string()
}

#[test]
fn a_printed_pv_pastes_back_into_moves() {
    for (game, holes, seeds) in [
        ("kalah", "3", "3"),
        ("dakon", "3", "2"),
        ("san-yao", "3", "2"),
    ] {
        let args = ["solve", game, "--holes", holes, "--seeds", seeds];
        let v = json(&[&args[..], &["--json"]].concat());
        let pv = pv_line(&ok(&args));
        assert!(pv.starts_with('S'), "{pv}");
        let end = json(&[
            "play", game, "--holes", holes, "--seeds", seeds, "--moves", &pv, "--json",
        ]);
        assert_eq!(end["over"], true, "{game}: {pv}");
        let score = &end["score"];
        let diff = score[0].as_i64().unwrap() - score[1].as_i64().unwrap();
        assert_eq!(diff, v["value"].as_i64().unwrap(), "{game}: {pv}");
    }
}

#[test]
fn plain_and_marked_moves_agree_on_every_command() {
    // Kalah: South's 3 ends in the store (South again), 6 passes the turn, North's 6.
    let after = ok(&["show", "kalah", "--moves", "3,6,6"]);
    assert!(after.contains("5,5,1,5,5,0/5,5,5,5,4,0/2,1/S"), "{after}");
    let marked = ok(&["show", "kalah", "--moves", "S3,S6,N6"]);
    let spaced = ok(&["show", "kalah", "--moves", "s3 s6 N6"]);
    assert_eq!(after, marked);
    assert_eq!(after, spaced);
    let pos = json(&["play", "kalah", "--moves", "3,6,6", "--json"])["position"]
        .as_str()
        .unwrap()
        .to_string();
    // solve, analyze and moves from the moves equal the same from --position.
    for cmd in ["solve", "analyze", "moves"] {
        let by_moves = json(&[
            cmd, "kalah", "--holes", "6", "--seeds", "1", "--moves", "S1,N1", "--json",
        ]);
        let p = json(&[
            "play", "kalah", "--holes", "6", "--seeds", "1", "--moves", "1,1", "--json",
        ]);
        let by_pos = json(&[
            cmd,
            "kalah",
            "--position",
            p["position"].as_str().unwrap(),
            "--json",
        ]);
        assert_eq!(by_moves["position"], by_pos["position"], "{cmd}");
        assert_eq!(by_moves["value"], by_pos["value"], "{cmd}");
        assert_eq!(by_moves["moves"], by_pos["moves"], "{cmd}");
    }
    // --moves applies after --position.
    let v = json(&[
        "play",
        "kalah",
        "--position",
        &pos,
        "--moves",
        "S1",
        "--json",
    ]);
    assert_eq!(v["position"], "0,6,2,6,6,0/0,5,5,5,4,0/8,1/N");
    // verify opening from the position after a move replays from that position.
    let out = ok(&["verify", "opening", "dakon", "--holes", "3", "--moves", "1"]);
    assert!(out.contains("--position 0,4,4/3,3,3/1,0/S"), "{out}");
}

#[test]
fn a_move_marked_for_the_wrong_side_is_refused_by_name() {
    let e = fails(&["play", "kalah", "--moves", "S3,N1"]);
    assert!(
        e.contains("move #2 (N1) is marked for North, but South is to move"),
        "{e}"
    );
    let e = fails(&["solve", "kalah", "--moves", "N3"]);
    assert!(e.contains("marked for North, but South"), "{e}");
    let e = fails(&["moves", "kalah", "--moves", "X3"]);
    assert!(e.contains("move #1 ('X3') is not a move"), "{e}");
    let e = fails(&["analyze", "kalah", "--moves", "S9"]);
    assert!(e.contains("out of range"), "{e}");
}

#[test]
fn a_match_takes_the_pvs_of_its_rounds_marked_or_plain() {
    // Dakon 3x2: round 1's PV, then round 2's from the start `solve` gives for it (3,1 in the
    // stores, South's two last pits burnt); pasted back marked, they play the same match as the
    // bare pit numbers.
    let round1 = pv_line(&ok(&["solve", "dakon", "--holes", "3", "--seeds", "2"]));
    let round2 = pv_line(&ok(&["solve", "dakon", "--position", "2,2,2/x,x,2/3,1/S"]));
    let marked = format!("{round1} {round2}");
    let plain: Vec<String> = marked
        .split_whitespace()
        .map(|w| w[1..].to_string())
        .collect();
    let a = json(&[
        "match", "dakon", "--holes", "3", "--seeds", "2", "--moves", &marked, "--json",
    ]);
    let b = json(&[
        "match",
        "dakon",
        "--holes",
        "3",
        "--seeds",
        "2",
        "--moves",
        &plain.join(","),
        "--json",
    ]);
    assert_eq!(a, b);
    assert_eq!(a["match_over"], true, "{a}");
    assert_eq!(a["winner"], "S", "{a}");
    assert_eq!(a["rounds"][1]["start"], "2,2,2/x,x,2/3,1/S", "{a}");
    // The first move marked for North, who is not to move: refused, naming both sides.
    let err = fails(&[
        "match", "dakon", "--holes", "3", "--seeds", "2", "--moves", "N3",
    ]);
    assert!(
        err.contains("marked for North, but South is to move"),
        "{err}"
    );
}
