//! The command line, run as a user runs it.

use crate::util::{example_value, fails, json, kalah_start_value, ok};
use mancala::rules::Kalah;

#[test]
fn show_draws_the_start() {
    let out = ok(&["show", "kalah"]);
    assert!(
        out.contains("position: 4,4,4,4,4,4/4,4,4,4,4,4/0,0/S"),
        "{out}"
    );
    assert!(out.contains("South to move"));
    let out = ok(&["show", "dakon", "--holes", "3"]);
    assert!(out.contains("3,3,3/3,3,3/0,0/S"), "{out}");
}

#[test]
fn show_puts_north_right_to_left() {
    let out = ok(&[
        "show",
        "kalah",
        "--position",
        "0,6,2,6,6,0/0,5,5,5,4,0/8,1/N",
    ]);
    let rows: Vec<&str> = out
        .lines()
        .filter(|l| l.trim_start().starts_with('|'))
        .collect();
    let cells = |l: &str| {
        l.split('|')
            .map(str::trim)
            .filter(|c| !c.is_empty())
            .map(String::from)
            .collect::<Vec<_>>()
    };
    assert_eq!(cells(rows[0]), ["0", "4", "5", "5", "5", "0"]);
    assert_eq!(cells(rows[1]), ["0", "6", "2", "6", "6", "0"]);
}

#[test]
fn play_json_follows_k1_to_k4() {
    let v = json(&["play", "kalah", "--moves", "3,6,6,1", "--json"]);
    assert_eq!(v["position"], "0,6,2,6,6,0/0,5,5,5,4,0/8,1/N");
    assert_eq!(v["to_move"], "N");
    assert_eq!(v["score"], serde_json::json!([8, 1]));
}

#[test]
fn play_to_the_end_reports_null_side() {
    let v = json(&[
        "play",
        "kalah",
        "--position",
        "0,0,0,0,0,2/0,0,0,0,0,3/20,23/S",
        "--moves",
        "6",
        "--json",
    ]);
    assert_eq!(v["position"], "0,0,0,0,0,0/0,0,0,0,0,0/21,27/-");
    assert!(v["to_move"].is_null());
    assert_eq!(v["score"], serde_json::json!([21, 27]));
}

#[test]
fn play_applies_rule_flags() {
    let before = "1,0,0,0,0,3/1,1,1,1,0,1/0,0/S";
    let v = json(&[
        "play",
        "kalah",
        "--empty-capture",
        "--position",
        before,
        "--moves",
        "1",
        "--json",
    ]);
    assert_eq!(v["position"], "0,0,0,0,0,3/1,1,1,1,0,1/1,0/N");
    let v = json(&[
        "play",
        "dakon",
        "--no-mikul",
        "--position",
        "1,1,1,1,1,1,3/1,0,2,1,1,1,1/0,0/S",
        "--moves",
        "7",
        "--json",
    ]);
    assert_eq!(v["position"], "1,1,1,1,1,1,0/2,1,2,1,1,1,1/1,0/N");
    let v = json(&[
        "play",
        "walak-pussa",
        "--singleton-restriction",
        "--position",
        "0,1,0,1,0,1,2/1,0,1,0,1,0,1/0,0/S",
        "--json",
    ]);
    assert_eq!(v["position"], "0,0,0,0,0,0,0/0,0,0,0,0,0,0/0,9/-");
}

#[test]
fn moves_json_lists_legal_moves_in_order() {
    let v = json(&[
        "moves",
        "djenon-aboure",
        "--position",
        "2,1,2,3,2,3/1,2,1,5,4,3/0,0/S",
        "--json",
    ]);
    let ks: Vec<u64> = v["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["move"].as_u64().unwrap())
        .collect();
    assert_eq!(ks, [1, 3, 4, 5]);
    let v = json(&["moves", "kalah", "--json"]);
    assert_eq!(v["moves"][2]["position"], "4,4,0,5,5,5/4,4,4,4,4,4/1,0/S");
}

#[test]
fn illegal_moves_name_their_place_and_reason() {
    let e = fails(&["play", "kalah", "--moves", "3,3"]);
    assert!(e.contains("#2") && e.contains("empty"), "{e}");
    let e = fails(&["play", "kalah", "--moves", "7"]);
    assert!(e.contains("#1") && e.contains("out of range"), "{e}");
    let e = fails(&["play", "kalah", "--moves", "0"]);
    assert!(e.contains("out of range"), "{e}");
    let e = fails(&[
        "play",
        "djenon-aboure",
        "--position",
        "2,1,2,3,2,3/1,2,1,5,4,3/0,0/S",
        "--moves",
        "6",
    ]);
    assert!(e.contains("endless"), "{e}");
    let e = fails(&[
        "play",
        "djenon-aboure",
        "--position",
        "2,1,2,3,2,3/1,2,1,5,4,3/0,0/S",
        "--moves",
        "2",
    ]);
    assert!(e.contains("single seed"), "{e}");
    let e = fails(&[
        "play",
        "walak-pussa",
        "--singleton-restriction",
        "--position",
        "1,2,0,0,0,0,1/4,0,0,0,0,0,0/0,0/S",
        "--moves",
        "1",
    ]);
    assert!(e.contains("singleton"), "{e}");
    let e = fails(&[
        "play",
        "kalah",
        "--position",
        "0,0,0,0,0,2/0,0,0,0,0,3/20,23/S",
        "--moves",
        "6,1",
    ]);
    assert!(e.contains("#2") && e.contains("over"), "{e}");
    let e = fails(&["play", "kalah", "--moves", "3,x"]);
    assert!(e.contains("#2"), "{e}");
    let e = fails(&["play", "kalah", "--moves", "-1"]);
    assert!(e.contains("#1"), "{e}");
}

#[test]
fn malformed_positions_are_rejected_clearly() {
    for (pos, needle) in [
        ("4,4,4/4,4/0,0/S", "North's row has 2"),
        ("4,4,x/4,4,4/0,0/S", "not a non-negative"),
        ("4,4,-4/4,4,4/0,0/S", "no sign"),
        ("4,4,4/4,4,4/0,0/W", "side marker"),
        ("4,4,4/4,4,4/0,0/-", "'-'"),
        ("4,4,4/4,4,4/0/S", "exactly two"),
        ("4,4,4/4,4,4/0,0", "4"),
        ("4,,4/4,4,4/0,0/S", "empty count"),
        ("200,200,4/4,4,4/0,0/S", "at most 255"),
        ("99999999999,4,4/4,4,4/0,0/S", "too large"),
        ("", "fields"),
    ] {
        let e = fails(&["show", "kalah", "--position", pos]);
        assert!(e.contains(needle), "{pos}: {e}");
    }
    let e = fails(&[
        "show",
        "kalah",
        "--holes",
        "4",
        "--position",
        "4,4,4/4,4,4/0,0/S",
    ]);
    assert!(e.contains("--holes is 4"), "{e}");
    let e = fails(&["show", "dakon", "--position", "1,1/1,1/0,0/S"]);
    assert!(e.contains("3 to 10 holes"), "{e}");
}

#[test]
fn bad_sizes_flags_and_games_are_rejected() {
    assert!(fails(&["show", "kalah", "--holes", "9"]).contains("1 to 8 holes"));
    assert!(fails(&["show", "dakon", "--holes", "2"]).contains("3 to 10 holes"));
    assert!(fails(&["show", "san-yao", "--seeds", "9"]).contains("1 to 8 seeds"));
    assert!(fails(&["show", "kalah", "--seeds", "0"]).contains("seeds per hole"));
    assert!(fails(&["show", "kalah", "--holes", "-3"]).contains("-3"));
    assert!(fails(&["show", "chess"]).contains("unknown game"));
    assert!(fails(&["show", "kalah", "--no-mikul"]).contains("applies to dakon only"));
    assert!(fails(&["show", "dakon", "--singleton-restriction"]).contains("walak-pussa only"));
    assert!(fails(&["show", "kalah", "--frobnicate"]).contains("--frobnicate"));
    assert!(
        fails(&["show", "kalah", "--seeds", "3", "--position", "3/3/0,0/S"])
            .contains("cannot be combined")
    );
    assert!(fails(&["frobnicate"]).contains("frobnicate"));
}

#[test]
fn solve_json_reports_value_best_and_search_figures() {
    let known = kalah_start_value(4, 3, Kalah::default());
    let v = json(&["solve", "kalah", "--holes", "4", "--seeds", "3", "--json"]);
    assert_eq!(v["value"], known.value);
    assert_eq!(v["best"], serde_json::json!(known.best));
    assert!(v["nodes"].as_u64().unwrap() > 0);
    assert!(v["seconds"].as_f64().unwrap() >= 0.0);
    // The principal variation replays with `play` to a finished game worth the value.
    let moves: Vec<String> = v["pv"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["move"].to_string())
        .collect();
    let end = json(&[
        "play",
        "kalah",
        "--holes",
        "4",
        "--seeds",
        "3",
        "--moves",
        &moves.join(","),
        "--json",
    ]);
    assert!(end["to_move"].is_null(), "{end}");
    let score = end["score"].as_array().unwrap();
    assert_eq!(
        score[0].as_i64().unwrap() - score[1].as_i64().unwrap(),
        known.value as i64
    );
    // Text output names the value and the best move.
    let out = ok(&[
        "solve",
        "kalah",
        "--holes",
        "4",
        "--seeds",
        "3",
        "--threads",
        "1",
    ]);
    let (value, best) = (
        format!("{:+}", known.value),
        format!("best:     {}", known.best[0]),
    );
    assert!(out.contains(&value) && out.contains(&best), "{out}");
}

#[test]
fn solve_values_are_final_scores_from_any_position() {
    // North to move, stores included: KX1 after the move is over at 21-27.
    let v = json(&[
        "solve",
        "kalah",
        "--position",
        "0,0,0,0,0,2/0,0,0,0,0,3/20,23/S",
        "--json",
    ]);
    assert_eq!(v["value"], -6);
    // Y3 of docs/rules.md, North to move.
    let (y3, want) = example_value("Y3");
    let v = json(&["solve", "san-yao", "--position", &y3, "--json"]);
    assert_eq!(v["value"], want);
    let v = json(&[
        "solve",
        "kalah",
        "--position",
        "0,0,0,0,0,0/0,0,0,0,0,0/20,28/-",
        "--json",
    ]);
    assert_eq!(v["value"], -8);
    assert_eq!(v["best"], serde_json::json!([]));
}

#[test]
fn analyze_json_gives_every_move_its_value() {
    let v = json(&["analyze", "kalah", "--holes", "4", "--seeds", "3", "--json"]);
    let moves = v["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 4);
    let values: Vec<i64> = moves.iter().map(|m| m["value"].as_i64().unwrap()).collect();
    let known = kalah_start_value(4, 3, Kalah::default()).value as i64;
    assert_eq!(values.iter().max(), Some(&known));
    // Each move's value equals solving the position after it.
    for m in moves {
        let k = m["move"].to_string();
        let after = json(&[
            "play", "kalah", "--holes", "4", "--seeds", "3", "--moves", &k, "--json",
        ]);
        let pos = after["position"].as_str().unwrap().to_string();
        let s = json(&["solve", "kalah", "--position", &pos, "--json"]);
        assert_eq!(s["value"], m["value"], "move {k}");
    }
}

#[test]
fn bad_search_options_are_rejected() {
    assert!(fails(&["solve", "kalah", "--threads", "0"]).contains("--threads"));
    assert!(fails(&["solve", "kalah", "--hash-mb", "0"]).contains("--hash-mb"));
    assert!(fails(&["solve", "kalah", "--hash-mb", "999999999"]).contains("available"));
    assert!(fails(&["solve", "kalah", "--hash-mb", "x"]).contains("--hash-mb"));
    assert!(
        fails(&["analyze", "kalah", "--position", "1,2/3/0,0/S"]).contains("invalid --position")
    );
}

/// The moves of a `solve --json` principal variation, as `play --moves` takes them.
fn pv_moves(v: &serde_json::Value) -> String {
    let moves: Vec<String> = v["pv"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["move"].to_string())
        .collect();
    moves.join(",")
}

/// A position with 143 seeds on the board: its keys (below C(155, 12) ~ 2^57.8) do not fit the
/// narrow 64-bit entries of a 16 MiB table (2^20 buckets, 36-bit quotients), which the table
/// refused before ("give it at least --hash-mb 54"). It now takes wide entries and solves, with
/// the same answer as narrow entries in a 64 MiB table; the value is within the seeds on the board
/// and the principal variation replays to it.
#[test]
fn positions_too_wide_for_the_narrow_entry_solve_in_a_small_table() {
    let pos = "0,0,30,30,30,50/0,0,0,0,2,1/0,0/N";
    let solve = |mb: &str| {
        json(&[
            "solve",
            "kalah",
            "--position",
            pos,
            "--hash-mb",
            mb,
            "--threads",
            "1",
            "--json",
        ])
    };
    let wide = solve("16");
    let narrow = solve("64");
    for f in ["value", "best", "pv"] {
        assert_eq!(wide[f], narrow[f], "{f}");
    }
    // North banks its three seeds and ends the game; South takes its 140.
    assert_eq!(wide["value"], 137);
    assert_eq!(wide["best"], serde_json::json!([6]));
    let end = json(&[
        "play",
        "kalah",
        "--position",
        pos,
        "--moves",
        &pv_moves(&wide),
        "--json",
    ]);
    assert!(end["to_move"].is_null(), "{end}");
    let score = end["score"].as_array().unwrap();
    assert_eq!(score[0].as_i64().unwrap() - score[1].as_i64().unwrap(), 137);
}

/// The wide entries, forced (hidden `--wide-table`) with as many buckets as the narrow table
/// (twice the bytes), search exactly like the narrow ones: on one thread the same value, best
/// moves, principal variation and node count.
#[test]
fn wide_table_entries_search_like_narrow_ones() {
    let solve = |extra: &[&str]| {
        let mut args = vec![
            "solve",
            "kalah",
            "--holes",
            "4",
            "--seeds",
            "3",
            "--threads",
            "1",
            "--json",
        ];
        args.extend_from_slice(extra);
        json(&args)
    };
    let narrow = solve(&["--hash-mb", "1"]);
    let wide = solve(&["--hash-mb", "2", "--wide-table"]);
    for f in ["value", "best", "pv", "nodes"] {
        assert_eq!(wide[f], narrow[f], "{f}");
    }
    assert_eq!(narrow["value"], 6);
    assert_eq!(
        (narrow["tt_bytes"].as_u64(), wide["tt_bytes"].as_u64()),
        (Some(1 << 20), Some(2 << 20))
    );
}
