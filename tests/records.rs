//! Game records: `play --record FILE` writes one, `--load FILE` replays it on every command.

use crate::util::{fails, json, ok, temp_dir};

#[test]
fn a_recorded_game_replays_on_every_command() {
    let dir = temp_dir("records");
    let file = dir.join("game.json");
    let f = file.to_str().unwrap();
    ok(&[
        "play", "kalah", "--holes", "4", "--seeds", "3", "--moves", "2,4,1", "--record", f,
    ]);
    let rec: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    assert_eq!(rec["game"], "kalah");
    assert_eq!(rec["start"], "3,3,3,3/3,3,3,3/0,0/S");
    assert_eq!(rec["moves"], serde_json::json!(["S2", "S4", "N1"]));
    let played = json(&[
        "play", "kalah", "--holes", "4", "--seeds", "3", "--moves", "2,4,1", "--json",
    ]);
    assert_eq!(rec["end"], played["position"]);
    assert_eq!(rec["score"], played["score"]);
    // --load gives the record's end to any command, and --moves continue from it.
    let loaded = json(&["play", "kalah", "--load", f, "--json"]);
    assert_eq!(loaded["position"], played["position"]);
    let solved = json(&["solve", "kalah", "--load", f, "--json"]);
    let direct = json(&[
        "solve", "kalah", "--holes", "4", "--seeds", "3", "--moves", "2,4,1", "--json",
    ]);
    assert_eq!(solved["value"], direct["value"]);
    let more = json(&["play", "kalah", "--load", f, "--moves", "3", "--json"]);
    let direct = json(&[
        "play", "kalah", "--holes", "4", "--seeds", "3", "--moves", "2,4,1,3", "--json",
    ]);
    assert_eq!(more["position"], direct["position"]);
    // A record of a record: the moves accumulate.
    let again = dir.join("again.json");
    ok(&[
        "play",
        "kalah",
        "--load",
        f,
        "--moves",
        "3",
        "--record",
        again.to_str().unwrap(),
    ]);
    let rec2: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&again).unwrap()).unwrap();
    assert_eq!(rec2["moves"], serde_json::json!(["S2", "S4", "N1", "N3"]));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_record_is_only_read_under_its_own_rules_and_bad_files_are_refused() {
    let dir = temp_dir("records-bad");
    let file = dir.join("game.json");
    let f = file.to_str().unwrap();
    ok(&[
        "play", "kalah", "--holes", "4", "--seeds", "3", "--moves", "2", "--record", f,
    ]);
    assert!(
        fails(&["play", "kalah", "--load", f, "--empty-capture"]).contains("was played as kalah")
    );
    assert!(fails(&["play", "dakon", "--load", f]).contains("was played as kalah"));
    assert!(fails(&["play", "kalah", "--load", f, "--holes", "4"]).contains("cannot be used with"));
    let missing = dir.join("missing.json");
    assert!(fails(&["play", "kalah", "--load", missing.to_str().unwrap()]).contains("--load"));
    assert!(
        fails(&["play", "kalah", "--load", dir.to_str().unwrap()]).contains("not a regular file")
    );
    for (name, text) in [
        ("empty.json", ""),
        ("garbage.json", "not json"),
        ("two.json", "{}\n{}\n"),
        (
            "illegal.json",
            &std::fs::read_to_string(&file)
                .unwrap()
                .replace("\"S2\"", "\"S9\""),
        ),
        (
            "future.json",
            &std::fs::read_to_string(&file)
                .unwrap()
                .replace("\"format\":1", "\"format\":7"),
        ),
    ] {
        let p = dir.join(name);
        std::fs::write(&p, text).unwrap();
        fails(&["play", "kalah", "--load", p.to_str().unwrap()]);
    }
    // --record into a directory that does not exist: an error, and no file.
    let nowhere = dir.join("no/such/dir/game.json");
    assert!(fails(&["play", "kalah", "--record", nowhere.to_str().unwrap()]).contains("--record"));
    std::fs::remove_dir_all(&dir).unwrap();
}
