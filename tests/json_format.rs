//! The one JSON format (`docs/json.md`): every `--json` object carries the same head, winners
//! are "S", "N", "draw" or null, and `best` is a list of moves.

use crate::util::json;
use serde_json::Value;

/// Checks the head of one object and the conventions of its fields; `position` says whether a
/// position is involved (then `holes`, `position` and `to_move` are there).
fn check(v: &Value, command: &str, game: &str, position: bool) {
    assert_eq!(v["format"], 1, "{v}");
    assert_eq!(v["command"], command, "{v}");
    assert_eq!(v["game"], game, "{v}");
    assert!(v["options"].is_array(), "{v}");
    if position {
        assert!(v["holes"].as_u64().is_some(), "{v}");
        let p = v["position"].as_str().expect("position");
        let side = p.rsplit('/').next().unwrap();
        match side {
            "-" => assert!(v["to_move"].is_null(), "{v}"),
            s => assert_eq!(v["to_move"], s, "{v}"),
        }
    }
    walk(v);
}

/// Every `winner` anywhere is "S", "N", "draw" or null; every `best` is a list.
fn walk(v: &Value) {
    match v {
        Value::Object(m) => {
            for (k, x) in m {
                match k.as_str() {
                    "winner" => assert!(
                        x.is_null() || ["S", "N", "draw"].contains(&x.as_str().unwrap_or("?")),
                        "winner {x}"
                    ),
                    "best" => assert!(x.is_array(), "best {x}"),
                    "mover" => panic!("'mover' is called to_move"),
                    _ => {}
                }
                walk(x);
            }
        }
        Value::Array(a) => a.iter().for_each(walk),
        _ => {}
    }
}

#[test]
fn every_position_command_has_the_same_head() {
    let k33 = ["kalah", "--holes", "3", "--seeds", "3"];
    for cmd in ["play", "moves", "solve", "analyze"] {
        let v = json(&[&[cmd][..], &k33, &["--json"]].concat());
        check(&v, cmd, "kalah", true);
    }
    let v = json(&["solve", "djenon", "--holes", "3", "--seeds", "2", "--json"]);
    check(&v, "solve", "djenon-aboure", true);
    let v = json(&["analyze", "kalah", "--holes", "3", "--seeds", "3", "--json"]);
    assert_eq!(
        v["value"],
        json(&["solve", "kalah", "--holes", "3", "--seeds", "3", "--json"])["value"]
    );
    assert!(!v["best"].as_array().unwrap().is_empty());
    let v = json(&["verify", "opening", "dakon", "--holes", "3", "--json"]);
    check(&v, "verify opening", "dakon", true);
    assert!(v["best_turn"].is_array());
    let over = "0,0,0/0,0,0/5,4/-";
    let v = json(&["play", "kalah", "--position", over, "--json"]);
    check(&v, "play", "kalah", true);
    assert_eq!(v["winner"], "S");
    let v = json(&["analyze", "kalah", "--position", over, "--json"]);
    check(&v, "analyze", "kalah", true);
    assert_eq!(v["value"], 1);
}

#[test]
fn first_player_and_table_queries_share_the_head() {
    let v = json(&[
        "verify",
        "first-player",
        "kalah",
        "--holes",
        "2..3",
        "--seeds",
        "1..2",
        "--json",
    ]);
    check(&v, "verify first-player", "kalah", false);
    assert_eq!(v["results"].as_array().unwrap().len(), 4);
    let dir = crate::util::temp_dir("json-tables");
    let d = dir.to_str().unwrap();
    crate::util::ok(&[
        "tables",
        "build",
        "kalah",
        "--holes",
        "3",
        "--max-seeds",
        "6",
        "--dir",
        d,
    ]);
    let v = json(&[
        "tables",
        "query",
        "kalah",
        "--position",
        "1,1,1/1,1,1/0,0/S",
        "--dir",
        d,
        "--json",
    ]);
    check(&v, "tables query", "kalah", true);
}
